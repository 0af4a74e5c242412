"""Key names: the ones actions use (``Action.press("enter")``) and the X keysyms they are sent as.

One table both ways: ``runtime/xinput`` sends a name as its keysym, and the input vocabulary names a key
read from an app's source (a Tk keysym, a turtle key) by it.
"""

from __future__ import annotations

#: The key names of actions and the X keysym each one is sent as.
X_KEYSYMS: dict[str, str] = {
    "enter": "Return", "space": "space", "tab": "Tab", "escape": "Escape", "backspace": "BackSpace",
    "delete": "Delete", "insert": "Insert", "up": "Up", "down": "Down", "left": "Left", "right": "Right",
    "home": "Home", "end": "End", "pageup": "Prior", "pagedown": "Next", "shiftleft": "Shift_L",
    "shiftright": "Shift_R", "ctrlleft": "Control_L", "ctrlright": "Control_R", "altleft": "Alt_L",
    "altright": "Alt_R", "super": "Super_L", "meta": "Meta_L", "capslock": "Caps_Lock", "numlock": "Num_Lock",
    "printscreen": "Print", "pause": "Pause", "menu": "Menu",
    **{f"f{n}": f"F{n}" for n in range(1, 13)},
}
#: Movement keys (arrows, WASD, vi's hjkl) and the key that moves the other way: a move is undone by its
#: opposite, so the way back is open right after a move.
OPPOSITE: dict[str, str] = {
    a: b for one, other in (("left", "right"), ("up", "down"), ("a", "d"), ("w", "s"), ("h", "l"), ("k", "j"))
    for a, b in ((one, other), (other, one))
}
MOVEMENT_KEYS = frozenset(OPPOSITE)
#: Arrows, WASD and vi's hjkl: three spellings of four directions, each as direction -> key.
SPELLINGS: dict[str, dict[str, str]] = {
    "arrows": {"left": "left", "right": "right", "up": "up", "down": "down"},
    "WASD": {"left": "a", "right": "d", "up": "w", "down": "s"},
    "hjkl": {"left": "h", "right": "l", "up": "k", "down": "j"},
}
#: The spelling a movement key belongs to.
SPELLING_OF: dict[str, str] = {key: name for name, spelling in SPELLINGS.items() for key in spelling.values()}
#: The way each movement key moves: a key that undoes a move is any key of the opposite direction (D undoes Left
#: as Right does).
DIRECTION: dict[str, str] = {key: way for spelling in SPELLINGS.values() for way, key in spelling.items()}
#: Each way as a unit step on the screen (x right, y down).
VECTOR: dict[str, tuple[int, int]] = {"right": (1, 0), "left": (-1, 0), "down": (0, 1), "up": (0, -1)}


def along(key: str, way: str) -> bool:
    """Whether a movement key moves along ``way`` ("left", "up"...) or back (the arrows are named as the ways); a
    course-keeping avatar, a snake, refuses both."""
    return bool(way) and DIRECTION.get(key) in (way, OPPOSITE.get(way))


#: Other spellings an action may use for those keys.
SYNONYMS: dict[str, str] = {
    "return": "enter", "esc": "escape", "del": "delete", "pgup": "pageup", "pgdn": "pagedown",
    "shift": "shiftleft", "ctrl": "ctrlleft", "control": "ctrlleft", "alt": "altleft", "win": "super",
    "cmd": "super",
}
#: Other X keysyms read as one of those keys (Page_Up is Prior; ISO_Left_Tab, Shift+Tab, is pressed as Tab).
X_SYNONYMS: dict[str, str] = {"ISO_Left_Tab": "Tab", "Page_Up": "Prior", "Page_Down": "Next"}
#: X keysym names of printable characters, and the character each one types.
X_PUNCTUATION: dict[str, str] = {
    "plus": "+", "minus": "-", "asterisk": "*", "slash": "/", "equal": "=", "period": ".", "comma": ",",
    "exclam": "!", "quotedbl": '"', "numbersign": "#", "dollar": "$", "percent": "%", "ampersand": "&",
    "apostrophe": "'", "quoteright": "'", "parenleft": "(", "parenright": ")", "colon": ":",
    "semicolon": ";", "less": "<", "greater": ">", "question": "?", "at": "@", "bracketleft": "[",
    "backslash": "\\", "bracketright": "]", "asciicircum": "^", "underscore": "_", "grave": "`",
    "quoteleft": "`", "braceleft": "{", "bar": "|", "braceright": "}", "asciitilde": "~",
}
#: Every name ``xinput`` accepts beside keysym names and single characters, and the keysym it sends.
SENT_AS: dict[str, str] = {
    **X_KEYSYMS,
    **{name: X_KEYSYMS[key] for name, key in SYNONYMS.items()},
    **{character: keysym for keysym, character in X_PUNCTUATION.items()},
    " ": "space", "\n": "Return", "\t": "Tab",
}
_NAME_OF_KEYSYM = {keysym: name for name, keysym in X_KEYSYMS.items()}
#: The action key name of an X keysym (a Tk keysym read from an app's source), where one exists.
FRIENDLY: dict[str, str] = {
    **_NAME_OF_KEYSYM,
    **{alias: _NAME_OF_KEYSYM[keysym] for alias, keysym in X_SYNONYMS.items()},
}
