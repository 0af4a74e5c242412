"""The inputs an app's code handles, read from its Python source with ``ast`` (the app is never imported).

Before a run the tester reads the app's files and lists what the code reacts to: pygame key constants
(``pygame.K_LEFT``, bare ``K_SPACE`` from ``pygame.locals``, names bound to them in another module of the
app, dicts and tuples of them, ``key.get_pressed()[K_UP]``), Tk ``bind`` sequences, characters compared
with ``event.char`` / ``keysym`` / ``unicode``, mouse buttons, drags, button and menu labels, text
fields. A key whose handler ends the app (``sys.exit``, ``pygame.quit``, ``running = False`` /
``done = True`` loop flags, ``root.destroy``, ``quit()``, a ``return`` out of the main loop, a function
doing one of these) is also a quit key, so the tester can leave it alone.

Every pygame ``K_*`` constant in the app's files is a key of the app (it exists to be compared with a
pressed key); strings count where they are compared with a key-ish value (``event.keysym``, ``.char``,
``.unicode``, ``pygame.key.name()``, a variable holding one), looked up with one (``KEYS.get(event.keysym)``)
or bound (``bind("<Left>")``, also through loop variables and ``f"<KeyPress-{k}>"``).

Key names are those ``Action.press`` accepts (``runtime/xinput.py``): "left", "enter", "escape", "space",
"a", "1", "f1", "+", X keysym names for the rest ("KP_Add"). Hotkeys are "+"-joined, modifiers first
("ctrl+s", "ctrl+shift+z", "ctrl++"); ``split_hotkey`` turns one into ``Action.hotkey`` arguments.

Order: keys, hotkeys, quit keys and texts are in first-seen order: files in scan order (``scan_app``:
the entry script, then the modules it imports, breadth first; ``scan``: the order given, folders
sorted), each file in source order. Mouse buttons are in the fixed order left, right, middle, wheel.

Standard library only; nothing here raises on a bad file: syntax errors and unreadable files are skipped.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..keys import FRIENDLY, X_PUNCTUATION

MAX_FILES = 200
MAX_BYTES = 2_000_000
MAX_FILE_BYTES = 512_000  # a bigger single .py is generated data, not the app's input handling

BUTTON_ORDER = ("left", "right", "middle", "wheel")

# -- key names ---------------------------------------------------------------------------------------------

#: Other X keysyms kept as they are (``Action.press`` resolves X keysym names).
_X_RAW = re.compile(
    r"KP_\w+|F(1[3-9]|2[0-4])|Super_R|Meta_R|Scroll_Lock|Clear|Help|Begin|Sys_Req|Break|Cancel|Undo|Redo|Find"
)
#: Lower-case spellings (``keysym.lower() == "return"``, ``pygame.key.name``) of the friendly names.
_LOWER: dict[str, str] = {
    **{k.lower(): v for k, v in FRIENDLY.items()},
    **{v: v for v in FRIENDLY.values()},
    "esc": "escape", "enter": "enter", "del": "delete", "pgup": "pageup", "pgdn": "pagedown",
    "page up": "pageup", "page down": "pagedown", "left shift": "shiftleft", "right shift": "shiftright",
    "left ctrl": "ctrlleft", "right ctrl": "ctrlright", "left alt": "altleft", "right alt": "altright",
    "ctrl": "ctrlleft", "shift": "shiftleft", "alt": "altleft", "caps lock": "capslock",
    "numlock": "numlock", "print screen": "printscreen", "keypad enter": "enter", "[+]": "KP_Add",
    "[-]": "KP_Subtract", "[*]": "KP_Multiply", "[/]": "KP_Divide",
}


def _pygame_keys() -> dict[str, str]:
    table = {f"K_{c}": c for c in "abcdefghijklmnopqrstuvwxyz0123456789"}
    table.update({f"K_F{n}": (f"f{n}" if n <= 12 else f"F{n}") for n in range(1, 25)})
    for n in range(10):
        table[f"K_KP{n}"] = table[f"K_KP_{n}"] = f"KP_{n}"
    table.update({
        "K_LEFT": "left", "K_RIGHT": "right", "K_UP": "up", "K_DOWN": "down", "K_SPACE": "space",
        "K_RETURN": "enter", "K_KP_ENTER": "enter", "K_ESCAPE": "escape", "K_TAB": "tab",
        "K_BACKSPACE": "backspace", "K_DELETE": "delete", "K_INSERT": "insert", "K_HOME": "home",
        "K_END": "end", "K_PAGEUP": "pageup", "K_PAGEDOWN": "pagedown",
        "K_LSHIFT": "shiftleft", "K_RSHIFT": "shiftright", "K_LCTRL": "ctrlleft", "K_RCTRL": "ctrlright",
        "K_LALT": "altleft", "K_RALT": "altright", "K_LMETA": "meta", "K_RMETA": "Meta_R",
        "K_LSUPER": "super", "K_RSUPER": "Super_R", "K_LGUI": "super", "K_RGUI": "Super_R",
        "K_CAPSLOCK": "capslock", "K_NUMLOCK": "numlock", "K_NUMLOCKCLEAR": "numlock",
        "K_SCROLLOCK": "Scroll_Lock", "K_SCROLLLOCK": "Scroll_Lock", "K_PRINT": "printscreen",
        "K_PRINTSCREEN": "printscreen", "K_PAUSE": "pause", "K_BREAK": "Break", "K_MENU": "menu",
        "K_CLEAR": "Clear", "K_HELP": "Help",
        "K_KP_PLUS": "KP_Add", "K_KP_MINUS": "KP_Subtract", "K_KP_MULTIPLY": "KP_Multiply",
        "K_KP_DIVIDE": "KP_Divide", "K_KP_PERIOD": "KP_Decimal", "K_KP_EQUALS": "KP_Equal",
        "K_PLUS": "+", "K_MINUS": "-", "K_EQUALS": "=", "K_PERIOD": ".", "K_COMMA": ",", "K_SLASH": "/",
        "K_BACKSLASH": "\\", "K_SEMICOLON": ";", "K_QUOTE": "'", "K_LEFTBRACKET": "[",
        "K_RIGHTBRACKET": "]", "K_BACKQUOTE": "`", "K_ASTERISK": "*", "K_EXCLAIM": "!",
        "K_QUOTEDBL": '"', "K_HASH": "#", "K_DOLLAR": "$", "K_AMPERSAND": "&", "K_LEFTPAREN": "(",
        "K_RIGHTPAREN": ")", "K_COLON": ":", "K_LESS": "<", "K_GREATER": ">", "K_QUESTION": "?",
        "K_AT": "@", "K_CARET": "^", "K_UNDERSCORE": "_", "K_PERCENT": "%",
    })
    return table


#: pygame ``K_*`` constant names → key names.
PYGAME_KEYS: dict[str, str] = _pygame_keys()

#: pygame key codes compared as numbers (``event.key == 27``), pygame 1 and 2 codes.
_PYGAME_CODES: dict[int, str] = {
    8: "backspace", 9: "tab", 13: "enter", 27: "escape", 32: "space", 127: "delete",
    273: "up", 274: "down", 275: "right", 276: "left",
    1073741903: "right", 1073741904: "left", 1073741905: "down", 1073741906: "up",
    **{282 + n: f"f{n + 1}" for n in range(12)}, **{1073741882 + n: f"f{n + 1}" for n in range(12)},
}

_MOUSE_BUTTONS = {1: "left", 2: "middle", 3: "right", 4: "wheel", 5: "wheel"}
_PYGAME_BUTTONS = {"BUTTON_LEFT": "left", "BUTTON_MIDDLE": "middle", "BUTTON_RIGHT": "right",
                   "BUTTON_WHEELUP": "wheel", "BUTTON_WHEELDOWN": "wheel"}
_PRESSED_INDEX = {0: "left", 1: "middle", 2: "right"}  # pygame.mouse.get_pressed() / event.buttons
_KMOD = (("CTRL", "ctrl"), ("ALT", "alt"), ("META", "meta"), ("GUI", "super"), ("SHIFT", "shift"))
_MOD_ORDER = ("ctrl", "alt", "meta", "super", "shift")


def _char_key(char: str) -> str | None:
    """The key name typing ``char`` (control characters are ctrl hotkeys), or None."""
    special = {" ": "space", "\r": "enter", "\n": "enter", "\t": "tab", "\x1b": "escape", "\x08": "backspace",
               "\x7f": "delete"}
    if char in special:
        return special[char]
    if "\x01" <= char <= "\x1a":
        return "ctrl+" + chr(ord(char) + 96)
    return char if " " < char <= "~" else None


def key_name(name: str) -> str | None:
    """The ``Action.press`` name of a Tk keysym, a pygame key name or a character; None if unknown."""
    if len(name) == 1:
        return _char_key(name)
    if name in FRIENDLY:
        return FRIENDLY[name]
    if name in X_PUNCTUATION:
        return X_PUNCTUATION[name]
    if _X_RAW.fullmatch(name):
        return name
    lower = name.lower()
    if lower in _LOWER:
        return _LOWER[lower]
    if lower in X_PUNCTUATION:
        return X_PUNCTUATION[lower]
    if re.fullmatch(r"f([1-9]|1[0-2])", lower):
        return lower
    return None


def split_hotkey(hotkey: str) -> tuple[str, ...]:
    """``"ctrl+s"`` → ``("ctrl", "s")``, ``"ctrl++"`` → ``("ctrl", "+")``: the ``Action.hotkey`` keys."""
    if hotkey.endswith("++"):
        return (*hotkey[:-2].split("+"), "+")
    return tuple(hotkey.split("+")) if len(hotkey) > 1 else (hotkey,)


def _is_hotkey(name: str) -> bool:
    return len(name) > 1 and "+" in name


def _hotkey(mods: Iterable[str], key: str) -> str:
    """A key with modifiers: a plain key without any, "A" for shift+a, "ctrl+shift+s" for Control-S."""
    present = set(mods)
    if len(key) == 1:
        if not present:
            return key
        if present == {"shift"} and key.isalpha():
            return key.upper()
        if key.isalpha() and key.isupper():
            present.add("shift")
            key = key.lower()
    return "+".join([m for m in _MOD_ORDER if m in present] + [key])


# -- Tk event sequences ----------------------------------------------------------------------------------

_TK_MODS: dict[str, str | None] = {
    "Control": "ctrl", "Alt": "alt", "Mod1": "alt", "M1": "alt", "Meta": "meta", "M": "meta",
    "Shift": "shift", "Lock": None, "Extended": None, "Any": None, "Double": None, "Triple": None,
    "Quadruple": None, "Mod2": None, "Mod3": None, "Mod4": None, "Mod5": None,
    "M2": None, "M3": None, "M4": None, "M5": None,
}
_TK_HELD = {f"{prefix}{n}": n for prefix in ("B", "Button") for n in range(1, 6)}
_TK_TYPES = {
    "KeyPress": "key", "Key": "key", "KeyRelease": "key", "ButtonPress": "button", "Button": "button",
    "ButtonRelease": "button", "Motion": "motion", "MouseWheel": "wheel", "TouchpadScroll": "wheel",
    "Enter": "pointer", "Leave": "pointer", "Activate": "", "Deactivate": "", "Circulate": "",
    "CirculateRequest": "", "Colormap": "", "Configure": "", "ConfigureRequest": "", "Create": "",
    "Destroy": "", "Expose": "", "FocusIn": "", "FocusOut": "", "Gravity": "", "Map": "", "MapRequest": "",
    "Property": "", "Reparent": "", "ResizeRequest": "", "Unmap": "", "Visibility": "",
}


@dataclass(frozen=True)
class _TkEvent:
    kind: str  # key | hotkey | button | drag | wheel | pointer
    value: str = ""


def _tk_group(inner: str) -> list[_TkEvent]:
    mods: list[str] = []
    held: list[int] = []
    kind: str | None = None
    detail: str | None = None
    for part in inner.split("-"):
        if kind is None and detail is None and part in _TK_MODS:
            mod = _TK_MODS[part]
            if mod:
                mods.append(mod)
        elif kind is None and detail is None and part in _TK_HELD:
            held.append(_TK_HELD[part])
        elif kind is None and detail is None and part in _TK_TYPES:
            kind = _TK_TYPES[part]
        elif detail is None and part:
            detail = part
        else:
            return []  # "Command-..." (macOS only) and malformed groups
    if kind is None:
        kind = "button" if detail in ("1", "2", "3", "4", "5") else "key" if detail else ""
    if kind == "button":
        name = _MOUSE_BUTTONS.get(int(detail), "") if detail and detail in "123456789" else "left"
        return [_TkEvent("wheel" if name == "wheel" else "button", name)] if name else []
    if kind == "motion":
        if held:
            return [_TkEvent("drag", _MOUSE_BUTTONS.get(n, "left")) for n in held]
        return [_TkEvent("pointer")]
    if kind in ("wheel", "pointer"):
        return [_TkEvent(kind, "wheel" if kind == "wheel" else "")]
    if kind == "key" and detail:
        key = key_name(detail)
        if key is None:
            return []
        combined = _hotkey(mods, key)
        return [_TkEvent("hotkey" if _is_hotkey(combined) else "key", combined)]
    return []


def parse_tk_sequence(sequence: str, *, bare: bool = True) -> list[_TkEvent]:
    """The inputs a Tk ``bind`` sequence reacts to; virtual events (``<<Copy>>``) give nothing."""
    events: list[_TkEvent] = []
    i = 0
    while i < len(sequence):
        if sequence.startswith("<<", i):
            end = sequence.find(">>", i)
            i = len(sequence) if end < 0 else end + 2
        elif sequence[i] == "<":
            end = sequence.find(">", i)
            if end < 0:
                break
            events.extend(_tk_group(sequence[i + 1:end]))
            i = end + 1
        else:
            if bare:
                key = _char_key(sequence[i])
                if key:
                    events.append(_TkEvent("hotkey" if _is_hotkey(key) else "key", key))
            i += 1
    return events


# -- the result ---------------------------------------------------------------------------------------------

#: an app taking this many letter or digit keys is played by typing
MANY_CHARACTER_KEYS = 10


@dataclass(frozen=True)
class Vocabulary:
    """What the app's code handles. ``quit_keys`` are also in ``keys`` (or ``hotkeys``): they are handled."""

    keys: tuple[str, ...] = ()
    quit_keys: tuple[str, ...] = ()
    hotkeys: tuple[str, ...] = ()
    buttons: tuple[str, ...] = ()
    drags: bool = False
    pointer: bool = False
    texts: tuple[str, ...] = ()
    quit_texts: tuple[str, ...] = ()
    typing: bool = False
    #: the code plays sound: some of its inputs may only be heard
    sound: bool = False
    sources: tuple[str, ...] = ()

    @property
    def is_empty(self) -> bool:
        """Nothing found: the tester falls back to its generic inputs."""
        return not (self.keys or self.hotkeys or self.buttons or self.texts or self.drags or self.typing)

    @property
    def safe_keys(self) -> tuple[str, ...]:
        """The keys that do not end the app."""
        return tuple(k for k in self.keys if k not in self.quit_keys)

    @property
    def types_characters(self) -> bool:
        """The app takes many letter or digit keys (a typing game, a word puzzle): it is played by typing what
        it shows, and each of those keys matters only while its character is shown."""
        return sum(len(key) == 1 and key.isalnum() for key in self.safe_keys) >= MANY_CHARACTER_KEYS

    @property
    def safe_hotkeys(self) -> tuple[str, ...]:
        return tuple(k for k in self.hotkeys if k not in self.quit_keys)

    def to_dict(self) -> dict[str, Any]:
        return {
            "keys": list(self.keys), "quit_keys": list(self.quit_keys), "hotkeys": list(self.hotkeys),
            "buttons": list(self.buttons), "drags": self.drags, "pointer": self.pointer,
            "texts": list(self.texts), "quit_texts": list(self.quit_texts), "typing": self.typing,
            "sound": self.sound, "sources": list(self.sources),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Vocabulary:
        def strings(name: str) -> tuple[str, ...]:
            return tuple(str(v) for v in data.get(name, ()))

        return cls(
            keys=strings("keys"), quit_keys=strings("quit_keys"), hotkeys=strings("hotkeys"),
            buttons=strings("buttons"), drags=bool(data.get("drags")), pointer=bool(data.get("pointer")),
            texts=strings("texts"), quit_texts=strings("quit_texts"), typing=bool(data.get("typing")),
            sound=bool(data.get("sound")), sources=strings("sources"),
        )

    def describe(self, limit: int = 40) -> str:
        """One paragraph for an LLM prompt."""
        if self.is_empty:
            return ("Inputs the code handles: none found in its source (it may read input in ways a reader "
                    "of the code cannot see).")

        def listed(items: Sequence[str], quote: bool = False) -> str:
            shown = [f'"{i}"' if quote else i for i in items[:limit]]
            more = f" and {len(items) - limit} more" if len(items) > limit else ""
            return ", ".join(shown) + more

        parts: list[str] = []
        if self.safe_keys:
            parts.append("keys " + listed(self.safe_keys))
        if self.safe_hotkeys:
            parts.append("shortcuts " + listed(self.safe_hotkeys))
        if self.quit_keys:
            parts.append("quit keys " + listed(self.quit_keys) + " (they end the app)")
        mouse = [f"{b} click" for b in self.buttons if b != "wheel"]
        mouse += ["the wheel"] if "wheel" in self.buttons else []
        mouse += ["drags with a button held"] if self.drags else []
        mouse += ["pointer movement"] if self.pointer else []
        if mouse:
            parts.append("mouse: " + ", ".join(mouse))
        if self.texts:
            quits = [t for t in self.texts if t in self.quit_texts]
            note = f" ({listed(quits, True)} end the app)" if quits else ""
            parts.append("buttons and menu entries " + listed(self.texts, True) + note)
        if self.typing:
            parts.append("typed text (text fields or typed characters)")
        return "Inputs the code handles: " + "; ".join(parts) + "."


# -- reading the files ---------------------------------------------------------------------------------------

_SKIP_DIRS = frozenset({
    "__pycache__", "site-packages", "dist-packages", "node_modules", "venv", "virtualenv", "build", "dist",
    "tests", "test", "testing",
})
_TK_MODULES = frozenset({"tkinter", "Tkinter", "customtkinter", "ttkbootstrap", "tkinterdnd2"})
#: modules that play sound (a dotted name counts with what it imports from: ``from pygame import mixer``)
_SOUND_MODULES = frozenset({"pygame.mixer", "winsound", "playsound", "simpleaudio", "pyaudio", "sounddevice",
                            "pydub", "pyglet.media", "arcade.sound", "beepy"})


def _skip_dir(name: str) -> bool:
    return (name in _SKIP_DIRS or name.startswith(".") or name.endswith((".egg-info", "_test", "_tests"))
            or name.startswith("test_"))


def _skip_file(name: str) -> bool:
    return name == "conftest.py" or name.startswith("test_") or name.endswith("_test.py")


@dataclass
class _Module:
    path: Path
    name: str
    tree: ast.Module
    uses_pygame: bool = False
    uses_tk: bool = False
    star: bool = False
    dynamic: bool = False
    imported: set[str] = field(default_factory=set)
    imports: list[tuple[int, str, tuple[str, ...]]] = field(default_factory=list)


@dataclass
class _Budget:
    files: int
    bytes: int


def _parse(path: Path, budget: _Budget, name: str | None = None) -> _Module | None:
    """The parsed file, or None (unreadable, too big, not Python): never raises."""
    try:
        size = path.stat().st_size
        if budget.files <= 0 or size > MAX_FILE_BYTES or size > budget.bytes:
            return None
        source = path.read_bytes()
        tree = ast.parse(source, filename=str(path))
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError):
        return None
    budget.files -= 1
    budget.bytes -= len(source)
    return _Module(path, name or str(path), tree)


