"""The second pass over an app's Python files: what each file handles (keys, buttons, texts, quit keys...)."""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from .files import Module
from .keynames import (
    KMOD,
    MOUSE_BUTTONS,
    PRESSED_INDEX,
    PYGAME_BUTTONS,
    PYGAME_CODES,
    PYGAME_KEYS,
    char_key,
    is_hotkey,
    key_name,
    parse_tk_sequence,
    with_modifiers,
)
from .tables import (
    BIND,
    CLICKABLE,
    COMMAND_KW,
    EVENT_ATTRS,
    KEY_VARS,
    MENU_ADD,
    STR_METHODS,
    STRING_CONSTANTS,
    TK_CLASSES,
    TK_TYPING,
    TURTLE_CLICKS,
    TURTLE_KEYS,
    Analysis,
    HandlerPlace,
    Visitor,
    const_int,
    const_str,
    eventish,
    ident,
    strings_of,
)

# -- analysis: the second pass, what each file handles ---------------------------------------------------------


@dataclass
class Found:
    keys: dict[str, None] = field(default_factory=dict)
    hotkeys: dict[str, None] = field(default_factory=dict)
    quit_keys: dict[str, None] = field(default_factory=dict)
    buttons: set[str] = field(default_factory=set)
    texts: dict[str, None] = field(default_factory=dict)
    quit_texts: dict[str, None] = field(default_factory=dict)
    drags: bool = False
    pointer: bool = False
    typing: bool = False
    sound: bool = False

    def key(self, name: str) -> None:
        (self.hotkeys if is_hotkey(name) else self.keys)[name] = None


