"""Goal play toward what the test expects of a web page: a person told to make the count positive, and shown
the rule ``#count > 0``, presses what raised the count, not what lowered it or reset it.

While a rule of the run has not held yet, the numbers its comparisons read are looked at before every choice
(``Rule.shortfall``: how far they are from holding); the input chosen last is credited with how much nearer
(or farther) they came since. An input that brought them nearer is chosen again, PURSUIT_SHARE of the turns
(the rest still hunts); once every rule held, nothing is pursued. Only on a page that keeps still between
inputs: where the picture changes by itself (a falling piece, a timer) its numbers do too, and no one input
can be credited with them.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import RuleError
from ..expect import Expectation
from ..rules import Rule
from .base import PageView
from .exploration import Candidate
from .notebook import Notebook
from .skill import Choice, Turn
from .thresholds import LEARNING, PURSUIT_SHARE

#: why such an input was chosen (the step's note)
NEARER = "bring the expected rule nearer"


class Pursuit:
    """The skill that plays the inputs seen to bring the run's unmet rules nearer holding (goal strategy)."""

    def __init__(self, notebook: Notebook, expectations: Sequence[Expectation], *, goal: bool) -> None:
        self.notebook = notebook
        self.open: list[Rule] = [e.rule for e in expectations if e.kind == "rule"] if goal else []
        self.credit: dict[str, float] = {}  # input name → how much nearer it brought the rules, on average
        self._given: str | None = None  # the input chosen last
        self._before: float | None = None  # how far the rules were from holding when it was chosen

    def chosen(self, candidate: Candidate) -> None:
        """An input is about to be performed."""
        self._given = candidate.name

    def propose(self, turn: Turn) -> Choice | None:
        page = turn.observation.page
        if not self.open or page is None or self.notebook.animating:
            self._before = None
            return None
        shortfall = self._shortfall(page)
        self._learn(shortfall)
        if not self.open or shortfall is None:
            return None
        helping = [c for c in turn.candidates if self.credit.get(c.name, 0.0) > 0.0]
        if not helping or self.notebook.rng.random() >= PURSUIT_SHARE:
            return None
        return Choice(max(helping, key=lambda c: self.credit[c.name]), NEARER)

    def forget(self) -> None:
        self._given, self._before = None, None

    def _shortfall(self, page: PageView) -> float | None:
        """How far the rules not held yet are from holding, summed (None: the page does not tell); a rule that
        holds now is dropped."""
        queries = list(dict.fromkeys(q for rule in self.open for q in rule.queries))
        try:
            facts = page.facts(queries)
        except RuleError:
            self.open = []  # a selector the browser refuses: the expectation's own check reports it
            return None
        if facts is None:
            return None
        self.open = [rule for rule in self.open if not rule.holds(facts)]
        measured = [m for rule in self.open if (m := rule.shortfall(facts)) is not None]
        return sum(measured) if measured else None

    def _learn(self, shortfall: float | None) -> None:
        """Credit the input chosen last with how much nearer the rules came since it was chosen."""
        before, self._before = self._before, shortfall
        if before is None or shortfall is None or self._given is None:
            return
        nearer = before - shortfall
        known = self.credit.get(self._given)
        self.credit[self._given] = nearer if known is None else known + LEARNING * (nearer - known)