def _tree_files(root: Path) -> Iterator[Path]:
    """The ``.py`` files under ``root`` (sorted, depth first), skipping venvs, caches and tests."""
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if not _skip_dir(d) and not (here / d / "pyvenv.cfg").exists())
        for name in sorted(files):
            if name.endswith((".py", ".pyw")) and not _skip_file(name):
                yield here / name


def _display_name(path: Path, base: Path | None) -> str:
    if base is not None:
        try:
            return str(path.relative_to(base))
        except ValueError:
            pass
    return str(path)


# -- analysis: tables over all files -----------------------------------------------------------------------

_EVENT_ATTRS = frozenset({"key", "keysym", "char", "unicode", "type", "button", "buttons", "mod", "scancode",
                          "num", "state", "text", "pos", "rel", "x", "y", "keycode", "widget"})
_KEY_VARS = frozenset({"key", "keysym", "keyname", "key_name", "pressed_key", "char"})
_STR_METHODS = frozenset({"lower", "upper", "strip", "casefold", "lstrip", "rstrip"})
_NOT_EXIT_QUIT = frozenset({"mixer", "font", "joystick", "midi", "scrap", "camera", "freetype", "fastevent",
                            "sndarray", "cdrom", "fonts", "sound", "music", "ft"})
_DESTROY_RECEIVERS = frozenset({"root", "master", "window", "win", "app", "tk", "main_window", "mainwindow",
                                "_root"})
