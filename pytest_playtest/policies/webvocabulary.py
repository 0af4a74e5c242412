"""The inputs a web app's JavaScript/TypeScript handles, read from its files (never run).

The counterpart of :mod:`.vocabulary` for web apps: key names compared with an event's ``key``/``code``
(``e.key === 'ArrowLeft'``, ``case "KeyW":``, ``keyCode == 32``) in files that listen for keys, the mouse
buttons its listeners take (``addEventListener('mousedown'…)``, ``onclick``, ``contextmenu``, ``wheel``),
drags (a button listener beside a move listener), typing (text fields in its HTML) and the labels of
its HTML buttons. Regular expressions
over the source are enough for these forms; a file that builds its key names at run time is not seen.
"""

from __future__ import annotations

import re
from pathlib import Path

from .vocabulary import MAX_BYTES, MAX_FILE_BYTES, MAX_FILES, Vocabulary, key_name

WEB_SOURCES = (".js", ".mjs", ".ts", ".tsx", ".jsx", ".html", ".htm")
_SKIP_DIRS = frozenset({"node_modules", ".git", "dist-types", "coverage"})

#: ``KeyboardEvent.key`` / ``.code`` names → Action.press names.
_JS_KEYS = {"ArrowLeft": "left", "ArrowRight": "right", "ArrowUp": "up", "ArrowDown": "down", "Enter": "enter",
            "Escape": "escape", "Esc": "escape", "Tab": "tab", "Backspace": "backspace", "Delete": "delete",
            " ": "space", "Space": "space", "Spacebar": "space", "Home": "home", "End": "end",
            "PageUp": "pageup", "PageDown": "pagedown", "ShiftLeft": "shift", "ShiftRight": "shift",
            "Shift": "shift", "Control": "ctrl", "ControlLeft": "ctrl", "Alt": "alt", "Left": "left",
            "Right": "right", "Up": "up", "Down": "down", "NumpadEnter": "enter"}
#: ``KeyboardEvent.keyCode`` / ``which`` numbers of the keys games use.
_KEY_CODES = {8: "backspace", 9: "tab", 13: "enter", 27: "escape", 32: "space", 37: "left", 38: "up",
              39: "right", 40: "down"}

_LISTENS_KEYS = re.compile(r"""['"`](?:keydown|keyup|keypress)['"`]|\bonkey(?:down|up|press)\b""")
_QUOTED = re.compile(r"""(['"`])((?:(?!\1).){1,12})\1""")
_COMPARED = re.compile(r"""\b(?:key|code)\s*(?:===?|!==?)\s*(['"`])((?:(?!\1).){1,12})\1|"""
                       r"""(['"`])((?:(?!\3).){1,12})\3\s*(?:===?|!==?)\s*[\w.]*\b(?:key|code)\b|"""
                       r"""\bcase\s+(['"`])((?:(?!\5).){1,12})\5\s*:""")
_TABLE_KEY = re.compile(r"\b(Arrow(?:Left|Right|Up|Down)|Key[A-Z]|Digit[0-9]|Enter|Escape|Space)\s*:")
_KEY_CODE = re.compile(r"\b(?:keyCode|which)\s*(?:===?|!==?)\s*(\d+)|\bcase\s+(\d+)\s*:")
_LISTENER = r"""(?:addEventListener\s*\(\s*['"`]|\bon)"""
_BUTTONS = {"left": re.compile(_LISTENER + r"(?:click|mousedown|mouseup|pointerdown|pointerup|dblclick|touchstart)\b"),
            "right": re.compile(_LISTENER + r"contextmenu\b|\bbutton\s*===?\s*2\b"),
            "wheel": re.compile(_LISTENER + r"wheel\b")}
_MOVES = re.compile(_LISTENER + r"(?:mousemove|pointermove|touchmove)\b")
_BUTTON_TEXT = re.compile(r"<button\b[^>]*>(.*?)</button>|<input\b[^>]*type=['\"]?(?:button|submit)['\"]?[^>]*"
                          r"value=['\"]([^'\"]+)", re.I | re.S)
_TAG = re.compile(r"<[^>]+>")
_TYPING = re.compile(r"<input(?![^>]*type=['\"]?(?:button|submit|checkbox|radio|range|hidden))|<textarea|"
                     r"contenteditable", re.I)


def _js_key(name: str) -> str | None:
    if name in _JS_KEYS:
        return _JS_KEYS[name]
    if match := re.fullmatch(r"Key([A-Z])|Digit([0-9])", name):
        return (match.group(1) or match.group(2)).lower()
    if len(name) == 1:
        return key_name(name)
    return None


def _files(root: Path) -> list[Path]:
    found: list[Path] = []
    for path in sorted(root.rglob("*")):
        if len(found) >= MAX_FILES:
            break
        if path.suffix in WEB_SOURCES and path.is_file() and not _SKIP_DIRS & set(path.relative_to(root).parts):
            found.append(path)
    return found


def scan_web_app(root: Path) -> Vocabulary:
    """The vocabulary of the web app served from ``root`` (its .js/.ts/.html files, within the budgets)."""
    keys: dict[str, None] = {}
    buttons: set[str] = set()
    texts: dict[str, None] = {}
    moves = typing = False
    sources: list[str] = []
    budget = MAX_BYTES
    for path in _files(root):
        size = path.stat().st_size
        if size > MAX_FILE_BYTES or size > budget:
            continue
        budget -= size
        text = path.read_text(encoding="utf-8", errors="replace")
        sources.append(str(path.relative_to(root)))
        if _LISTENS_KEYS.search(text):
            for match in _COMPARED.finditer(text):
                name = match.group(2) or match.group(4) or match.group(6)
                if (key := _js_key(name)) is not None:
                    keys.setdefault(key)
            for match in _QUOTED.finditer(text):  # key names in tables: {ArrowLeft: …}, ["KeyA", …]
                if match.group(2) in _JS_KEYS or re.fullmatch(r"Key[A-Z]|Digit[0-9]|Arrow\w+", match.group(2)):
                    if (key := _js_key(match.group(2))) is not None:
                        keys.setdefault(key)
            for match in _TABLE_KEY.finditer(text):
                if (key := _js_key(match.group(1))) is not None:
                    keys.setdefault(key)
            for match in _KEY_CODE.finditer(text):
                if (key := _KEY_CODES.get(int(match.group(1) or match.group(2)))) is not None:
                    keys.setdefault(key)
        buttons.update(button for button, pattern in _BUTTONS.items() if pattern.search(text))
        moves = moves or bool(_MOVES.search(text))
        typing = typing or bool(_TYPING.search(text))
        for match in _BUTTON_TEXT.finditer(text):
            label = " ".join(_TAG.sub(" ", match.group(1) or match.group(2) or "").split())
            if label:
                texts.setdefault(label)
    order = ("left", "right", "middle", "wheel")
    return Vocabulary(keys=tuple(keys), buttons=tuple(b for b in order if b in buttons),
                      drags=moves and "left" in buttons, pointer=moves, texts=tuple(texts), typing=typing,
                      sources=tuple(sources))
