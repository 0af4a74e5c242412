"""What an Expectation asks, as far as it can be checked without a model.

Data only. An Expectation is read into ``Checks``:

- **quoted texts** that must be on the window, or gone from it (``"Milk" no longer appears``);
- **rules** in backticks (DOM rules, ``rules.parse``): a code span is a rule when it compares or tests an
  element (``==``, ``>``, ``contains``, ``visible``…) or starts with an ``#id``; `.txt` or `save()` is prose;
- **named numbers** that increase, decrease, become N, reset or stay (``The score increases by 10``; by a
  multiple of 10 when it is ``for each`` event), read on the window's text ("Score: 12") before the case's steps
  and after them;
- **the window closes** (the app exits);
- **confirmations**: things the window can show but whose absence proves nothing (a message box may be a
  window of its own, a page may not name itself): the game is over, a success or error message appeared, the
  X page is shown, the form has fields for A and B, the user is logged in or out. Seen, they pass; unseen,
  the tester judges the Expectation (or the case is skipped offline), never failed on that alone. A refusal
  ("The input is rejected") or a plain record ("The alert is saved") is covered only beside a message of its
  kind, as what that message says: alone it claims a state no message shows.

Quoted texts and rules check the whole Expectation, as they always have. Without them, the words no check
covers are kept as ``rest``: the tester judges the Expectation after its checks pass (offline the case is
skipped, naming them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

#: Trailing punctuation inside quotes is the sentence's, not the text's ("In Progress," / "Saved.").
_QUOTE_PUNCTUATION = ",.;:!?"

NumberChange = Literal["up", "down", "to", "same"]
ConfirmKind = Literal["ends", "message", "page", "fields", "logged_in", "logged_out", "number"]


@dataclass(frozen=True)
class NumberCheck:
    """A number the window shows beside ``name``, and how it must have changed over the case's steps."""

    name: str
    change: NumberChange
    #: by how much (``up``/``down``) or to what (``to``, ``same`` at a value); None: any amount
    amount: float | None = None
    #: the amount is per event ("by 200 for each tank destroyed"): the change is a whole multiple of it
    each: bool = False

    def describe(self) -> str:
        amount = "" if self.amount is None else f"{self.amount:g}"
        by = (" by a multiple of " if self.each else " by ") + amount if amount else ""
        return {"up": f"{self.name} increases{by}",
                "down": f"{self.name} decreases{by}",
                "to": f"{self.name} becomes {amount}",
                "same": f"{self.name} stays the same" + (f" at {amount}" if amount else "")}[self.change]


@dataclass(frozen=True)
class Confirm:
    """Something the window may show that the Expectation promises (see the module docstring)."""

    kind: ConfirmKind
    #: the message's kind ("success", "error", "win", "loss"), the page's name, the fields' names joined by ",",
    #: or the name of the number shown
    what: str = ""

    def describe(self) -> str:
        article = "an" if self.what[:1] in ("e", "a", "i", "o", "u") else "a"
        return {"ends": "the game is over", "message": f"{article} {self.what} message appears",
                "page": f"the {self.what} page is shown", "fields": f"fields for {self.what.replace(',', ', ')}",
                "logged_in": "the user is logged in", "logged_out": "the user is logged out",
                "number": f"a {self.what} is shown"}[self.kind]


@dataclass(frozen=True)
class Checks:
    """What an Expectation asks: see the module docstring."""

    texts: tuple[str, ...]
    rules: tuple[str, ...]
    gone: tuple[str, ...] = ()
    numbers: tuple[NumberCheck, ...] = ()
    closes: bool = False
    confirms: tuple[Confirm, ...] = ()
    #: the Expectation's words that no check covers ("" when the checks cover it all)
    rest: str = ""

    @property
    def free_form(self) -> bool:
        """Nothing to check offline: the tester judges it all."""
        return not (self.texts or self.rules or self.gone or self.numbers or self.closes or self.confirms)

    @property
    def offline(self) -> bool:
        """Every word is covered by a check that needs no model."""
        return not self.free_form and not self.rest

    @property
    def needs_before(self) -> bool:
        """Whether the check compares the window with how it was before the case's steps."""
        return bool(self.numbers) or any(c.kind == "message" for c in self.confirms)