_TK_CLASSES = frozenset({"Tk", "CTk", "Window"})
_POS_FLAGS = frozenset({"running", "isrunning", "gamerunning", "going", "playing", "keeprunning"})
_NEG_FLAGS = frozenset({"done", "quit", "quitting", "shouldquit", "exit", "exiting", "gameexit", "wantquit",
                        "shouldexit"})
_DYNAMIC = frozenset({"import_module", "__import__", "run_path", "run_module", "spec_from_file_location",
                      "iter_modules", "load_source"})
_BIND = frozenset({"bind", "bind_all", "bind_class", "tag_bind", "event_add"})
_MENU_ADD = frozenset({"add_command", "add_checkbutton", "add_radiobutton", "add_cascade"})
_COMMAND_KW = ("command", "callback", "on_click", "onclick", "action", "func")
_TK_TYPING = frozenset({"Entry", "Text", "ScrolledText", "Spinbox", "Combobox"})
_CLICKABLE = frozenset({"OptionMenu", "Combobox", "Listbox", "Scale", "Spinbox", "Menubutton"})
#: Bare calls that end the app (``bye`` is turtle's, often star-imported).
_EXIT_FUNCTIONS = frozenset({"exit", "quit", "bye"})
#: turtle's input registrations: the key argument's position (``onkey(fun, key)``), or the mouse button's
#: (``onscreenclick(fun, btn=1)``); ``ondrag`` moves with the button held.
_TURTLE_KEYS = frozenset({"onkey", "onkeyrelease", "onkeypress"})
_TURTLE_CLICKS = frozenset({"onscreenclick", "onclick", "onrelease", "ondrag"})
#: The standard library's strings of characters (``for letter in ascii_lowercase: onkey(..., letter)``).
_STRING_CONSTANTS = {"ascii_lowercase": "abcdefghijklmnopqrstuvwxyz", "ascii_uppercase": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                     "ascii_letters": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", "digits": "0123456789"}


def _ident(node: ast.AST) -> str:
    """The last identifier of a name, attribute chain, call or subscript ("" if none)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):
        return _ident(node.func)
    if isinstance(node, ast.Subscript):
        return _ident(node.value)
    return ""


def _flag(name: str) -> str:
    return name.lower().replace("_", "")


def _eventish(node: ast.AST) -> bool:
    name = _ident(node).lower()
    return name in ("e", "ev", "evt", "event", "events", "ievent") or "event" in name


def _const_int(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    return None


def _const_str(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


@dataclass(eq=False)
class _Func:
    """What the first pass records of one function, enough to tell later whether calling it ends the app."""

    name: str
    cls: str | None
    module: str
    tk: bool
    has_while: bool = False
    raises_exit: bool = False
    exit_calls: list[ast.Call] = field(default_factory=list)
    flag_sets: list[tuple[str, bool]] = field(default_factory=list)
    calls: list[tuple[str, str]] = field(default_factory=list)  # (name, "self" | "name" | "attr")
    local_names: set[str] = field(default_factory=set)  # a root made here and destroyed is a temporary one


def _call_kind(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return "name"
    return "self" if isinstance(func, ast.Attribute) and _ident(func.value) in ("self", "cls") else "attr"


def _flag_target(node: ast.AST) -> bool:
    """``running = False``, ``self.running = False``, ``game.done = True``: not ``a.b.running`` (another's)."""
    return isinstance(node, ast.Name) or isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)


def _exit_candidate(call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id in _EXIT_FUNCTIONS
    return isinstance(func, ast.Attribute) and func.attr in ("exit", "_exit", "quit", "destroy", "post", "bye")


@dataclass
class _Tables:
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


class _Visitor(ast.NodeVisitor):
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


class _Collector(_Visitor):
    """First pass over one file: imports, module/class-level names, functions, main loops."""

    def __init__(self, module: _Module, tables: _Tables) -> None:
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
            elif top in _TK_MODULES:
                self.m.uses_tk = True

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        names = tuple(alias.name for alias in node.names)
        self.m.imports.append((node.level, module, names))
        top = module.split(".")[0]
        if top == "pygame":
            self.m.uses_pygame = True
        elif top in _TK_MODULES:
            self.m.uses_tk = True
        if "*" in names:
            self.m.star = True
        self.m.imported.update(alias.asname or alias.name for alias in node.names)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.scopes.append("class")
        self.classes.append(node.name)
        self.tk.append(any(_ident(base) in _TK_CLASSES for base in node.bases))
        self.generic_visit(node)
        self.tk.pop()
        self.classes.pop()
        self.scopes.pop()

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        func = _Func(node.name, self.classes[-1], self.m.name, self.tk[-1])
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
        if func is not None and not self.lambdas and node.exc is not None and _ident(node.exc) == "SystemExit":
            func.raises_exit = True
        self.generic_visit(node)

    def _define(self, target: ast.AST, value: ast.expr) -> None:
        if isinstance(target, ast.Name) and "function" not in self.scopes:
            self.t.defs.setdefault(target.id, []).append(value)
        elif isinstance(target, ast.Attribute) and _ident(target.value) in ("self", "cls"):
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
                    func.flag_sets.append((_flag(_ident(target)), bool(node.value.value)))
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._define(node.target, node.value)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = _ident(node.func)
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
class _Where:
    """Where a handler is: for resolving ``self.method`` and bare function names."""

    tk: bool
    cls: str | None
    module: str


class _Analysis:
    """Everything known over all files: name resolution and "does this end the app"."""

    def __init__(self, tables: _Tables) -> None:
        self.t = tables
        self.t.entry.update({"main", "run", "mainloop", "game_loop", "main_loop"})
        self._main_loops()
        self._exiting()

    # -- main loops and their flags
    def _main_loops(self) -> None:
        """Loop flags: those of main loops (the last top-level ``while`` of the module or of an entry
        function: a title screen's loop comes before the game's), and usual names (``running``, ``done``)
        of any loop."""
        for name, whiles in self.t.scope_whiles:
            if whiles and (name is None or name in self.t.entry):
                last = whiles[-1]
                self.t.main_whiles.add(id(last))
                self._flags(last.test, negated=False)
        for test in self.t.loop_tests:
            self._flags(test, negated=False, usual=True)

    def _flags(self, test: ast.expr, negated: bool, usual: bool = False) -> None:
        if isinstance(test, ast.Name | ast.Attribute):
            if _flag_target(test):
                flag = _flag(_ident(test))
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
                        self.call_exits(name, kind, _Where(func.tk, func.cls, func.module))
                        for name, kind in func.calls):
                    self.t.exiting.add(id(func))
                    changed = True

    def call_exits(self, name: str, kind: str, where: _Where) -> bool:
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
        receiver = _ident(func.value)
        if func.attr == "exit" and receiver == "sys" or func.attr == "_exit" and receiver == "os":
            return True
        if func.attr == "bye":  # turtle.bye(), screen.bye()
            return True
        if func.attr == "destroy":
            if local_names and isinstance(func.value, ast.Name) and receiver in local_names:
                return False
            return receiver.lower() in _DESTROY_RECEIVERS or (receiver == "self" and tk)
        if func.attr == "post" and call.args:  # pygame.event.post(pygame.event.Event(pygame.QUIT))
            return any(_ident(n) == "QUIT" for n in ast.walk(call.args[0]))
        if func.attr == "quit":
            if receiver in self.t.pygame_aliases or receiver == "display":
                return True
            return "quit" not in self.t.functions and receiver not in _NOT_EXIT_QUIT
        return False

    def exits(self, nodes: Sequence[ast.AST], where: _Where, *, returns: bool = False, breaks: bool = False) -> bool:
        """Whether running these statements (a key's handler) ends the app."""
        stack: list[tuple[ast.AST, bool]] = [(node, breaks) for node in reversed(nodes)]
        while stack:
            node, can_break = stack.pop()
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
                continue
            if isinstance(node, ast.Call):
                if self._exit_call(node, where.tk) or self.call_exits(_ident(node.func), _call_kind(node.func), where):
                    return True
            elif isinstance(node, ast.Raise) and node.exc is not None and _ident(node.exc) == "SystemExit":
                return True
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                value = bool(node.value.value)
                if any(_flag_target(t) and self._quit_flag(_flag(_ident(t)), value)
                       for t in node.targets):
                    return True
            elif isinstance(node, ast.Return) and returns or isinstance(node, ast.Break) and can_break:
                return True
            inner = can_break and not isinstance(node, ast.For | ast.While | ast.AsyncFor)
            stack.extend((child, inner) for child in reversed(list(ast.iter_child_nodes(node))))
        return False

    def callable_exits(self, node: ast.expr, where: _Where) -> bool:
        """Whether calling this handler (a ``command=`` or ``bind`` callback) ends the app."""
        if isinstance(node, ast.Lambda):
            return self.exits([node.body], where)
        if isinstance(node, ast.Call) and _ident(node.func) == "partial" and node.args:
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
        result = [s for d in self.t.defs.get(name, ())[:10] for s in _strs(d, self.def_strs, self.t.defs, 1)][:200]
        self.t.str_cache[name] = result
        return result

    def keys_of(self, node: ast.AST, depth: int = 0, *, bare: bool) -> tuple[str, ...]:
        """The keys a constant-ish expression stands for (``K_a``, ``MOVE_LEFT``, ``(K_q, K_ESCAPE)``...)."""
        if depth > 5:
            return ()
        if isinstance(node, ast.Name | ast.Attribute):
            name = _ident(node)
            if name == "value" and isinstance(node, ast.Attribute):  # Enum member: Keys.LEFT.value
                name = _ident(node.value)
            if name.startswith("K_"):
                key = PYGAME_KEYS.get(name)
                return (key,) if key and (bare or isinstance(node, ast.Attribute)) else ()
            if name in _EVENT_ATTRS or name not in self.t.defs:
                return ()
            if isinstance(node, ast.Attribute) and _ident(node.value) in self.t.pygame_aliases | {"locals"}:
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
            name = _ident(node.func)
            arg = node.args[0] if len(node.args) == 1 else None
            text = _const_str(arg) if arg is not None else None
            if name == "ord" and text and len(text) == 1:
                key = _char_key(text)
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
        for value in self.t.defs.get(_ident(node.value), ()):
            if isinstance(value, ast.Dict):
                for k, v in zip(value.keys, value.values, strict=True):
                    if isinstance(k, ast.Constant) and k.value == wanted.value:
                        return self.keys_of(v, depth + 1, bare=bare)
        return None


def _strs(node: ast.AST, lookup: Callable[[str], list[str]], defs: dict[str, list[ast.expr]],
          depth: int = 0) -> list[str]:
    """The strings a constant-ish expression can be (capped), following names and simple formatting."""
    if depth > 4:
        return []
    text = _const_str(node)
    if text is not None:
        return [text]

    def sub(child: ast.AST) -> list[str]:
        return _strs(child, lookup, defs, depth + 1)

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
        values = lookup(node.attr) if node.attr not in _EVENT_ATTRS else []
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
            text = _const_str(node.args[0])
            values = list(text) if text is not None else sub(node.args[0])
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "split" and not node.args:
            values = [s for t in sub(node.func.value) for s in t.split()]
        elif node.func.attr in ("items", "keys"):
            values = sub(node.func.value)
        elif node.func.attr == "format" and len(node.args) == 1:
            values = [p.replace("{}", r, 1) for p in sub(node.func.value) for r in sub(node.args[0])]
    elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        for value in defs.get(_ident(node.value), ()):
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


# -- analysis: the second pass, what each file handles ---------------------------------------------------------


@dataclass
class _Found:
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
        (self.hotkeys if _is_hotkey(name) else self.keys)[name] = None


class _Scanner(_Visitor):
    """Second pass over one file, in source order."""

    def __init__(self, module: _Module, analysis: _Analysis, found: _Found) -> None:
        self.m = module
        self.a = analysis
        self.f = found
        self.bare = module.uses_pygame or module.star
        self.aliases: dict[str, str] = {}  # local names holding event.keysym / char / key
        self.strings: dict[str, list[str]] = {}  # local names holding strings (loop variables included)
        self.pressed: dict[str, int | None] = {}  # names holding pygame.mouse.get_pressed() (or one of it)
        self.funcs: list[str | None] = [None]
        self.loops: list[list[ast.AST]] = [[]]
        self.where: list[_Where] = [_Where(False, None, module.name)]
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
        tk = any(_ident(base) in _TK_CLASSES for base in node.bases)
        self.where.append(_Where(tk, node.name, self.m.name))
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
            if isinstance(iterated, ast.Call) and _ident(iterated.func) == "enumerate" and iterated.args:
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
                    self.f.buttons.add(_PRESSED_INDEX.get(index, "left"))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Load):
            self._reference(node, node.attr)
            if self.accumulating and (node.attr == "unicode" or node.attr == "char" and _eventish(node.value)):
                self.f.typing = True  # text += event.unicode: the app keeps what is typed
            elif node.attr == "buttons" and _eventish(node.value):
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
        elif name in _PYGAME_BUTTONS and (self.bare or isinstance(node, ast.Attribute)):
            self.f.buttons.add(_PYGAME_BUTTONS[name])
            self.button_compared = True
        elif name in self.a.t.defs and name not in _EVENT_ATTRS and not self.suppress:
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
            name = _ident(target)
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
                and _ident(node.func.value) == "mouse")

    def visit_Subscript(self, node: ast.Subscript) -> None:
        index = _const_int(node.slice)
        if index is not None:
            if self._mouse_call(node.value, "get_pressed"):
                self.f.buttons.add(_PRESSED_INDEX.get(index, "left"))
            elif isinstance(node.value, ast.Name) and node.value.id in self.pressed:
                self.f.buttons.add(_PRESSED_INDEX.get(index, "left"))
                self.generic_visit(node.slice)
                return
            elif isinstance(node.value, ast.Attribute) and node.value.attr == "buttons":
                self.motion_buttons = True
                self.f.buttons.add(_PRESSED_INDEX.get(index, "left"))
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
        return _char_key(value) if kind == "char" and len(value) == 1 else key_name(value)

    # -- comparisons and tests
    def source(self, node: ast.AST) -> str | None:
        """What a key-ish expression holds: "keysym", "char", "code" (a pygame key), "name", "any"."""
        if isinstance(node, ast.Attribute):
            if node.attr == "keysym":
                return "keysym"
            if node.attr in ("char", "unicode"):
                return "char"
            if node.attr == "key" and _eventish(node.value):
                return "code"
            return None
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in _STR_METHODS:
                return self.source(func.value)
            if isinstance(func, ast.Attribute) and func.attr == "name" and _ident(func.value) == "key":
                return "name"
            if isinstance(func, ast.Name) and func.id == "chr":
                return "char"
            return None
        if isinstance(node, ast.Name):
            return self.aliases.get(node.id) or ("any" if node.id in _KEY_VARS else None)
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
                    code = _PYGAME_CODES.get(number) or (_char_key(chr(number)) if 32 < number < 127 else None)
                    if code:
                        keys.append(code)
        return keys, others

    def _ints(self, node: ast.AST) -> list[int]:
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return [n for e in node.elts for n in self._ints(e)]
        number = _const_int(node)
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
            if (isinstance(operand, ast.Attribute) and operand.attr in ("button", "num") and _eventish(operand.value)
                    or isinstance(operand, ast.Name) and operand.id in ("button", "btn", "mouse_button")):
                for other in operands:
                    for number in self._ints(other):
                        if number in _MOUSE_BUTTONS:
                            self.f.buttons.add(_MOUSE_BUTTONS[number])
                            self.button_compared = True
        self.generic_visit(node)

    def test_keys(self, node: ast.AST, direct: bool = True) -> tuple[list[str], set[str]]:
        """Keys an ``if`` test is about, and the modifiers (KMOD_*) it requires."""
        keys: list[str] = []
        mods: set[str] = set()
        if isinstance(node, ast.Name | ast.Attribute | ast.Subscript):
            name = _ident(node)
            if name.startswith("KMOD_"):
                mods.update(m for tag, m in _KMOD if tag in name)
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
            keys = list(dict.fromkeys(_hotkey(mods, k) for k in keys))
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
            text = _const_str(pattern.value)
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
        name = _ident(func)
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        if isinstance(func, ast.Attribute) and name in _BIND:
            self._bind(node, name, keywords)
        elif name in _TURTLE_KEYS:
            self._turtle_key(node, keywords)
        elif name in _TURTLE_CLICKS:
            self._turtle_click(node, name, keywords)
        elif name in _MENU_ADD:
            self._labelled(keywords.get("label"), keywords)
        elif name[:1].isupper() and (name.lower().endswith("button") or name in _CLICKABLE):
            text = keywords.get("text", keywords.get("label"))
            if text is None:
                text = next((a for a in node.args if _const_str(a) is not None), None)
            self._labelled(text, keywords)
            if name == "Scale":
                self.f.drags = True
        if (name in _TK_TYPING and self.m.uses_tk) or re.search(r"TextEntry|TextBox|InputBox|CTkEntry", name):
            self.f.typing = True
        elif name in ("askstring", "askinteger", "askfloat", "start_text_input"):
            self.f.typing = True
        elif self._mouse_call(node, "get_pressed"):
            self.mouse_pressed = True
        elif self._mouse_call(node, "get_pos") or self._mouse_call(node, "get_rel"):
            self.f.pointer = True
        elif name == "key_code" and node.args:
            self.add_key(key_name(_const_str(node.args[0]) or ""))
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
        command = next((keywords[k] for k in _COMMAND_KW if k in keywords), None)
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
            bare = self.m.uses_tk and len(_const_str(sequence) or "") == 1
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
        number = 1 if button is None else _const_int(button)
        self.f.buttons.add(_MOUSE_BUTTONS.get(number or 1, "left"))
        if method == "ondrag":
            self.f.drags = True

    # -- string values (bind sequences, compared constants)
    def strs(self, node: ast.AST) -> list[str]:
        return _strs(node, self._lookup, self.a.t.defs)

    def _iterated(self, node: ast.expr) -> list[str]:
        """The strings ``for x in node`` / ``x in node`` go over: a string's characters, a collection's items."""
        if isinstance(node, ast.Name) and node.id in self.strings:
            return self.strings[node.id]
        if isinstance(node, ast.Name | ast.Attribute):
            values = self.a.t.defs.get(_ident(node), ())
            if values and all(_const_str(v) is not None for v in values):
                return [c for v in values for c in _const_str(v) or ""][:200]
            if not values and _ident(node) in _STRING_CONSTANTS:
                return list(_STRING_CONSTANTS[_ident(node)])
        if isinstance(node, ast.Call) and _ident(node.func) == "enumerate" and node.args:
            return []  # (index, item) pairs: see the tuple targets of visit_For
        text = _const_str(node)
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
            return [r for d in self.a.t.defs.get(_ident(node), ())[:5] for r in self._rows(d, depth + 1)]
        return []

    def _dicts(self, node: ast.AST) -> list[ast.Dict]:
        if isinstance(node, ast.Dict):
            return [node]
        if isinstance(node, ast.Name | ast.Attribute):
            return [d for d in self.a.t.defs.get(_ident(node), ())[:5] if isinstance(d, ast.Dict)]
        return []


