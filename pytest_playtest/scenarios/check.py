"""An Expectation's checks judged on the window now, against how it was before the case's steps.

Policy helpers. Two-sided checks (quoted texts present or gone, rules, named numbers, the window closing)
either hold or fail; confirmations (``expectations.Confirm``) either are seen or stay unconfirmed, for the
tester to judge: the window not showing a message proves nothing when the app shows it in a window of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .. import rules
from ..policies.base import Observation
from .expectations import Checks, Confirm, NumberCheck
from .locate import find_named, find_named_field, page_named
from .words import named_number, squash

#: Words that make a new line of text a message of a kind.
_MESSAGE_WORDS = {
    "success": r"success|successful|successfully|saved|added|created|registered|updated|deleted|removed|submitted|"
               r"sent|posted|welcome|thank|thanks|done|complete|completed|confirmed|set|logged\s+out|correct|enabled",
    "error": r"error|invalid|incorrect|fail|failed|failure|wrong|required|cannot|can't|unable|denied|already|not|"
             r"must|please|missing|exceeded",
    "win": r"win|won|winner|wins|victory|congratulations|solved|completed|complete",
    "loss": r"lose|lost|loss|game\s*over|defeat|defeated|died|dead|time'?s\s+up|time\s+is\s+up|out\s+of\s+time|"
            r"time\s+limit\s+(?:exceeded|reached)",
}
_GAME_OVER = re.compile(r"game\s*over|you\s+(?:lose|lost|died|win|won)|game\s+ended|the\s+end\b", re.I)


@dataclass(frozen=True)
class Before:
    """The window when the case began: its text and the app's launch."""

    text: str
    launch: int


@dataclass
class Judgement:
    """What the window says about an Expectation now: the first check that fails, and the confirmations not
    seen (or numbers not shown)."""

    failed: str | None = None
    unconfirmed: list[str] = field(default_factory=list)


def judge(checks: Checks, observation: Observation, before: Before | None) -> Judgement:
    """Judge every check of ``checks``; raises rules.RuleError for a rule that does not parse or a selector the
    browser refuses."""
    judgement = Judgement()
    text = observation.text()
    judgement.failed = (_texts(checks, text) or _rules(checks, observation) or _closes(checks, observation, before)
                        or _numbers(checks, text, before, judgement.unconfirmed))
    if judgement.failed is None:
        judgement.unconfirmed.extend(c.describe() for c in checks.confirms
                                     if not _confirmed(c, observation, text, before))
    return judgement


def _texts(checks: Checks, text: str) -> str | None:
    lines = [squash(line) for line in text.splitlines()]
    missing = [wanted for wanted in checks.texts if not any(squash(wanted) in line for line in lines)]
    if missing:
        return f'expected "{missing[0]}" on the window, it is not there'
    present = [gone for gone in checks.gone if any(squash(gone) in line for line in lines)]
    if present:
        return f'expected "{present[0]}" to be gone from the window, it is still there'
    return None


def _rules(checks: Checks, observation: Observation) -> str | None:
    if not checks.rules or observation.page is None:
        return None
    parsed = [rules.parse(source) for source in checks.rules]
    facts = observation.page.facts(list(dict.fromkeys(query for rule in parsed for query in rule.queries)))
    if facts is None:
        return "the page did not answer a DOM read"
    for rule in parsed:
        if not rule.holds(facts):
            return f"the rule `{rule.source}` does not hold ({rule.explain(facts)})"
    return None


def _closes(checks: Checks, observation: Observation, before: Before | None) -> str | None:
    if not checks.closes or before is None or observation.launch > before.launch:
        return None
    return "expected the window to close, the app is still running"


def _numbers(checks: Checks, text: str, before: Before | None, unconfirmed: list[str]) -> str | None:
    for check in checks.numbers:
        now = named_number(text, check.name)
        then = named_number(before.text, check.name) if before is not None else None
        if now is None or (then is None and check.change in ("up", "down", "same")):
            unconfirmed.append(f"{check.describe()} (no number beside \"{check.name}\" on the window)")
            continue
        if not _changed_as_said(check, then, now):
            was = f"was {then:g} and " if then is not None else ""
            return f"expected the {check.describe()}; the {check.name} {was}is {now:g}"
    return None


def _changed_as_said(check: NumberCheck, then: float | None, now: float) -> bool:
    if check.change == "to":
        return now == check.amount
    assert then is not None
    if check.change == "same":
        return now == then and (check.amount is None or now == check.amount)
    difference = now - then if check.change == "up" else then - now
    if difference <= 0 or check.amount is None:
        return difference > 0
    times = round(difference / check.amount) if check.each else 1
    return times >= 1 and abs(difference - times * check.amount) < 1e-9


def _confirmed(confirm: Confirm, observation: Observation, text: str, before: Before | None) -> bool:
    if confirm.kind == "ends":
        return bool(_GAME_OVER.search(text)) or (before is not None and observation.launch > before.launch)
    if confirm.kind == "message":
        return _new_message(confirm.what, text, before)
    if confirm.kind == "page":
        return page_named(observation, confirm.what)
    if confirm.kind == "fields":
        return all(find_named_field(observation, name) is not None for name in confirm.what.split(","))
    if confirm.kind == "logged_in":
        return find_named(observation, "logout") is not None
    if confirm.kind == "logged_out":
        return find_named_field(observation, "password") is not None
    return named_number(text, confirm.what) is not None


def _new_message(kind: str, text: str, before: Before | None) -> bool:
    """A line the window did not show before the case, in the words of a message of that kind (a success
    line must not also say something failed)."""
    seen = {squash(line) for line in before.text.splitlines()} if before is not None else set()
    words = re.compile(rf"\b(?:{_MESSAGE_WORDS[kind]})\b", re.I)
    error = re.compile(rf"\b(?:{_MESSAGE_WORDS['error']})\b", re.I)
    for line in text.splitlines():
        if squash(line) in seen or not words.search(line):
            continue
        if kind == "success" and error.search(line):
            continue
        return True
    return False
