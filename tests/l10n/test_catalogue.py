"""The catalogue itself: sound files, the same ids and variables in every language,
no id twice, every message the code names exists, the French typography."""

from __future__ import annotations

import ast as pyast
import re
from pathlib import Path

import pytest
from fluent.syntax import ast, visitor

from zanzibar.l10n import L10nError, Listener, Msg, Seat, Voice, default_catalogue, languages
from zanzibar.l10n.catalogue import Catalogue

SRC = Path(__file__).parents[2] / "src" / "zanzibar"
CATALOGUE = default_catalogue()


def _variables(node: ast.BaseNode) -> set[str]:
    found: set[str] = set()

    class Walk(visitor.Visitor):
        def visit_VariableReference(self, ref: ast.VariableReference) -> None:
            found.add(ref.id.name)

    Walk().visit(node)
    return found


def _messages(lang: str) -> dict[str, tuple[str, ast.Message]]:
    return {m.id.name: (f, m) for f, m in CATALOGUE.languages[lang].messages()}


def test_languages_are_the_folders() -> None:
    assert languages() == ("en", "fr")


def test_no_syntax_error_and_no_id_twice() -> None:
    assert CATALOGUE.problems() == []


def test_the_parsed_files_are_kept_and_read_back_unparsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second start reads the parsed files from the cache (no parsing); a cache it
    cannot read is passed over."""
    from fluent.syntax import FluentParser

    monkeypatch.setenv("ZANZIBAR_CACHE_DIR", str(tmp_path))
    first = Catalogue()
    (kept,) = tmp_path.glob("catalogue-*.pickle")

    def said(catalogue: Catalogue) -> list[tuple[str, str, str]]:
        return [
            (code, name, message.id.name)
            for code in catalogue.codes
            for name, message in catalogue.languages[code].messages()
        ]

    with monkeypatch.context() as patched:
        patched.setattr(FluentParser, "parse", lambda *_: pytest.fail("parsed again"))
        second = Catalogue()
    assert said(second) == said(first) == said(CATALOGUE)
    assert second.etag == first.etag
    hello = Voice("fr", second).say(Msg("salon-left", name="Anna"))
    assert hello == Voice("fr", CATALOGUE).say(Msg("salon-left", name="Anna"))
    kept.write_bytes(b"cut short")
    assert said(Catalogue()) == said(first)  # parsed again, and kept again
    assert kept.read_bytes() != b"cut short"


def test_only_the_newest_parsed_catalogues_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each edit of the catalogue (or another checkout, another Python) writes another
    file: the folder keeps the newest few, not every one ever written."""
    import os

    from zanzibar.l10n import catalogue as module

    monkeypatch.setenv("ZANZIBAR_CACHE_DIR", str(tmp_path))
    for age in range(12):  # twelve older catalogues' files, oldest first
        old = tmp_path / f"catalogue-old{age:02d}.pickle"
        old.write_bytes(b"x")
        os.utime(old, ns=(10**18 + age, 10**18 + age))
    Catalogue()
    left = sorted(p.name for p in tmp_path.glob("catalogue-*.pickle"))
    assert len(left) == module.KEPT_CATALOGUES
    assert [n for n in left if n.startswith("catalogue-old")] == [
        f"catalogue-old{age:02d}.pickle" for age in range(5, 12)
    ]


def test_duplicates_and_junk_are_reported(tmp_path: Path) -> None:
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "a.ftl").write_text("a-x = one\na-y = { broken\n", encoding="utf-8")
    (tmp_path / "en" / "b.ftl").write_text("a-x = two\n", encoding="utf-8")
    problems = Catalogue(tmp_path).problems()
    assert any("syntax error" in p for p in problems)
    assert any("a-x defined in a.ftl and b.ftl" in p for p in problems)


@pytest.mark.parametrize("lang", ["fr"])
def test_same_ids_files_and_variables_as_english(lang: str) -> None:
    english, other = _messages("en"), _messages(lang)
    assert sorted(set(english) - set(other)) == []
    assert sorted(set(other) - set(english)) == []
    for msg_id, (file, message) in english.items():
        their_file, theirs = other[msg_id]
        assert their_file == file, msg_id
        assert _variables(theirs) <= _variables(message), msg_id