# -- entry points ------------------------------------------------------------------------------------------------


def _collect(module: _Module, tables: _Tables) -> None:
    try:
        _Collector(module, tables).visit(module.tree)
    except RecursionError:
        pass


def _analyse(modules: list[_Module], tables: _Tables) -> Vocabulary:
    analysis = _Analysis(tables)
    found = _Found()
    for module in modules:
        try:
            _Scanner(module, analysis, found).run()
        except RecursionError:
            continue
    quit_keys = [k for k in found.quit_keys if k in found.keys or k in found.hotkeys]
    return Vocabulary(
        keys=tuple(found.keys),
        quit_keys=tuple(quit_keys),
        hotkeys=tuple(found.hotkeys),
        buttons=tuple(b for b in BUTTON_ORDER if b in found.buttons),
        drags=found.drags,
        pointer=found.pointer,
        texts=tuple(found.texts),
        quit_texts=tuple(found.quit_texts),
        typing=found.typing,
        sound=found.sound or any(map(_imports_sound, modules)),
        sources=tuple(m.name for m in modules),
    )


def _imports_sound(module: _Module) -> bool:
    for _, name, names in module.imports:
        for dotted in (name, *(f"{name}.{n}" for n in names)):
            if any(dotted == m or dotted.startswith(m + ".") for m in _SOUND_MODULES):
                return True
    return False


