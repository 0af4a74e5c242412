"""The offline step grammar: the steps a scenario may say, turned into moves.

A step is one or more parts joined by "then", semicolons, commas or "and" (never inside quotes or parentheses,
nor the comma of a coordinate pair): the whole step is read first, then its "then"/";" parts, then their comma
parts, then their "and" parts, so "Enter a valid username and password" stays one part. A part without a verb
takes the one of the part before it (``Input valid weight (e.g., 70 kg) and height (e.g., 1.75 m)``). Every
part must be one of the phrasings docs/scenarios.md tables (case-insensitive, a final period ignored, single
and curly quotes read as double ones): clicks on a quoted label or on a control named in prose (``the logout
button``) with an optional count and context (``on the Login Page``, ``during gameplay``), typing (a quoted
text, an example value ``(e.g., "15:30")``, into a labelled field or "the text field"), keys, holds, drags,
scrolls, waits, starting or restarting a game, navigating to a page, logging in, registering and logging out,
and looking at the window.

A step with any other part is outside the grammar: the tester (a model) performs it, or the case is skipped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ..actions import MAX_REPEAT, MAX_SCROLL, MAX_WAIT_SECONDS, Action
from .expectations import Checks, parse_expectation
from .words import squash

__all__ = ["Act", "Checks", "ClickText", "DragText", "EnsureLoggedIn", "FocusField", "Login", "Move", "Navigate",
           "Reload", "ScrollAt", "StartGame", "normalise", "parse_expectation", "parse_part", "parse_step",
           "split_parts", "squash"]

ClickKind = Literal["click", "double_click", "right_click"]

#: Key words the grammar understands besides single characters (the X names are the executor's business).
KEY_WORDS = frozenset({
    "enter", "return", "space", "tab", "esc", "escape", "backspace", "delete", "del", "insert", "up", "down",
    "left", "right", "home", "end", "pageup", "pagedown", "shift", "ctrl", "control", "alt",
    *(f"f{n}" for n in range(1, 13)),
})
_KEY_ALIASES = {"spacebar": "space", "space bar": "space", "return": "enter"}
#: Seconds a key is held when the step says only "hold it down".
HOLD_SECONDS = 1.0
_COUNT_WORDS = {"once": 1, "twice": 2, "thrice": 3}
_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "fifteen": 15, "twenty": 20, "thirty": 30}


@dataclass(frozen=True)
class Act:
    """An action the grammar could write down completely."""

    action: Action


@dataclass(frozen=True)
class ClickText:
    """Click the control or text labelled ``label``, found on the window when the step runs, ``times`` times.

    ``quoted``: the author quoted the label, so it is looked for as written; else it is named in prose (``the
    logout button``) and matched by whole words and synonyms. ``context`` is where or when the author says the
    control is (``on the Login Page``, ``during gameplay``). Only a quoted label without context that never
    appears fails the case; any other is handed to the tester, since the window may be elsewhere than the
    author assumed."""

    label: str
    kind: ClickKind = "click"
    times: int = 1
    quoted: bool = True
    context: str = ""

    @property
    def required(self) -> bool:
        return self.quoted and not self.context


@dataclass(frozen=True)
class FocusField:
    """Click the entry field labelled ``label`` (beside or below the label, or holding it as a placeholder).

    ``label`` None is "the text field": the window's only field, else the one the scenario typed into last.
    A label named in prose (``quoted`` False) that is not found falls back to the window's only field."""

    label: str | None
    quoted: bool = True


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


@dataclass(frozen=True)
class Navigate:
    """Go to the page or section ``target``: nothing when the page is already there (a web page's title,
    address or heading names it), else a click on the control that names it; else the tester does it."""

    target: str


@dataclass(frozen=True)
class StartGame:
    """Start (or restart) the game with the app's own input for it: a visible Start/Restart/New Game control
    the app handles, or the key the window says to press ("Press R to restart"). Starting needs nothing
    before the first input of a launch (the game is running); otherwise, without such an input, the tester
    does it."""

    restart: bool = False


@dataclass(frozen=True)
class Login:
    """Log in (or register) with the scenario's credentials (front matter ``login:``, ini
    ``playtest_scenario_login``): the username, password (twice when the form asks to confirm it) and, when
    the form has one, e-mail fields filled, then the form's Log in / Register button (else Enter)."""

    kind: Literal["login", "register"] = "login"


@dataclass(frozen=True)
class EnsureLoggedIn:
    """"… after logging in": log in first when the window shows a login form, else nothing."""


@dataclass(frozen=True)
class Reload:
    """Load the web page again (F5); on a desktop window the tester does it."""


Move = Act | ClickText | FocusField | ScrollAt | DragText | Navigate | StartGame | Login | EnsureLoggedIn | Reload