_QUOTED = re.compile(r'"([^"]+)"')
_GONE_AFTER = re.compile(r"^[^,.;\"]{0,40}?\b(?:no\s+longer|disappears?|vanish(?:es)?|is\s+(?:removed|deleted|cleared|"
                         r"gone)|are\s+(?:removed|deleted|cleared|gone)|(?:is|are)\s+not\s+(?:displayed|shown|listed)|"
                         r"does\s+not\s+appear|do\s+not\s+appear)\b", re.I)
_GONE_BEFORE = re.compile(r"\b(?:no\s+longer\s+(?:shows?|displays?|lists?|contains?)|(?:removes?|deletes?|clears?)"
                          r"(?:\s+the)?)\s*$", re.I)
#: What makes a code span a rule: a comparison or rule word outside its quoted values, or an id selector first.
_RULE_WORDS = re.compile(r"==|!=|>=|<=|>|<|\b(?:contains|icontains|startswith|endswith|visible|exists)\b", re.I)


def is_rule(span: str) -> bool:
    """Whether a code span in an Expectation is a DOM rule (`#total == '3'`, `#menu visible`) rather than a
    name in prose (`.txt`, `save()`): it compares or tests an element, or starts with an ``#id``."""
    span = span.strip()
    unquoted = re.sub(r"'[^']*'|\"[^\"]*\"", "''", span)
    return bool(span) and (span.startswith("#") or _RULE_WORDS.search(unquoted) is not None)


# -- phrasings of the checks without quotes -------------------------------------------------------------------
_NAME = (r"(?:the\s+|a\s+|your\s+|(?:the\s+)?(?:[a-z]+'s|(?:player|user|game)s)\s+)?"
         r"(?P<name>(?:number\s+of\s+)?[a-z]+(?:\s+[a-z]+)?)")
_BY = (r"(?:\s+by\s+(?:(?P<by>\d+(?:\.\d+)?|one|two|three|five|ten)|(?:a|an|some)\s+(?:predefined|certain|fixed|"
       r"set|given)\s+amount))?(?:\s+(?:points?|units?))?"
       # "… for each tank destroyed", "… with each pass": the amount is per event, the steps make the events
       r"(?P<each>\s+(?:for|with)\s+each\s+[a-z][a-z' -]*?(?=$|[,.;]))?")
_VALUE = r"(?P<to>-?\d+(?:\.\d+)?|zero)(?:\s+(?:points?|units?))?(?=$|[\s,.;])"
_NUMBER_SOURCES: tuple[tuple[NumberChange, str], ...] = (
    ("up", rf"{_NAME}\s+(?:count\s+)?(?:increases?(?!\w)|is\s+increased|increments|is\s+incremented|"
           rf"go(?:es)?\s+up|rises|continues\s+to\s+increase){_BY}"),
    ("down", rf"{_NAME}\s+(?:count\s+)?(?:decreases?(?!\w)|is\s+decreased|decrements|is\s+decremented|"
             rf"go(?:es)?\s+down|drops|is\s+reduced|reduces){_BY}"),
    ("to", rf"{_NAME}\s+(?:is\s+)?(?:resets|reset|is\s+reset)(?:\s+(?:back\s+)?to\s+{_VALUE})?"),
    ("to", rf"{_NAME}\s+(?:is\s+set|goes|returns|drops)\s+back\s+to\s+{_VALUE}"),
    ("to", rf"{_NAME}\s+(?:becomes|changes\s+to|is\s+updated\s+to|updates\s+to|is\s+set\s+to|equals|shows|displays|"
           rf"reads|is\s+now|is\s+initiali[sz]ed\s+to|starts\s+at|begins\s+at|(?:displayed\s+)?should\s+be|is)\s+{_VALUE}"
           rf"(?:\s*\(e\.g\.,?\s*-?\d+(?:\.\d+)?\))?"),
    ("same", rf"{_NAME}\s+(?:remains|stays)\s+(?:unchanged|the\s+same|at\s+{_VALUE})"),
    ("same", rf"{_NAME}\s+does\s+not\s+change"),
)
_NUMBER_PHRASES = [(change, re.compile(pattern, re.I)) for change, pattern in _NUMBER_SOURCES]
_WORD_NUMBERS = {"zero": 0.0, "one": 1.0, "two": 2.0, "three": 3.0, "five": 5.0, "ten": 10.0}
#: Names that are no number on a window ("the game increases in speed").
_NOT_NUMBERS = {"it", "this", "that", "game", "application", "app", "system", "page", "user", "player", "they",
                "snake", "ball", "character", "board", "grid", "list", "screen", "window", "image", "text", "font"}