def test_ids_start_with_their_file_prefix() -> None:
    prefixes = {"voice": ("voice-", "engine-"), "errors": ("error-",), "dice421": ("dice421-",)}
    for file, message in CATALOGUE.languages["en"].messages():
        allowed = prefixes.get(file, (f"{file}-",))
        assert message.id.name.startswith(allowed), (file, message.id.name)


def _msg_literals() -> list[tuple[str, int, str]]:
    out = []
    for path in sorted(SRC.rglob("*.py")):
        tree = pyast.parse(path.read_text(encoding="utf-8"))
        for node in pyast.walk(tree):
            if (
                isinstance(node, pyast.Call)
                and isinstance(node.func, pyast.Name)
                and node.func.id == "Msg"
                and node.args
            ):
                first = node.args[0]
                if isinstance(first, pyast.Constant) and isinstance(first.value, str):
                    out.append((str(path.relative_to(SRC)), node.lineno, first.value))
                elif isinstance(first, pyast.JoinedStr):
                    head = first.values[0]
                    prefix = head.value if isinstance(head, pyast.Constant) else ""
                    out.append((str(path.relative_to(SRC)), node.lineno, f"{prefix}*"))
    return out


def test_every_message_named_in_the_code_exists() -> None:
    ids = CATALOGUE.ids("en")
    literals = _msg_literals()
    assert len(literals) > 100
    missing = []
    for where, line, msg_id in literals:
        if msg_id.endswith("*"):
            if not any(i.startswith(msg_id[:-1]) for i in ids):
                missing.append((where, line, msg_id))
        elif msg_id not in ids:
            missing.append((where, line, msg_id))
    assert missing == []


_SPACE_BEFORE = re.compile(r"(?<=[^\s{]) [:;!?](?=[\s\"]|$)|« | »")


def _text_lines(node: ast.BaseNode) -> list[str]:
    lines: list[str] = []

    class Texts(visitor.Visitor):
        def visit_TextElement(self, text: ast.TextElement) -> None:
            lines.extend(text.value.splitlines())

    Texts().visit(node)
    return lines


def test_french_files_write_the_typography() -> None:
    """No-break space before ":" and inside « », narrow no-break space before ; ! ?."""
    bad = [
        (file, message.id.name, line)
        for file, message in CATALOGUE.languages["fr"].messages()
        for line in _text_lines(message)
        if _SPACE_BEFORE.search(line)
    ]
    assert bad == []


def test_plural_zero_and_one_are_singular_in_french() -> None:
    voice = Voice("fr")
    said = [voice.say(Msg("dice421-tokens", n=n)) for n in (0, 1, 2)]
    assert said == ["0 jeton", "1 jeton", "2 jetons"]
    assert [Voice("en").say(Msg("dice421-tokens", n=n)) for n in (0, 1, 2)] == [
        "0 tokens",
        "1 token",
        "2 tokens",
    ]


def test_numbers_follow_the_language() -> None:
    you = Listener(0, ("Anna",))
    assert Voice("fr").say(Msg("zilch-bank", name=Seat(0), points=1500, total=10250.5), you) == (
        "vous marquez 1\u202f500, total 10\u202f250,5"
    )
    assert Voice("en").say(Msg("zilch-bank", name=Seat(0), points=1500, total=10250.5), you) == (
        "you bank 1,500, total 10,250.5"
    )


def test_elision_and_you_are_in_the_file() -> None:
    voice = Voice("fr")
    names = ("Anna", "Bruno", "Éric", "Hugo")
    turn = [
        voice.say(Msg("zilch-turn", name=Seat(s), stage="main"), Listener(0, names))
        for s in range(4)
    ]
    assert turn == ["à vous", "au tour de Bruno", "au tour d'Éric", "au tour d'Hugo"]