# -- the pieces the phrasings are made of ---------------------------------------------------------------------
_QUOTED = r'"([^"]+)"'
_NUMBER = r"(\d+(?:\.\d+)?)"
_POINT = r"\(?\s*(\d+)\s*,\s*(\d+)\s*\)?"
_SECONDS = _NUMBER + r"\s*(?:s|secs?|seconds?)"
_AMOUNT = rf"(?P<n>\d+(?:\.\d+)?|{'|'.join(_NUMBER_WORDS)})\s+(?P<unit>s|secs?|seconds?|mins?|minutes?)"
_KEY = r"([^\s\"]+?)(?:\s+arrow)?(?:\s+key)?"
_TIMES = r"(?:\s+(\d+)\s+times|\s+(once|twice|thrice))?"
_CLICK = r"(double[- ]?click|right[- ]?click|click|tap|press|select|choose|hit|pick)"
_CONTROL = (r"(?:\s+(?:button|link|tab|menu(?:\s+item)?|item|option|checkbox|check\s*box|icon|entry|field|label|"
            r"radio\s+button|card|tile|cell|difficulty(?:\s+level)?|level|mode|category|filter))?")
_NAMED_CONTROL = r"(?:button|link|icon|tab|menu\s+item|option|checkbox)"
_ITEM = r"(?:\s+(?:button|card|item|icon|tile|box|file|block|row|entry|label|column|area|zone|list|panel|slot))?"
_FIELD = r"(?:\s+(?:field|box|entry|input|text\s*box))?"
#: why the step is done ("… to move the tiles up"): a verb, never a quoted label or a place ("to the Done column")
_PURPOSE = r"(?:\s+(?:to|so|in\s+order\s+to)\s+(?!the\b|a\b|an\b|\")[a-z]+\b.*)?"
_LOGGED_IN = r"(?:after\s+logging\s+in|while\s+logged\s+in|as\s+a\s+logged[- ]in\s+user|once\s+logged\s+in)"
_PLACE = (r"(?:on|from|in|at|within)\s+(?:the\s+)?[\w'\" -]+?\s+(?:page|screen|section|form|menu|dialog|window|"
          r"tab|panel|view|list|bar|dropdown(?:\s+menu)?|toolbar|palette|category|options|results|cart|article|post)")
_WHICH = r"(?:next\s+to|beside|for|of)\s+(?:a|an|any|each|one|the)\s+[\w' -]+?"
_WHEN = (r"(?:during\s+(?:an?\s+|the\s+)?(?:ongoing\s+)?(?:gameplay|game|play)|while\s+(?:in[- ]game|playing|"
         r"(?:solving|working\s+on)\s+(?:a|the)\s+puzzle|the\s+(?:game|timer|clock|countdown)\s+is\s+running|"
         r"on\s+the\s+[\w ]+|viewing\s+[\w ]+))")
_FORMAT = r"in\s+(?:the\s+)?[\w-]+\s+format|at\s+the\s+start\s+of\s+(?:a|the)\s+(?:new\s+)?game"
_CONTEXT = rf"(?P<context>(?:\s+(?:{_LOGGED_IN}|{_PLACE}|{_WHICH}|{_WHEN}|{_FORMAT}))*)"
_REMARK = r"(?:\s*\([^()]*\))?"  # "(skipping number 4)": the author's remark on a click
_TYPE = r"(?:type|enter|input|write|fill\s+in|key\s+in|provide)"
_GENERIC_FIELD = (r"(?:designated\s+|provided\s+|corresponding\s+|main\s+|appropriate\s+)?"
                  r"(?:(?:text|input|entry|edit)\s*(?:field|box|area)|field|textbox|editor|text\s+editor)")


def _into(suffix: str = "") -> str:
    """Where a typing part types: a quoted field, "the text field", or a field named in prose."""
    return (rf"\s+(?:in|into|on)\s+(?:the\s+)?(?:\"(?P<field{suffix}>[^\"]+)\"{_FIELD}|"
            rf"(?P<generic{suffix}>{_GENERIC_FIELD})|"
            rf"(?P<fname{suffix}>[A-Za-z][\w ]{{0,30}}?)\s+(?:field|box|input|bar|area))")




def _example(suffix: str = "") -> str:
    """An example value the author gives: ``(e.g., "15:30")``, ``(e.g., 70 kg)``, ``(e.g., $100)``."""
    return (rf"\s*\(\s*(?:e\.g\.|for\s+example|eg|such\s+as)[.,:]?\s*(?:(?P<ex{suffix}>\"[^\"]+\")|"
            rf"(?P<num{suffix}>-?\$?\d+(?:\.\d+)?)(?:\s*(?:[a-z]{{1,8}}|%))?)\s*\)")


_DESCRIPTION = r"(?:the\s+|a\s+|an\s+)?(?P<desc>[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*){0,4}?)"
_PAGE_NAME = r"(?:\"(?P<navq>[^\"]+)\"|(?P<page>[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*){0,4}?))"
_PAGE_WORD = r"(?:\s+(?:page|section|screen|tab|view|area|menu))?"
_NAV_CONTEXT = (rf"(?P<navctx>(?:\s+(?:{_LOGGED_IN}|(?:from|on)\s+(?:the\s+)?[\w' -]+?(?:\s+(?:page|section|screen))?|"
                rf"of\s+the\s+(?:application|app|website|site)|again))*)")
