"""The offline step grammar: the steps a scenario may say, turned into moves; and what an Expectation checks.

A step is one or more parts joined by "then", commas or semicolons (not inside quotes, and not the comma of
a coordinate pair). Every part must be one of these (case-insensitive, a final period is ignored)::

    click "Label"  ·  click the "Label" button  ·  double click "Label"  ·  right click "Label"
    click at 120, 40  ·  double click at 120, 40  ·  right click at (120, 40)
    type "text"  ·  type "text" into "Field"  ·  enter "text" in the "Field" field
    press KEY  ·  press the up arrow key  ·  press KEY 3 times  ·  press ctrl+s  ·  press KEY twice
    hold KEY for 1.5 seconds
    drag from 10, 20 to 200, 20  ·  drag "Milk" to "Done"  ·  drag the "Milk" card onto the "Done" column
    scroll down [3 times] [at 200, 150]
    wait 2 seconds
    open the application  ·  start the game  (the app is already running: nothing to do)

A step with any other part is outside the grammar: the tester (a model) performs it, or the case is skipped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ..actions import MAX_REPEAT, MAX_SCROLL, MAX_WAIT_SECONDS, Action

ClickKind = Literal["click", "double_click", "right_click"]

#: Key words the grammar understands besides single characters (the X names are the executor's business).
KEY_WORDS = frozenset({
    "enter", "return", "space", "tab", "esc", "escape", "backspace", "delete", "del", "insert", "up", "down",
    "left", "right", "home", "end", "pageup", "pagedown", "shift", "ctrl", "control", "alt",
    *(f"f{n}" for n in range(1, 13)),
})
_COUNT_WORDS = {"once": 1, "twice": 2, "thrice": 3}
#: Trailing punctuation inside quotes is the sentence's, not the text's ("In Progress," / "Saved.").
_QUOTE_PUNCTUATION = ",.;:!?"


@dataclass(frozen=True)
class Act:
    """An action the grammar could write down completely."""

    action: Action


@dataclass(frozen=True)
class ClickText:
    """Click the control or text labelled ``label``, found on the window when the step runs."""

    label: str
    kind: ClickKind = "click"


@dataclass(frozen=True)
class FocusField:
    """Click the entry field labelled ``label`` (beside or below the label, or holding it as a placeholder)."""

    label: str


@dataclass(frozen=True)
class ScrollAt:
    """Scroll at a point, or at the window's centre when ``point`` is None."""

    direction: str
    amount: int
    point: tuple[int, int] | None = None


@dataclass(frozen=True)
class DragText:
    """Drag (left button) from the control or text labelled ``source`` to the one labelled ``target``, both
    found on the window when the step runs, as ``ClickText`` finds its label."""

    source: str
    target: str


Move = Act | ClickText | FocusField | ScrollAt | DragText


@dataclass(frozen=True)
class Checks:
    """What an Expectation asks: quoted texts (window text), backtick rules (DOM), or only prose."""

    texts: tuple[str, ...]
    rules: tuple[str, ...]

    @property
    def free_form(self) -> bool:
        return not self.texts and not self.rules


_QUOTED = r'"([^"]+)"'
_NUMBER = r"(\d+(?:\.\d+)?)"
_POINT = r"\(?\s*(\d+)\s*,\s*(\d+)\s*\)?"
_SECONDS = _NUMBER + r"\s*(?:s|secs?|seconds?)"
_KEY = r"([^\s\"]+?)(?:\s+arrow)?(?:\s+key)?"
_TIMES = r"(?:\s+(\d+)\s+times|\s+(once|twice|thrice))?"
_CLICK = r"(double[- ]?click|right[- ]?click|click|tap|press|select|choose|hit)"
_CONTROL = r"(?:\s+(?:button|link|tab|menu(?:\s+item)?|item|option|checkbox|check\s*box|icon|entry|field|label))?"
_ITEM = r"(?:\s+(?:button|card|item|icon|tile|box|file|block|row|entry|label|column|area|zone|list|panel|slot))?"
_FIELD = r"(?:\s+(?:field|box|entry|input|text\s*box))?"
_PURPOSE = r"(?:\s+(?:to|so|in order to)\s+.*)?"


