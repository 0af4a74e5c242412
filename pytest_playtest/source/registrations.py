"""Calls that tell what an app handles by registering it: Tk ``bind`` sequences, turtle's ``onkey`` and
``onclick``, menu entries, buttons and other clickable widgets with their labels, text fields and input dialogs.

A key bound to a handler that ends the app is also a quit key, and a label whose command ends it a quit text.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from .files import Module
from .found import Found
from .keynames import MOUSE_BUTTONS, key_name, parse_tk_sequence
from .strings import StringValues
from .tables import (
    BIND,
    CLICKABLE,
    COMMAND_KW,
    MENU_ADD,
    TK_TYPING,
    TURTLE_CLICKS,
    TURTLE_KEYS,
    Analysis,
    HandlerPlace,
    const_int,
    const_str,
    ident,
)

#: the input a widget's command answers, as the vocabulary's ``handlers`` name it
WIDGET_CLICK = "widget click"


class Registrations:
    """Reads the calls of one file that register handlers or make clickable things into ``found``."""

    def __init__(self, module: Module, analysis: Analysis, found: Found, values: StringValues,
                 add_key: Callable[[str | None], None]) -> None:
        self.m = module
        self.a = analysis
        self.f = found
        self.values = values
        # the scanner's own: a key read inside a test that named it with its modifiers is not a key of its own
        self.add_key = add_key

    def register(self, node: ast.Call, place: HandlerPlace) -> None:
        """What the call registers, its handlers looked up from ``place`` (the class or module it is made in)."""
        func = node.func
        name = ident(func)
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        if isinstance(func, ast.Attribute) and name in BIND:
            self._bind(node, name, keywords, place)
        elif name in TURTLE_KEYS:
            self._turtle_key(node, keywords, place)
        elif name in TURTLE_CLICKS:
            self._turtle_click(node, name, keywords, place)
        elif name in MENU_ADD:
            self._labelled(keywords.get("label"), keywords, place)
        elif name[:1].isupper() and (name.lower().endswith("button") or name in CLICKABLE):
            self._widget(node, name, keywords, place)
        if (name in TK_TYPING and self.m.uses_tk) or re.search(r"TextEntry|TextBox|InputBox|CTkEntry", name):
            self.f.typing = True
        elif name in ("askstring", "askinteger", "askfloat", "start_text_input"):
            self.f.typing = True

    def _widget(self, node: ast.Call, name: str, keywords: dict[str, ast.expr], place: HandlerPlace) -> None:
        """A button or other clickable widget, labelled by its ``text``/``label`` or first string argument."""
        text = keywords.get("text", keywords.get("label"))
        if text is None:
            text = next((a for a in node.args if const_str(a) is not None), None)
        self._labelled(text, keywords, place)
        if name == "Scale":
            self.f.drags = True

    def _labelled(self, text: ast.expr | None, keywords: dict[str, ast.expr], place: HandlerPlace) -> None:
        self.f.buttons.add("left")
        labels = [t.strip() for t in self.values.of(text)[:60] if t.strip()] if text is not None else []
        command = next((keywords[k] for k in COMMAND_KW if k in keywords), None)
        quits = bool(labels) and command is not None and self.a.callable_exits(command, place)
        func = self.a.callback(command, place) if command is not None else None
        if func is not None and func.line:
            self.f.place(WIDGET_CLICK, func.module, func.line)
        for label in labels:
            self.f.texts[label] = None
            if quits:
                self.f.quit_texts[label] = None

    def _bind(self, node: ast.Call, method: str, keywords: dict[str, ast.expr], place: HandlerPlace) -> None:
        args = node.args
        first = 1 if method in ("bind_class", "tag_bind", "event_add") else 0
        if method == "event_add":
            sequences: list[ast.expr] = list(args[1:])
            handler = None
        else:
            sequence = args[first] if len(args) > first else keywords.get("sequence")
            sequences = [sequence] if sequence is not None else []
            handler = args[first + 1] if len(args) > first + 1 else keywords.get("func")
        quits = handler is not None and self.a.callable_exits(handler, place)
        self._bound(node, handler, place)
        for sequence in sequences:
            bare = self.m.uses_tk and len(const_str(sequence) or "") == 1
            for text in self.values.of(sequence):
                for event in parse_tk_sequence(text, bare=bare):
                    if event.kind in ("key", "hotkey"):
                        self.add_key(event.value)
                        if quits:
                            self.f.quit_keys[event.value] = None
                    elif event.kind in ("button", "wheel"):
                        self.f.buttons.add(event.value)
                        self.f.place(f"{event.value} click", self.m.name, node.lineno)
                    elif event.kind == "drag":
                        self.f.drags = True
                        self.f.buttons.add(event.value)
                    elif event.kind == "pointer":
                        self.f.pointer = True

    def _bound(self, node: ast.Call, handler: ast.expr | None, place: HandlerPlace) -> None:
        """Where the function a call binds is defined, kept beside the binding line."""
        func = self.a.callback(handler, place) if handler is not None else None
        if func is not None and func.line:
            self.f.callbacks[(self.m.name, node.lineno)] = (func.module, func.line)

    def _turtle_key(self, node: ast.Call, keywords: dict[str, ast.expr], place: HandlerPlace) -> None:
        """``onkey(fun, "Up")``: a Tk keysym; ``onkeypress(fun)`` without a key takes any key typed."""
        handler = node.args[0] if node.args else keywords.get("fun")
        key = node.args[1] if len(node.args) > 1 else keywords.get("key")
        if handler is None or isinstance(handler, ast.Constant) and handler.value is None:
            return  # onkey(None, key) unbinds
        if key is None or isinstance(key, ast.Constant) and key.value is None:
            self.f.typing = True
            return
        quits = handler is not None and self.a.callable_exits(handler, place)
        self._bound(node, handler, place)
        for text in self.values.of(key):
            name = key_name(text)
            self.add_key(name)
            if quits and name:
                self.f.quit_keys[name] = None

    def _turtle_click(self, node: ast.Call, method: str, keywords: dict[str, ast.expr], place: HandlerPlace) -> None:
        """``onscreenclick(fun, btn=1)`` and a turtle's ``onclick``/``ondrag``: a button (1 left, 3 right)."""
        handler = node.args[0] if node.args else keywords.get("fun")
        if handler is None or isinstance(handler, ast.Constant) and handler.value is None:
            return  # onscreenclick(None) unbinds
        self._bound(node, handler, place)
        button = node.args[1] if len(node.args) > 1 else keywords.get("btn")
        number = 1 if button is None else const_int(button)
        self.f.buttons.add(MOUSE_BUTTONS.get(number or 1, "left"))
        self.f.place(f"{MOUSE_BUTTONS.get(number or 1, 'left')} click", self.m.name, node.lineno)
        if method == "ondrag":
            self.f.drags = True