_CREDENTIALS = (r"(?:a\s+|the\s+)?(?:valid\s+|correct\s+)?(?:username\s+and\s+password|user\s+name\s+and\s+password|"
                r"(?:login\s+)?credentials)(?:\s*\([^()]*\))?")
_SUBMITTED = r"(?:,?\s+and\s+submit(?:\s+(?:the|this)\s+form)?)?"
_REGISTRATION = (r"(?:a\s+)?(?:new\s+|unique\s+)?(?:valid\s+)?username(?:,\s*|\s+and\s+)(?:a\s+)?(?:valid\s+)?password"
                 r"(?:,?\s*and\s+(?:an?\s+)?(?:valid\s+)?e-?mail(?:\s+address)?|,?\s*and\s+confirm\s+the\s+password"
                 r"(?:\s+correctly)?)?")
#: Words that show a description names no field but a situation ("a birthdate that is today").
_NOT_A_LABEL = {"that", "which", "who", "than", "today", "and", "or", "with", "for", "of", "two", "three", "several",
                "multiple", "as", "zero"}
#: What an observation names when it is not one look at the window ("the speed of the snake as it grows").
_NOT_A_LOOK = {"as", "while", "when", "after", "over", "during", "until", "file", "files", "several", "each",
               "every", "between"}
_NOT_A_PAGE = {"a", "an", "the", "specific", "through", "of", "for", "from", "in", "on", "to", "after", "with", "and",
               "which", "each", "another", "other", "respective", "maze", "track", "it", "its", "file", "files",
               "existing", "saved", "selected", "new", "local", "application", "app", "program", "software", "game"}
_QUALITIES = {"valid", "invalid", "new", "correct", "existing", "specific", "unique", "positive", "negative",
              "short", "long", "desired", "some", "any", "the", "a", "an", "another"}


def _click_kind(word: str) -> ClickKind:
    word = word.lower()
    if word.startswith("double"):
        return "double_click"
    return "right_click" if word.startswith("right") else "click"


def _key(raw: str) -> str | None:
    """A key name the grammar knows (a character, a key word, or a ``+`` chord of them), else None."""
    raw = _KEY_ALIASES.get(" ".join(raw.lower().split()), raw)
    parts = raw.lower().split("+") if len(raw) > 1 else [raw]
    if not all(part and (len(part) == 1 or part in KEY_WORDS) for part in parts):
        return None
    return "+".join(parts) if len(raw) > 1 else raw


def _seconds(match: re.Match[str]) -> float:
    raw = match.group("n").lower()
    amount = float(_NUMBER_WORDS[raw]) if raw in _NUMBER_WORDS else float(raw)
    return amount * 60 if match.group("unit").lower().startswith("m") else amount


def _chunks(total: float, make: Callable[[float], Action]) -> list[Move]:
    """A duration as actions of at most MAX_WAIT_SECONDS each (the action schema's bound)."""
    moves: list[Move] = []
    while total > 1e-9:
        part = min(total, MAX_WAIT_SECONDS)
        moves.append(Act(make(part)))
        total -= part
    return moves


def _label_words(text: str) -> list[str]:
    return [word for word in text.lower().split() if word not in _QUALITIES]


def _described(text: str) -> str | None:
    """What a description names as a label ("a valid birthdate" → "birthdate"), or None when it names a
    situation rather than a field."""
    words = _label_words(text)
    if not words or _NOT_A_LABEL & set(words):
        return None
    return " ".join(words)


# -- what each phrasing does ---------------------------------------------------------------------------------
def _click(match: re.Match[str]) -> list[Move] | None:
    groups = match.groupdict()
    times = int(groups["n_times"]) if groups["n_times"] else _COUNT_WORDS.get((groups["w_times"] or "once").lower(), 1)
    if not 1 <= times <= MAX_REPEAT:
        return None
    context = " ".join((groups["context"] or "").split())
    kind = _click_kind(groups["verb"])
    if groups["label"]:
        return [*_logged_in_first(context), ClickText(groups["label"], kind, times, True, context)]
    label = groups["named"] or groups["shown"]
    if not label or label.lower().split()[0] in ("mouse", "a", "an", "any", "the"):
        return None
    return [*_logged_in_first(context), ClickText(label, kind, times, False, context)]


def _logged_in_first(context: str) -> list[Move]:
    return [EnsureLoggedIn()] if re.search(_LOGGED_IN, context, re.I) else []


def _press(match: re.Match[str]) -> list[Move] | None:
    raw = match.group(1) or match.group(2)
    key = _key(raw)
    if key is None:
        return None
    if len(key) == 1 and re.search(r"\bkey\b", match.group(0), re.I):
        key = key.lower()  # "the 'D' key" is the key, not a capital D
    times = int(match.group(3)) if match.group(3) else _COUNT_WORDS.get((match.group(4) or "once").lower(), 1)
    if not 1 <= times <= MAX_REPEAT:
        return None
    if len(key) > 1 and "+" in key:
        return [Act(Action.hotkey(*key.split("+")))] * times
    return [Act(Action.press(key, times))]


