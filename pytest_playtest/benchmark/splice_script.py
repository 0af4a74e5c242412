"""Splicing for JavaScript and TypeScript: the symbol is located with tree-sitter, the swap is textual.

A symbol is a top-level ``function name`` (exported or not), a ``const``/``let``/``var name`` bound to an
arrow function or a function expression, or ``Class.method`` (a method, getter, setter, or a class field
holding a function) of a top-level class. When a name is declared twice the last declaration wins, as it
does at runtime (and after TypeScript's overload signatures).

A completion that declares the symbol itself replaces the declaration (with the ``export`` before it when
the completion brings its own), re-indented to fit; any other completion is the body and goes between
the original header's braces, which keeps the symbol's parameters and types. tree-sitter parses broken
code too, so a completion with a syntax error is spliced all the same and fails later, at the build or in
the browser, as it would for a user.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import tree_sitter_javascript
import tree_sitter_typescript
from tree_sitter import Language, Node, Parser

from ..errors import SpliceError
from .splice_common import indent_text, leading_whitespace, normalise, split_lines

_FUNCTION_DECLARATIONS = frozenset({"function_declaration", "generator_function_declaration"})
_VARIABLE_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})
_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
_CLASSES = frozenset({"class_declaration", "abstract_class_declaration"})
_FIELDS = frozenset({"field_definition", "public_field_definition"})
_MODIFIERS = r"(?:(?:public|private|protected|static|async|readonly|override|abstract|get|set)\s+)*"
#: The indentation added under a header when the original body gives no example (JavaScript's usual 2).
_INDENT_UNIT = "  "


@dataclass(frozen=True)
class _Definition:
    """Where a symbol is: the span a full definition replaces, and the function whose body is swapped."""

    span: Node
    function: Node
    is_method: bool


def _grammar(language: str, filename: str) -> str:
    if language == "typescript":
        return "tsx" if filename.endswith(".tsx") else "typescript"
    return "javascript"


@cache
def _parser(grammar: str) -> Parser:
    languages = {"javascript": tree_sitter_javascript.language,
                 "typescript": tree_sitter_typescript.language_typescript, "tsx": tree_sitter_typescript.language_tsx}
    return Parser(Language(languages[grammar]()))


def _parse(text: str, grammar: str) -> Node:
    return _parser(grammar).parse(text.encode("utf-8")).root_node


def _text(node: Node | None) -> str:
    return "" if node is None or node.text is None else node.text.decode("utf-8")


def _statements(root: Node) -> Iterator[Node]:
    """The top-level statements, an ``export``'s declaration in place of the export itself."""
    for child in root.named_children:
        declaration = child.child_by_field_name("declaration") if child.type == "export_statement" else None
        yield declaration if declaration is not None else child


def _function_named(node: Node, name: str) -> Node | None:
    """The function ``node`` declares under ``name``: a function declaration, or a variable bound to one."""
    if node.type in _FUNCTION_DECLARATIONS:
        return node if _text(node.child_by_field_name("name")) == name else None
    if node.type in _VARIABLE_DECLARATIONS:
        for declarator in node.named_children:
            value = declarator.child_by_field_name("value")
            if _text(declarator.child_by_field_name("name")) == name and value is not None \
                    and value.type in _FUNCTION_VALUES:
                return value
    return None


def _member_named(node: Node, name: str) -> Node | None:
    """The function of a class member named ``name``: a method, or a field holding a function."""
    if node.type == "method_definition":
        return node if _text(node.child_by_field_name("name")) == name else None
    if node.type in _FIELDS:
        value = node.child_by_field_name("value")
        key = node.child_by_field_name("property") or node.child_by_field_name("name")
        if _text(key) == name and value is not None and value.type in _FUNCTION_VALUES:
            return value
    return None


def _find(root: Node, parts: list[str]) -> _Definition | str:
    """The definition ``parts`` names, or why there is none."""
    statements = list(_statements(root))
    if len(parts) == 1:
        found = [(node, function) for node in statements if (function := _function_named(node, parts[0]))]
        if found:
            return _Definition(found[-1][0], found[-1][1], is_method=False)
        if any(node.type in _CLASSES and _text(node.child_by_field_name("name")) == parts[0]
               for node in statements):
            return "is a class, not a function"
        return "not found"
    if len(parts) != 2:
        return "not found (name a function or Class.method)"
    classes = [node for node in statements
               if node.type in _CLASSES and _text(node.child_by_field_name("name")) == parts[0]]
    body = classes[-1].child_by_field_name("body") if classes else None
    if body is None:
        return f"not found (no class {parts[0]!r})"
    members = [(node, function) for node in body.named_children if (function := _member_named(node, parts[1]))]
    if not members:
        return f"not found (class {parts[0]!r} has no method {parts[1]!r})"
    return _Definition(members[-1][0], members[-1][1], is_method=True)


