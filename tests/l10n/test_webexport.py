"""The web export: every web message compiles, and i18n.js formats it as Python's Fluent does."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fluent.syntax import ast, visitor

from zanzibar.l10n import Voice, default_catalogue
from zanzibar.l10n.webexport import export

I18N_JS = Path(__file__).parents[2] / "src/zanzibar/server/static/js/i18n.js"
SAMPLES: tuple[Any, ...] = (0, 1, 2, 1500, "Anna", "Éric")


def _variables(node: Any) -> set[str]:
    found: set[str] = set()

    class Visitor(visitor.Visitor):
        def visit_VariableReference(self, ref: ast.VariableReference) -> None:
            found.add(ref.id.name)

    Visitor().visit(node)
    return found


def _cases(lang: str) -> list[dict[str, Any]]:
    cases = []
    for _, message in default_catalogue().languages[lang].messages():
        name = message.id.name
        if not name.startswith("web-"):
            continue
        names = sorted(_variables(message))
        for sample in SAMPLES if names else (None,):
            args = {v: sample for v in names}
            cases.append({"key": name[4:], "args": args})
    return cases


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_web_message_is_exported(lang: str) -> None:
    body = export(lang)
    ids = {m.id.name[4:] for _, m in default_catalogue().languages[lang].messages()}
    assert set(body["messages"]) == {i for i in ids if i} & set(body["messages"])
    assert len(body["messages"]) >= 230
    assert body["messages"]["tokens"][0]["s"] == {"v": "n"}


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_browser_formats_like_python(lang: str, tmp_path: Path) -> None:
    """Every web message, with numbers (0, 1, 2, 1500) and names, reads the same in both."""
    shutil.copy(I18N_JS, tmp_path / "i18n.mjs")
    cases = _cases(lang)
    (tmp_path / "export.json").write_text(json.dumps(export(lang)), encoding="utf-8")
    (tmp_path / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    (tmp_path / "run.mjs").write_text(
        """
import { readFileSync } from "node:fs";
globalThis.document = { documentElement: {} };
const body = JSON.parse(readFileSync(new URL("./export.json", import.meta.url)));
globalThis.fetch = async () => ({ ok: true, json: async () => body });
const { setLang, t } = await import("./i18n.mjs");
await setLang(process.argv[2]);
const cases = JSON.parse(readFileSync(new URL("./cases.json", import.meta.url)));
console.log(JSON.stringify(cases.map((c) => t(c.key, c.args))));
""",
        encoding="utf-8",
    )
    done = subprocess.run(
        ["node", str(tmp_path / "run.mjs"), lang], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    browser = json.loads(done.stdout)
    voice = Voice(lang, strict=True)
    for case, got in zip(cases, browser, strict=True):
        expected = voice.text("web-" + case["key"], **case["args"])
        if isinstance(got, list):
            got = "\n".join(got)
        assert got == expected, case
