"""Where a scenario's words are on the window: labels, controls named in prose, fields, the game's start input.

Policy helpers (they read an ``Observation``: OCR and the widget detector, or a web page's DOM). A quoted label
is found as written; a control named in prose by whole words and synonyms (``words.match_rank``); a field
beside or below its label, or holding it as a placeholder.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..geometry import Box
from .words import match_rank, squash, tokens, variants

if TYPE_CHECKING:
    from ..policies.base import Observation
    from ..source import Vocabulary
    from ..vision import Widget

Point = tuple[int, int]
#: The words of a start or restart control ("Play Again"), and of the window's hint for its key.
_START_WORDS = {False: "start", True: "restart"}
_HINT = re.compile(r"\b(?:press|hit|tap)\s+(?:the\s+)?(?:\"|')?(?P<key>[a-z0-9]+)(?:\"|')?(?:\s+key)?"
                   r"(?:\s+or\s+[\w ]+?)?\s+to\s+(?P<what>(?:re)?start|play(?:\s+again)?|begin|try\s+again|continue)\b",
                   re.I)
_RESTART_HINTS = ("restart", "play again", "try again")
_HINT_KEYS = {"space": "space", "spacebar": "space", "enter": "enter", "return": "enter", "any": "space"}


def find_label(observation: Observation, label: str, *, field: bool) -> Point | None:
    """Where to click for a quoted ``label``: a button or field showing it, else its text (for a field: the
    entry beside or below the text, or the one it is a placeholder in)."""
    wanted = squash(label)
    widgets = observation.widgets()
    labelled = [w for w in widgets if w.kind in ("button", "field") and squash(w.text) == wanted]
    if labelled and (not field or labelled[0].kind == "field"):
        return labelled[0].center
    boxes = [b for b in observation.text_boxes() if wanted in squash(b.text)]
    if not boxes:
        return None
    best = min(boxes, key=lambda b: (squash(b.text) != wanted, len(b.text)))
    box = part_of(best.box, best.text, label)
    if not field:
        return box.center
    found = _field_at(widgets, box)
    return found.center if found is not None else box.center  # a field the detector missed: click the text


def find_named(observation: Observation, label: str) -> Point | None:
    """Where the control named in prose is ("the logout button": "Log out", "Logout", "Sign out"): a button
    showing it (or holding it as whole words: "Back to Home"), else a line of text that is it (a drawn tab or
    menu entry); never the word inside a sentence, which is no control."""
    candidates: list[tuple[int, int, int, Point]] = []
    for widget in observation.widgets():
        rank = match_rank(label, widget.text) if widget.kind == "button" else None
        if rank is not None:
            candidates.append((rank, 0, len(widget.text), widget.center))
    for text_box in observation.text_boxes():
        if match_rank(label, text_box.text) == 0:
            candidates.append((0, 1, len(text_box.text), text_box.box.center))
    return min(candidates, key=lambda found: found[:3])[3] if candidates else None


def find_named_field(observation: Observation, label: str) -> Point | None:
    """The entry field named in prose ("the weight field", "username"): beside or below a text naming it, or
    holding the name as its placeholder; never the text itself (None when no field is there)."""
    widgets = observation.widgets()
    for widget in widgets:
        if widget.kind == "field" and widget.text and match_rank(label, widget.text) == 0:
            return widget.center
    named = sorted(((rank, b) for b in observation.text_boxes()
                    if (rank := match_rank(label, b.text)) is not None and len(tokens(b.text)) <= 6),
                   key=lambda found: (found[0], len(found[1].text)))
    for _, text_box in named:
        found = _field_at(widgets, _named_part(text_box.box, text_box.text, label))
        if found is not None:
            return found.center
    return None


def only_field(observation: Observation) -> Point | None:
    """The window's entry field when it has exactly one."""
    found = [w for w in observation.widgets() if w.kind == "field"]
    return found[0].center if len(found) == 1 else None


def has_field(observation: Observation, point: Point) -> bool:
    return any(w.kind == "field" and w.box.contains(*point) for w in observation.widgets())


def _field_at(widgets: list[Widget], label: Box) -> Widget | None:
    """The field a label names: the one it is a placeholder in, else the nearest beside it, else below it."""
    fields = [w for w in widgets if w.kind == "field"]
    holding = [f for f in fields if f.box.contains(*label.center)]
    if holding:
        return holding[0]
    beside = [f for f in fields if f.box.x >= label.right - 2 and f.box.y < label.bottom and f.box.bottom > label.y]
    below = [f for f in fields if f.box.y >= label.bottom - 2 and f.box.x < label.right + 40
             and f.box.right > label.x - 40 and f.box.y - label.bottom < 4 * max(label.h, 10)]
    for candidates in (beside, below):
        if candidates:
            return min(candidates, key=lambda f: abs(f.box.x - label.x) + abs(f.box.y - label.y))
    return None


def part_of(box: Box, text: str, label: str) -> Box:
    """The part of a line's box that holds ``label`` (by character position: screen fonts are near even)."""
    start = text.lower().find(label.lower())
    if start < 0 or len(text) <= len(label):
        return box
    per_char = box.w / max(len(text), 1)
    return Box(box.x + round(start * per_char), box.y, max(1, round(len(label) * per_char)), box.h)


def _named_part(box: Box, text: str, label: str) -> Box:
    """The part of a line that names ``label`` in prose (its first word that is one of the label's words)."""
    words = set(tokens(label)) | variants(label)
    for found in re.finditer(r"[A-Za-z0-9]+", text):
        if found.group().lower() in words:
            return part_of(box, text, found.group())
    return box


def start_input(observation: Observation, restart: bool, vocabulary: Vocabulary | None) -> tuple[str, str] | None:
    """The app's own input that starts (or restarts) the game, as ("click", label) or ("press", key): a control
    the app has for it on the window, or the key the window says to press, when the app handles that key."""
    word = _START_WORDS[restart]
    labels = [t for t in (vocabulary.texts if vocabulary else ()) if match_rank(word, t) is not None]
    for label in labels:
        if find_label(observation, label, field=False) is not None:
            return ("click", label)
    if not labels and any(w.kind == "button" and match_rank(word, w.text) is not None for w in observation.widgets()):
        return ("click", word)  # a control of its own, not the word in a line of text ("Press R to restart")
    hints = sorted(_HINT.finditer(observation.text()),
                   key=lambda hint: restart != (" ".join(hint.group("what").lower().split()) in _RESTART_HINTS))
    for hint in hints:
        key = _HINT_KEYS.get(hint.group("key").lower(), hint.group("key").lower())
        if vocabulary is None or vocabulary.is_empty or key in vocabulary.keys:
            return ("press", key)
    return None


def page_named(observation: Observation, target: str) -> bool:
    """Whether the web page shown is the page ``target`` names: its title, address or first heading says so."""
    page = observation.page
    if page is None:
        return False
    return any(match_rank(target, line) is not None for line in page.address().splitlines() if line.strip())