def _hold(match: re.Match[str]) -> list[Move] | None:
    key = _key(match.group(1))
    if key is None or (len(key) > 1 and "+" in key):
        return None
    seconds = float(match.group(2)) if match.group(2) else HOLD_SECONDS
    return _chunks(seconds, lambda part: Action.hold(key, part))


def _arrows(match: re.Match[str]) -> list[Move]:
    return [Act(Action.press(key)) for key in re.findall(r"up|down|left|right", match.group("directions").lower())]


def _scroll(match: re.Match[str]) -> list[Move] | None:
    amount = int(match.group(2) or 3)
    if not 1 <= amount <= MAX_SCROLL:
        return None
    point = (int(match.group(3)), int(match.group(4))) if match.group(3) else None
    return [ScrollAt(match.group(1).lower(), amount, point)]


def _pointer(kind: ClickKind, x: str, y: str) -> Action:
    maker = {"click": Action.click, "double_click": Action.double_click, "right_click": Action.right_click}[kind]
    return maker(int(x), int(y))


def _group(match: re.Match[str], name: str) -> str | None:
    """A group that the pattern has twice (before or after an example value): whichever matched."""
    groups = match.groupdict()
    return groups.get(name) or groups.get(f"{name}2")


def _field(match: re.Match[str], described: str | None = None) -> FocusField | None:
    """The field a typing part names: quoted, a field named in prose, "the text field", or what it types."""
    if _group(match, "field"):
        return FocusField(_group(match, "field"))
    if _group(match, "fname"):
        name = _described(_group(match, "fname") or "")
        return FocusField(name, quoted=False) if name else None
    if described:
        return FocusField(described, quoted=False)
    return FocusField(None, quoted=False) if _group(match, "generic") else None


def _type_quoted(match: re.Match[str]) -> list[Move] | None:
    target = _field(match)
    if target is None and _group(match, "fname"):
        return None  # a field named by words that name no field
    return [*_logged_in_first(match.group("context") or ""), *([target] if target else []),
            Act(Action.type_text(match.group("text")))]


def _example_value(match: re.Match[str]) -> str:
    quoted = _group(match, "ex")
    return quoted[1:-1] if quoted else (_group(match, "num") or "").replace("$", "")


def _type_example(match: re.Match[str]) -> list[Move] | None:
    """``Input a valid birthdate (e.g., "1990-05-15")``: the example typed into the field it describes."""
    described = _described(match.group("desc"))
    if described is None:
        return None
    target = _field(match) if _group(match, "field") or _group(match, "fname") else FocusField(described, quoted=False)
    if target is None:
        return None
    return [*_logged_in_first(match.group("context") or ""), target, Act(Action.type_text(_example_value(match)))]


def _type_as(match: re.Match[str]) -> list[Move] | None:
    """``Enter the date as "2023-10-02"`` / ``Enter "Milk" as the item name``."""
    described = _described(match.group("desc"))
    if described is None:
        return None
    return [FocusField(described, quoted=False), Act(Action.type_text(match.group("text")))]


def _type_named(match: re.Match[str]) -> list[Move] | None:
    """``Input names "Alice, Bob"`` / ``Input a total expense amount of $200``."""
    described = _described(match.group("desc"))
    if described is None:
        return None
    value = match.group("text") if match.group("text") else match.group("num").replace("$", "")
    return [FocusField(described, quoted=False), Act(Action.type_text(value))]


def _type_pair(match: re.Match[str]) -> list[Move] | None:
    """``Input a positive base and exponent (e.g., 2 and 3)``: each example into the field it describes."""
    first, second = _described(match.group("desc")), _described(match.group("desc2"))
    if first is None or second is None:
        return None
    return [FocusField(first, quoted=False), Act(Action.type_text(match.group("v1"))),
            FocusField(second, quoted=False), Act(Action.type_text(match.group("v2")))]


def _add_example(match: re.Match[str]) -> list[Move] | None:
    """``Add a task (e.g., "Grocery shopping")``: the example typed into the task's field, then the Add control."""
    described = _described(match.group("desc"))
    if described is None:
        return None
    return [FocusField(described, quoted=False), Act(Action.type_text(match.group("text"))),
            ClickText("add", quoted=False, context=f"to add the {described}")]


def _search(match: re.Match[str]) -> list[Move]:
    """``Search for a book by title (e.g., "Dune")``: typed into the search field, then Enter."""
    text = next(value for name, value in match.groupdict().items() if name.startswith("text") and value)
    return [FocusField("search", quoted=False), Act(Action.type_text(text)), Act(Action.press("enter"))]


def _navigate(match: re.Match[str]) -> list[Move] | None:
    name = match.group("navq") or match.group("page")
    if not name or (not match.group("navq") and _NOT_A_PAGE & set(name.lower().split())):
        return None
    return [*_logged_in_first(match.group("navctx") or ""), Navigate(name)]


def _observe(match: re.Match[str]) -> list[Move] | None:
    if _NOT_A_LOOK & set(re.findall(r"[a-z]+", match.group("what").lower())):
        return None
    return _chunks(_seconds(match), Action.wait) if match.group("n") else []


def _start(restart: bool) -> Callable[[re.Match[str]], list[Move] | None]:
    return lambda match: [StartGame(restart)]


