"""The keys a page's JavaScript/TypeScript compares an event with, read with tree-sitter (never run).

People write key handling in many ways; what they have in common is an event's ``key``/``code``/``keyCode``/
``which`` (or a variable named after one) compared with, switched over or looked up by something constant.
This module resolves that constant through what the files define:

* ``e.key === "ArrowLeft"``, ``case "KeyW":``, ``e.keyCode == 32``, ``keyCode == KEY_SPACE`` with
  ``var KEY_SPACE = 32``, ``switch (ev.keyCode) { case KEY.LEFT: … }`` with ``const KEY = {LEFT: 37, …}``;
* lookups by the event: ``{38: 0, 39: 1, 40: 2, 37: 3}[event.which]``, ``KEY_CODES[e.keyCode]`` with
  ``KEY_CODES = {32: "space", 37: "left", …}``;
* tables of pressed keys indexed by a key constant: ``pressedKeys[KEY_LEFT]``.

A number is a key code only where it meets an event's key (compared, switched over, a lookup table's
keys) or is bound to a name that says it is one (``KEY_LEFT``, ``KEY.LEFT``, ``Keys.SPACE``); a string only
where it meets an event's key or sits in a key-code table's values.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

import tree_sitter_javascript
import tree_sitter_typescript
from tree_sitter import Language, Node, Parser

from .keynames import key_name

#: ``KeyboardEvent.key`` / ``.code`` names → Action.press names.
JS_KEYS = {"ArrowLeft": "left", "ArrowRight": "right", "ArrowUp": "up", "ArrowDown": "down", "Enter": "enter",
           "Escape": "escape", "Esc": "escape", "Tab": "tab", "Backspace": "backspace", "Delete": "delete",
           " ": "space", "Space": "space", "Spacebar": "space", "Home": "home", "End": "end",
           "PageUp": "pageup", "PageDown": "pagedown", "ShiftLeft": "shift", "ShiftRight": "shift",
           "Shift": "shift", "Control": "ctrl", "ControlLeft": "ctrl", "Alt": "alt", "Left": "left",
           "Right": "right", "Up": "up", "Down": "down", "NumpadEnter": "enter"}
#: ``KeyboardEvent.keyCode`` / ``which`` numbers → Action.press names.
KEY_CODES: dict[int, str] = {
    8: "backspace", 9: "tab", 13: "enter", 16: "shift", 17: "ctrl", 18: "alt", 27: "escape", 32: "space",
    33: "pageup", 34: "pagedown", 35: "end", 36: "home", 37: "left", 38: "up", 39: "right", 40: "down",
    45: "insert", 46: "delete", 186: ";", 187: "=", 188: ",", 189: "-", 190: ".", 191: "/", 219: "[", 221: "]",
    **{48 + n: str(n) for n in range(10)}, **{65 + n: chr(97 + n) for n in range(26)},
    **{112 + n: f"f{n + 1}" for n in range(12)},
}
#: Names of an event's key (the property, or a variable or parameter holding it).
_EVENT_KEY = re.compile(r"^(?:key|code|keyCode|which|charCode|keyName|keycode|key_code|pressedKey)$")
#: A name that says it holds key codes or a key (KEY_LEFT, KEY.LEFT, Keys.SPACE, keyMap).
_KEYISH = re.compile(r"key", re.I)
_COMPARISONS = frozenset({"==", "===", "!=", "!=="})


def js_key(name: str) -> str | None:
    """The Action.press name of a ``KeyboardEvent.key``/``code`` string, or None."""
    if name in JS_KEYS:
        return JS_KEYS[name]
    if match := re.fullmatch(r"Key([A-Z])|Digit([0-9])", name):
        return (match.group(1) or match.group(2)).lower()
    if len(name) == 1:
        return key_name(name)
    return None


@cache
def _parser(typescript: bool) -> Parser:
    language = tree_sitter_typescript.language_tsx() if typescript else tree_sitter_javascript.language()
    return Parser(Language(language))


@dataclass
class _Constants:
    """What the files bind to names: numbers (``KEY_LEFT = 37``, ``KEY.LEFT``) and objects (by name)."""

    numbers: dict[str, int] = field(default_factory=dict)
    objects: dict[str, Node] = field(default_factory=dict)


def scan_keys(sources: list[tuple[str, str]]) -> tuple[list[str], list[tuple[str, str, int]]]:
    """The keys the given files (name, text) compare an event with, in first-seen order, and where: (``key
    <name>``, file, line) for each place a key is compared (lines are the file's own for a script file)."""
    trees = [_parser(name.endswith((".ts", ".tsx"))).parse(text.encode()) for name, text in sources]
    constants = _Constants()
    for tree in trees:
        _bind(tree.root_node, constants)
    found: dict[str, None] = {}
    places: dict[tuple[str, str, int], None] = {}
    for (name, _), tree in zip(sources, trees, strict=True):
        for key, node in _keys(tree.root_node, constants):
            found.setdefault(key)
            places.setdefault((f"key {key}", name, node.start_point[0] + 1))
    return list(found), list(places)


def walk(node: Node) -> Iterator[Node]:
    """Every node of a tree-sitter tree, in source order."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text is not None else ""


def _name(node: Node | None) -> str:
    """``KEY_LEFT``, ``KEY.LEFT``, ``this.keys.LEFT`` → the dotted name; "" for anything else."""
    if node is None:
        return ""
    if node.type in ("identifier", "property_identifier", "shorthand_property_identifier"):
        return _text(node)
    if node.type == "member_expression":
        owner, prop = node.child_by_field_name("object"), node.child_by_field_name("property")
        inner = _name(owner) if owner is not None and owner.type != "this" else "this"
        return f"{inner}.{_text(prop)}" if inner and prop is not None else ""
    return ""


def _bind(root: Node, constants: _Constants) -> None:
    for node in walk(root):
        if node.type == "variable_declarator":
            target, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        elif node.type == "assignment_expression":
            target, value = node.child_by_field_name("left"), node.child_by_field_name("right")
        else:
            continue
        name = _name(target)
        if not name or value is None:
            continue
        if value.type == "number" and _int(value) is not None:
            constants.numbers[name] = _int(value) or 0
        elif value.type == "object":
            _bind_object(name, value, constants)


#: how deep constant objects are read into (``Game.KEY.ZERO``: a table of key codes inside a module object)
OBJECT_DEPTH = 3


def _bind_object(name: str, value: Node, constants: _Constants, depth: int = 0) -> None:
    """A constant object's numbers, by their dotted names, into its nested objects too."""
    constants.objects[name] = value
    for key, item in _pairs(value):
        if item.type == "number" and _int(item) is not None:
            constants.numbers[f"{name}.{key}"] = _int(item) or 0
        elif item.type == "object" and depth < OBJECT_DEPTH:
            _bind_object(f"{name}.{key}", item, constants, depth + 1)


def _pairs(obj: Node) -> Iterator[tuple[str, Node]]:
    """The keys (as written: LEFT, 37, "ArrowLeft") and values of an object literal."""
    for pair in obj.children:
        if pair.type != "pair":
            continue
        key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
        if key is not None and value is not None:
            yield _literal(key), value


def _literal(node: Node) -> str:
    if node.type == "string":
        return "".join(_text(c) for c in node.children if c.type == "string_fragment")
    return _text(node)


def _int(node: Node) -> int | None:
    try:
        return int(_text(node), 0)
    except ValueError:
        return None


def _mentions_event_key(node: Node | None) -> bool:
    """Whether an expression is an event's key: ``e.keyCode``, ``event.key``, ``keyCode``, ``e.which``."""
    if node is None:
        return False
    if node.type in ("identifier", "property_identifier"):
        return bool(_EVENT_KEY.match(_text(node)))
    if node.type == "member_expression":
        return _mentions_event_key(node.child_by_field_name("property"))
    if node.type == "call_expression":  # e.key.toLowerCase()
        function = node.child_by_field_name("function")
        return function is not None and function.type == "member_expression" and _mentions_event_key(
            function.child_by_field_name("object"))
    return node.type == "parenthesized_expression" and any(_mentions_event_key(c) for c in node.children)


def _keys(root: Node, constants: _Constants) -> Iterator[tuple[str, Node]]:
    """Each key an event is compared with, and the node that compares it."""
    for node in walk(root):
        if node.type == "binary_expression" and _text(node.child_by_field_name("operator")) in _COMPARISONS:
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if _mentions_event_key(left):
                yield from ((key, node) for key in _key_values(right, constants))
            elif _mentions_event_key(right):
                yield from ((key, node) for key in _key_values(left, constants))
        elif node.type == "switch_statement" and _mentions_event_key(node.child_by_field_name("value")):
            body = node.child_by_field_name("body")
            for case in body.children if body is not None else []:
                if case.type == "switch_case":
                    yield from ((key, case) for key in _key_values(case.child_by_field_name("value"), constants))
        elif node.type == "subscript_expression":
            table, index = node.child_by_field_name("object"), node.child_by_field_name("index")
            if _mentions_event_key(index):
                yield from ((key, node) for key in _table_keys(table, constants))
            elif _KEYISH.search(_name(index)):  # pressedKeys[KEY_LEFT]
                yield from ((key, node) for key in _key_values(index, constants))


def _key_values(node: Node | None, constants: _Constants) -> Iterator[str]:
    """The key a constant-ish expression stands for: a number (key code), a string, a bound name."""
    if node is None:
        return
    if node.type == "number":
        code = _int(node)
        if code is not None and code in KEY_CODES:
            yield KEY_CODES[code]
    elif node.type == "string":
        key = js_key(_literal(node))
        if key is not None:
            yield key
    elif (name := _name(node)) and name in constants.numbers and _KEYISH.search(name):
        code = constants.numbers[name]
        if code in KEY_CODES:
            yield KEY_CODES[code]


def _table_keys(node: Node | None, constants: _Constants) -> Iterator[str]:
    """The keys of a table looked up by an event's key: its numeric keys (key codes) or string keys, and
    the key names among its string values (``{32: "space"}``)."""
    if node is None:
        return
    table = node if node.type == "object" else constants.objects.get(_name(node))
    if table is None:
        return
    for key, value in _pairs(table):
        if key.isdigit() and int(key) in KEY_CODES:
            yield KEY_CODES[int(key)]
        elif (named := js_key(key)) is not None:
            yield named
        if value.type == "string" and (named := js_key(_literal(value)) or key_name(_literal(value))):
            yield named