class Scanner(Visitor):
    """Second pass over one file, in source order."""

    def __init__(self, module: Module, analysis: Analysis, found: Found) -> None:
        self.m = module
        self.a = analysis
        self.f = found
        self.bare = module.uses_pygame or module.star
        self.aliases: dict[str, str] = {}  # local names holding event.keysym / char / key
        self.strings: dict[str, list[str]] = {}  # local names holding strings (loop variables included)
        self.pressed: dict[str, int | None] = {}  # names holding pygame.mouse.get_pressed() (or one of it)
        self.funcs: list[str | None] = [None]
        self.loops: list[list[ast.AST]] = [[]]
        self.where: list[HandlerPlace] = [HandlerPlace(False, None, module.name)]
        self.suppress = 0
        self.accumulating = 0  # inside `x += ...`, `a + b`, `.append(...)`, `.insert(...)`
        self.clicks = self.down = self.up = self.button_compared = False
        self.motion = self.motion_buttons = self.mouse_pressed = self.drag_named = False

    def run(self) -> None:
        self.visit(self.m.tree)
        if self.clicks and not self.button_compared:
            self.f.buttons.add("left")
        if self.motion:
            self.f.pointer = True
        if self.motion_buttons or (self.motion and (self.mouse_pressed or (self.down and self.up))) or (
                self.drag_named and (self.clicks or self.mouse_pressed)):
            self.f.drags = True
            if not self.f.buttons:
                self.f.buttons.add("left")

    def add_key(self, name: str | None) -> None:
        if name and not self.suppress:
            self.f.key(name)

    # -- scopes
    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        tk = any(ident(base) in TK_CLASSES for base in node.bases)
        self.where.append(HandlerPlace(tk, node.name, self.m.name))
        self.generic_visit(node)
        self.where.pop()

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.funcs.append(node.name)
        self.loops.append([])
        self.generic_visit(node)
        self.loops.pop()
        self.funcs.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node)

    def _loop(self, node: ast.For | ast.While | ast.AsyncFor) -> None:
        self.loops[-1].append(node)
        self.generic_visit(node)
        self.loops[-1].pop()

    def visit_While(self, node: ast.While) -> None:
        self._loop(node)

    def visit_AsyncFor(self, node: ast.AsyncFor) -> None:
        self._loop(node)

    def visit_For(self, node: ast.For) -> None:
        target = node.target
        if isinstance(target, ast.Name):
            values = self._iterated(node.iter)
            if values:
                self.strings[target.id] = values
        elif isinstance(target, ast.Tuple):
            iterated = node.iter
            if isinstance(iterated, ast.Call) and ident(iterated.func) == "enumerate" and iterated.args:
                second = target.elts[1] if len(target.elts) == 2 else None
                if isinstance(second, ast.Name):  # for i, label in enumerate(row)
                    items = self._iterated(iterated.args[0])
                    if items:
                        self.strings[second.id] = items
            else:
                for position, element in enumerate(target.elts):
                    if isinstance(element, ast.Name):
                        column = [s for row in self._rows(iterated) if position < len(row)
                                  for s in self.strs(row[position])]
                        if column:
                            self.strings[element.id] = column
        self._loop(node)

    def handler_exits(self, body: Sequence[ast.AST]) -> bool:
        """Whether a key's handler (an ``if`` body, a ``case``) ends the app."""
        func = self.funcs[-1]
        in_main = func is None or func in self.a.t.entry
        loops = self.loops[-1]
        returns = func is not None and func in self.a.t.entry and any(isinstance(n, ast.While) for n in loops)
        breaks = bool(loops) and in_main and id(loops[-1]) in self.a.t.main_whiles
        return self.a.exits(body, self.where[-1], returns=returns, breaks=breaks)

    # -- names and constants
    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self._reference(node, node.id)
            if node.id in self.pressed:
                index = self.pressed[node.id]
                if index is not None:
                    self.f.buttons.add(PRESSED_INDEX.get(index, "left"))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Load):
            self._reference(node, node.attr)
            if self.accumulating and (node.attr == "unicode" or node.attr == "char" and eventish(node.value)):
                self.f.typing = True  # text += event.unicode: the app keeps what is typed
            elif node.attr == "buttons" and eventish(node.value):
                self.motion_buttons = True
            elif node.attr == "mixer":  # pygame.mixer, whatever pygame is called here
                self.f.sound = True
        self.generic_visit(node)

    def _reference(self, node: ast.Name | ast.Attribute, name: str) -> None:
        if name.startswith("K_"):
            if isinstance(node, ast.Attribute) or self.bare or name in self.m.imported:
                self.add_key(PYGAME_KEYS.get(name))
        elif name in ("MOUSEBUTTONDOWN", "MOUSEBUTTONUP", "FINGERDOWN"):
            self.clicks = True
            self.down |= name == "MOUSEBUTTONDOWN"
            self.up |= name == "MOUSEBUTTONUP"
        elif name == "MOUSEMOTION":
            self.motion = True
        elif name == "MOUSEWHEEL":
            self.f.buttons.add("wheel")
        elif name in ("TEXTINPUT", "TEXTEDITING"):
            self.f.typing = True
        elif name in PYGAME_BUTTONS and (self.bare or isinstance(node, ast.Attribute)):
            self.f.buttons.add(PYGAME_BUTTONS[name])
            self.button_compared = True
        elif name in self.a.t.defs and name not in EVENT_ATTRS and not self.suppress:
            for key in self.a.keys_of(node, bare=self.bare):
                self.add_key(key)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.accumulating += isinstance(node.op, ast.Add)
        self.generic_visit(node)
        self.accumulating -= isinstance(node.op, ast.Add)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        self.accumulating += isinstance(node.op, ast.Add)
        self.generic_visit(node)
        self.accumulating -= isinstance(node.op, ast.Add)

    def visit_Assign(self, node: ast.Assign) -> None:
        value = node.value
        for target in node.targets:
            name = ident(target)
            if "drag" in name.lower():
                self.drag_named = True
            if isinstance(target, ast.Name):
                kind = self.source(value)
                if kind:
                    self.aliases[target.id] = kind
                elif self._mouse_call(value, "get_pressed"):
                    self.pressed[target.id] = None
                elif isinstance(value, ast.Constant | ast.Tuple | ast.List | ast.IfExp | ast.JoinedStr | ast.BinOp):
                    values = self.strs(value)
                    if values:
                        self.strings[target.id] = values
            elif isinstance(target, ast.Tuple) and self._mouse_call(value, "get_pressed"):
                for index, element in enumerate(target.elts):
                    if isinstance(element, ast.Name):
                        self.pressed[element.id] = index
        self.generic_visit(node)

    @staticmethod
    def _mouse_call(node: ast.AST, method: str) -> bool:
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == method
                and ident(node.func.value) == "mouse")

    def visit_Subscript(self, node: ast.Subscript) -> None:
        index = const_int(node.slice)
        if index is not None:
            if self._mouse_call(node.value, "get_pressed"):
                self.f.buttons.add(PRESSED_INDEX.get(index, "left"))
            elif isinstance(node.value, ast.Name) and node.value.id in self.pressed:
                self.f.buttons.add(PRESSED_INDEX.get(index, "left"))
                self.generic_visit(node.slice)
                return
            elif isinstance(node.value, ast.Attribute) and node.value.attr == "buttons":
                self.motion_buttons = True
                self.f.buttons.add(PRESSED_INDEX.get(index, "left"))
        kind = self.source(node.slice)
        if kind is not None:  # ACTIONS[event.keysym]: the table's keys are key names
            self._table_keys(node.value, kind)
            self.visit(node.value)
            return
        self.generic_visit(node)

    def _table_keys(self, table: ast.expr, kind: str) -> None:
        for value in self._iterated(table):
            self.add_key(self._convert(value, kind))

    @staticmethod
    def _convert(value: str, kind: str) -> str | None:
        return char_key(value) if kind == "char" and len(value) == 1 else key_name(value)

    # -- comparisons and tests
    def source(self, node: ast.AST) -> str | None:
        """What a key-ish expression holds: "keysym", "char", "code" (a pygame key), "name", "any"."""
        if isinstance(node, ast.Attribute):
            if node.attr == "keysym":
                return "keysym"
            if node.attr in ("char", "unicode"):
                return "char"
            if node.attr == "key" and eventish(node.value):
                return "code"
            return None
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in STR_METHODS:
                return self.source(func.value)
            if isinstance(func, ast.Attribute) and func.attr == "name" and ident(func.value) == "key":
                return "name"
            if isinstance(func, ast.Name) and func.id == "chr":
                return "char"
            return None
        if isinstance(node, ast.Name):
            return self.aliases.get(node.id) or ("any" if node.id in KEY_VARS else None)
        return None

    def _compared_keys(self, node: ast.Compare) -> tuple[list[str], list[ast.expr] | None]:
        """Keys a comparison with a key-ish expression names (strings, codes), and its other operands
        (None: no key-ish operand)."""
        operands = [node.left, *node.comparators]
        kinds = [self.source(o) for o in operands]
        kind = next((k for k in kinds if k), None)
        if kind is None:
            return [], None
        membership = any(isinstance(op, ast.In | ast.NotIn) for op in node.ops)
        keys: list[str] = []
        others = [o for o, k in zip(operands, kinds, strict=True) if not k]
        for other in others:
            for value in self._iterated(other) if membership else self.strs(other):
                key = self._convert(value, kind)
                if key:
                    keys.append(key)
            if kind == "code":
                for number in self._ints(other):
                    code = PYGAME_CODES.get(number) or (char_key(chr(number)) if 32 < number < 127 else None)
                    if code:
                        keys.append(code)
        return keys, others

    def _ints(self, node: ast.AST) -> list[int]:
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return [n for e in node.elts for n in self._ints(e)]
        number = const_int(node)
        return [number] if number is not None else []

    def visit_Compare(self, node: ast.Compare) -> None:
        keys, others = self._compared_keys(node)
        for key in keys:
            self.add_key(key)
        if others is not None:  # the key-ish operand is not visited: compared, it is not typed text
            for other in others:
                self.visit(other)
            return
        operands = [node.left, *node.comparators]
        for operand in operands:
            if (isinstance(operand, ast.Attribute) and operand.attr in ("button", "num") and eventish(operand.value)
                    or isinstance(operand, ast.Name) and operand.id in ("button", "btn", "mouse_button")):
                for other in operands:
                    for number in self._ints(other):
                        if number in MOUSE_BUTTONS:
                            self.f.buttons.add(MOUSE_BUTTONS[number])
                            self.button_compared = True
        self.generic_visit(node)

    def test_keys(self, node: ast.AST, direct: bool = True) -> tuple[list[str], set[str]]:
        """Keys an ``if`` test is about, and the modifiers (KMOD_*) it requires."""
        keys: list[str] = []
        mods: set[str] = set()
        if isinstance(node, ast.Name | ast.Attribute | ast.Subscript):
            name = ident(node)
            if name.startswith("KMOD_"):
                mods.update(m for tag, m in KMOD if tag in name)
                return keys, mods
            found = self.a.keys_of(node, bare=self.bare or name in self.m.imported)
            if found and (direct or len(found) == 1):
                return list(found), mods
        if isinstance(node, ast.Compare):
            keys.extend(self._compared_keys(node)[0])
            for operand in [node.left, *node.comparators]:
                sub_keys, sub_mods = self.test_keys(operand, direct=True)
                keys.extend(sub_keys)
                mods |= sub_mods
            return keys, mods
        for child in ast.iter_child_nodes(node):
            sub_keys, sub_mods = self.test_keys(child, direct=False)
            keys.extend(sub_keys)
            mods |= sub_mods
        return keys, mods

    def visit_If(self, node: ast.If) -> None:
        keys, mods = self.test_keys(node.test)
        keys = list(dict.fromkeys(keys))
        if keys and mods:
            keys = list(dict.fromkeys(with_modifiers(mods, k) for k in keys))
            for key in keys:
                self.add_key(key)
            self.suppress += 1
            self.visit(node.test)
            self.suppress -= 1
        else:
            self.visit(node.test)
        if keys and self.handler_exits(node.body):
            self.f.quit_keys.update(dict.fromkeys(keys))
        for statement in [*node.body, *node.orelse]:
            self.visit(statement)

    def visit_Match(self, node: ast.Match) -> None:
        kind = self.source(node.subject)
        if kind is None:
            self.visit(node.subject)
        for case in node.cases:
            keys = list(dict.fromkeys(self._pattern_keys(case.pattern, kind)))
            for key in keys:
                self.add_key(key)
            if keys and self.handler_exits(case.body):
                self.f.quit_keys.update(dict.fromkeys(keys))
            self.visit(case.pattern)
            if case.guard is not None:
                self.visit(case.guard)
            for statement in case.body:
                self.visit(statement)

    def _pattern_keys(self, pattern: ast.pattern, kind: str | None) -> list[str]:
        if isinstance(pattern, ast.MatchOr):
            return [k for p in pattern.patterns for k in self._pattern_keys(p, kind)]
        if isinstance(pattern, ast.MatchAs) and pattern.pattern is not None:
            return self._pattern_keys(pattern.pattern, kind)
        if isinstance(pattern, ast.MatchValue):
            text = const_str(pattern.value)
            if text is not None and kind is not None:
                key = self._convert(text, kind)
                return [key] if key else []
            return list(self.a.keys_of(pattern.value, bare=self.bare))
        return []

    def visit_Dict(self, node: ast.Dict) -> None:
        for k, v in zip(node.keys, node.values, strict=True):  # dispatch tables {K_q: quit_game, ...}
            if k is not None:
                keys = self.a.keys_of(k, bare=self.bare)
                if keys and self.a.callable_exits(v, self.where[-1]):
                    self.f.quit_keys.update(dict.fromkeys(keys))
        self.generic_visit(node)

    # -- calls: binds, widgets, mouse
    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = ident(func)
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        if isinstance(func, ast.Attribute) and name in BIND:
            self._bind(node, name, keywords)
        elif name in TURTLE_KEYS:
            self._turtle_key(node, keywords)
        elif name in TURTLE_CLICKS:
            self._turtle_click(node, name, keywords)
        elif name in MENU_ADD:
            self._labelled(keywords.get("label"), keywords)
        elif name[:1].isupper() and (name.lower().endswith("button") or name in CLICKABLE):
            text = keywords.get("text", keywords.get("label"))
            if text is None:
                text = next((a for a in node.args if const_str(a) is not None), None)
            self._labelled(text, keywords)
            if name == "Scale":
                self.f.drags = True
        if (name in TK_TYPING and self.m.uses_tk) or re.search(r"TextEntry|TextBox|InputBox|CTkEntry", name):
            self.f.typing = True
        elif name in ("askstring", "askinteger", "askfloat", "start_text_input"):
            self.f.typing = True
        elif self._mouse_call(node, "get_pressed"):
            self.mouse_pressed = True
        elif self._mouse_call(node, "get_pos") or self._mouse_call(node, "get_rel"):
            self.f.pointer = True
        elif name == "key_code" and node.args:
            self.add_key(key_name(const_str(node.args[0]) or ""))
        elif name in ("append", "insert", "extend", "write", "join", "set", "render") and node.args:
            self.accumulating += 1
            self.generic_visit(node)
            self.accumulating -= 1
            return
        elif name == "get" and isinstance(func, ast.Attribute) and node.args:
            kind = self.source(node.args[0])
            if kind is not None:  # KEYSYMS.get(event.keysym)
                self._table_keys(func.value, kind)
                self.visit(func.value)
                for arg in node.args[1:]:
                    self.visit(arg)
                return
        self.generic_visit(node)

    def _labelled(self, text: ast.expr | None, keywords: dict[str, ast.expr]) -> None:
        self.f.buttons.add("left")
        labels = [t.strip() for t in self.strs(text)[:60] if t.strip()] if text is not None else []
        command = next((keywords[k] for k in COMMAND_KW if k in keywords), None)
        quits = bool(labels) and command is not None and self.a.callable_exits(command, self.where[-1])
        for label in labels:
            self.f.texts[label] = None
            if quits:
                self.f.quit_texts[label] = None

    def _bind(self, node: ast.Call, method: str, keywords: dict[str, ast.expr]) -> None:
        args = node.args
        first = 1 if method in ("bind_class", "tag_bind", "event_add") else 0
        if method == "event_add":
            sequences: list[ast.expr] = list(args[1:])
            handler = None
        else:
            sequence = args[first] if len(args) > first else keywords.get("sequence")
            sequences = [sequence] if sequence is not None else []
            handler = args[first + 1] if len(args) > first + 1 else keywords.get("func")
        quits = handler is not None and self.a.callable_exits(handler, self.where[-1])
        for sequence in sequences:
            bare = self.m.uses_tk and len(const_str(sequence) or "") == 1
            for text in self.strs(sequence):
                for event in parse_tk_sequence(text, bare=bare):
                    if event.kind in ("key", "hotkey"):
                        self.add_key(event.value)
                        if quits:
                            self.f.quit_keys[event.value] = None
                    elif event.kind in ("button", "wheel"):
                        self.f.buttons.add(event.value)
                    elif event.kind == "drag":
                        self.f.drags = True
                        self.f.buttons.add(event.value)
                    elif event.kind == "pointer":
                        self.f.pointer = True

    def _turtle_key(self, node: ast.Call, keywords: dict[str, ast.expr]) -> None:
        """``onkey(fun, "Up")``: a Tk keysym; ``onkeypress(fun)`` without a key takes any key typed."""
        handler = node.args[0] if node.args else keywords.get("fun")
        key = node.args[1] if len(node.args) > 1 else keywords.get("key")
        if handler is None or isinstance(handler, ast.Constant) and handler.value is None:
            return  # onkey(None, key) unbinds
        if key is None or isinstance(key, ast.Constant) and key.value is None:
            self.f.typing = True
            return
        quits = handler is not None and self.a.callable_exits(handler, self.where[-1])
        for text in self.strs(key):
            name = key_name(text)
            self.add_key(name)
            if quits and name:
                self.f.quit_keys[name] = None

    def _turtle_click(self, node: ast.Call, method: str, keywords: dict[str, ast.expr]) -> None:
        """``onscreenclick(fun, btn=1)`` and a turtle's ``onclick``/``ondrag``: a button (1 left, 3 right)."""
        handler = node.args[0] if node.args else keywords.get("fun")
        if handler is None or isinstance(handler, ast.Constant) and handler.value is None:
            return  # onscreenclick(None) unbinds
        button = node.args[1] if len(node.args) > 1 else keywords.get("btn")
        number = 1 if button is None else const_int(button)
        self.f.buttons.add(MOUSE_BUTTONS.get(number or 1, "left"))
        if method == "ondrag":
            self.f.drags = True

    # -- string values (bind sequences, compared constants)
    def strs(self, node: ast.AST) -> list[str]:
        return strings_of(node, self._lookup, self.a.t.defs)

    def _iterated(self, node: ast.expr) -> list[str]:
        """The strings ``for x in node`` / ``x in node`` go over: a string's characters, a collection's items."""
        if isinstance(node, ast.Name) and node.id in self.strings:
            return self.strings[node.id]
        if isinstance(node, ast.Name | ast.Attribute):
            values = self.a.t.defs.get(ident(node), ())
            if values and all(const_str(v) is not None for v in values):
                return [c for v in values for c in const_str(v) or ""][:200]
            if not values and ident(node) in STRING_CONSTANTS:
                return list(STRING_CONSTANTS[ident(node)])
        if isinstance(node, ast.Call) and ident(node.func) == "enumerate" and node.args:
            return []  # (index, item) pairs: see the tuple targets of visit_For
        text = const_str(node)
        return list(text[:200]) if text is not None else self.strs(node)

    def _lookup(self, name: str) -> list[str]:
        return self.strings[name] if name in self.strings else self.a.def_strs(name)

    def _rows(self, node: ast.AST, depth: int = 0) -> list[list[ast.expr]]:
        """Rows of ``for a, b in ...``: tuples of a literal list, or key/value pairs of ``dict.items()``."""
        if depth > 3:
            return []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "items":
            return [[k, v] for d in self._dicts(node.func.value) for k, v in zip(d.keys, d.values, strict=True)
                    if k is not None]
        if isinstance(node, ast.Tuple | ast.List):
            return [list(e.elts) for e in node.elts if isinstance(e, ast.Tuple | ast.List)]
        if isinstance(node, ast.Name | ast.Attribute):
            return [r for d in self.a.t.defs.get(ident(node), ())[:5] for r in self._rows(d, depth + 1)]
        return []

    def _dicts(self, node: ast.AST) -> list[ast.Dict]:
        if isinstance(node, ast.Dict):
            return [node]
        if isinstance(node, ast.Name | ast.Attribute):
            return [d for d in self.a.t.defs.get(ident(node), ())[:5] if isinstance(d, ast.Dict)]
        return []
