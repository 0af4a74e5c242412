"""Which loops of a page's scripts may never end: where a frozen page is stuck; and which names a script's
function takes as parameters (a lookup by one failed with the key its caller chose).

A page that hangs runs a loop that never ends, and a pause of its main thread shows only where that loop
happened to be (often in a function it calls). A person reading the stack skips the loops that cannot hang —
a ``for`` that counts its variable and whose body leaves it alone, a ``for ... of`` over a collection — and
names the innermost that can: a ``while``, a ``do``, a ``for`` without a test or one whose body moves its own
counter back.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from .webkeys import _parser

#: loops that run until their test fails
OPEN_LOOPS = frozenset({"while_statement", "do_statement"})
#: where a function's body starts: a loop outside it is not running inside it
FUNCTIONS = frozenset({"function_declaration", "function_expression", "arrow_function", "method_definition",
                       "generator_function_declaration", "generator_function", "function"})
_SCRIPT = re.compile(r"(<script\b(?![^>]*\bsrc=)[^>]*>)(.*?)(</script>)", re.I | re.S)


def script_code(text: str, *, html: bool) -> str:
    """A file's script code with the page's own lines: in an HTML page everything outside its inline scripts is
    blanked (its line breaks kept), so a line of the code is that line of the page."""
    if not html:
        return text
    kept, last = [], 0
    for match in _SCRIPT.finditer(text):
        kept.append(_blank(text[last:match.start(2)]))
        kept.append(match.group(2))
        last = match.end(2)
    kept.append(_blank(text[last:]))
    return "".join(kept)


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


def endless_loops(code: str, line: int) -> list[int]:
    """The header lines (1-based) of the loops around line ``line`` that may never end, innermost first,
    within the function that holds the line."""
    tree = _parser(False).parse(code.encode())
    headers: list[int] = []
    node: Node | None = tree.root_node
    row = line - 1
    while node is not None:
        inside = next((child for child in node.children
                       if child.start_point[0] <= row <= child.end_point[0]), None)
        if inside is None:
            break
        if inside.type in FUNCTIONS:
            headers = []
        elif _may_not_end(inside):
            headers.append(inside.start_point[0] + 1)
        node = inside
    return headers[::-1]


def _may_not_end(node: Node) -> bool:
    if node.type in OPEN_LOOPS:
        return True
    if node.type != "for_statement":
        return False  # (a for ... of / in walks a collection)
    condition = node.child_by_field_name("condition")
    if condition is None or condition.type == "empty_statement":
        return True
    counters = set(_assigned(node.child_by_field_name("increment")))
    body = node.child_by_field_name("body")
    return not counters or bool(counters & set(_assigned(body)))


def _assigned(node: Node | None) -> Iterator[str]:
    """The names an expression or statement assigns (``y = y + 1``, ``--y``, ``y += 2``)."""
    if node is None:
        return
    stack = [node]
    while stack:
        current = stack.pop()
        target = None
        if current.type in ("assignment_expression", "augmented_assignment_expression"):
            target = current.child_by_field_name("left")
        elif current.type == "update_expression":
            target = current.child_by_field_name("argument")
        if target is not None and target.type == "identifier" and target.text is not None:
            yield target.text.decode()
        if current.type not in FUNCTIONS:
            stack.extend(current.children)


def parameters_around(code: str, line: int, column: int) -> set[str]:
    """The parameters of the innermost function holding a place (1-based line and column) of a script: the
    names its callers choose."""
    tree = _parser(False).parse(code.encode())
    node: Node | None = tree.root_node.descendant_for_point_range((line - 1, column - 1), (line - 1, column - 1))
    while node is not None and node.type not in FUNCTIONS:
        node = node.parent
    if node is None:
        return set()
    return _parameter_names(node.child_by_field_name("parameters") or node.child_by_field_name("parameter"))


def _parameter_names(parameters: Node | None) -> set[str]:
    """Plain and defaulted parameters' names (``a``, ``b = 1``; a lone arrow parameter too)."""
    if parameters is None:
        return set()
    if parameters.type == "identifier":
        return {(parameters.text or b"").decode()}
    names = set()
    for child in parameters.named_children:
        target = child.child_by_field_name("left") if child.type == "assignment_pattern" else child
        if target is not None and target.type == "identifier":
            names.add((target.text or b"").decode())
    return names
