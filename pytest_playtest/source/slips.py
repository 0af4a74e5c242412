"""Slips a reader sees in an app's code without running it: statements that cannot do what they were written for.

A person who found an input dead or a text never shown, and reads the code, stops at a line that plainly does
nothing: a comparison whose result is dropped (``tile["state"] == CLICKED`` where an assignment was meant), a
function named but not called (``listen`` for ``listen()``), a listener for an event no element fires
(``addEventListener('onclick', ...)``, ``'sumbit'``). Linters flag the same lines (flake8-bugbear's B015 and
B018, for Python). Such a line, when it is the only one in the app's code, is where a finding about what did
not happen points first.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from tree_sitter import Node

from .jsloops import script_code
from .producers import source_files
from .webkeys import _parser, walk

#: the events a page's elements, window and document fire (DOM, UI Events, HTML, Pointer, Touch, Drag and
#: Drop, CSS animations and transitions, media, IndexedDB requests): a listener's type is one of these or an
#: event the app dispatches itself
DOM_EVENTS = frozenset("""
    abort afterprint animationcancel animationend animationiteration animationstart auxclick beforeinput
    beforeprint beforeunload blocked blur cancel canplay canplaythrough change click close complete
    compositionend compositionstart compositionupdate contextmenu copy cut dblclick devicemotion
    deviceorientation drag dragend dragenter dragleave dragover dragstart drop durationchange emptied ended
    error focus focusin focusout fullscreenchange gamepadconnected gamepaddisconnected hashchange input invalid
    keydown keypress keyup load loadeddata loadedmetadata loadend loadstart message mousedown mouseenter
    mouseleave mousemove mouseout mouseover mouseup offline online open orientationchange pagehide pageshow
    paste pause play playing pointercancel pointerdown pointerenter pointerleave pointerlockchange pointermove
    pointerout pointerover pointerup popstate progress ratechange readystatechange reset resize scroll
    scrollend search seeked seeking select selectionchange selectstart slotchange stalled storage submit
    success suspend timeout timeupdate toggle touchcancel touchend touchmove touchstart transitioncancel
    transitionend transitionrun transitionstart unload upgradeneeded versionchange visibilitychange
    volumechange waiting wheel DOMContentLoaded
""".split())
#: calls whose first argument is an event type
LISTENER_CALLS = frozenset({"addEventListener", "removeEventListener"})
#: calls that take an ``on...`` handler attribute's name, legitimately
ATTRIBUTE_CALLS = frozenset({"setAttribute", "getAttribute", "removeAttribute", "hasAttribute", "attr", "prop"})
#: [edits] a listener type this close to an event's name and not one is a misspelling of it
MISSPELT_WITHIN = 2
#: folders holding an app's tests, not the app
TEST_FOLDERS = frozenset({"test", "tests", "testing", "idle_test", "__tests__", "spec"})
#: [letters] a shorter property name is one letter away from too many others to call it misspelt
MIN_PROPERTY = 4
#: comparison operators whose value a statement can drop
JS_COMPARISONS = frozenset({"==", "===", "!=", "!==", "<", ">", "<=", ">="})


@dataclass(frozen=True)
class Slip:
    """A line of the app's code that cannot do what it was written for, and why."""

    path: Path
    line: int
    why: str


def slips(root: Path, own: Sequence[str] = ()) -> list[Slip]:
    """The slips in the app's own files (Python modules, scripts and pages' inline scripts), within the budget
    of the producers' search: the files ``own`` names (relative to ``root``: the ones the app imports or loads)
    when it names any, else the folder's (a file beside the app that it never imports is not its code)."""
    found: list[Slip] = []
    mine = {root / name for name in own}
    for path in source_files(root, own):
        if (mine and path not in mine) or _a_test(path.relative_to(root) if path.is_relative_to(root) else path):
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if path.suffix == ".py":
            found += [Slip(path, line, why) for line, why in python_slips(text)]
        elif not path.name.endswith(".min.js"):
            code = script_code(text, html=path.suffix in (".html", ".htm"))
            found += [Slip(path, line, why) for line, why in script_slips(code)]
    return found


def _a_test(path: Path) -> bool:
    """Whether a file is a test's (a test touches attributes and compares on purpose): in a tests folder or named
    so."""
    return bool(TEST_FOLDERS & set(path.parts[:-1])) or path.name.startswith("test_") or ".test." in path.name