_NAME_TAILS = {"counter", "count", "display", "value", "indicator", "total"}

_ENDS = re.compile(r"(?:the\s+)?game\s+(?:ends|is\s+over|has\s+ended|ended|terminates)"
                   r"(?:\s+(?:immediately|automatically))?|"
                   r"(?:presenting\s+)?(?:a\s+|the\s+)?\"?game[\s-]+over\"?(?:\s+(?:message|screen|state))?"
                   r"(?:\s+(?:is\s+)?(?:displayed|shown|appears|triggered))?", re.I)
#: "the final score is displayed", "displays the player's final score": a number shown beside its name
_SHOWN_NAMES = r"score|time|level|timer|lives|points|moves"
_SHOWN_NUMBER = re.compile(rf"(?:(?:the\s+)?(?:player'?s\s+)?(?:final\s+|current\s+|total\s+|high\s+)?"
                           rf"(?P<name>{_SHOWN_NAMES})\s+(?:is\s+|are\s+)?(?:displayed|shown|visible)"
                           rf"(?:\s+on\s+the\s+screen)?|(?:displays|displaying|showing|shows)\s+(?:the\s+)?"
                           rf"(?:player'?s\s+)?(?:final\s+|current\s+|total\s+)?(?P<name2>{_SHOWN_NAMES}))", re.I)
#: "a message … indicating that the move is invalid": what the message is about names its kind
#: "the player is notified that the time is up": a message too
_INDICATING = re.compile(r"(?P<message>(?:(?:displays|shows|provides|gives)\s+)?(?:an?\s+|the\s+)?(?:error\s+)?"
                         r"message\s+(?:is\s+)?(?:displayed\s+|shown\s+|appears\s+)?)?(?:,\s*)?"
                         r"(?:indicating|(?:is\s+|are\s+)?notified)\s+(?:that\s+)?(?P<what>[^,.;]+)", re.I)
_INDICATES = (("loss", r"\b(?:lost|defeated|game\s+over|has\s+been\s+consumed|"
                       r"time\s+(?:is\s+up|limit\s+has\s+been\s+exceeded))\b"),
              ("win", r"\b(?:won|wins|victory|completed|solved)\b"),
              ("error", r"\b(?:invalid|not\s+allowed|cannot|can't|already\s+taken|exceeded|violation|not\s+available|"
                        r"no\s+[\w-]+\s+(?:are|is)\s+available|could\s+not|not\s+found)\b"))
_CLOSES = re.compile(r"(?:the\s+)?(?:window|application|app|game|program|software)\s+(?:window\s+)?(?:closes|exits|"
                     r"quits|is\s+closed|terminates|shuts\s+down)(?:\s+(?:successfully|gracefully|properly|"
                     r"without\s+errors?))?", re.I)
_MESSAGE_KIND = (r"(?P<kind>confirmation|success|error|warning|welcome|logout\s+confirmation|victory|win|winning|"
                 r"loss|losing|thank\s+you)")