_Build = Callable[[re.Match[str]], list[Move] | None]
_PATTERNS: list[tuple[str, _Build]] = [
    # clicks
    (rf"click\s+(?:on\s+)?the\s+(?:link|button)\s+to\s+(?:navigate|go)\s+to\s+(?:the\s+)?{_PAGE_NAME}{_PAGE_WORD}"
     rf"{_NAV_CONTEXT}", _navigate),
    (rf"(?P<verb>{_CLICK[1:-1]})\s+(?:on\s+)?(?:the\s+)?(?:\"(?P<label>[^\"]+)\"{_CONTROL}|"
     rf"(?P<named>[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*){{0,3}}?)\s+{_NAMED_CONTROL}|"
     rf"(?:(?:a|an)\s+)?(?:(?:non-)?adjacent\s+)?(?:tile|cell|card|square|button)\s+(?:with|showing|labell?ed|marked)\s+"
     rf"(?:the\s+)?(?:number|text|label)?\s*"
     rf"(?P<shown>[\w-]+))(?:\s+(?P<n_times>\d+)\s+times|\s+(?P<w_times>once|twice|thrice))?(?:\s+again)?{_REMARK}"
     rf"{_CONTEXT}{_PURPOSE}", _click),
    (rf"(double[- ]?click|right[- ]?click|click)\s+(?:at\s+)?{_POINT}",
     lambda m: [Act(_pointer(_click_kind(m.group(1)), m.group(2), m.group(3)))]),
    (r"(?:select|choose|pick)\s+(?:the\s+)?(?:(?P<what>[\w -]+?)\s+as\s+\"(?P<label>[^\"]+)\"|"
     r"\"(?P<label2>[^\"]+)\"\s+as\s+(?:the\s+)?(?P<what2>[\w -]+?))",
     lambda m: [ClickText(m.group("label") or m.group("label2"), quoted=True,
                          context=f"as the {m.group('what') or m.group('what2')}")]),
    (rf"(?:select|choose|pick)\s+the\s+(?:category|option|difficulty|level|mode|tab|filter)\s+\"(?P<label>[^\"]+)\"{_CONTEXT}",
     lambda m: [ClickText(m.group("label"), quoted=True, context=" ".join((m.group("context") or "").split()))]),
    (r"save\s+(?:the|this|all|your)\s+(?P<what>(?:(?!\b(?:to|as|into|in|file)\b)[\w' -])+?)",
     lambda m: [ClickText("save", quoted=False, context=f"to save the {m.group('what')}")]),
    # typing
    (rf"{_TYPE}\s+\"(?P<text>[^\"]+)\"(?:{_into()})?{_CONTEXT}", _type_quoted),
    (rf"{_TYPE}\s+{_DESCRIPTION}(?:{_example()}(?:{_into()})?|{_into('2')}{_example('2')}){_CONTEXT}", _type_example),
    (rf"{_TYPE}\s+(?:the\s+|a\s+|an\s+)?(?P<desc>[A-Za-z][\w ]{{0,30}}?)\s+and\s+(?:the\s+|a\s+|an\s+)?"
     rf"(?P<desc2>[A-Za-z][\w ]{{0,30}}?)\s*\(\s*e\.g\.,?\s*(?P<v1>-?\d+(?:\.\d+)?)\s+and\s+"
     rf"(?P<v2>-?\d+(?:\.\d+)?)\s*\)",
     _type_pair),
    (r"add\s+(?:a|an|one)\s+(?:new\s+)?(?P<desc>[A-Za-z][\w ]{0,20}?)(?:\s+to\s+the\s+[\w ]+?\s+list)?"
     r"\s*\(\s*e\.g\.,?\s*\"(?P<text>[^\"]+)\"\s*\)", _add_example),
    (r"search\s+for\s+(?:a|an)\s+[\w ]+?\s+by\s+(?:its\s+)?[\w ]+?\s*\(\s*e\.g\.,?\s*\"(?P<text>[^\"]+)\"\s*\)|"
     r"search\s+for\s+\"(?P<text2>[^\"]+)\"|"
     r"use\s+the\s+search\s+(?:feature|function|functionality|bar|box|field)\s+to\s+find\s+"
     r"(?:[\w ]+?\s+by\s+entering\s+)?"
     r"\"(?P<text3>[^\"]+)\"|search\s+for\s+(?:a|an)\s+[\w ]+?\s+using\s+(?:a|an|the)\s+[\w ]+?\s+(?:of\s+)?"
     r"\"(?P<text4>[^\"]+)\"", _search),
    # an option given as an example: "Select a unit from the dropdown menu (e.g., "Meters")"
    (r"(?:select|choose|pick)\s+(?:a|an)\s+[\w ]+?\s+from\s+the\s+[\w ]+?\s*\(\s*e\.g\.,?\s*\"(?P<label>[^\"]+)\"\s*\)|"
     r"change\s+the\s+selected\s+[\w ]+?\s+to\s+another\s+[\w ]+?\s*\(\s*e\.g\.,?\s*\"(?P<label2>[^\"]+)\"\s*\)",
     lambda m: [ClickText(m.group("label") or m.group("label2"), quoted=True, context="an example option")]),
    (r"(?:start|select|choose|play|open)\s+(?:the\s+game\s+at\s+)?(?P<label>level\s+\d+)(?:\s*\([^()]*\))?",
     lambda m: [ClickText(" ".join(m.group("label").split()), quoted=False, context="a level to choose")]),
    (rf"{_TYPE}\s+(?:the\s+|a\s+)?(?P<desc>[A-Za-z][\w ]{{0,30}}?)\s+as\s+\"(?P<text>[^\"]+)\"", _type_as),
    (rf"{_TYPE}\s+\"(?P<text>[^\"]+)\"\s+as\s+(?:the\s+|a\s+)?(?P<desc>[A-Za-z][\w ]{{0,30}}?)", _type_as),
    (rf"{_TYPE}\s+(?:the\s+|a\s+|an\s+)?(?P<desc>[A-Za-z][\w ]{{0,30}}?)\s+(?:of\s+)?(?:\"(?P<text>[^\"]+)\"|"
     rf"(?P<num>-?\$?\d+(?:\.\d+)?)){_CONTEXT}", _type_named),
    # accounts
    (rf"(?:successfully\s+)?(?:log\s*in|sign\s*in|log\s+into|log\s+back\s+in)(?:\s+successfully)?(?:\s+(?:to|into)\s+(?:the|your)\s+"
     rf"(?:application|app|account|user\s+account|website|site|system))?(?:\s+(?:with|using)\s+{_CREDENTIALS})?"
     rf"(?:\s+as\s+a\s+valid\s+user|\s+with\s+the\s+same\s+account)?(?:\s+successfully)?", lambda m: [Login()]),
    (rf"{_TYPE}\s+{_CREDENTIALS}(?:\s+on\s+the\s+login\s+(?:page|form|screen))?{_SUBMITTED}", lambda m: [Login()]),
    (rf"(?:register|sign\s*up)(?:\s+(?:a\s+new\s+(?:user|account)|an\s+account))?\s+with\s+"
     rf"(?:{_REGISTRATION}|(?:a\s+)?valid\s+details\s*\([^()]*\))", lambda m: [Login("register")]),
    (rf"(?:{_TYPE}|complete|fill\s+out)\s+{_REGISTRATION}\s+on\s+the\s+registration\s+(?:page|form|screen){_SUBMITTED}",
     lambda m: [Login("register")]),
    (rf"(?:fill\s+in|fill\s+out|complete)\s+the\s+registration\s+form\s+with\s+{_REGISTRATION}",
     lambda m: [Login("register")]),
    (rf"{_TYPE}\s+(?:a\s+)?new\s+(?:valid\s+)?username(?:,\s*|\s+and\s+)(?:a\s+)?password"
     rf"(?:,?\s*and\s+(?:an?\s+)?(?:valid\s+)?e-?mail(?:\s+address)?|,?\s*and\s+confirm\s+the\s+password"
     rf"(?:\s+correctly)?)?", lambda m: [Login("register")]),
    (r"(?:log\s*out|sign\s*out|log\s+off)(?:\s+(?:of|from)\s+(?:the\s+)?(?P<where>[\w' -]+?))?(?:\s+successfully)?",
     lambda m: [ClickText("logout", quoted=False, context=m.group("where") or "")]),
    # going places
    (rf"(?:navigate|go|return|proceed|head)\s+(?:back\s+)?to\s+(?:the\s+)?{_PAGE_NAME}{_PAGE_WORD}{_NAV_CONTEXT}",
     _navigate),
    (rf"(?:access|open|visit|view)\s+the\s+{_PAGE_NAME}\s+(?:page|section|screen|menu){_NAV_CONTEXT}", _navigate),
    (rf"(?:access|open|visit|view)\s+the\s+{_PAGE_NAME}{_NAV_CONTEXT}", _navigate),
    (rf"navigate\s+back\s+from\s+the\s+[\w' -]+?\s+(?:page|section|screen)\s+to\s+(?:the\s+)?{_PAGE_NAME}{_PAGE_WORD}"
     rf"{_NAV_CONTEXT}", _navigate),
    # keys, pointer, time
    (rf"(?:simulate\s+pressing|press)\s+(?:and\s+release\s+)?(?:the\s+)?(?:\"([^\"]+)\"|([^\s\"]+?|space\s+bar))"
     rf"(?:\s+or\s+[^\s\"]+)?(?:\s+arrow)?"
     rf"(?:\s+(?:key|bar|button))?(?:\s+on\s+(?:the|your)\s+keyboard)?{_TIMES}{_CONTEXT}{_PURPOSE}", _press),
    (rf"hold\s+(?:down\s+)?(?:the\s+)?{_KEY}\s+(?:down\s+)?(?:for\s+)?{_SECONDS}{_PURPOSE}", _hold),
    # "hold the right arrow key down": any length of hold is one; a second is one
    (rf"hold\s+(?:down\s+)?(?:the\s+)?{_KEY}(?:\s+down)?(?P<seconds>){_PURPOSE}", _hold),
    (r"(?:press|hit)\s+any\s+key(?:\s+on\s+the\s+keyboard)?(?:\s+to\s+(?!the\b)[a-z]+\b.*)?",
     lambda m: [Act(Action.press("space"))]),
    (r"use\s+the\s+arrow\s+keys\s+to\s+move\s+(?:the\s+)?[\w' -]+?\s+(?P<directions>(?:up|down|left|right)"
     r"(?:(?:,\s*|,?\s+and\s+|\s+)(?:up|down|left|right))*)", _arrows),
    (r"(?:refresh|reload)\s+the\s+(?:[\w' -]+\s+)?(?:page|site|website)", lambda m: [Reload()]),
    (rf"drag\s+(?:from\s+)?{_POINT}\s+to\s+{_POINT}",
     lambda m: [Act(Action.drag(*(int(m.group(i)) for i in range(1, 5))))]),
    (rf"(?:drag|move)\s+(?:the\s+)?{_QUOTED}{_ITEM}\s+(?:to|onto|into|on|over)\s+(?:the\s+)?{_QUOTED}{_ITEM}"
     rf"{_PURPOSE}",
     lambda m: [DragText(m.group(1), m.group(2))]),
    (rf"scroll\s+(up|down|left|right)(?:\s+(\d+)\s*(?:times|notches|clicks)?)?(?:\s+at\s+{_POINT})?", _scroll),
    (rf"wait\s+(?:for\s+)?{_AMOUNT}(?:\s+{_WHEN})?", lambda m: _chunks(_seconds(m), Action.wait)),
    (rf"(?:let|allow)\s+the\s+(?:game|timer|app|application|countdown|clock)\s+(?:to\s+)?run\s+for\s+{_AMOUNT}",
     lambda m: _chunks(_seconds(m), Action.wait)),
    (rf"(?:observe|watch|look\s+at|note|notice)\s+(?:that\s+)?(?:the\s+)?(?P<what>[\w' -]+?)"
     rf"(?:\s+for\s+(?:a\s+duration\s+of\s+|about\s+)?{_AMOUNT})?", _observe),
    # the app and the game
    (r"(?:open|launch|start|run)\s+(?:the\s+)?(?:[\w' -]{0,40}\s)?(?:app|application|program|software)", lambda m: []),
    (r"(?:start|begin|launch|run|open)\s+(?:a\s+|the\s+)?(?:new\s+)?(?:[a-z][\w-]*\s+){0,2}?(?:game|round|game\s+session)"
     r"(?:\s+(?:which|that)\s+[^,;]+)?", _start(False)),
    (r"(?:restart|reset|replay)\s+(?:the\s+)?(?:same\s+)?(?:game|level|puzzle|maze|current\s+level|current\s+puzzle|round)"
     r"(?:\s+after\s+[^,;]+)?", _start(True)),
    (r"(?:select|choose|use)\s+the\s+option\s+to\s+(?:start\s+a\s+new\s+game|restart\s+the\s+(?:game|current\s+level)|"
     r"reset\s+the\s+(?:current\s+)?puzzle)(?:\s+from\s+the\s+(?:main\s+)?menu)?(?:\s+during\s+gameplay|\s+while\s+in-game)?",
     _start(True)),
]
_RULES: list[tuple[re.Pattern[str], _Build]] = [(re.compile(pattern, re.I), build) for pattern, build in _PATTERNS]
#: "click it again": the step's last click, once more
_AGAIN = re.compile(rf"click\s+(?:on\s+)?it(?:\s+again)?{_PURPOSE}", re.I)
#: "… and continue clicking in numerical order up to 9": the numbered tiles after the last one clicked
_ONWARD = re.compile(r"(?:and\s+)?continue(?:\s+clicking)?(?:\s+in\s+numerical\s+order)?\s+(?:up\s+)?to\s+"
                     r"(?:number\s+)?(\d+)", re.I)