def test_lists_are_joined_as_sentences_and_the_listener_is_you() -> None:
    voice = Voice("fr")
    msg = Msg("zilch-tie-break", score=5000, names=(Seat(0), Seat(1), Seat(2)))
    assert voice.say(msg, Listener(1, ("Anna", "Bruno", "Éric"))) == (
        "égalité à 5\u202f000 entre Anna, vous et Éric\u00a0: chacun rejoue un tour"
    )
    assert voice.join([]) == "personne"


def test_strict_mode_raises_and_lenient_mode_falls_back_to_english() -> None:
    with pytest.raises(L10nError, match="missing"):
        Voice("fr", strict=True).say(Msg("zilch-no-such-message"))
    with pytest.raises(L10nError, match="points"):
        Voice("fr", strict=True).say(Msg("zilch-bank", name=Seat(0), total=3))
    lenient = Voice("fr", strict=False)
    assert lenient.say(Msg("zilch-no-such-message")) == "zilch-no-such-message"
    assert Voice("de", strict=False).lang == "en"
    with pytest.raises(L10nError):
        Voice("de", strict=True)


def test_a_message_missing_in_a_language_is_said_in_english_every_time(tmp_path: Path) -> None:
    """What each language says of a message is looked up once (``Catalogue.plans``):
    a message missing in French, or with no value, reads the same the second time."""
    for lang, text in (
        ("en", "x-n = { $name } has { $n } points.\nx-bare =\n    .title = t\n"),
        ("fr", "x-other = autre\n"),
    ):
        (tmp_path / lang).mkdir()
        (tmp_path / lang / "x.ftl").write_text(text, encoding="utf-8")
    catalogue = Catalogue(tmp_path)
    french = Voice("fr", catalogue, strict=False)
    for _ in range(2):
        assert french.say(Msg("x-n", name="Anna", n=12000)) == "Anna has 12,000 points."
        assert french.say(Msg("x-bare")) == "x-bare"
        assert french.say(Msg("x-none")) == "x-none"
        assert french.say(Msg("x-other")) == "autre"
    with pytest.raises(L10nError, match="missing in 'fr'"):
        Voice("fr", catalogue, strict=True).say(Msg("x-n", name="Anna", n=1))
    with pytest.raises(L10nError, match="no value in 'en'"):
        Voice("en", catalogue, strict=True).say(Msg("x-bare"))


def test_messages_survive_json() -> None:
    msg = Msg(
        "chess-setup", name=Seat(1), placements=(Msg("chess-placement", piece="x", square="f1"),)
    )
    assert Msg.from_json(msg.to_json()) == msg


def test_listeners_who_hear_the_same_words_cost_one_formatting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    voice = Voice("fr", Catalogue())
    formatted: list[str] = []
    real = Voice._format

    def counting(self: Voice, msg_id: str, args: dict[str, object]) -> str:
        formatted.append(msg_id)
        return real(self, msg_id, args)

    monkeypatch.setattr(Voice, "_format", counting)
    names = ["Anna", "Bruno", "Chloé", "Denis"]
    turn = Msg("voice-test-turn", name=Seat(0))
    heard = [voice.say(turn, Listener(seat, names)) for seat in (0, 1, 2, 3, None)]
    assert heard[0] != heard[1]  # Anna hears "you"
    assert heard[1:] == ["Au tour d'Anna."] * 4
    # once for Anna's words, once for everyone else's
    assert formatted.count("voice-test-turn") == 2
    # a sentence already said is not formatted again, whoever hears it
    counts = [voice.say(Msg("voice-test-tokens", n=n), Listener(n, names)) for n in (2, 1, 2)]
    assert counts == ["2 jetons", "1 jeton", "2 jetons"]
    assert formatted.count("voice-test-tokens") == 2


def test_a_listener_not_named_hears_what_a_spectator_hears() -> None:
    voice = Voice("en", Catalogue())
    names = ["Anna", "Bruno", "Chloé"]
    turn = Msg("voice-test-turn", name=Seat(1))
    assert turn.seats() == frozenset({1})
    for seat in (0, 2):
        assert voice.say(turn, Listener(seat, names)) == voice.say(turn, Listener(None, names))
    assert voice.say(turn, Listener(1, names)) != voice.say(turn, Listener(0, names))