#: "The account is created successfully": the app says so, as a success message.
_SUCCEEDED = re.compile(r"(?:the\s+|a\s+|an\s+|new\s+)*(?:user'?s?\s+)?[a-z][\w' -]{0,40}?\s+"
                        r"(?:is|are|was|were|has\s+been|have\s+been)\s+"
                        r"(?:successfully\s+(?P<verb>[a-z]+ed|sent|set|paid)|"
                        r"(?P<verb2>[a-z]+ed|sent|set|paid)\s+successfully)", re.I)
#: Where a clause ends: its punctuation, the end, or "and" before another clause ("… and redirects to …").
_CLAUSE_END = r"(?=\s+and\s+(?:a|an|the|[a-z]+s)\s|\s*[,.;]|\s*$)"
#: "The alert is saved, and a confirmation message is displayed": said beside a success message, the plain clause
#: is what the message says.
_DONE = re.compile(r"(?:the\s+|a\s+|an\s+|new\s+)*(?:user'?s?\s+)?[a-z][\w' -]{0,40}?\s+"
                   r"(?:is|are|was|were|has\s+been|have\s+been)\s+(?:saved|created|updated|deleted|removed|submitted|"
                   rf"sent|posted|registered|added|published|shared|confirmed|successful){_CLAUSE_END}", re.I)
#: "The software confirms account deletion": a message, of the kind its words name (else success).
_APP_CONFIRMS = re.compile(r"(?:the\s+)?(?:software|application|app|system|game|site|website)\s+confirms\s+"
                           rf"(?:that\s+)?(?P<what>[^,.;]+?){_CLAUSE_END}", re.I)
#: "The game prevents the move", "The input is rejected": said beside an error message, what the message says.
_REFUSED = re.compile(r"(?:the\s+)?(?:game|application|app|system|software)\s+(?:does\s+not\s+allow|prevents|"
                      rf"rejects|refuses)\s+[^,.;]+?{_CLAUSE_END}|(?:the\s+)?[a-z][\w' -]{{0,30}}?\s+(?:is|are|was|"
                      rf"were)\s+(?:rejected|refused|denied|blocked){_CLAUSE_END}", re.I)
_MESSAGE = re.compile(
    rf"(?:(?:an?\s+|the\s+)?{_MESSAGE_KIND}\s+(?:message|notification|alert)\s+(?:is\s+|appears|pops\s+up)?"
    rf"(?:displayed|shown|appears|presented)?|(?:displays|shows|sees|with|provides|receives|(?:is\s+)?notified\s+with)"
    rf"\s+(?:an?\s+|the\s+)?{_MESSAGE_KIND.replace('kind', 'kind2')}\s+(?:message|notification|alert)|"
    rf"(?:an?\s+)?confirmation\s+(?:is\s+)?(?:displayed|shown|appears))", re.I)
_PAGE_NAME = r"(?:the\s+)?(?P<page>[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*){0,3}?)"
_PAGE = re.compile(
    rf"(?:(?:the\s+)?(?:user|player|software|system|application|app)\s+)?(?:is\s+|are\s+)?(?:redirected|directed|"
    rf"taken|navigated|sent|returned|navigates|redirects|returns)(?:\s+the\s+user)?\s+(?:back\s+)?to\s+{_PAGE_NAME}"
    rf"(?:\s+(?:page|screen|section)|(?<=dashboard))|{_PAGE_NAME.replace('page>', 'page2>')}\s+(?:page|form|screen)"
    rf"\s+(?:is\s+|are\s+)?(?:displayed|shown|opens|appears|loads|is\s+opened)", re.I)
_FIELD_NAME = r"[a-z]+(?:\s+(?!and\b)[a-z]+)?"
_FIELDS = re.compile(rf"with\s+(?:input\s+)?fields\s+for\s+(?P<fields>{_FIELD_NAME}(?:(?:,\s*(?:and\s+)?|\s+and\s+)"
                     rf"{_FIELD_NAME}){{0,4}})|(?:with\s+)?(?:a|the)\s+(?P<search>search)\s+(?:bar|input\s+field|field|box)"
                     rf"(?:\s+(?:is\s+)?(?:displayed|visible|shown))?", re.I)
