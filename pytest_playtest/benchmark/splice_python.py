"""Splicing for Python: put a model's completion in place of one function of a Python source file.

The symbol is located with ``ast`` (so comments, strings and formatting cannot fool the search) and the
replacement itself is textual: everything from its first decorator to its last line is swapped for the
completion, re-indented to fit. A completion that does not parse is spliced all the same, so a broken
sample fails later, at the exec stage, for the same reason it would fail for a user.
"""

from __future__ import annotations

import ast
import re

from ..errors import SpliceError
from .splice_common import indent_text, leading_whitespace, normalise, split_lines

_Function = ast.FunctionDef | ast.AsyncFunctionDef
_Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef

# A signature's def line: optional "def"/"async def", a possibly qualified name, then the parameters.
_DEF_LINE = re.compile(r"(?P<keyword>(?:async\s+)?def\s+)?(?P<name>[A-Za-z_][\w.]*)(?P<rest>\s*\(.*)", re.S)
_ENDS_WITH_COLON = re.compile(r":\s*(#.*)?$")


def _first_line(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno, *(decorator.lineno for decorator in decorators)])


def _find(body: list[ast.stmt], parts: list[str]) -> _Definition | None:
    """The definition ``parts`` names, searching each scope's own statements.

    When a name is defined twice in a scope the last definition wins, as it does at runtime
    (e.g. the implementation after ``typing.overload`` stubs).
    """
    matches = [node for node in body if isinstance(node, _Definition) and node.name == parts[0]]
    if not matches:
        return None
    if len(parts) == 1:
        return matches[-1]
    return _find(matches[-1].body, parts[1:])


def _is_full_definition(completion: str, name: str) -> bool:
    """Whether the (normalised) completion defines ``name`` itself rather than being only its body."""
    try:
        tree = ast.parse(completion)
    except SyntaxError:
        return re.search(rf"^(?:async\s+)?def\s+{re.escape(name)}\b", completion, re.M) is not None
    return any(isinstance(node, _Function) and node.name == name for node in tree.body)


def _signature_lines(signature: str, name: str) -> list[str]:
    """The signature as def lines (plus any decorators it carries): "def" and ":" added if missing."""
    lines = normalise(signature).split("\n")[:-1]
    def_index = next((index for index, line in enumerate(lines) if not line.startswith("@")), None)
    if def_index is None:
        raise SpliceError(f"signature {signature!r} has no def line")
    match = _DEF_LINE.fullmatch(lines[def_index])
    if match:
        # A qualified name such as Game.on_click is how tasks name methods, but not valid in a def.
        keyword = match["keyword"] or "def "
        lines[def_index] = f"{keyword}{match['name'].rsplit('.', 1)[-1]}{match['rest']}"
    elif not re.match(r"(?:async\s+)?def\s", lines[def_index]):
        lines[def_index] = f"def {lines[def_index]}"
    if not _ENDS_WITH_COLON.search(lines[-1]):
        lines[-1] += ":"
    return lines


def _body_indent(lines: list[str], node: _Function, indent: str) -> str:
    """The original body's indentation, so the file's own style (tabs, 2 or 4 spaces) is kept."""
    first = node.body[0]
    whitespace = leading_whitespace(lines[_first_line(first) - 1])
    # col_offset points at the statement (or at "def" for a decorated one, aligned with its "@"), so it
    # equals the line's indentation only when the body starts on a line of its own.
    if first.col_offset == len(whitespace) and len(whitespace) > len(indent):
        return whitespace
    return indent + "    "


def splice_source(
    source: str,
    symbol: str,
    completion: str,
    signature: str | None = None,
    *,
    filename: str = "<source>",
) -> str:
    """Return ``source`` with the function ``symbol`` replaced by ``completion``.

    ``symbol`` is a function name, ``Class.method`` or ``Outer.Inner.method``, found at module level or
    directly inside the enclosing classes. The replaced span runs from its first decorator to its last
    line. A completion that defines the function itself (``def``/``async def`` with that name, with or
    without decorators, at any indentation) replaces the whole span, re-indented to the symbol's level.
    Any other completion is taken as the body: it goes under ``signature`` (``def`` and the trailing
    ``:`` are added when missing; without a signature the original def lines are reused), one level
    deeper, and the original decorators are kept unless the signature brings its own.

    Raises ``SpliceError`` naming the symbol and ``filename`` if the symbol is not a function there or
    if ``source`` does not parse.
    """
    try:
        tree = ast.parse(source, filename)
    except SyntaxError as exc:
        raise SpliceError(f"cannot look for {symbol!r}: {filename} does not parse: {exc}") from None
    node = _find(tree.body, symbol.split("."))
    if node is None:
        raise SpliceError(f"symbol {symbol!r} not found in {filename}")
    if not isinstance(node, _Function):
        raise SpliceError(f"symbol {symbol!r} in {filename} is a class, not a function")

    lines = split_lines(source)
    start = _first_line(node)
    indent = leading_whitespace(lines[start - 1])
    name = node.name
    completion = normalise(completion)

    if _is_full_definition(completion, name):
        replacement = indent_text(completion, indent)
    else:
        if signature is not None:
            header_lines = _signature_lines(signature, name)
            decorators = (
                "" if header_lines[0].startswith("@") else "".join(lines[start - 1 : node.lineno - 1])
            )
            header = decorators + indent_text("".join(line + "\n" for line in header_lines), indent)
        elif _first_line(node.body[0]) > node.lineno:
            header = "".join(lines[start - 1 : _first_line(node.body[0]) - 1])
        else:
            raise SpliceError(f"{symbol!r} in {filename}: a body-only completion needs the task's signature")
        replacement = header + indent_text(completion, _body_indent(lines, node, indent))

    before = "".join(lines[: start - 1])
    after = "".join(lines[node.end_lineno :])
    return before + replacement + after


def definition_source(source: str, symbol: str, *, filename: str = "<source>") -> str:
    """The lines of the function ``symbol`` in ``source``, from its first decorator to its last line."""
    try:
        tree = ast.parse(source, filename)
    except SyntaxError as exc:
        raise SpliceError(f"cannot look for {symbol!r}: {filename} does not parse: {exc}") from None
    node = _find(tree.body, symbol.split("."))
    if node is None:
        raise SpliceError(f"symbol {symbol!r} not found in {filename}")
    assert node.end_lineno is not None
    return "".join(split_lines(source)[_first_line(node) - 1 : node.end_lineno])


def syntax_error(source: str, *, filename: str = "<source>") -> str | None:
    """Why ``source`` does not parse (``line N: message``), or None when it does."""
    try:
        ast.parse(source, filename)
    except SyntaxError as exc:
        return f"line {exc.lineno}: {exc.msg}"
    return None