_SUBMIT = re.compile(r"(?:and\s+)?submit(?:\s+(?:the|this)\s+form)?", re.I)
#: "On the Dashboard Page, click …": where the next part happens
_WHERE = re.compile(r"(?:on|from)\s+the\s+[\w' -]+?\s+(?:page|screen|section)|while\s+(?:on|in|viewing)\s+[\w' -]+|"
                    r"while\s+the\s+(?:timer|game|clock|countdown)\s+is\s+running|during\s+gameplay", re.I)
_LEADING_AND = re.compile(r"^(?:then|and then|and)\s+", re.I)
_VERB = re.compile(rf"^({_TYPE}|{_CLICK[1:-1]}|navigate|go|press)\b", re.I)


def normalise(text: str) -> str:
    """Straight double quotes for curly and single ones around a label, single spaces, no final period."""
    text = text.replace("\u201c", '"').replace("\u201d", '"').replace("\u2018", "'").replace("\u2019", "'")
    text = re.sub(r"(?<![\w'])'([^'\"]+)'(?![\w'])", r'"\1"', text)
    return " ".join(text.split()).rstrip(".").strip()


def _mask(text: str) -> str:
    """The text with what is inside double quotes and parentheses replaced by 'x', so separators there are not
    seen."""
    masked = re.sub(_QUOTED, lambda m: '"' + "x" * len(m.group(1)) + '"', text)
    previous = None
    while previous != masked:
        previous, masked = masked, re.sub(r"\(([^()]*)\)", lambda m: "<" + "x" * len(m.group(1)) + ">", masked)
    return masked