def scan(paths: Iterable[Path], *, max_files: int = MAX_FILES, max_bytes: int = MAX_BYTES) -> Vocabulary:
    """The vocabulary of these files (folders: their ``.py`` files, sorted, tests and venvs skipped)."""
    budget = _Budget(max_files, max_bytes)
    tables = _Tables()
    modules: list[_Module] = []
    seen: set[Path] = set()
    for path in paths:
        path = Path(path)
        for file in _tree_files(path) if path.is_dir() else [path]:
            resolved = file.resolve()
            if resolved in seen:
                continue
            seen.add(resolved)
            module = _parse(file, budget)
            if module is not None:
                _collect(module, tables)
                modules.append(module)
    return _analyse(modules, tables)


@dataclass
class _Entry:
    script: Path
    roots: list[Path]  # where absolute imports are looked for
    bound: Path  # only files under this folder belong to the app
    tree: Path  # the folder read whole when the app imports dynamically
    extra: list[Path] = field(default_factory=list)  # package __init__ files run before the entry


def _find_module(name: str, cwd: Path) -> _Entry | None:
    parts = [p for p in name.split(".") if p]
    if not parts:
        return None
    roots = [cwd, cwd / "src", *(Path(p) if p else cwd for p in sys.path)]
    for root in roots:
        if not root.is_dir():
            continue
        base = root.joinpath(*parts)
        for script in (base.with_name(base.name + ".py"), base / "__main__.py"):
            if script.is_file():
                top = root / parts[0]
                tree = top if top.is_dir() else root
                # under cwd, modules next to the package are the app's too (cwd is on sys.path with -m)
                bound = root if root in roots[:2] else tree
                inits = [root.joinpath(*parts[:n], "__init__.py") for n in range(1, len(parts) + 1)]
                return _Entry(script, [root], bound, tree, [p for p in inits if p.is_file()])
    return None