_LOGGED = re.compile(r"(?:is\s+|are\s+|successfully\s+)?"
                     r"(?P<state>logged\s+(?:in|out)|logs\s+(?:in|out)|access\s+is\s+granted)(?:\s+successfully)?",
                     re.I)
#: "is successfully displayed / logged in / redirected": no success message says these (other checks do).
_NOT_DONE = {"displayed", "logged", "redirected", "loaded", "launched", "initialized", "initialised", "started",
             "opened", "shown", "rendered", "navigated", "connected", "completed", "formed", "cleared", "moved"}
_NOT_A_PAGE = {"a", "an", "respective", "selected", "detailed", "specific", "previous", "appropriate", "same"}
_MESSAGE_KINDS = {"confirmation": "success", "success": "success", "welcome": "success", "error": "error",
                  "warning": "error", "logout confirmation": "success", "victory": "win", "win": "win",
                  "winning": "win", "loss": "loss", "losing": "loss", "thank you": "success"}
#: Words that say nothing a check could miss: what is left of an Expectation when only these remain is covered.
_FILLERS = frozenset("""a an the and is are be been was were it its that this user users player players software
system application app game successfully correctly properly immediately automatically accordingly smoothly back then
with to of on in screen window also again now displayed shown appears visible should will can
by their his her as""".split())


def parse_expectation(text: str) -> Checks:
    """The checks an Expectation asks for (see the module docstring)."""
    text = text.replace("\u201c", '"').replace("\u201d", '"').replace("\u2018", "'").replace("\u2019", "'")
    rules = tuple(span.strip() for span in re.findall(r"`([^`]+)`", text) if is_rule(span))
    text = re.sub(r"`[^`]+`", lambda m: "`" + " " * (len(m.group()) - 2) + "`", text)  # quotes in a span are its own
    text = re.sub(r"(?<![\w'])'([^'\"]+)'(?![\w'])", r'"\1"', text)  # 'Unfollow' is quoted as "Unfollow" is
    present: list[str] = []
    gone: list[str] = []
    for match in _QUOTED.finditer(text):
        quoted = match.group(1).strip().rstrip(_QUOTE_PUNCTUATION).strip()
        if not quoted:
            continue
        vanishing = _GONE_AFTER.match(text[match.end():]) or _GONE_BEFORE.search(text[:match.start()])
        (gone if vanishing else present).append(quoted)
    if present or rules or gone:
        return Checks(tuple(present), rules, tuple(gone))
    covered: list[tuple[int, int]] = []
    numbers = _numbers(text, covered)
    closes = _found(_CLOSES, text, covered)
    confirms = _confirms(text, covered)
    return Checks((), (), (), tuple(numbers), closes, tuple(dict.fromkeys(confirms)), _rest(text, covered))


def _found(pattern: re.Pattern[str], text: str, covered: list[tuple[int, int]]) -> bool:
    spans = [m.span() for m in pattern.finditer(text) if not _overlaps(m.span(), covered)]
    covered.extend(spans)
    return bool(spans)


def _overlaps(span: tuple[int, int], covered: list[tuple[int, int]]) -> bool:
    return any(start < span[1] and span[0] < end for start, end in covered)


def _numbers(text: str, covered: list[tuple[int, int]]) -> list[NumberCheck]:
    found: list[NumberCheck] = []
    for change, pattern in _NUMBER_PHRASES:
        for match in pattern.finditer(text):
            if _overlaps(match.span(), covered):
                continue
            groups = {k: v for k, v in match.groupdict().items() if v}
            name = _number_name(groups.get("name", ""))
            if name is None:
                continue
            raw = groups.get("by") or groups.get("to")
            amount = None if raw is None else _WORD_NUMBERS.get(raw.lower(), None)
            if raw is not None and amount is None:
                amount = float(raw)
            if change == "to" and amount is None:
                amount = 0.0  # "the score resets"
            found.append(NumberCheck(name, change, amount, each="each" in groups and amount is not None))
            covered.append(match.span())
    return found


