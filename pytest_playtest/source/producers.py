"""Where an app's code produces a text: the string literals and format strings that can show what an expectation
looks for, read from the source (never run).

A person who expected "Score: 1" on screen and never saw it looks for the code that writes "Score: ..." first.
A Python string, f-string, ``%`` or ``.format`` template is tried with sample values in its fields (a number, a
word): one that can produce a match of the expectation is its producer. Where none can, a line of any of the
app's scripts or pages holding the expectation's longest literal word is (a page's ``"Score: " + score``, a
label split over two strings). The files the input vocabulary read come first (the app's own modules); then the
app's folder, within a budget.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

#: file kinds searched, and the folders never searched (installed packages, build output, version control)
SOURCE_SUFFIXES = (".py", ".js", ".mjs", ".ts", ".jsx", ".tsx", ".html", ".htm")
SKIPPED = ("site-packages", "dist-packages", "node_modules", ".venv", "venv", ".git", "__pycache__")
#: [files, bytes] how much of an app's folder is read looking for a producer
MAX_FILES, MAX_BYTES = 200, 4_000_000
#: what a template's fields are tried with: a number, a larger one, a word
SAMPLES = ("1", "12", "word")
#: [letters] a literal word of a pattern shorter than this is too common to point at a line
MIN_WORD = 3
FIELD = re.compile(r"%[-+ 0#]*\d*(?:\.\d+)?[sdifgeErxXc]|\{[^{}]*\}|\$\{[^{}]*\}")
#: a script's string literals (double, single or back quotes) and a page's tags
QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`(?:[^`\\]|\\.)*`')
TAG = re.compile(r"<[^>]*>")
#: the ids and classes a DOM rule's selectors name (``#score``, ``main > section.soup``)
SELECTOR_NAMES = re.compile(r"[#.]([A-Za-z_][\w-]*)")
#: a script line that writes an element's content (what follows the ``=``; the value may go on to the next line)
WRITES = re.compile(r"\.(?:textContent|innerText|innerHTML|value|className)\s*\+?=(?!=)\s*(.*)$")
#: ... an empty string, which clears the element rather than fills it
EMPTY = re.compile(r"""^(['"`])\1\s*;?\s*$""")


@dataclass(frozen=True)
class Produced:
    """A line that can produce the text: where, and whether a template of it can make a match (else it only
    holds the pattern's longest literal word)."""

    path: Path
    line: int
    matches: bool


def producer(pattern: str, root: Path, preferred: Sequence[str] = ()) -> Produced | None:
    """The line of the app's code most likely to produce a text matching ``pattern`` (a case-insensitive regex,
    as ``expect.text`` searches); None when no line can."""
    try:
        wanted = re.compile(pattern, re.I)
    except re.error:
        return None
    word = longest_word(pattern)
    weak: Produced | None = None
    for path in source_files(root, preferred):
        for line, sample in _templates(path):
            if any(wanted.search(sample.replace("\0", value)) for value in SAMPLES):
                return Produced(path, line, True)
            if weak is None and word and word in sample.replace("\0", " ").lower():
                weak = Produced(path, line, False)
    return weak


def longest_word(pattern: str) -> str:
    """The longest run of letters a regex pattern spells literally (escapes, classes and groups left out),
    lower case; "" when none is MIN_WORD letters long."""
    plain = re.sub(r"\\.|\[[^\]]*\]|\(\?[^)]*\)|[{][^}]*[}]", " ", pattern)
    words = re.findall(r"[^\W\d_]+", plain)
    best = max(words, key=len, default="")
    return best.lower() if len(best) >= MIN_WORD else ""


def source_files(root: Path, preferred: Sequence[str]) -> Iterator[Path]:
    """The app's files to search: the preferred ones (relative to ``root``) first, then the folder's, in a
    stable order, within MAX_FILES and MAX_BYTES."""
    seen: set[Path] = set()
    budget = MAX_BYTES
    first = [root / name for name in preferred]
    rest = sorted(p for p in root.rglob("*") if p.suffix in SOURCE_SUFFIXES and not _skipped(p, root))
    for path in [*first, *rest]:
        if len(seen) >= MAX_FILES or path in seen or not path.is_file():
            continue
        size = path.stat().st_size
        if size > budget:
            continue
        budget -= size
        seen.add(path)
        yield path


def _skipped(path: Path, root: Path) -> bool:
    return any(part in SKIPPED or part.startswith(".") for part in path.relative_to(root).parts[:-1])


def _templates(path: Path) -> Iterator[tuple[int, str]]:
    """Each text a file can show, as (line, template with ``\\0`` where a field goes): a Python file's string
    literals, f-strings and concatenations; another file's lines, as the strings they join (a script's
    ``"Score: " + score``) or, in a page, the markup's text."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return
    if path.suffix == ".py":
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            return
        yield from _python_templates(tree)
        return
    markup = path.suffix in (".html", ".htm")
    for number, line in enumerate(text.splitlines(), start=1):
        template = _joined_strings(line)
        if template:
            yield number, template
        if markup:
            yield number, TAG.sub(" ", line)


def _joined_strings(line: str) -> str:
    """A script line's strings as one template: the strings in order, a field between two of them and where
    ``+`` joins something to the first or the last (``"Score: " + score``); "" when the line has no string."""
    found = list(QUOTED.finditer(line))
    if not found:
        return ""
    parts = [FIELD.sub("\0", match.group()[1:-1]) for match in found]
    before, after = line[:found[0].start()].rstrip(), line[found[-1].end():].lstrip()
    return ("\0" if before.endswith("+") else "") + "\0".join(parts) + ("\0" if after.startswith("+") else "")


def _python_templates(tree: ast.AST) -> Iterator[tuple[int, str]]:
    inside = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr | ast.BinOp)
              for part in ast.walk(node) if part is not node}
    for node in ast.walk(tree):
        if id(node) in inside:
            continue
        if isinstance(node, ast.JoinedStr):
            yield node.lineno, "".join(_part(part) for part in node.values)
        elif isinstance(node, ast.BinOp) and _has_string(node):
            yield node.lineno, "".join(_part(part) for part in _operands(node))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, FIELD.sub("\0", node.value)


def _operands(node: ast.expr) -> list[ast.expr]:
    """The operands of a chain of ``+`` (a ``%`` template counts as its template)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return [*_operands(node.left), *_operands(node.right)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return [node.left]
    return [node]


def _has_string(node: ast.BinOp) -> bool:
    return any(isinstance(part, ast.Constant) and isinstance(part.value, str) for part in _operands(node))


def _part(part: ast.expr) -> str:
    """A template's piece: a string's text (its own fields as ``\\0``), anything else a field."""
    if isinstance(part, ast.Constant) and isinstance(part.value, str):
        return FIELD.sub("\0", part.value)
    if isinstance(part, ast.JoinedStr):
        return "".join(_part(piece) for piece in part.values)
    return "\0"


def element_writer(rule: str, root: Path, preferred: Sequence[str] = ()) -> Produced | None:
    """The first line of the app's scripts that writes content into an element a DOM rule names (``#score``,
    ``.score-container``: found by its id or class written as a string, ``getElementById('score')``), where a
    person looks when the rule never held; a line that empties the element is passed over."""
    from .jsloops import script_code  # tree-sitter loads only for a web app's rules

    for name in dict.fromkeys(SELECTOR_NAMES.findall(rule)):
        named = re.compile(rf"""['"`][#.]?{re.escape(name)}['"`]""")
        for path in source_files(root, preferred):
            if path.suffix == ".py":
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            lines = script_code(text, html=path.suffix in (".html", ".htm")).splitlines()
            for number, line in enumerate(lines, 1):
                written = WRITES.search(line)
                if named.search(line) and written and not EMPTY.match(written[1]):
                    return Produced(path, number, matches=False)
    return None