def python_slips(text: str) -> Iterator[tuple[int, str]]:
    """(line, why) of each statement of a Python module that drops a comparison's result or names a callable
    without calling it (outside a ``try`` body, where touching a name tests that it exists)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return
    tried = {id(statement) for node in ast.walk(tree) if isinstance(node, ast.Try) for statement in node.body}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Expr) or id(node) in tried:
            continue
        if isinstance(node.value, ast.Compare):
            yield node.lineno, "a comparison whose result is dropped (an assignment meant?)"
        elif isinstance(node.value, ast.Name | ast.Attribute):
            yield node.lineno, f"'{ast.unparse(node.value)}' is read and dropped (a call meant?)"


def script_slips(code: str) -> Iterator[tuple[int, str]]:
    """(line, why) of each listener of a script for an event type no element fires, each statement that
    drops a comparison's result, and each property read once whose name is a property the script writes with
    two neighbouring letters swapped (``cursor.value.tilte`` beside ``{title: ...}``: JavaScript reads it as
    ``undefined``, silently)."""
    tree = _parser(False).parse(code.encode())
    dispatched = _strings(tree.root_node)
    names = _property_names(tree.root_node)
    for node in walk(tree.root_node):
        if node.type == "call_expression":
            why = _listener_slip(node, dispatched)
            if why:
                yield node.start_point[0] + 1, why
        elif node.type == "expression_statement" and _dropped_comparison(node):
            yield node.start_point[0] + 1, "a comparison whose result is dropped (an assignment meant?)"
        elif node.type == "property_identifier" and node.parent is not None and node.parent.type == "member_expression":
            why = _misspelt_property(_text(node), names)
            if why:
                yield node.start_point[0] + 1, why


def _property_names(root: Node) -> tuple[dict[str, int], set[str]]:
    """How often each name is written as a property or a string in a script, and the names it defines: keys of
    object literals, members it assigns, methods, string values (an index named ``'title'``)."""
    counts: dict[str, int] = {}
    defined: set[str] = set()
    for node in walk(root):
        if node.type in ("property_identifier", "shorthand_property_identifier", "identifier", "string"):
            name = _string_value(node) if node.type == "string" else _text(node)
            counts[name] = counts.get(name, 0) + 1
            if node.type != "identifier" and _defines(node):
                defined.add(name)
    return counts, defined


def _defines(node: Node) -> bool:
    parent = node.parent
    if parent is None:
        return False
    if node.type in ("shorthand_property_identifier", "string") or parent.type in ("pair", "method_definition"):
        return True
    assigned = parent.parent
    return (parent.type == "member_expression" and assigned is not None and assigned.type == "assignment_expression"
            and assigned.child_by_field_name("left") == parent)


def _misspelt_property(name: str, names: tuple[dict[str, int], set[str]]) -> str:
    counts, defined = names
    if len(name) < MIN_PROPERTY or counts.get(name, 0) != 1 or name in defined:
        return ""
    near = sorted(other for other in defined if _swapped(name, other))
    return f"'.{name}' is read once and written nowhere ('{near[0]}' meant?)" if near else ""


def _listener_slip(call: Node, dispatched: dict[str, int]) -> str:
    callee = _callee_name(call)
    if callee in ATTRIBUTE_CALLS:
        return ""
    for argument in _string_arguments(call)[:2]:
        if argument.startswith("on") and argument[2:] in DOM_EVENTS:
            return f"a listener for '{argument}': the event is '{argument[2:]}' (the 'on' belongs to the attribute)"
        if callee in LISTENER_CALLS and argument not in DOM_EVENTS and dispatched.get(argument, 0) < 2:
            near = _nearest_event(argument)
            if near:
                return f"a listener for '{argument}', an event no element fires ('{near}' meant?)"
    return ""


def _nearest_event(name: str) -> str:
    """The event whose name is within MISSPELT_WITHIN edits of ``name`` (an adjacent swap counts as one)."""
    close = [event for event in DOM_EVENTS if _distance(name.lower(), event.lower()) <= MISSPELT_WITHIN]
    return min(close, key=lambda event: _distance(name.lower(), event.lower()), default="")


def _distance(a: str, b: str) -> int:
    """Edits between two words: insertions, deletions, substitutions and swaps of neighbours."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        current = [i]
        for j, other in enumerate(b, 1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char != other))
            if i > 1 and j > 1 and char == b[j - 2] and a[i - 2] == other:
                cost = min(cost, previous2[j - 2] + 1)
            current.append(cost)
        previous2, previous = previous, current
    return previous[-1]


def _swapped(a: str, b: str) -> bool:
    """Whether two names differ by one swap of neighbouring letters (``tilte``, ``title``): the slip of a hand
    typing fast. One letter more, less or changed is as often another word (``test``, ``rest``)."""
    if len(a) != len(b) or a == b:
        return False
    differ = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    return len(differ) == 2 and differ[1] == differ[0] + 1 and a[differ[0]] == b[differ[1]] \
        and a[differ[1]] == b[differ[0]]


def _callee_name(call: Node) -> str:
    function = call.child_by_field_name("function")
    if function is None:
        return ""
    if function.type == "member_expression":
        function = function.child_by_field_name("property") or function
    return (function.text or b"").decode(errors="replace")


def _string_arguments(call: Node) -> list[str]:
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return []
    return [_string_value(child) for child in arguments.named_children if child.type == "string"]


def _text(node: Node) -> str:
    return (node.text or b"").decode(errors="replace")


def _string_value(node: Node) -> str:
    return "".join((part.text or b"").decode(errors="replace") for part in node.named_children
                   if part.type == "string_fragment")


def _strings(root: Node) -> dict[str, int]:
    """How often each string literal is written in a script: an app that dispatches its own event names it
    where it dispatches it too."""
    counts: dict[str, int] = {}
    for node in walk(root):
        if node.type == "string":
            value = _string_value(node)
            counts[value] = counts.get(value, 0) + 1
    return counts


def _dropped_comparison(statement: Node) -> bool:
    expression = statement.named_children[0] if statement.named_children else None
    if expression is None or expression.type != "binary_expression":
        return False
    operator = expression.child_by_field_name("operator")
    return operator is not None and (operator.text or b"").decode() in JS_COMPARISONS
