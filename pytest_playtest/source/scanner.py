"""The second pass over an app's Python files: what each file handles (keys, buttons, texts, quit keys...).

The scanner walks one file in source order and keeps what a node is read in: the class, function and loop around
it, the names bound so far, whether it is typed text being kept. What expressions hold it leaves to its parts:
strings to ``strings``, key-ish expressions and the keys compared with them to ``keyexpressions``, the calls that
register handlers or make clickable things to ``registrations``; all of it goes into one ``Found``.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from .files import Module
from .found import Found
from .keyexpressions import KeyExpressions, ints_of, key_in_kind
from .keynames import MOUSE_BUTTONS, PRESSED_INDEX, PYGAME_BUTTONS, PYGAME_KEYS, key_name, with_modifiers
from .registrations import Registrations
from .strings import StringValues
from .tables import EVENT_ATTRS, TK_CLASSES, Analysis, HandlerPlace, Visitor, const_int, const_str, eventish, ident


class Scanner(Visitor):
    """Second pass over one file, in source order."""

    def __init__(self, module: Module, analysis: Analysis, found: Found) -> None:
        self.m = module
        self.a = analysis
        self.f = found
        self.values = StringValues(analysis)
        self.keys = KeyExpressions(module, analysis, self.values)
        self.registrations = Registrations(module, analysis, found, self.values, self.add_key)
        self.pressed: dict[str, int | None] = {}  # names holding pygame.mouse.get_pressed() (or one of it)
        self.funcs: list[str | None] = [None]
        self.loops: list[list[ast.AST]] = [[]]
        self.where: list[HandlerPlace] = [HandlerPlace(False, None, module.name)]
        self.suppress = 0
        self.optioned = 0  # inside a branch on the app's command line or environment
        self.accumulating = 0  # inside `x += ...`, `a + b`, `.append(...)`, `.insert(...)`
        self.clicks = self.down = self.up = self.button_compared = False
        self.line = 1  # the line of the node being visited: where an input found now is handled
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

    def visit(self, node: ast.AST) -> None:
        self.line = getattr(node, "lineno", self.line)
        super().visit(node)

    def add_key(self, name: str | None) -> None:
        if name and not self.suppress:
            self.f.key(name, optioned=bool(self.optioned))
            self.f.place(f"key {name}", self.m.name, self.line)

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
        self.values.bind_loop(node.target, node.iter)
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
            if isinstance(node, ast.Attribute) or self.keys.bare or name in self.m.imported:
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
        elif name in PYGAME_BUTTONS and (self.keys.bare or isinstance(node, ast.Attribute)):
            self.f.buttons.add(PYGAME_BUTTONS[name])
            self.button_compared = True
        elif name in self.a.t.defs and name not in EVENT_ATTRS and not self.suppress:
            for key in self.keys.named(node):
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
                kind = self.keys.kind(value)
                if kind:
                    self.keys.aliases[target.id] = kind
                elif self._mouse_call(value, "get_pressed"):
                    self.pressed[target.id] = None
                else:
                    self.values.bind(target.id, value)
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
        kind = self.keys.kind(node.slice)
        if kind is not None:  # ACTIONS[event.keysym]: the table's keys are key names
            self._table_keys(node.value, kind)
            self.visit(node.value)
            return
        self.generic_visit(node)

    def _table_keys(self, table: ast.expr, kind: str) -> None:
        for value in self.values.iterated(table):
            self.add_key(key_in_kind(value, kind))

    # -- comparisons and tests
    def visit_Compare(self, node: ast.Compare) -> None:
        keys, others = self.keys.compared(node)
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
                    for number in ints_of(other):
                        if number in MOUSE_BUTTONS:
                            self.f.buttons.add(MOUSE_BUTTONS[number])
                            self.f.place(f"{MOUSE_BUTTONS[number]} click", self.m.name, node.lineno)
                            self.button_compared = True
        self.generic_visit(node)

    def visit_If(self, node: ast.If) -> None:
        keys, mods = self.keys.of_test(node.test)
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
        if keys and starts_anew(node.body):
            self.f.restart_keys.update(dict.fromkeys(keys))
        optional = node.orelse if _negated(node.test) else node.body
        optioned = reads_options(node.test)
        for statement in [*node.body, *node.orelse]:
            self.optioned += optioned and statement in optional
            self.visit(statement)
            self.optioned -= optioned and statement in optional

    def visit_Match(self, node: ast.Match) -> None:
        kind = self.keys.kind(node.subject)
        if kind is None:
            self.visit(node.subject)
        for case in node.cases:
            keys = list(dict.fromkeys(self.keys.of_pattern(case.pattern, kind)))
            for key in keys:
                self.add_key(key)
            if keys and self.handler_exits(case.body):
                self.f.quit_keys.update(dict.fromkeys(keys))
            if keys and starts_anew(case.body):
                self.f.restart_keys.update(dict.fromkeys(keys))
            self.visit(case.pattern)
            if case.guard is not None:
                self.visit(case.guard)
            for statement in case.body:
                self.visit(statement)

    def visit_Dict(self, node: ast.Dict) -> None:
        for k, v in zip(node.keys, node.values, strict=True):  # dispatch tables {K_q: quit_game, ...}
            if k is not None:
                keys = self.keys.named(k)
                if keys and self.a.callable_exits(v, self.where[-1]):
                    self.f.quit_keys.update(dict.fromkeys(keys))
        self.generic_visit(node)

    # -- calls: what they register, mouse reads, kept text
    def visit_Call(self, node: ast.Call) -> None:
        self.registrations.register(node, self.where[-1])
        func = node.func
        name = ident(func)
        if self._mouse_call(node, "get_pressed"):
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
            kind = self.keys.kind(node.args[0])
            if kind is not None:  # KEYSYMS.get(event.keysym)
                self._table_keys(func.value, kind)
                self.visit(func.value)
                for arg in node.args[1:]:
                    self.visit(arg)
                return
        self.generic_visit(node)


#: what a function that starts a game anew is called (lower case, without underscores: ``restart``, ``new_game``,
#: ``startGame``); a key whose handler calls one acts only where a game is over or not begun
_STARTS_ANEW = frozenset({"restart", "restartgame", "reset", "resetgame", "newgame", "start", "startgame", "startover",
                          "begin", "playagain", "retry", "tryagain"})


def starts_anew(body: Sequence[ast.AST]) -> bool:
    """Whether a key's handler (an ``if`` body, a ``case``) calls a function named for starting the game anew."""
    return any(isinstance(node, ast.Call) and ident(node.func).replace("_", "").lower() in _STARTS_ANEW
               for statement in body for node in ast.walk(statement))


#: where a program reads how it was started: ``sys.argv``, ``os.environ``, ``os.getenv``, argparse's ``args.x``
_OPTIONS = frozenset({"argv", "environ", "getenv"})
_PARSED = frozenset({"args", "options", "opts"})


def reads_options(test: ast.expr) -> bool:
    """Whether an ``if`` test reads the app's command line or environment: what the branch an option opens binds
    is bound only when the app is started so (a pause key behind ``--pausable``, a cheat key behind ``DEBUG=1``);
    the other branch is what a plain start runs."""
    for node in ast.walk(test):
        if isinstance(node, ast.Name | ast.Attribute) and ident(node) in _OPTIONS:
            return True
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in _PARSED:
            return True
    return False


def _negated(test: ast.expr) -> bool:
    """Whether a test holds when something is absent (``not x``, ``"--flag" not in argv``): its ``else`` is the
    branch an option opens."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return True
    return isinstance(test, ast.Compare) and all(isinstance(op, ast.NotIn) for op in test.ops)
