"""The first pass over an app's Python files: the names, constants, functions and flags every file can see."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .files import TK_MODULES, Module
from .keynames import PYGAME_KEYS, char_key, key_name

# -- analysis: tables over all files -----------------------------------------------------------------------

EVENT_ATTRS = frozenset({"key", "keysym", "char", "unicode", "type", "button", "buttons", "mod", "scancode",
                          "num", "state", "text", "pos", "rel", "x", "y", "keycode", "widget"})
KEY_VARS = frozenset({"key", "keysym", "keyname", "key_name", "pressed_key", "char"})
STR_METHODS = frozenset({"lower", "upper", "strip", "casefold", "lstrip", "rstrip"})
_NOT_EXIT_QUIT = frozenset({"mixer", "font", "joystick", "midi", "scrap", "camera", "freetype", "fastevent",
                            "sndarray", "cdrom", "fonts", "sound", "music", "ft"})
_DESTROY_RECEIVERS = frozenset({"root", "master", "window", "win", "app", "tk", "main_window", "mainwindow",
                                "_root"})
TK_CLASSES = frozenset({"Tk", "CTk", "Window"})
_POS_FLAGS = frozenset({"running", "isrunning", "gamerunning", "going", "playing", "keeprunning"})
_NEG_FLAGS = frozenset({"done", "quit", "quitting", "shouldquit", "exit", "exiting", "gameexit", "wantquit",
                        "shouldexit"})
_DYNAMIC = frozenset({"import_module", "__import__", "run_path", "run_module", "spec_from_file_location",
                      "iter_modules", "load_source"})
BIND = frozenset({"bind", "bind_all", "bind_class", "tag_bind", "event_add"})
MENU_ADD = frozenset({"add_command", "add_checkbutton", "add_radiobutton", "add_cascade"})
COMMAND_KW = ("command", "callback", "on_click", "onclick", "action", "func")
TK_TYPING = frozenset({"Entry", "Text", "ScrolledText", "Spinbox", "Combobox"})
CLICKABLE = frozenset({"OptionMenu", "Combobox", "Listbox", "Scale", "Spinbox", "Menubutton"})
#: Bare calls that end the app (``bye`` is turtle's, often star-imported).
_EXIT_FUNCTIONS = frozenset({"exit", "quit", "bye"})
#: turtle's input registrations: the key argument's position (``onkey(fun, key)``), or the mouse button's
#: (``onscreenclick(fun, btn=1)``); ``ondrag`` moves with the button held.
TURTLE_KEYS = frozenset({"onkey", "onkeyrelease", "onkeypress"})
TURTLE_CLICKS = frozenset({"onscreenclick", "onclick", "onrelease", "ondrag"})
#: The standard library's strings of characters (``for letter in ascii_lowercase: onkey(..., letter)``).
STRING_CONSTANTS = {"ascii_lowercase": "abcdefghijklmnopqrstuvwxyz", "ascii_uppercase": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                     "ascii_letters": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", "digits": "0123456789"}


def ident(node: ast.AST) -> str:
    """The last identifier of a name, attribute chain, call or subscript ("" if none)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):
        return ident(node.func)
    if isinstance(node, ast.Subscript):
        return ident(node.value)
    return ""


def _flag(name: str) -> str:
    return name.lower().replace("_", "")


def eventish(node: ast.AST) -> bool:
    name = ident(node).lower()
    return name in ("e", "ev", "evt", "event", "events", "ievent") or "event" in name