def _find_entry(app: str | Sequence[str], cwd: Path) -> _Entry | None:
    if isinstance(app, str):
        whole = Path(app) if Path(app).is_absolute() else cwd / app
        if app.endswith((".py", ".pyw")) and whole.is_file():
            return _Entry(whole, [whole.parent], whole.parent, whole.parent)
        try:
            argv = shlex.split(app)
        except ValueError:
            argv = app.split()
    else:
        argv = [str(a) for a in app]
    for i, arg in enumerate(argv):
        if arg == "-m" and i + 1 < len(argv):
            return _find_module(argv[i + 1], cwd)
        if arg.startswith("-m") and len(arg) > 2 and i > 0:
            return _find_module(arg[2:], cwd)
        if arg.endswith((".py", ".pyw")):
            path = Path(arg) if Path(arg).is_absolute() else cwd / arg
            if path.is_file():
                return _Entry(path, [path.parent], path.parent, path.parent)
    if argv:  # an executable script with a python shebang
        path = Path(argv[0]) if Path(argv[0]).is_absolute() else cwd / argv[0]
        try:
            with path.open("rb") as script:
                first = script.readline(200)
        except OSError:
            return None
        if first.startswith(b"#!") and b"python" in first:
            return _Entry(path, [path.parent], path.parent, path.parent)
    return None


