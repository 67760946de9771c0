"""The salon package reads as its design: small files, imports that go one way.

Issue 11: no file of ``src/zanzibar/salon`` over ~600 lines, and the walk of an
action goes forward, never back, so no module imports one that imports it
(directly or round a longer circle). Imports are read from each module's
top-level statements, those under ``if TYPE_CHECKING:`` included (an annotation
that needs a circle is a circle too); imports inside functions are not counted.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

import zanzibar.salon

PACKAGE = "zanzibar.salon"
ROOT = Path(zanzibar.salon.__file__).resolve().parent
MAX_LINES = 600


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name (migrations included)."""
    found: dict[str, Path] = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join((PACKAGE, *parts))] = path
    return found


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements run when the module is imported: ``if``/``try`` bodies, not functions."""
    for node in body:
        yield node
        if isinstance(node, ast.If):
            yield from _top_level(node.body)
            yield from _top_level(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                yield from _top_level(block)
            for handler in node.handlers:
                yield from _top_level(handler.body)


def _imported(name: str, path: Path, known: Mapping[str, Path]) -> set[str]:
    """The package's modules that module ``name`` imports at its top level."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in _top_level(ast.parse(path.read_text(encoding="utf-8")).body):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:  # a submodule by name, else a name the module defines
                sub = f"{base}.{alias.name}"
                out.update({sub} if sub in known else {base} & known.keys())
    out.discard(name)
    return out


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports at its top level."""
    known = _modules()
    return {name: _imported(name, path, known) for name, path in known.items()}


def find_cycle(graph: Mapping[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` (its modules, the first repeated last), or None.

    >>> find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    True
    >>> find_cycle({"a": {"b"}, "b": {"a"}})
    ['a', 'b', 'a']
    """
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as exc:
        circle = list(reversed(exc.args[1]))  # graphlib lists it against the arrows
        start = circle.index(min(circle[:-1]))
        rotated = circle[start:-1] + circle[:start]
        return [*rotated, rotated[0]]
    return None


def test_find_cycle_sees_a_long_circle_and_none_in_a_tree() -> None:
    assert find_cycle({"x": {"y"}, "y": {"z"}, "z": {"x"}, "w": {"x"}}) == ["x", "y", "z", "x"]
    assert find_cycle({"x": {"y", "z"}, "y": {"z"}, "z": set()}) is None


def test_the_graph_reads_type_checking_imports_and_skips_function_imports(tmp_path: Path) -> None:
    a = tmp_path / "a.py"
    a.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from zanzibar.salon.b import B\n"
        "def f():\n    from zanzibar.salon.c import C\n"
    )
    known = {"zanzibar.salon.a": a, "zanzibar.salon.b": a, "zanzibar.salon.c": a}
    assert _imported("zanzibar.salon.a", a, known) == {"zanzibar.salon.b"}


def test_the_graph_knows_the_facade_is_on_top() -> None:
    graph = import_graph()
    assert f"{PACKAGE}.service" in graph
    assert f"{PACKAGE}.gateway" in graph[f"{PACKAGE}.service"]
    importers = {name for name, deps in graph.items() if f"{PACKAGE}.service" in deps}
    assert importers <= {PACKAGE}  # only the package itself re-exports the salon


def test_no_import_cycle_among_salon_modules() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


@pytest.mark.parametrize("name", sorted(_modules()))
def test_no_salon_file_is_over_600_lines(name: str) -> None:
    path = _modules()[name]
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(ROOT.parent)} has {lines} lines"
