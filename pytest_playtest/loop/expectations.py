"""The declared expectations followed through a run: the text (OCR or DOM) and the rules' facts each step
saw, whether a run that may stop early has met them, and what is left unmet at the end."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..rules import Fact, Query, Rule
from ..verdict import Finding, Location

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ..expect import Expectation


@dataclass
class ExpectationTracker:
    """Follows the declared expectations through the run's OCR text."""

    expectations: list[Expectation]
    seen: dict[int, int] = field(default_factory=dict)  # expectation index → step first seen
    violated: dict[int, tuple[int, str]] = field(default_factory=dict)  # no_text index → (step, text)
    first_text: str | None = None
    #: the DOM facts of the last read (a web app's rules), to explain a rule that never held
    facts: dict[Query, Fact] = field(default_factory=dict)

    @property
    def needs_text(self) -> bool:
        return any(e.needs_text for e in self.expectations)

    @property
    def rules(self) -> list[tuple[int, Rule]]:
        """The rule expectations, parsed, with their index."""
        return [(index, e.rule) for index, e in enumerate(self.expectations) if e.kind == "rule"]

    def observe_facts(self, facts: dict[Query, Fact], step: int) -> None:
        """A DOM read of a web app: which rules hold now."""
        self.facts = facts
        for index, rule in self.rules:
            if index not in self.seen and rule.holds(facts):
                self.seen[index] = step

    def observe_text(self, text: str, step: int, pieces: Sequence[str] = ()) -> None:
        """A read of the window: its text and, from OCR, its text boxes (``Expectation.search``)."""
        if self.first_text is None:
            self.first_text = text
        for index, expectation in enumerate(self.expectations):
            if expectation.kind == "text" and index not in self.seen and expectation.search(text, pieces):
                self.seen[index] = step
            if expectation.kind == "no_text" and index not in self.violated:
                match = expectation.search(text, pieces)
                if match:
                    self.violated[index] = (step, match.group(0))

    def goal_met(self, current_text: str) -> bool:
        """Whether a run that stops when its expectations are met may stop: every text-like one is satisfied
        now, and play got at least one of them there (what the first screen already shows is no goal
        reached, so a run whose expectations all hold from the start plays on to its bounds)."""
        checks = []
        progress = False
        for index, expectation in enumerate(self.expectations):
            if expectation.kind in ("text", "rule"):
                checks.append(index in self.seen)
                progress = progress or self.seen.get(index, 0) > 0
            elif expectation.kind == "final_text":
                now = bool(expectation.search(current_text))
                checks.append(now)
                progress = progress or (now and not expectation.search(self.first_text or ""))
            elif expectation.kind == "exits":
                checks.append(False)
        return bool(checks) and all(checks) and progress

    def findings(self, final_text: str, exit_code: int | None, last_step: int, *,
                 locate: Callable[[Expectation], Location | None] = lambda expectation: None) -> list[Finding]:
        """The expectations not met, each a Finding (``locate``: where the app's code produces what one looks
        for)."""
        found = []
        for index, expectation in enumerate(self.expectations):
            problem = None
            step = last_step
            if expectation.kind == "text" and index not in self.seen:
                problem = "never seen"
            elif expectation.kind == "final_text" and not expectation.search(final_text):
                problem = "not on the last frame"
            elif expectation.kind == "no_text" and index in self.violated:
                step, text = self.violated[index]
                problem = f"seen: {text!r}"
            elif expectation.kind == "alive" and exit_code is not None:
                problem = f"the app exited with code {exit_code}"
            elif expectation.kind == "exits" and exit_code != expectation.code:
                problem = "the app was still running" if exit_code is None else f"it exited with {exit_code}"
            elif expectation.kind == "rule" and index not in self.seen:
                shown = expectation.rule.explain(self.facts) if self.facts else "the page was never read"
                problem = f"it never held; at the end {shown}"
            if problem:
                details = f"last text seen:\n{final_text}" if expectation.needs_text else ""
                found.append(Finding("expectation", f"expected {expectation.describe()}; {problem}",
                                     step=step, details=details, location=locate(expectation)))
        return found