def const_int(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    return None


def const_str(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


@dataclass(eq=False)
class _Func:
    """What the first pass records of one function, enough to tell later whether calling it ends the app."""

    name: str
    cls: str | None
    module: str
    tk: bool
    line: int = 0
    #: the callable a factory returns (``return lambda event: self.open(x, y)``): the handler it makes
    returned: ast.Lambda | None = None
    has_while: bool = False
    raises_exit: bool = False
    exit_calls: list[ast.Call] = field(default_factory=list)
    flag_sets: list[tuple[str, bool]] = field(default_factory=list)
    calls: list[tuple[str, str]] = field(default_factory=list)  # (name, "self" | "name" | "attr")
    local_names: set[str] = field(default_factory=set)  # a root made here and destroyed is a temporary one


def _call_kind(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return "name"
    return "self" if isinstance(func, ast.Attribute) and ident(func.value) in ("self", "cls") else "attr"


def _flag_target(node: ast.AST) -> bool:
    """``running = False``, ``self.running = False``, ``game.done = True``: not ``a.b.running`` (another's)."""
    return isinstance(node, ast.Name) or isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)


def _exit_candidate(call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id in _EXIT_FUNCTIONS
    return isinstance(func, ast.Attribute) and func.attr in ("exit", "_exit", "quit", "destroy", "post", "bye")


@dataclass
class Tables:
    defs: dict[str, list[ast.expr]] = field(default_factory=dict)
    functions: dict[str, list[_Func]] = field(default_factory=dict)
    entry: set[str] = field(default_factory=set)
    scope_whiles: list[tuple[str | None, list[ast.While]]] = field(default_factory=list)
    pos_flags: set[str] = field(default_factory=set)
    neg_flags: set[str] = field(default_factory=set)
    main_whiles: set[int] = field(default_factory=set)
    loop_tests: list[ast.expr] = field(default_factory=list)
    exiting: set[int] = field(default_factory=set)  # ids of _Func
    pygame_aliases: set[str] = field(default_factory=lambda: {"pygame", "pg"})
    key_cache: dict[str, tuple[str, ...]] = field(default_factory=dict)
    str_cache: dict[str, list[str]] = field(default_factory=dict)


_LEAF_FIELDS = frozenset({"ctx", "op", "ops"})  # Load/Store, Add, Eq...: nothing inside


class Visitor(ast.NodeVisitor):
    """``ast.NodeVisitor`` with its method lookup cached and leaf nodes skipped (twice as fast)."""

    def visit_Constant(self, node: ast.Constant) -> None:
        """Nothing inside (``NodeVisitor.visit_Constant`` looks for deprecated methods: slow)."""

    _methods: dict[tuple[type[Any], type[ast.AST]], Callable[[Any, Any], None]] = {}

    def visit(self, node: ast.AST) -> None:
        key = (type(self), type(node))
        try:
            method = self._methods[key]
        except KeyError:
            method = self._methods[key] = getattr(type(self), "visit_" + type(node).__name__, type(self).generic_visit)
        method(self, node)

    def generic_visit(self, node: ast.AST) -> None:
        for name in node._fields:
            if name in _LEAF_FIELDS:
                continue
            value = getattr(node, name, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        self.visit(item)
            elif isinstance(value, ast.AST):
                self.visit(value)


class Collector(Visitor):
    """First pass over one file: imports, module/class-level names, functions, main loops."""

    def __init__(self, module: Module, tables: Tables) -> None:
        self.m = module
        self.t = tables
        self.scopes: list[str] = []  # "class" | "function"
        self.classes: list[str | None] = [None]
        self.tk: list[bool] = [False]
        self.current: list[_Func | None] = [None]
        self.lambdas = 0
        self.whiles: list[list[ast.While]] = [[]]
        self.depth: list[int] = [0]
        tables.scope_whiles.append((None, self.whiles[0]))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.m.imports.append((0, alias.name, ()))
            top = alias.name.split(".")[0]
            if top == "pygame":
                self.m.uses_pygame = True
                if alias.asname:
                    self.t.pygame_aliases.add(alias.asname)
            elif top in TK_MODULES:
                self.m.uses_tk = True

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        names = tuple(alias.name for alias in node.names)
        self.m.imports.append((node.level, module, names))
        top = module.split(".")[0]
        if top == "pygame":
            self.m.uses_pygame = True
        elif top in TK_MODULES:
            self.m.uses_tk = True
        if "*" in names:
            self.m.star = True
        self.m.imported.update(alias.asname or alias.name for alias in node.names)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.scopes.append("class")
        self.classes.append(node.name)
        self.tk.append(any(ident(base) in TK_CLASSES for base in node.bases))
        self.generic_visit(node)
        self.tk.pop()
        self.classes.pop()
        self.scopes.pop()

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        returned = next((statement.value for statement in node.body if isinstance(statement, ast.Return)
                         and isinstance(statement.value, ast.Lambda)), None)
        func = _Func(node.name, self.classes[-1], self.m.name, self.tk[-1], node.lineno, returned)
        self.t.functions.setdefault(node.name, []).append(func)
        whiles: list[ast.While] = []
        self.t.scope_whiles.append((node.name, whiles))
        self.scopes.append("function")
        self.classes.append(None)
        self.current.append(func)
        self.whiles.append(whiles)
        self.depth.append(0)
        lambdas, self.lambdas = self.lambdas, 0
        self.generic_visit(node)
        self.lambdas = lambdas
        self.depth.pop()
        self.whiles.pop()
        self.current.pop()
        self.classes.pop()
        self.scopes.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.lambdas += 1  # a lambda's body runs later (a callback), not when its function runs
        self.generic_visit(node)
        self.lambdas -= 1

    def visit_While(self, node: ast.While) -> None:
        func = self.current[-1]
        if func is not None:
            func.has_while = True
        self.t.loop_tests.append(node.test)
        if self.depth[-1] == 0:
            self.whiles[-1].append(node)
        self.depth[-1] += 1
        self.generic_visit(node)
        self.depth[-1] -= 1

    def visit_Raise(self, node: ast.Raise) -> None:
        func = self.current[-1]
        if func is not None and not self.lambdas and node.exc is not None and ident(node.exc) == "SystemExit":
            func.raises_exit = True
        self.generic_visit(node)

    def _define(self, target: ast.AST, value: ast.expr) -> None:
        if isinstance(target, ast.Name) and "function" not in self.scopes:
            self.t.defs.setdefault(target.id, []).append(value)
        elif isinstance(target, ast.Attribute) and ident(target.value) in ("self", "cls"):
            self.t.defs.setdefault(target.attr, []).append(value)
        elif isinstance(target, ast.Tuple | ast.List) and isinstance(value, ast.Tuple | ast.List):
            if len(target.elts) == len(value.elts):
                for sub_target, sub_value in zip(target.elts, value.elts, strict=True):
                    self._define(sub_target, sub_value)

    def visit_Assign(self, node: ast.Assign) -> None:
        func = self.current[-1]
        for target in node.targets:
            self._define(target, node.value)
            if func is not None and not self.lambdas:
                if isinstance(target, ast.Name):
                    func.local_names.add(target.id)
                if isinstance(node.value, ast.Constant) and _flag_target(target):
                    func.flag_sets.append((_flag(ident(target)), bool(node.value.value)))
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._define(node.target, node.value)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = ident(node.func)
        func = self.current[-1]
        if not self.scopes:
            self.t.entry.add(name)
        elif func is not None and not self.lambdas:
            func.calls.append((name, _call_kind(node.func)))
            if _exit_candidate(node):
                func.exit_calls.append(node)
        if name in _DYNAMIC:
            self.m.dynamic = True
        self.generic_visit(node)


@dataclass(frozen=True)
class HandlerPlace:
    """Where a handler is: for resolving ``self.method`` and bare function names."""

    tk: bool
    cls: str | None
    module: str


class Analysis:
    """Everything known over all files: name resolution and "does this end the app"."""

    def __init__(self, tables: Tables) -> None:
        self.t = tables
        self.t.entry.update({"main", "run", "mainloop", "game_loop", "main_loop"})
        self._main_loops()
        self._exiting()

    # -- main loops and their flags
    def _main_loops(self) -> None:
        """Loop flags: those of main loops (the last top-level ``while`` of the module or of an entry
        function: a title screen's loop comes before the game's), and usual names (``running``, ``done``)
        of any loop. Leaving an entry function's loop ends the app only when the module has no loop of its own:
        a ``break`` out of a title screen's loop called before the module's game loop starts the game."""
        module_loops = any(whiles for name, whiles in self.t.scope_whiles if name is None)
        for name, whiles in self.t.scope_whiles:
            if whiles and (name is None or name in self.t.entry):
                last = whiles[-1]
                if name is None or not module_loops:
                    self.t.main_whiles.add(id(last))
                self._flags(last.test, negated=False)
        for test in self.t.loop_tests:
            self._flags(test, negated=False, usual=True)

    def _flags(self, test: ast.expr, negated: bool, usual: bool = False) -> None:
        if isinstance(test, ast.Name | ast.Attribute):
            if _flag_target(test):
                flag = _flag(ident(test))
                if not usual or flag in (_NEG_FLAGS if negated else _POS_FLAGS):
                    (self.t.neg_flags if negated else self.t.pos_flags).add(flag)
        elif isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            self._flags(test.operand, not negated, usual)
        elif isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) and not negated:
            for value in test.values:
                self._flags(value, negated, usual)

    def _quit_flag(self, flag: str, value: bool) -> bool:
        return (flag in self.t.pos_flags and not value) or (flag in self.t.neg_flags and value)

    # -- exits
    def _exiting(self) -> None:
        """Functions whose call ends the app (directly or through another such function).

        A function running a ``while`` loop is a screen or the game itself, not a way out: calling
        ``main()`` again to restart is not quitting.
        """
        pending: list[_Func] = []
        for funcs in self.t.functions.values():
            for func in funcs:
                if func.has_while:
                    continue
                if func.raises_exit or any(self._exit_call(c, func.tk, func.local_names) for c in func.exit_calls) \
                        or any(self._quit_flag(flag, value) for flag, value in func.flag_sets):
                    self.t.exiting.add(id(func))
                else:
                    pending.append(func)
        changed = True
        while changed:
            changed = False
            for func in pending:
                if id(func) not in self.t.exiting and any(
                        self.call_exits(name, kind, HandlerPlace(func.tk, func.cls, func.module))
                        for name, kind in func.calls):
                    self.t.exiting.add(id(func))
                    changed = True

    def call_exits(self, name: str, kind: str, where: HandlerPlace) -> bool:
        """Whether calling the app's function ``name`` (``name()``, ``self.name()``, ``x.name()``) ends it."""
        funcs = self.t.functions.get(name)
        if not funcs:
            return False
        if kind == "self":
            funcs = [f for f in funcs if f.cls == where.cls and f.module == where.module] or funcs
        elif kind == "name":
            funcs = ([f for f in funcs if f.cls is None and f.module == where.module]
                     or [f for f in funcs if f.cls is None] or funcs)
        elif len(funcs) > 1:  # obj.name(): every method of that name must end the app
            return all(id(f) in self.t.exiting for f in funcs)
        return any(id(f) in self.t.exiting for f in funcs)

    def _exit_call(self, call: ast.Call, tk: bool, local_names: set[str] | None = None) -> bool:
        """Whether this call ends the app by itself (``sys.exit()``, ``pygame.quit()``, ``root.destroy()``...)."""
        func = call.func
        if isinstance(func, ast.Name):
            return func.id in _EXIT_FUNCTIONS and func.id not in self.t.functions
        if not isinstance(func, ast.Attribute):
            return False
        receiver = ident(func.value)
        if func.attr == "exit" and receiver == "sys" or func.attr == "_exit" and receiver == "os":
            return True
        if func.attr == "bye":  # turtle.bye(), screen.bye()
            return True
        if func.attr == "destroy":
            if local_names and isinstance(func.value, ast.Name) and receiver in local_names:
                return False
            return receiver.lower() in _DESTROY_RECEIVERS or (receiver == "self" and tk)
        if func.attr == "post" and call.args:  # pygame.event.post(pygame.event.Event(pygame.QUIT))
            return any(ident(n) == "QUIT" for n in ast.walk(call.args[0]))
        if func.attr == "quit":
            if receiver in self.t.pygame_aliases or receiver == "display":
                return True
            return "quit" not in self.t.functions and receiver not in _NOT_EXIT_QUIT
        return False

    def exits(self, nodes: Sequence[ast.AST], where: HandlerPlace, *, returns: bool = False,
              breaks: bool = False) -> bool:
        """Whether running these statements (a key's handler) ends the app."""
        stack: list[tuple[ast.AST, bool]] = [(node, breaks) for node in reversed(nodes)]
        while stack:
            node, can_break = stack.pop()
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
                continue
            if isinstance(node, ast.Call):
                if self._exit_call(node, where.tk) or self.call_exits(ident(node.func), _call_kind(node.func), where):
                    return True
            elif isinstance(node, ast.Raise) and node.exc is not None and ident(node.exc) == "SystemExit":
                return True
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                value = bool(node.value.value)
                if any(_flag_target(t) and self._quit_flag(_flag(ident(t)), value)
                       for t in node.targets):
                    return True
            elif isinstance(node, ast.Return) and returns or isinstance(node, ast.Break) and can_break:
                return True
            inner = can_break and not isinstance(node, ast.For | ast.While | ast.AsyncFor)
            stack.extend((child, inner) for child in reversed(list(ast.iter_child_nodes(node))))
        return False

    def callable_exits(self, node: ast.expr, where: HandlerPlace) -> bool:
        """Whether calling this handler (a ``command=`` or ``bind`` callback) ends the app."""
        if isinstance(node, ast.Lambda):
            return self.exits([node.body], where)
        if isinstance(node, ast.Call) and ident(node.func) == "partial" and node.args:
            return self.callable_exits(node.args[0], where)
        if isinstance(node, ast.Name):
            if node.id in self.t.functions:
                return self.call_exits(node.id, "name", where)
            return node.id in _EXIT_FUNCTIONS
        if isinstance(node, ast.Attribute):
            if self._exit_call(ast.Call(func=node, args=[], keywords=[]), where.tk):
                return True
            return self.call_exits(node.attr, _call_kind(node), where)
        return False

    def callback(self, node: ast.expr, where: HandlerPlace, depth: int = 0) -> _Func | None:
        """The app's function a handler (a ``command=`` or ``bind`` callback) runs: the function named, the one
        a lambda calls first, a ``partial``'s, the one a factory's returned lambda calls, else the factory."""
        if depth > 3:
            return None
        if isinstance(node, ast.Lambda):
            called = next((n.func for n in ast.walk(node.body) if isinstance(n, ast.Call)), None)
            return self.callback(called, where, depth + 1) if called is not None else None
        if isinstance(node, ast.Call):
            if ident(node.func) == "partial" and node.args:
                return self.callback(node.args[0], where, depth + 1)
            factory = self.callback(node.func, where, depth + 1)
            if factory is not None and factory.returned is not None:
                made = HandlerPlace(factory.tk, factory.cls, factory.module)
                return self.callback(factory.returned, made, depth + 1) or factory
            return factory
        if isinstance(node, ast.Name | ast.Attribute):
            funcs = self.t.functions.get(ident(node), [])
            kind = _call_kind(node)
            if kind == "self":
                funcs = [f for f in funcs if f.cls == where.cls and f.module == where.module] or funcs
            elif kind == "name":
                funcs = [f for f in funcs if f.cls is None and f.module == where.module] or funcs
            return funcs[0] if len(funcs) == 1 or kind != "attr" and funcs else None
        return None

    # -- names bound to keys or strings
    def def_keys(self, name: str, depth: int) -> tuple[str, ...]:
        if name in self.t.key_cache:
            return self.t.key_cache[name]
        self.t.key_cache[name] = ()  # cycles resolve to nothing
        found: dict[str, None] = {}
        for value in self.t.defs.get(name, ())[:20]:
            found.update(dict.fromkeys(self.keys_of(value, depth + 1, bare=True)))
        result = tuple(found)
        self.t.key_cache[name] = result
        return result

    def def_strs(self, name: str) -> list[str]:
        if name in self.t.str_cache:
            return self.t.str_cache[name]
        self.t.str_cache[name] = []
        result = [s for d in self.t.defs.get(name, ())[:10] for s in strings_of(d, self.def_strs, self.t.defs, 1)][:200]
        self.t.str_cache[name] = result
        return result

    def keys_of(self, node: ast.AST, depth: int = 0, *, bare: bool) -> tuple[str, ...]:
        """The keys a constant-ish expression stands for (``K_a``, ``MOVE_LEFT``, ``(K_q, K_ESCAPE)``...)."""
        if depth > 5:
            return ()
        if isinstance(node, ast.Name | ast.Attribute):
            name = ident(node)
            if name == "value" and isinstance(node, ast.Attribute):  # Enum member: Keys.LEFT.value
                name = ident(node.value)
            if name.startswith("K_"):
                key = PYGAME_KEYS.get(name)
                return (key,) if key and (bare or isinstance(node, ast.Attribute)) else ()
            if name in EVENT_ATTRS or name not in self.t.defs:
                return ()
            if isinstance(node, ast.Attribute) and ident(node.value) in self.t.pygame_aliases | {"locals"}:
                return ()  # pygame.QUIT is pygame's, whatever the app calls QUIT
            return self.def_keys(name, depth)
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return _union(self.keys_of(e, depth + 1, bare=bare) for e in node.elts)
        if isinstance(node, ast.Dict):
            keys = _union(self.keys_of(k, depth + 1, bare=bare) for k in node.keys if k is not None)
            return keys or _union(self.keys_of(v, depth + 1, bare=bare) for v in node.values)
        if isinstance(node, ast.Subscript):
            entry = self._dict_entry(node, depth, bare)
            if entry is not None:
                return entry
        if isinstance(node, ast.Call):
            name = ident(node.func)
            arg = node.args[0] if len(node.args) == 1 else None
            text = const_str(arg) if arg is not None else None
            if name == "ord" and text and len(text) == 1:
                key = char_key(text)
                return (key,) if key else ()
            if name == "key_code" and text:
                key = key_name(text)
                return (key,) if key else ()
            if name in ("set", "frozenset", "tuple", "list") and arg is not None:
                return self.keys_of(arg, depth + 1, bare=bare)
        return ()

    def _dict_entry(self, node: ast.Subscript, depth: int, bare: bool) -> tuple[str, ...] | None:
        wanted = node.slice
        if not isinstance(wanted, ast.Constant):
            return None
        for value in self.t.defs.get(ident(node.value), ()):
            if isinstance(value, ast.Dict):
                for k, v in zip(value.keys, value.values, strict=True):
                    if isinstance(k, ast.Constant) and k.value == wanted.value:
                        return self.keys_of(v, depth + 1, bare=bare)
        return None


def strings_of(node: ast.AST, lookup: Callable[[str], list[str]], defs: dict[str, list[ast.expr]],
          depth: int = 0) -> list[str]:
    """The strings a constant-ish expression can be (capped), following names and simple formatting."""
    if depth > 4:
        return []
    text = const_str(node)
    if text is not None:
        return [text]

    def sub(child: ast.AST) -> list[str]:
        return strings_of(child, lookup, defs, depth + 1)

    values: list[str] = []
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        values = [s for e in node.elts for s in sub(e)]
    elif isinstance(node, ast.Dict):
        values = [s for k in node.keys if k is not None for s in sub(k)]
    elif isinstance(node, ast.IfExp):
        values = sub(node.body) + sub(node.orelse)
    elif isinstance(node, ast.Name):
        values = lookup(node.id)
    elif isinstance(node, ast.Attribute):
        values = lookup(node.attr) if node.attr not in EVENT_ATTRS else []
    elif isinstance(node, ast.JoinedStr):
        values = [""]
        for part in node.values:
            pieces = sub(part.value if isinstance(part, ast.FormattedValue) else part)
            values = [v + p for v in values for p in pieces][:200]
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        values = [a + b for a in sub(node.left) for b in sub(node.right)]
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        right = node.right.elts[0] if isinstance(node.right, ast.Tuple) and len(node.right.elts) == 1 else node.right
        for pattern in sub(node.left):
            if pattern.count("%s") == 1:
                values += [pattern.replace("%s", r) for r in sub(right)]
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1:
        if node.func.id in ("tuple", "list", "set", "frozenset", "sorted"):
            text = const_str(node.args[0])
            values = list(text) if text is not None else sub(node.args[0])
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "split" and not node.args:
            values = [s for t in sub(node.func.value) for s in t.split()]
        elif node.func.attr in ("items", "keys"):
            values = sub(node.func.value)
        elif node.func.attr == "format" and len(node.args) == 1:
            values = [p.replace("{}", r, 1) for p in sub(node.func.value) for r in sub(node.args[0])]
    elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        for value in defs.get(ident(node.value), ()):
            if isinstance(value, ast.Dict):
                for k, v in zip(value.keys, value.values, strict=True):
                    if isinstance(k, ast.Constant) and k.value == node.slice.value:
                        values += sub(v)
    return values[:200]


def _union(parts: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    found: dict[str, None] = {}
    for part in parts:
        found.update(dict.fromkeys(part))
    return tuple(found)
