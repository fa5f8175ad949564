"""The shape of the package: no import circles, one home for each name, fields in step, no
module over 500 lines.

Import edges are read from the source (every ``import`` statement, inside functions and
``TYPE_CHECKING`` blocks too), so a circle that only type-checkers or a late import would
hit is caught as well.
"""

from __future__ import annotations

import ast
import dataclasses
from functools import cache
from pathlib import Path

from glossary.model import Citation, Entry
from glossary.schema import fields_of, schema
from glossary.vocab import vocabulary

PACKAGE = Path(__file__).resolve().parent.parent / "glossary"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def import_graph() -> dict[str, set[str]]:
    """Module → the glossary modules it imports (``from a import b`` names a.b when b is a module)."""
    files = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(
                        package.split(".")[: len(package.split(".")) - node.level + 1]
                        + ([base] if base else [])
                    )
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base
                    for alias in node.names
                ]
            graph[name].update(t for t in targets if t in files and t != name)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as the list of modules around it, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return stack[stack.index(target) :] + [target]
            if target not in state and (cycle := visit(target)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_find_cycle_finds_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_graph_sees_every_kind_of_import() -> None:
    graph = import_graph()
    assert "glossary.model" in graph["glossary.validate"]  # from glossary.model import …
    assert "glossary.render.anki.ledger" in graph["glossary.render"]  # a submodule by from-import
    assert "glossary.vocab" in graph["glossary.model"]


def test_no_import_circles() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, " → ".join(cycle)


def _model_fields(cls: type) -> tuple[str, ...]:
    # line/lines say where a value was written: the loader's, not the file format's.
    return tuple(f.name for f in dataclasses.fields(cls) if f.name not in ("line", "lines"))


def test_entry_and_citation_fields_follow_the_schema() -> None:
    assert set(_model_fields(Entry)) == set(fields_of("entry"))
    assert set(_model_fields(Citation)) == set(fields_of("citation"))


def test_schema_enums_come_from_the_vocabulary() -> None:
    from glossary.corpus.model import LAYERS

    entry = schema()["$defs"]["entry"]["properties"]
    assert tuple(entry["category"]["enum"]) == vocabulary().category_ids
    assert tuple(schema()["$defs"]["citation"]["properties"]["layer"]["enum"]) == LAYERS


#: The house's bar (issue 27): a module of one job stays short enough to read in one sitting.
MAX_MODULE_LINES = 500


def test_no_module_is_over_500_lines() -> None:
    long = {
        str(path.relative_to(PACKAGE.parent)): n
        for path in PACKAGE.rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert not long, f"split these along their jobs: {long}"
