"""How often a finding's location names the line a seeded bug changed: the third-party corpus as ground truth.

    .venv/bin/python benchmarks/localization/accuracy.py [--desktop WORKDIR] [--web WORKDIR]
                                                         [--corpus ../shared/corpus] [--rows]

WORKDIR is the ``--workdir`` a run of the corpus's ``run.py`` (desktop) or ``run_web.py`` (web) left behind: its
``verdicts/<app>-<variant>.json`` and, for the desktop half, the variants' copies in ``variants/``. For every
bug the run detected (its variant failed with a finding of a kind that fits the bug's and that its original
did not show), the first fitting finding's ``location`` is compared with the lines the bug changed (a desktop
bug's replacement, a web bug's ``bug.diff``): within 3 lines, or in the same function (Python: the innermost
``def`` holding both; JavaScript, in files and in a page's inline scripts: the innermost function). It prints
a table per finding kind, and with ``--rows`` one line per detected bug.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import tree_sitter_javascript
from tree_sitter import Language, Node, Parser

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from pytest_playtest.source.jsloops import script_code  # noqa: E402

#: finding kinds that count as detecting a bug of each kind (as the corpus's runners score them)
FITS = {"crash": {"crash", "exception"}, "freeze": {"freeze", "unresponsive"},
        "dead": {"unresponsive", "expectation", "judge"}, "logic": {"expectation", "unresponsive", "judge"}}
NEAR = 3
JS_FUNCTIONS = {"function_declaration", "function_expression", "arrow_function", "method_definition",
                "generator_function_declaration"}


@dataclass
class Row:
    side: str
    case: str
    kind: str
    location: dict | None
    near: bool
    same: bool


def desktop(work: Path, corpus: Path) -> Iterator[Row]:
    for manifest in sorted((corpus / "desktop").glob("*.json")):
        app = manifest.stem
        for bug in json.loads(manifest.read_text())["bugs"]:
            finding = _detecting(work, app, bug["name"], bug["kind"])
            if finding is None:
                continue
            root = work / "variants" / app / bug["name"]
            target = _copied(root, bug["file"])
            changed: list[tuple[Path, int]] = []
            if target is not None:
                text = target.read_text(encoding="utf-8", errors="replace")
                first = text[:text.find(bug["new"])].count("\n") + 1
                changed = [(target, first + n) for n in range(max(1, bug["new"].count("\n")))]
            yield _row("desktop", f"{app} {bug['name']}", finding, changed, root)


def _copied(root: Path, file: str) -> Path | None:
    """Where a variant's copy holds the bug's file (a pip app's module is copied to the variant's top folder)."""
    for candidate in (root / file, root / Path(file).name):
        if candidate.is_file():
            return candidate
    return None


def web(work: Path, corpus: Path) -> Iterator[Row]:
    for spec_path in sorted((corpus / "web").glob("*/spec.json")):
        app = spec_path.parent.name
        for name, bug in json.loads(spec_path.read_text())["bugs"].items():
            finding = _detecting(work, app, name, bug["kind"])
            if finding is not None:
                root = spec_path.parent / name
                yield _row("web", f"{app} {name}", finding, list(_diff_lines(root)), root)


def _detecting(work: Path, app: str, variant: str, kind: str) -> dict | None:
    """The first finding of a failed variant that fits its bug's kind and that the original did not show."""
    path, original = work / "verdicts" / f"{app}-{variant}.json", work / "verdicts" / f"{app}-original.json"
    if not path.is_file():
        return None
    verdict = json.loads(path.read_text())
    shown = {f["kind"] for f in json.loads(original.read_text())["findings"]} if original.is_file() else set()
    fitting = [f for f in verdict["findings"] if f["kind"] in FITS[kind] and f["kind"] not in shown]
    return fitting[0] if verdict["status"] == "fail" and fitting else None


def _diff_lines(root: Path) -> Iterator[tuple[Path, int]]:
    """The lines a ``bug.diff`` adds, in the variant's files."""
    current, line = None, 0
    for raw in (root / "bug.diff").read_text().splitlines():
        if raw.startswith("+++ "):
            current = root / raw[4:].split("/", 1)[1].strip()
        elif raw.startswith("@@"):
            line = int(re.search(r"\+(\d+)", raw).group(1))  # type: ignore[union-attr]
        elif current is not None and raw and not raw.startswith("---"):
            if raw.startswith("+"):
                yield current, line
            if not raw.startswith("-"):
                line += 1


def _row(side: str, case: str, finding: dict, changed: list[tuple[Path, int]], root: Path) -> Row:
    where = finding.get("location")
    near = same = False
    if where:
        located = root / where["file"]
        for path, line in changed:
            if located.name != path.name:
                continue
            near = near or abs(where["line"] - line) <= NEAR
            function = _function(path, line)
            same = same or bool(function) and function == _function(path, where["line"])
    return Row(side, case, finding["kind"], where, near, same)


def _function(path: Path, line: int) -> str:
    """The innermost function holding a line (its name and first line), "" when none does."""
    if path.suffix == ".py":
        try:
            tree = ast.parse(path.read_bytes())
        except (OSError, SyntaxError, ValueError):
            return ""
        holding = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
                   and n.lineno <= line <= (n.end_lineno or n.lineno)]
        inner = max(holding, key=lambda n: n.lineno, default=None)
        return f"{inner.name}@{inner.lineno}" if inner else ""
    text = path.read_text(encoding="utf-8", errors="replace")
    code = script_code(text, html=path.suffix in (".html", ".htm"))
    tree = Parser(Language(tree_sitter_javascript.language())).parse(code.encode())
    holding = [n for n in _walk(tree.root_node) if n.type in JS_FUNCTIONS
               and n.start_point[0] + 1 <= line <= n.end_point[0] + 1]
    inner_js = max(holding, key=lambda n: n.start_point[0], default=None)
    return f"function@{inner_js.start_point[0] + 1}" if inner_js else ""


def _walk(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(current.children)


def table(rows: list[Row]) -> str:
    lines = ["| finding kind | detected | with a location | within 3 lines | within 3 lines or same function |",
             "|---|---|---|---|---|"]
    kinds = sorted({row.kind for row in rows})
    for kind in [*kinds, "all"]:
        mine = [row for row in rows if kind in ("all", row.kind)]
        located = sum(row.location is not None for row in mine)
        near = sum(row.near for row in mine)
        either = sum(row.near or row.same for row in mine)
        share = f" ({100 * either / len(mine):.0f} %)" if kind == "all" and mine else ""
        lines.append(f"| {kind} | {len(mine)} | {located} | {near} | {either}{share} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--desktop", type=Path, help="the work folder of a desktop corpus run")
    parser.add_argument("--web", type=Path, help="the work folder of a web corpus run")
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus")
    parser.add_argument("--rows", action="store_true", help="one line per detected bug")
    args = parser.parse_args()
    rows = [*(desktop(args.desktop, args.corpus) if args.desktop else ()),
            *(web(args.web, args.corpus) if args.web else ())]
    if args.rows:
        for row in rows:
            where = f"{row.location['file']}:{row.location['line']} ({row.location['how']})" if row.location else "-"
            print(f"{row.side:7} {row.case:40} {row.kind:12} {where:48} near={row.near} same={row.same}")
    print(table(rows))


if __name__ == "__main__":
    main()