def _locate(source: str, symbol: str, grammar: str, filename: str) -> tuple[Node, _Definition]:
    root = _parse(source, grammar)
    found = _find(root, symbol.split("."))
    if isinstance(found, str):
        problem = _first_error(root)
        parse_note = f" ({filename} does not parse: {problem})" if problem else ""
        raise SpliceError(f"symbol {symbol!r} {found} in {filename}{parse_note}")
    return root, found


def _declares(completion: str, name: str, is_method: bool, grammar: str) -> bool:
    """Whether the (normalised) completion is the symbol's whole definition rather than only its body."""
    escaped = re.escape(name)
    if is_method:
        body = _parse(f"class __Splice {{\n{completion}\n}}", grammar).named_children[0].child_by_field_name("body")
        if body is not None and any(_member_named(node, name) for node in body.named_children):
            return True
        pattern = rf"{_MODIFIERS}\*?\s*{escaped}\s*(?:<[^>]*>)?\s*\(.*\{{\s*$|{_MODIFIERS}{escaped}\s*(?::[^=]+)?=[^=>]"
    else:
        if any(_function_named(node, name) for node in _statements(_parse(completion, grammar))):
            return True
        pattern = rf"(?:export\s+(?:default\s+)?)?(?:async\s+)?function\b\s*\*?\s*{escaped}\b" \
                  rf"|(?:export\s+)?(?:const|let|var)\s+{escaped}\b"
    first = next((line for line in completion.splitlines() if line.strip() and not line.lstrip().startswith("//")), "")
    return re.match(pattern, first.strip()) is not None


def _line_start(data: bytes, offset: int) -> int:
    return data.rfind(b"\n", 0, offset) + 1


def _body_indent(data: bytes, block: Node, indent: str) -> str:
    """The original body's indentation (so the file's style is kept), else one level below ``indent``."""
    statements = block.named_children
    if statements and statements[0].start_point.row > block.start_point.row:
        line = data[_line_start(data, statements[0].start_byte):statements[0].start_byte].decode("utf-8")
        if not line.strip() and len(line) > len(indent):
            return line
    return indent + _INDENT_UNIT


def splice_source(source: str, symbol: str, completion: str, *, language: str, filename: str) -> str:
    """``source`` with ``symbol`` replaced by ``completion`` (see the module's docstring); SpliceError when
    the symbol is not a function there."""
    grammar = _grammar(language, filename)
    _, found = _locate(source, symbol, grammar, filename)
    data = source.encode("utf-8")
    name = symbol.rsplit(".", 1)[-1]
    completion = normalise(completion)
    span = found.span
    indent = leading_whitespace(data[_line_start(data, span.start_byte):span.start_byte].decode("utf-8"))
    if _declares(completion, name, found.is_method, grammar):
        parent = span.parent
        if re.match(r"export\b", completion) and parent is not None and parent.type == "export_statement":
            span = parent
        first, *rest = split_lines(completion)
        replacement = (first + indent_text("".join(rest), indent)).rstrip("\n")
        start, end = span.start_byte, span.end_byte
        if replacement.endswith(";") and data[end:end + 1] == b";":
            end += 1  # a class field's ";" is the class body's, not part of the field
    else:
        body = found.function.child_by_field_name("body")
        if body is None:
            raise SpliceError(f"{symbol!r} in {filename} has no body to replace")
        inner = _body_indent(data, body, indent) if body.type == "statement_block" else indent + _INDENT_UNIT
        replacement = "{\n" + indent_text(completion, inner) + indent + "}"
        start, end = body.start_byte, body.end_byte
    return (data[:start] + replacement.encode("utf-8") + data[end:]).decode("utf-8")


def definition_source(source: str, symbol: str, *, language: str, filename: str) -> str:
    """The whole lines holding ``symbol``'s declaration (its ``export`` included)."""
    _, found = _locate(source, symbol, _grammar(language, filename), filename)
    span = found.span
    if span.parent is not None and span.parent.type == "export_statement":
        span = span.parent
    data = source.encode("utf-8")
    end = data.find(b"\n", span.end_byte)
    return data[_line_start(data, span.start_byte):len(data) if end < 0 else end + 1].decode("utf-8")


def _first_error(root: Node) -> str | None:
    """``line N: …`` for the first syntax error tree-sitter recovered from, or None for a clean parse."""
    if not root.has_error:
        return None
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing:
            return f"line {node.start_point.row + 1}: missing {node.type!r}"
        if node.is_error:
            text = " ".join(_text(node).split())
            return f"line {node.start_point.row + 1}: unexpected {text[:40]!r}"
        stack.extend(reversed(node.children))
    return "a syntax error"


def syntax_error(source: str, *, language: str, filename: str) -> str | None:
    """Why ``source`` does not parse (``line N: …``), or None when it does."""
    return _first_error(_parse(source, _grammar(language, filename)))
