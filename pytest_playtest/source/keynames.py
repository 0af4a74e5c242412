"""Key names as actions spell them, read from the spellings apps use: pygame constants and key codes, Tk keysyms
and event sequences, characters, hotkeys."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..keys import FRIENDLY, X_PUNCTUATION

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
PYGAME_CODES: dict[int, str] = {
    8: "backspace", 9: "tab", 13: "enter", 27: "escape", 32: "space", 127: "delete",
    273: "up", 274: "down", 275: "right", 276: "left",
    1073741903: "right", 1073741904: "left", 1073741905: "down", 1073741906: "up",
    **{282 + n: f"f{n + 1}" for n in range(12)}, **{1073741882 + n: f"f{n + 1}" for n in range(12)},
}

MOUSE_BUTTONS = {1: "left", 2: "middle", 3: "right", 4: "wheel", 5: "wheel"}
PYGAME_BUTTONS = {"BUTTON_LEFT": "left", "BUTTON_MIDDLE": "middle", "BUTTON_RIGHT": "right",
                   "BUTTON_WHEELUP": "wheel", "BUTTON_WHEELDOWN": "wheel"}
PRESSED_INDEX = {0: "left", 1: "middle", 2: "right"}  # pygame.mouse.get_pressed() / event.buttons
KMOD = (("CTRL", "ctrl"), ("ALT", "alt"), ("META", "meta"), ("GUI", "super"), ("SHIFT", "shift"))
_MOD_ORDER = ("ctrl", "alt", "meta", "super", "shift")


def char_key(char: str) -> str | None:
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
        return char_key(name)
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


def is_hotkey(name: str) -> bool:
    return len(name) > 1 and "+" in name


def with_modifiers(mods: Iterable[str], key: str) -> str:
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
        name = MOUSE_BUTTONS.get(int(detail), "") if detail and detail in "123456789" else "left"
        return [_TkEvent("wheel" if name == "wheel" else "button", name)] if name else []
    if kind == "motion":
        if held:
            return [_TkEvent("drag", MOUSE_BUTTONS.get(n, "left")) for n in held]
        return [_TkEvent("pointer")]
    if kind in ("wheel", "pointer"):
        return [_TkEvent(kind, "wheel" if kind == "wheel" else "")]
    if kind == "key" and detail:
        key = key_name(detail)
        if key is None:
            return []
        combined = with_modifiers(mods, key)
        return [_TkEvent("hotkey" if is_hotkey(combined) else "key", combined)]
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
                key = char_key(sequence[i])
                if key:
                    events.append(_TkEvent("hotkey" if is_hotkey(key) else "key", key))
            i += 1
    return events