def _click_kind(word: str) -> ClickKind:
    word = word.lower()
    if word.startswith("double"):
        return "double_click"
    return "right_click" if word.startswith("right") else "click"


def _key(raw: str) -> str | None:
    """A key name the grammar knows (a character, a key word, or a ``+`` chord of them), else None."""
    parts = raw.lower().split("+") if len(raw) > 1 else [raw]
    if not all(part and (len(part) == 1 or part in KEY_WORDS) for part in parts):
        return None
    return "+".join(parts) if len(raw) > 1 else raw


def _chunks(total: float, make: Callable[[float], Action]) -> list[Move]:
    """A duration as actions of at most MAX_WAIT_SECONDS each (the action schema's bound)."""
    moves: list[Move] = []
    while total > 1e-9:
        part = min(total, MAX_WAIT_SECONDS)
        moves.append(Act(make(part)))
        total -= part
    return moves


def _press(match: re.Match[str]) -> list[Move] | None:
    key = _key(match.group(1))
    if key is None:
        return None
    times = int(match.group(2)) if match.group(2) else _COUNT_WORDS.get((match.group(3) or "once").lower(), 1)
    if not 1 <= times <= MAX_REPEAT:
        return None
    if len(key) > 1 and "+" in key:
        return [Act(Action.hotkey(*key.split("+")))] * times
    return [Act(Action.press(key, times))]


def _hold(match: re.Match[str]) -> list[Move] | None:
    key = _key(match.group(1))
    if key is None or (len(key) > 1 and "+" in key):
        return None
    return _chunks(float(match.group(2)), lambda seconds: Action.hold(key, seconds))


def _scroll(match: re.Match[str]) -> list[Move] | None:
    amount = int(match.group(2) or 3)
    if not 1 <= amount <= MAX_SCROLL:
        return None
    point = (int(match.group(3)), int(match.group(4))) if match.group(3) else None
    return [ScrollAt(match.group(1).lower(), amount, point)]


def _pointer(kind: ClickKind, x: str, y: str) -> Action:
    maker = {"click": Action.click, "double_click": Action.double_click, "right_click": Action.right_click}[kind]
    return maker(int(x), int(y))


_Build = Callable[[re.Match[str]], list[Move] | None]
_PATTERNS: list[tuple[str, _Build]] = [
    (rf"{_CLICK}\s+(?:on\s+)?(?:the\s+)?{_QUOTED}{_CONTROL}{_PURPOSE}",
     lambda m: [ClickText(m.group(2), _click_kind(m.group(1)))]),
    (rf"(double[- ]?click|right[- ]?click|click)\s+(?:at\s+)?{_POINT}",
     lambda m: [Act(_pointer(_click_kind(m.group(1)), m.group(2), m.group(3)))]),
    (rf"(?:type|enter|input|write|fill in)\s+{_QUOTED}(?:\s+(?:in|into|in the|into the)\s+(?:the\s+)?"
     rf"{_QUOTED}{_FIELD})?",
     lambda m: [*([FocusField(m.group(2))] if m.group(2) else []), Act(Action.type_text(m.group(1)))]),
    (rf"press\s+(?:the\s+)?{_KEY}{_TIMES}{_PURPOSE}", _press),
    (rf"hold\s+(?:down\s+)?(?:the\s+)?{_KEY}\s+(?:down\s+)?(?:for\s+)?{_SECONDS}{_PURPOSE}", _hold),
    (rf"drag\s+(?:from\s+)?{_POINT}\s+to\s+{_POINT}",
     lambda m: [Act(Action.drag(*(int(m.group(i)) for i in range(1, 5))))]),
    (rf"(?:drag|move)\s+(?:the\s+)?{_QUOTED}{_ITEM}\s+(?:to|onto|into|on|over)\s+(?:the\s+)?{_QUOTED}{_ITEM}"
     rf"{_PURPOSE}",
     lambda m: [DragText(m.group(1), m.group(2))]),
    (rf"scroll\s+(up|down|left|right)(?:\s+(\d+)\s*(?:times|notches|clicks)?)?(?:\s+at\s+{_POINT})?", _scroll),
    (rf"wait\s+(?:for\s+)?{_SECONDS}", lambda m: _chunks(float(m.group(1)), Action.wait)),
    (r"(?:open|launch|start|run)\s+the\s+(?:[\w' -]{0,40}\s)?(?:app|application|program|game)", lambda m: []),
]
_RULES: list[tuple[re.Pattern[str], _Build]] = [(re.compile(pattern, re.I), build) for pattern, build in _PATTERNS]