_LEVELS = (re.compile(r"\s*;\s*|\s*,?\s+(?:and\s+)?then\s+", re.I), re.compile(r"\s*,(?!\s*\d)\s*"),
           re.compile(r"\s*,?\s+and\s+", re.I))


_OR = re.compile(r"\s+or\s+", re.I)


def _split(text: str, separator: re.Pattern[str]) -> list[str]:
    masked = _mask(text)
    parts, start = [], 0
    for found in separator.finditer(masked):
        parts.append(text[start:found.start()])
        start = found.end()
    parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]


def split_parts(text: str) -> list[str]:
    """The parts of a step joined by "then", commas or semicolons (outside quotes, parentheses and coordinate
    pairs)."""
    return [piece for part in _split(text, _LEVELS[0]) for piece in _split(part, _LEVELS[1])]


def parse_part(part: str) -> list[Move] | None:
    """One part of a step as moves, or None when the grammar does not cover it."""
    part = _LEADING_AND.sub("", part)
    for pattern, build in _RULES:
        match = pattern.fullmatch(part)
        moves = build(match) if match else None
        if moves is not None:
            return moves
    return None


def parse_step(text: str) -> list[Move] | None:
    """A whole step as moves in order, or None when any part of it is outside the grammar."""
    code = _CODE.fullmatch(text.strip())
    if code is not None:
        return _type_code(code)
    return _parse(normalise(text), 0, None)