def _allowed(path: Path, bound: Path) -> bool:
    try:
        relative = path.relative_to(bound)
    except ValueError:
        return False
    return not any(_skip_dir(part) for part in relative.parts[:-1]) and not _skip_file(path.name)


def _import_candidates(module: _Module, imp: tuple[int, str, tuple[str, ...]], roots: list[Path]) -> list[Path]:
    level, name, names = imp
    parts = [p for p in name.split(".") if p]
    if level:
        base = module.path.parent
        for _ in range(level - 1):
            base = base.parent
        bases = [base]
    else:
        bases = list(roots)
        if not parts:
            return []
    for base in bases:
        found: list[Path] = []
        for n in range(1, len(parts) + 1):  # packages on the way run their __init__
            init = base.joinpath(*parts[:n], "__init__.py")
            if init.is_file():
                found.append(init)
        target = base.joinpath(*parts)
        if parts and target.with_name(target.name + ".py").is_file():
            found.append(target.with_name(target.name + ".py"))
        elif target.is_dir():
            for sub in names:
                if sub == "*":
                    continue
                for candidate in (target / f"{sub}.py", target / sub / "__init__.py"):
                    if candidate.is_file():
                        found.append(candidate)
                        break
        if found:
            return found
    return []


def scan_app(
    app: str | Sequence[str],
    cwd: Path | None,
    *,
    whole_tree: bool = False,
    max_files: int = MAX_FILES,
    max_bytes: int = MAX_BYTES,
) -> Vocabulary:
    """The vocabulary of the app launched as ``app`` (a ``.py`` path, a command line or an argv).

    The entry is the first ``.py`` of the command (or ``-m module``, looked up under ``cwd``, ``cwd/src``
    and ``sys.path`` on disk, never imported). Read: the entry, then the app modules it imports (breadth
    first), and, when an app file imports dynamically (``importlib``, ``__import__``) or ``whole_tree`` is
    set, every other ``.py`` of the entry's folder tree (sorted). Never outside that tree; venvs, caches,
    ``site-packages`` and tests are skipped; at most ``max_files`` files / ``max_bytes`` bytes.
    """
    base = Path(cwd) if cwd is not None else Path.cwd()
    entry = _find_entry(app, base)
    if entry is None:
        return Vocabulary()
    budget = _Budget(max_files, max_bytes)
    tables = _Tables()
    display_base = base if entry.tree.is_relative_to(base) else entry.roots[0]

    modules: list[_Module] = []
    seen: set[Path] = set()
    queue = [entry.script, *entry.extra]
    tree_added = False
    while budget.files > 0:
        if not queue:
            if tree_added or not (whole_tree or any(m.dynamic for m in modules)):
                break
            tree_added = True
            queue.extend(_tree_files(entry.tree))
            continue
        path = queue.pop(0)
        resolved = path.resolve()
        if resolved in seen:
            continue
        seen.add(resolved)
        if path != entry.script and not _allowed(path, entry.bound):
            continue
        module = _parse(path, budget, _display_name(path, display_base))
        if module is None:
            continue
        _collect(module, tables)
        modules.append(module)
        for imp in module.imports:
            queue.extend(_import_candidates(module, imp, entry.roots))
    return _analyse(modules, tables)
