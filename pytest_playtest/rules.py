"""Rules over a web page's DOM, in the grammar of AUI-Gym's task checkers (``expect.rule("…")``).

A rule is clauses joined by ``AND`` / ``OR`` (AND binds tighter; no parentheses)::

    #score > 0                      numbers: > >= < <= == != (the first number in the element's text)
    #status == 'Won'                text: == != contains icontains startswith endswith ('…' or "…")
    #menu visible   #menu not visible
    #board exists   .tile exists    [data-x^='a'] exists    #x not exists    (also AUI-Gym's "sel.exists")
    button[aria-expanded] == 'true' a selector ending in a bare [name] compares that attribute's value
    #a == 'x' AND #b contains 'y' OR #c exists

The left side is any CSS selector (the first match counts; a bare name such as ``gridContainer`` that
matches no element is taken as an id). An element's value is an input's value (a checkbox's ``checked``
as "true"/"false"), else its visible text, trimmed. This module parses rules and judges them on the facts
a DOM read returns (:class:`Fact` per :class:`Query`); reading the page is the runtime's job.
docs/web-apps.md lists the grammar with examples.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from .errors import RuleError

#: Where rules apply, for the errors that refuse them elsewhere.
WEB_ONLY = "rules are for .html files, web app folders and URLs"
COMPARISONS = ("==", "!=", ">=", "<=", ">", "<")
TEXT_OPERATORS = ("contains", "icontains", "startswith", "endswith")
STATES = ("visible", "exists")

_LITERAL = r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|-?\d+(?:\.\d+)?"
_COMPARISON = re.compile(rf"^(?P<selector>.+?)\s*(?P<op>==|!=|>=|<=|>|<)\s*(?P<value>{_LITERAL})$", re.S)
_TEXT = re.compile(rf"^(?P<selector>.+?)\s+(?P<op>{'|'.join(TEXT_OPERATORS)})\s+(?P<value>{_LITERAL})$", re.S | re.I)
_STATE = re.compile(rf"^(?P<selector>.+?)(?:\s+(?P<neg>not\s+)?|\.)(?P<op>{'|'.join(STATES)})$", re.S | re.I)
_ATTRIBUTE = re.compile(r"\[\s*(?P<name>[A-Za-z_][\w:.-]*)\s*\]$")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_JOINER = re.compile(r"\s+(AND|OR)\s+", re.I)
_DANGLING = re.compile(r"^(AND|OR)(\s|$)|\s(AND|OR)$", re.I)


@dataclass(frozen=True)
class Query:
    """What a clause needs to know about the page: the first element matching ``selector``, and either its
    value or (``attribute``) one of its attributes."""

    selector: str
    attribute: str | None = None


@dataclass(frozen=True)
class Fact:
    """What the page said about a Query: whether the element exists and is visible, and its value
    (None: no element, or no such attribute)."""

    exists: bool
    visible: bool = False
    value: str | None = None


@dataclass(frozen=True)
class Clause:
    """One condition on one element."""

    query: Query
    op: str
    value: str | float | None = None
    negated: bool = False
    source: str = ""

    def holds(self, fact: Fact) -> bool:
        if self.op in STATES:
            state = fact.exists if self.op == "exists" else fact.visible
            return state != self.negated
        if fact.value is None:
            return False  # a comparison needs the element (and its attribute) to be there
        if isinstance(self.value, float):
            number = as_number(fact.value)
            return number is not None and _compare(number, self.op, self.value)
        return _compare_text(fact.value, self.op, str(self.value))

    def shortfall(self, fact: Fact) -> float | None:
        """How far a numeric comparison is from holding: 0 when it holds, else the distance of the element's
        number from the value, plus one (``#count > 0`` at 0 is 1, at -2 is 3); None for a clause that is no
        comparison of numbers, or whose element shows no number."""
        if not isinstance(self.value, float) or fact.value is None:
            return None
        number = as_number(fact.value)
        if number is None:
            return None
        return 0.0 if _compare(number, self.op, self.value) else abs(number - self.value) + 1.0

    def explain(self, fact: Fact) -> str:
        """What the page showed for this clause ("#score is '0'")."""
        what = self.query.selector + (f" [{self.query.attribute}]" if self.query.attribute else "")
        if not fact.exists:
            return f"{what} does not exist"
        if self.op in STATES:
            return f"{what} is {'visible' if fact.visible else 'not visible'}"
        return f"{what} is {fact.value!r}" if fact.value is not None else f"{what} has no such attribute"


@dataclass(frozen=True)
class Rule:
    """A parsed rule: any of its AND-groups holds."""

    source: str
    groups: tuple[tuple[Clause, ...], ...]

    @property
    def queries(self) -> list[Query]:
        return list(dict.fromkeys(clause.query for group in self.groups for clause in group))

    def holds(self, facts: Mapping[Query, Fact]) -> bool:
        return any(all(clause.holds(facts[clause.query]) for clause in group) for group in self.groups)

    def shortfall(self, facts: Mapping[Query, Fact]) -> float | None:
        """How far the page is from the rule holding, by the numbers its comparisons read: the least, over its
        AND-groups, of the group's clauses' shortfalls summed (its other clauses cannot be measured so); None
        when no group's numbers can all be read."""
        sums = []
        for group in self.groups:
            measures = [clause.shortfall(facts[clause.query]) for clause in group
                        if isinstance(clause.value, float) and clause.query in facts]
            if measures and None not in measures:
                sums.append(sum(m for m in measures if m is not None))
        return min(sums, default=None)

    def explain(self, facts: Mapping[Query, Fact]) -> str:
        """The page's side of every clause, for a finding's message."""
        seen = dict.fromkeys(clause.explain(facts[clause.query]) for group in self.groups for clause in group
                             if clause.query in facts)
        return "; ".join(seen)


def refused_on_desktop(rule: str, app: object = None) -> str:
    """What every refusal of a DOM rule on a desktop app says: the spec's, a scenario's, the launcher's
    (``app`` as the test named it; None: the app under test)."""
    named = "this app" if app is None else f"app={app!r}"
    return f"the rule `{rule}` reads a web page's DOM, but {named} is a desktop app ({WEB_ONLY})"


def parse(source: str) -> Rule:
    """Parse a rule; raises RuleError naming the clause that is wrong."""
    if not isinstance(source, str) or not source.strip():
        raise RuleError(f"a rule is a non-empty string, got {source!r}")
    groups = tuple(tuple(_clause(part, source) for part in _split(group, "AND", source))
                   for group in _split(source.strip(), "OR", source))
    return Rule(source.strip(), groups)


def _split(text: str, word: str, source: str) -> list[str]:
    """``text`` split at ``word`` (AND/OR) where it stands outside quotes, brackets and parentheses."""
    parts, start = [], 0
    for match in _JOINER.finditer(text):
        if match.group(1).upper() == word and _outside(text[: match.start()]):
            parts.append(text[start : match.start()])
            start = match.end()
    parts.append(text[start:])
    if any(not part.strip() or _DANGLING.search(part.strip()) for part in parts):
        raise RuleError(f"rule {source!r}: {word} needs a clause on both sides")
    return [part.strip() for part in parts]


def _outside(prefix: str) -> bool:
    """Whether the end of ``prefix`` is outside any quote, bracket or parenthesis."""
    quote, depth = "", 0
    for char in prefix:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
    return not quote and depth == 0


def _clause(text: str, source: str) -> Clause:
    if match := _STATE.match(text):
        selector = _selector(match.group("selector"), text, source)
        return Clause(Query(selector), match.group("op").lower(), negated=bool(match.group("neg")), source=text)
    for pattern in (_COMPARISON, _TEXT):
        if match := pattern.match(text):
            selector = _selector(match.group("selector"), text, source)
            attribute = _ATTRIBUTE.search(selector)
            query = Query(selector, attribute.group("name") if attribute else None)
            return Clause(query, match.group("op").lower(), _literal(match.group("value")), source=text)
    raise RuleError(
        f"rule {source!r}: cannot read the clause {text!r}; write SELECTOR OP VALUE (OP one of "
        f"{' '.join(COMPARISONS)} {' '.join(TEXT_OPERATORS)}; VALUE a number or a quoted string), "
        "SELECTOR [not] visible, or SELECTOR [not] exists")


def _selector(text: str, clause: str, source: str) -> str:
    selector = text.strip()
    if not selector or not _outside(selector):
        raise RuleError(f"rule {source!r}: the clause {clause!r} has no complete selector")
    return selector


def _literal(text: str) -> str | float:
    if text[0] in "'\"":
        return re.sub(r"\\(.)", r"\1", text[1:-1])
    return float(text)


def as_number(text: str) -> float | None:
    """The number an element shows: its whole text, else the first number in it ("Score: 12" → 12)."""
    try:
        return float(text.strip().replace(",", ""))
    except ValueError:
        match = _NUMBER.search(text)
        return float(match.group(0)) if match else None


def _compare(left: float, op: str, right: float) -> bool:
    match op:
        case "==":
            return left == right
        case "!=":
            return left != right
        case ">":
            return left > right
        case ">=":
            return left >= right
        case "<":
            return left < right
        case "<=":
            return left <= right
    return False


def _compare_text(left: str, op: str, right: str) -> bool:
    match op:
        case "==":
            return left == right
        case "!=":
            return left != right
        case "contains":
            return right in left
        case "icontains":
            return right.casefold() in left.casefold()
        case "startswith":
            return left.startswith(right)
        case "endswith":
            return left.endswith(right)
    # an ordering of a text against a text: compared as numbers when both are numbers
    number = as_number(left)
    other = as_number(right)
    return number is not None and other is not None and _compare(number, op, other)