#: "Type the following code:" and a fenced block (the parser keeps its lines and indentation)
_CODE = re.compile(r"(?P<head>[^`]*?)\s*```[\w+#.-]*\n(?P<code>.*?)\n?\s*```", re.S)
_TYPE_CODE = re.compile(r"(?:type|enter|write|paste|input)\s+(?:in\s+)?(?:the\s+following|this)\s+(?:code|text|lines?)"
                        r"(?P<flat>\s+without\s+indentation)?\s*:?", re.I)


def _type_code(code: re.Match[str]) -> list[Move] | None:
    head = _TYPE_CODE.fullmatch(normalise(code.group("head")))
    if head is None:
        return None
    lines = code.group("code").splitlines()
    if head.group("flat"):
        lines = [line.strip() for line in lines]
    return [Act(Action.type_text("\n".join(lines)))]


def _parse(text: str, level: int, verb: str | None) -> list[Move] | None:
    """``text`` read whole, else split at ``level`` and each part read (a part without a verb takes ``verb``,
    the one of the part before it)."""
    whole = parse_part(text)
    if whole is None and verb is not None and not _VERB.match(text):
        whole = parse_part(f"{verb} {_LEADING_AND.sub('', text)}")
    if whole is not None:
        return whole
    if level >= len(_LEVELS):
        return _either(text, verb)
    parts = _split(text, _LEVELS[level])
    if len(parts) < 2:
        return _parse(text, level + 1, verb)
    moves: list[Move] = []
    for index, part in enumerate(parts):
        if _WHERE.fullmatch(part) and index + 1 < len(parts):
            parts[index + 1] = f"{parts[index + 1]} {part}"
            continue
        parsed = _joined(part, moves) if moves else None
        if parsed is None:
            parsed = _parse(part, level + 1, verb)
        if parsed is None:
            return None
        moves.extend(parsed)
        found = _VERB.match(_LEADING_AND.sub("", part))
        verb = found.group(1) if found else verb
    return moves


def _either(text: str, verb: str | None) -> list[Move] | None:
    """"Click the exit button or use a keyboard command": the first alternative the grammar performs (the author
    offers each of them)."""
    alternatives = _split(text, _OR)
    if len(alternatives) < 2:
        return None
    for alternative in alternatives:
        moves = parse_part(alternative)
        if moves is None and verb is not None and not _VERB.match(alternative):
            moves = parse_part(f"{verb} {alternative}")
        if moves is not None:
            return moves
        found = _VERB.match(alternative)
        verb = found.group(1) if found else verb
    return None


def _joined(part: str, before: list[Move]) -> list[Move] | None:
    """A part that leans on the moves before it: "click it again", "submit the form" after logging in."""
    if _AGAIN.fullmatch(part):
        clicks = [move for move in before if isinstance(move, ClickText)]
        return [clicks[-1]] if clicks else None
    if _SUBMIT.fullmatch(part) and isinstance(before[-1], Login):
        return []  # the login and registration moves submit their form
    onward = _ONWARD.fullmatch(part)
    last = before[-1]
    if onward and isinstance(last, ClickText) and last.label.isdigit() and int(last.label) < int(onward.group(1)):
        return [ClickText(str(n), quoted=False) for n in range(int(last.label) + 1, int(onward.group(1)) + 1)]
    return None