def _number_name(phrase: str) -> str | None:
    """The label a number has on the window: "the number of moves" → "moves", "score counter" → "score"."""
    words = phrase.lower().removeprefix("number of ").split()
    while len(words) > 1 and (words[-1] in _NAME_TAILS or words[-1] in _FILLERS):
        words = words[:-1]
    if not words or words[-1] in _NOT_NUMBERS or words[-1] in _FILLERS:
        return None
    return words[-1]


def _confirms(text: str, covered: list[tuple[int, int]]) -> list[Confirm]:
    found: list[Confirm] = []
    _indicated(text, covered, found)
    if _found(_ENDS, text, covered):
        found.append(Confirm("ends"))
    for match in _MESSAGE.finditer(text):
        kind = (match.group("kind") or match.group("kind2") or "confirmation").lower()
        if not _overlaps(match.span(), covered):
            found.append(Confirm("message", _MESSAGE_KINDS[" ".join(kind.split())]))
            covered.append(match.span())
    for match in _SHOWN_NUMBER.finditer(text):
        if not _overlaps(match.span(), covered):
            found.append(Confirm("number", (match.group("name") or match.group("name2")).lower()))
            covered.append(match.span())
    for match in _APP_CONFIRMS.finditer(text):
        if not _overlaps(match.span(), covered):
            found.append(Confirm("message", _indicates(match.group("what")) or "success"))
            covered.append(match.span())
    for match in _SUCCEEDED.finditer(text):
        verb = (match.group("verb") or match.group("verb2")).lower()
        if not _overlaps(match.span(), covered) and verb not in _NOT_DONE:
            found.append(Confirm("message", "success"))
            covered.append(match.span())
    for match in _PAGE.finditer(text):
        page = match.group("page") or match.group("page2") or ""
        if _overlaps(match.span(), covered) or _NOT_A_PAGE & set(page.lower().split()):
            continue
        found.append(Confirm("page", " ".join(page.split())))
        covered.append(match.span())
    for match in _FIELDS.finditer(text):
        if _overlaps(match.span(), covered):
            continue
        listed = match.group("fields") or match.group("search")
        names = [n for n in re.split(r",\s*(?:and\s+)?|\s+and\s+", listed.lower()) if n]
        found.append(Confirm("fields", ",".join(names)))
        covered.append(match.span())
    for match in _LOGGED.finditer(text):
        if not _overlaps(match.span(), covered):
            out = match.group("state").lower().endswith("out")
            found.append(Confirm("logged_out" if out else "logged_in"))
            covered.append(match.span())
    for pattern, kind in ((_DONE, "success"), (_REFUSED, "error")):
        if Confirm("message", kind) in found:
            _found(pattern, text, covered)
    return found


def _indicated(text: str, covered: list[tuple[int, int]], found: list[Confirm]) -> None:
    """Messages said by what they indicate ("a message indicating the move is invalid"); read before the game's
    end, whose "game over" may be what the message says."""
    for match in _INDICATING.finditer(text):
        kind = _indicates(match.group("what"))
        if kind is not None and not _overlaps(match.span(), covered):
            found.append(Confirm("message", kind))
            covered.append(match.span())


def _indicates(what: str) -> str | None:
    """The kind of message whose words say ``what``, if they name one."""
    return next((kind for kind, words in _INDICATES if re.search(words, what, re.I)), None)


def _rest(text: str, covered: list[tuple[int, int]]) -> str:
    """The words outside the covered spans that say something (not only fillers)."""
    kept, start = [], 0
    for begin, end in sorted(covered):
        kept.append(text[start:begin])
        start = max(start, end)
    kept.append(text[start:])
    words = re.findall(r"[A-Za-z][\w'-]*", " ".join(kept))
    return " ".join(w for w in words if w.lower() not in _FILLERS)