def normalise(text: str) -> str:
    """Straight quotes, single spaces, no final period."""
    text = text.replace("\u201c", '"').replace("\u201d", '"')
    return " ".join(text.split()).rstrip(".").strip()


def _mask_quotes(text: str) -> str:
    """The text with everything inside double quotes replaced by 'x', so separators there are not seen."""
    return re.sub(_QUOTED, lambda m: '"' + "x" * len(m.group(1)) + '"', text)


_SEPARATOR = re.compile(r"\s*;\s*|\s*,?\s+(?:and\s+)?then\s+|\s*,(?!\s*\d)\s*", re.I)


def split_parts(text: str) -> list[str]:
    """The parts of a step joined by "then", commas or semicolons (outside quotes and coordinate pairs)."""
    masked = _mask_quotes(text)
    parts, start = [], 0
    for separator in _SEPARATOR.finditer(masked):
        parts.append(text[start:separator.start()])
        start = separator.end()
    parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]


def parse_part(part: str) -> list[Move] | None:
    """One part of a step as moves, or None when the grammar does not cover it."""
    part = re.sub(r"^(?:then|and then|and)\s+", "", part, flags=re.I)
    for pattern, build in _RULES:
        match = pattern.fullmatch(part)
        if match:
            return build(match)
    return None


def parse_step(text: str) -> list[Move] | None:
    """A whole step as moves in order, or None when any part of it is outside the grammar."""
    moves: list[Move] = []
    for part in split_parts(normalise(text)):
        parsed = parse_part(part)
        if parsed is None:
            return None
        moves.extend(parsed)
    return moves


def parse_expectation(text: str) -> Checks:
    """The quoted texts (checked on the window's text) and backtick rules (checked on the DOM) it names."""
    text = text.replace("\u201c", '"').replace("\u201d", '"')
    texts = tuple(t for t in (q.strip().rstrip(_QUOTE_PUNCTUATION).strip() for q in re.findall(_QUOTED, text)) if t)
    rules = tuple(span.strip() for span in re.findall(r"`([^`]+)`", text) if is_rule(span))
    return Checks(texts, rules)


#: What makes a code span a rule: a comparison or rule word outside its quoted values, or an id selector first.
_RULE_WORDS = re.compile(r"==|!=|>=|<=|>|<|\b(?:contains|icontains|startswith|endswith|visible|exists)\b", re.I)


def is_rule(span: str) -> bool:
    """Whether a code span in an Expectation is a DOM rule (`#total == '3'`, `#menu visible`) rather than a
    name in prose (`.txt`, `save()`): it compares or tests an element, or starts with an ``#id``."""
    span = span.strip()
    unquoted = re.sub(r"'[^']*'|\"[^\"]*\"", "''", span)
    return bool(span) and (span.startswith("#") or _RULE_WORDS.search(unquoted) is not None)


def squash(text: str) -> str:
    """Text compared without case and whitespace: OCR drops and adds spaces ("Count:1", "Sa ve")."""
    return "".join(text.lower().split())
