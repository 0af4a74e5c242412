"""The inputs a web app's JavaScript/TypeScript handles, read from its files (never run).

The counterpart of :mod:`.vocabulary` for web apps: when any file listens for keys, the keys its scripts
(files and inline ``<script>``s; not minified libraries) compare an event's key with (``webkeys``, with
tree-sitter: key-code constants, constant objects, ``switch`` cases, lookup tables); the mouse buttons its
listeners take (``addEventListener('mousedown'…)``, ``onclick``, ``contextmenu``, ``wheel``), pointer movement
and drags (a move listener, beside a button listener), typing (text fields in its HTML) and the labels of its
HTML buttons. A file that builds its key names at run time is not seen. Touch listeners are not mouse input:
a mouse in desktop Chromium sends no touch events, so a keyboard game's touch fallback takes no clicks.
"""

from __future__ import annotations

import re
from pathlib import Path

from .files import MAX_BYTES, MAX_FILE_BYTES, MAX_FILES
from .vocabulary import Vocabulary
from .webkeys import scan_keys

WEB_SOURCES = (".js", ".mjs", ".ts", ".tsx", ".jsx", ".html", ".htm")
_SKIP_DIRS = frozenset({"node_modules", ".git", "dist-types", "coverage"})

_LISTENS_KEYS = re.compile(r"""['"`](?:keydown|keyup|keypress)['"`]|\bonkey(?:down|up|press)\b|"""
                           r"""\.key(?:down|up|press)\(""")
_LISTENER = r"""(?:addEventListener\s*\(\s*['"`]|\bon)"""
_BUTTONS = {"left": re.compile(_LISTENER + r"(?:click|mousedown|mouseup|pointerdown|pointerup|dblclick)\b"),
            "right": re.compile(_LISTENER + r"contextmenu\b|\bbutton\s*===?\s*2\b"),
            "wheel": re.compile(_LISTENER + r"wheel\b")}
_MOVES = re.compile(_LISTENER + r"(?:mousemove|pointermove)\b")
_BUTTON_TEXT = re.compile(r"<button\b[^>]*>(.*?)</button>|<input\b[^>]*type=['\"]?(?:button|submit)['\"]?[^>]*"
                          r"value=['\"]([^'\"]+)", re.I | re.S)
_TAG = re.compile(r"<[^>]+>")
_CONTROLS = re.compile(r"<(?:select|button|textarea|input|a\s[^>]*href)\b", re.I)
_INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.I | re.S)
_SOUND = re.compile(r"\bnew\s+Audio\b|\bAudioContext\b|<audio\b|\bHowl\b", re.I)
_TYPING = re.compile(r"<input(?![^>]*type=['\"]?(?:button|submit|checkbox|radio|range|hidden))|<textarea|"
                     r"contenteditable", re.I)


def _files(root: Path) -> list[Path]:
    found: list[Path] = []
    for path in sorted(root.rglob("*")):
        if len(found) >= MAX_FILES:
            break
        if path.suffix in WEB_SOURCES and path.is_file() and not _SKIP_DIRS & set(path.relative_to(root).parts):
            found.append(path)
    return found


def scan_web_app(root: Path) -> Vocabulary:
    """The vocabulary of the web app served from ``root`` (its .js/.ts/.html files, within the budgets).

    A minified library beside the app's own scripts (a vendored jQuery) handles events for whoever uses it:
    its listeners say nothing about what the app handles, so only the app's own files are read for inputs.
    When every script is minified (a bundled app), they are the app's."""
    texts: dict[str, None] = {}
    sound = False
    sources: list[str] = []
    files: list[tuple[str, str, str]] = []  # (file name, whole text, its script code)
    budget = MAX_BYTES
    for path in _files(root):
        size = path.stat().st_size
        if size > MAX_FILE_BYTES or size > budget:
            continue
        budget -= size
        text = path.read_text(encoding="utf-8", errors="replace")
        name = str(path.relative_to(root))
        sources.append(name)
        code = "\n".join(_INLINE_SCRIPT.findall(text)) if path.suffix in (".html", ".htm") else text
        files.append((name, text, code))
        sound = sound or bool(_SOUND.search(text))
        for match in _BUTTON_TEXT.finditer(text):
            label = " ".join(_TAG.sub(" ", match.group(1) or match.group(2) or "").split())
            if label:
                texts.setdefault(label)
    own = [f for f in files if not f[0].endswith(".min.js")]
    if not any(code.strip() for _, _, code in own):
        own = files
    buttons = {button for _, text, _ in own for button, pattern in _BUTTONS.items() if pattern.search(text)}
    if any(_CONTROLS.search(text) for _, text, _ in own):  # the browser's own controls take clicks
        buttons.add("left")
    moves = any(_MOVES.search(text) for _, text, _ in own)
    listens = any(_LISTENS_KEYS.search(text) for _, text, _ in own)
    # (a page's inline scripts are read joined: their lines are no lines of the page; a script file's are its own)
    keys, handlers = scan_keys([(name, code) for name, _, code in own]) if listens else ([], [])
    handlers = [place for place in handlers if not place[1].endswith((".html", ".htm"))]
    order = ("left", "right", "middle", "wheel")
    return Vocabulary.of_keys(keys, buttons=tuple(b for b in order if b in buttons),
                              drags=moves and "left" in buttons, pointer=moves, texts=tuple(texts),
                              typing=any(_TYPING.search(text) for _, text, _ in files), sound=sound,
                              sources=tuple(sources), handlers=tuple(handlers))
