"""Declarative expectations a playtest checks whatever the policy does.

Python form::

    from pytest_playtest import expect
    expect.text(r"Score: [1-9]")      # seen (OCR of the window) at some point during the run
    expect.final_text(r"GAME OVER")   # seen on the last frame
    expect.no_text(r"Traceback")      # never seen
    expect.alive()                    # the app still runs at the end
    expect.exits(code=0)              # the app exits with that code
    expect.rule("#score > 0")         # web apps: a rule over the DOM holds at some point (docs/web-apps.md)

JSON form (task files): ``{"text": "..."}``, ``{"final_text": "..."}``, ``{"no_text": "..."}``,
``{"alive": true}``, ``{"exits": 0}``, ``{"rule": "..."}``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import rules
from .errors import ExpectationError

KINDS = ("text", "final_text", "no_text", "alive", "exits", "rule")


@dataclass(frozen=True)
class Expectation:
    """One declared expectation. Immutable: the run's state lives in the oracle that checks it."""

    kind: str
    pattern: str | None = None
    code: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ExpectationError(f"unknown expectation {self.kind!r}; expected one of {', '.join(KINDS)}")
        if self.kind in ("text", "final_text", "no_text"):
            if not isinstance(self.pattern, str) or not self.pattern:
                raise ExpectationError(f"{self.kind} needs a non-empty regex string, got {self.pattern!r}")
            try:
                re.compile(self.pattern)
            except re.error as exc:
                raise ExpectationError(f"{self.kind}: bad regex {self.pattern!r}: {exc}") from None
        if self.kind == "rule":
            try:
                rules.parse(self.pattern or "")
            except rules.RuleError as exc:
                raise ExpectationError(str(exc)) from None
        if self.kind == "exits" and not isinstance(self.code, int):
            raise ExpectationError(f"exits needs an integer code, got {self.code!r}")

    @property
    def regex(self) -> re.Pattern[str]:
        """The pattern as it is searched: case-insensitive, ``^`` and ``$`` at the ends of every line."""
        return re.compile(self.pattern or "", re.IGNORECASE | re.MULTILINE)

    def search(self, text: str, pieces: Sequence[str] = ()) -> re.Match[str] | None:
        """Where the pattern matches what the window shows: its whole text (so a pattern may span lines, and
        ``^``/``$`` anchor at each line), else one of its ``pieces`` (the OCR's text boxes: a tile's number
        is one box on a line of tiles)."""
        regex = self.regex
        return regex.search(text) or next((m for piece in pieces if (m := regex.search(piece))), None)

    @property
    def needs_text(self) -> bool:
        return self.kind in ("text", "final_text", "no_text")

    @property
    def rule(self) -> rules.Rule:
        """The parsed rule of a ``rule`` expectation."""
        return rules.parse(self.pattern or "")

    def describe(self) -> str:
        match self.kind:
            case "text":
                return f"text /{self.pattern}/ is seen during the run"
            case "final_text":
                return f"text /{self.pattern}/ is on the last frame"
            case "no_text":
                return f"text /{self.pattern}/ is never seen"
            case "alive":
                return "the app is still running at the end"
            case "rule":
                return f"rule {self.pattern!r} holds at some point during the run"
            case _:
                return f"the app exits with code {self.code}"

    def to_json(self) -> dict[str, Any]:
        if self.kind == "alive":
            return {"alive": True}
        if self.kind == "exits":
            return {"exits": self.code}
        return {self.kind: self.pattern}

    def __repr__(self) -> str:
        if self.needs_text or self.kind == "rule":
            arg = repr(self.pattern)
        else:
            arg = "" if self.kind == "alive" else f"code={self.code}"
        return f"expect.{self.kind}({arg})"


def text(pattern: str) -> Expectation:
    """The regex ``pattern`` (case-insensitive) is seen in the window's text at some point: in its whole text,
    where ``^``/``$`` anchor at each line, or in one text box (see ``Expectation.search``)."""
    return Expectation("text", pattern=pattern)


def final_text(pattern: str) -> Expectation:
    """The regex ``pattern`` is seen on the last frame of the run."""
    return Expectation("final_text", pattern=pattern)


def no_text(pattern: str) -> Expectation:
    """The regex ``pattern`` is never seen during the run."""
    return Expectation("no_text", pattern=pattern)


def alive() -> Expectation:
    """The app is still running when the run ends."""
    return Expectation("alive")


def exits(code: int = 0) -> Expectation:
    """The app exits, with exit code ``code``, before the run ends."""
    return Expectation("exits", code=code)


def rule(source: str) -> Expectation:
    """A rule over the web page's DOM (AUI-Gym's grammar, e.g. ``"#score > 0 AND #status == 'Won'"``) holds
    at some point during the run. Web apps only: on a desktop app it is a spec error."""
    return Expectation("rule", pattern=source)


def from_json(item: Any) -> Expectation:
    """Parse one expectation in JSON form; raises ExpectationError naming the problem."""
    if isinstance(item, Expectation):
        return item
    if not isinstance(item, dict) or len(item) != 1:
        raise ExpectationError(f"an expectation is an object with exactly one key of {', '.join(KINDS)}; "
                               f"got {item!r}")
    ((key, value),) = item.items()
    if key == "alive":
        if value is not True:
            raise ExpectationError(f"alive must be true, got {value!r}")
        return alive()
    if key == "exits":
        if isinstance(value, bool) or not isinstance(value, int):
            raise ExpectationError(f"exits must be an integer exit code, got {value!r}")
        return exits(value)
    if key in ("text", "final_text", "no_text", "rule"):
        return Expectation(key, pattern=value)
    raise ExpectationError(f"unknown expectation key {key!r}; expected one of {', '.join(KINDS)}")


def parse_list(items: Any) -> list[Expectation]:
    """A list of expectations in Python or JSON form (a single one is accepted too)."""
    if items is None:
        return []
    if isinstance(items, Expectation | dict):
        items = [items]
    if not isinstance(items, list | tuple):
        raise ExpectationError(f"expect must be a list of expectations, got {type(items).__name__}")
    return [from_json(item) for item in items]
