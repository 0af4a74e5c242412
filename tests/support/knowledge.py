"""The tester's knowledge tables read from the source (ast): the constants of each layer's thresholds module with
their ``#: [unit] why`` comments, and the user-tunable fields of ``OracleSettings`` and ``Pacing`` rendered as the
table docs/verdicts.md holds (``python -m tests.support.knowledge`` prints it)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from . import REPO

PACKAGE = REPO / "pytest_playtest"
#: Each layer's table of the numbers it decides by.
TABLES = ("policies/thresholds.py", "loop/thresholds.py", "vision/thresholds.py", "runtime/thresholds.py")
#: The layers whose modules keep no deciding number of their own, and the modules there that keep numbers that
#: decide nothing about the app (what a model request costs, how much of a reply is kept).
LAYERS = ("policies", "loop", "vision")
NOT_DECIDING = ("policies/request_size.py", "policies/llm.py")
TUNABLE = ("OracleSettings", "Pacing")
BEGIN, END = "<!-- tunable thresholds: begin -->", "<!-- tunable thresholds: end -->"


@dataclass(frozen=True)
class Entry:
    """One named number: where it is defined, its value's source text and the comment above it."""

    name: str
    value: str
    comment: str
    line: int


def _comment_above(lines: list[str], line: int) -> str:
    """The ``#:`` comment lines right above a 1-based line (empty when there are none)."""
    found: list[str] = []
    index = line - 2
    while index >= 0 and lines[index].strip().startswith("#:"):
        found.insert(0, lines[index].strip()[2:].strip())
        index -= 1
    return " ".join(found)


def module_numbers(path: Path) -> list[Entry]:
    """The module-level numeric constants of a module (numbers, tuples and expressions of numbers, ranges), each
    with the comment of its group (constants assigned on consecutive lines share the comment above the first)."""
    source = path.read_text()
    lines = source.splitlines()
    entries: list[Entry] = []
    comment, last_line = "", -2
    for node in ast.parse(source).body:
        if not isinstance(node, ast.Assign | ast.AnnAssign) or node.value is None or not _numeric(node.value):
            continue
        own = _comment_above(lines, node.lineno)
        comment = own or (comment if node.lineno == last_line + 1 else "")
        last_line = node.end_lineno or node.lineno
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            for name in (target.elts if isinstance(target, ast.Tuple) else [target]):
                assert isinstance(name, ast.Name)
                entries.append(Entry(name.id, ast.get_source_segment(source, node.value) or "", comment, node.lineno))
    return entries


def _numeric(value: ast.expr) -> bool:
    if isinstance(value, ast.Constant):
        return isinstance(value.value, int | float) and not isinstance(value.value, bool)
    if isinstance(value, ast.Tuple):
        return all(_numeric(e) for e in value.elts)
    if isinstance(value, ast.UnaryOp):
        return _numeric(value.operand)
    if isinstance(value, ast.BinOp):
        return _numeric(value.left) and _numeric(value.right)
    if isinstance(value, ast.Call):
        return isinstance(value.func, ast.Name) and value.func.id == "range" and all(map(_numeric, value.args))
    return False


def tunable_fields() -> dict[str, list[Entry]]:
    """The fields of OracleSettings and Pacing (loop/spec.py) with their defaults and ``#:`` comments."""
    source = (PACKAGE / "loop" / "spec.py").read_text()
    lines = source.splitlines()
    tables: dict[str, list[Entry]] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef) and node.name in TUNABLE:
            tables[node.name] = [
                Entry(field.target.id, ast.get_source_segment(source, field.value) or "",
                      _comment_above(lines, field.lineno), field.lineno)
                for field in node.body
                if isinstance(field, ast.AnnAssign) and isinstance(field.target, ast.Name) and field.value is not None
            ]
    return tables


def doc_table() -> str:
    """The table of tunable thresholds docs/verdicts.md holds between its markers."""
    rows = [BEGIN, "| `oracles=` key | default | what it decides |", "|---|---|---|"]
    for owner, entries in tunable_fields().items():
        for entry in entries:
            what = entry.comment.replace("|", "\\|").replace("``", "`")
            rows.append(f"| `{entry.name}` ({owner}) | `{entry.value}` | {what} |")
    rows.append(END)
    return "\n".join(rows)


if __name__ == "__main__":
    print(doc_table())