def test_a_message_keeps_its_hash_and_words_through_pickling() -> None:
    import pickle

    nested = Msg("voice-test-turn", name=Seat(0), extra=Msg("voice-test-tokens", n=2))
    again = pickle.loads(pickle.dumps(nested))
    assert again == nested and hash(again) == hash(nested)
    assert again.seats() == frozenset({0})


def test_numbers_written_beforehand_read_exactly_as_fluent_writes_them() -> None:
    """Every message of every language, every variable a number: the same sentence both ways.

    ``Voice`` writes a number itself where the message only prints it
    (``Catalogue.plain_variables``); selectors and function arguments stay numbers.
    """
    catalogue = CATALOGUE
    checked = plain_seen = 0
    for code, language in catalogue.languages.items():
        bundle = catalogue.bundle(code)
        for _, message in language.messages():
            if message.value is None:
                continue
            names = _variables(message.value)
            plain = catalogue.plain_variables(code, message.id.name)
            assert plain <= names
            compiled = bundle.get_message(message.id.name).value
            assert compiled is not None
            for value in (0, 1, 2, 5, 12345, -3):
                args = {name: value for name in names}
                written = {
                    k: catalogue.number_text(code, v) if k in plain else v for k, v in args.items()
                }
                assert bundle.format_pattern(compiled, written) == bundle.format_pattern(
                    compiled, args
                ), (code, message.id.name, value)
                checked += 1
            plain_seen += bool(plain)
    assert checked > 1000 and plain_seen > 50
    assert catalogue.plain_variables("en", "dice421-roll") == {"name", "roll", "throw"}
    assert catalogue.number_text("fr", 12345) == "12\u202f345"
    assert catalogue.number_text("en", 12345) == "12,345"


def test_sentences_from_templates_read_exactly_as_fluent_says_them() -> None:
    """Every message of every language, every variable a text: Voice (which fills a
    template kept per message and other arguments, see ``Voice._templated``) says
    what Fluent says, for the text that made the template and for later ones."""
    catalogue = Catalogue()
    filled = 0
    for code, language in catalogue.languages.items():
        voice = Voice(code, catalogue, strict=False)
        bundle = catalogue.bundle(code)
        for _, message in language.messages():
            if message.value is None:
                continue
            names = sorted(_variables(message.value))
            compiled = bundle.get_message(message.id.name).value
            for texts in ("Anna", "{Bruno} }{", "Zoé \ue000 0 \ue001", "", "Éric"):
                args: dict[str, object] = {name: f"{texts}{i}" for i, name in enumerate(names)}
                expected, _ = bundle.format_pattern(compiled, args)
                said = voice._format(message.id.name, dict(args))
                assert said == expected, (code, message.id.name, texts)
        filled += sum(1 for key, t in catalogue.templates.items() if key[0] == code and t)
    assert filled > 100
    # the words around the blanks come from Fluent, once per message and other arguments
    voice = Voice("en", catalogue, strict=False)
    for dice in ("4 2 1", "1 2 4"):
        assert voice.say(Msg("dice421-throw", dice=dice, kind="top", x=4)) == f"{dice}, a 421"
    key = ("en", False, "dice421-throw", ("dice", "x"), (("kind", str, "top"),))
    assert catalogue.templates[key] == "{0}, a 421"


def test_a_text_too_long_for_fluent_is_refused_as_fluent_refuses_it() -> None:
    """Fluent refuses a placeable over 2,500 characters ("{???}" and an error): a
    template filled in must not let it through."""
    catalogue = Catalogue()
    voice = Voice("en", catalogue, strict=False)
    throw = Msg("dice421-throw", dice="4 2 1", kind="top", x=4)
    assert voice.say(throw) == "4 2 1, a 421"
    assert voice.say(Msg("dice421-throw", dice="1" * 3000, kind="top", x=4)) == "{???}"
    with pytest.raises(L10nError):
        Voice("en", catalogue, strict=True).say(
            Msg("dice421-throw", dice="2" * 3000, kind="top", x=4)
        )
