"""What a scenario run performs (``CasePlan``: a Functionality's cases, and where their results go) and where the
scenario policy is in it (``Progress``): the case and step at work, that step's grammar moves, what is under way on
it, and how a case ends.

A case that ends without passing is the one the next cases would depend on (``Progress.broken``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..actions import Action
from ..policies.base import Policy
from ..verdict import Finding
from .check import Before
from .grammar import Move
from .model import Case, CaseOutcome, CaseStatus, StepText


@dataclass
class CasePlan:
    """What one run performs (a Functionality's cases), and where the policy leaves its results."""

    cases: tuple[Case, ...]
    #: the policy for steps outside the grammar and free-form expectations ("llm" needs a model)
    tester: str = "llm"
    #: the credentials the login and registration moves type: "username", "password" and maybe "email"
    login: Mapping[str, str] | None = None
    #: the cases do not depend on each other: after one that did not pass, the rest start from a fresh launch
    independent: bool = False
    outcomes: list[CaseOutcome] = field(default_factory=list)
    #: the case each step of the run belonged to (step index → case number)
    step_cases: dict[int, int] = field(default_factory=dict)
    #: the index of the first case left for a fresh launch (independent cases after one that did not pass)
    resume_at: int | None = None


@dataclass
class Delegate:
    """The tester at work on one step (``purpose`` "step") or one expectation ("judge")."""

    policy: Policy
    purpose: str
    budget: int
    used: int = 0


@dataclass
class Repeat:
    """The clicks of a "click … N times" move after the first, at the point its label was found."""

    action: Action
    caption: str
    total: int
    done: int = 1


class Progress:
    """The case at work, its step (``len(steps)`` means its Expectation) and that step's moves; a case's outcome,
    and its finding, go to the plan and to the policy's ``findings``."""

    def __init__(self, plan: CasePlan, findings: list[Finding]) -> None:
        self.plan = plan
        self.findings = findings
        self.case_index = 0
        self.step_index = 0
        self.moves: list[Move] | None = None  # the grammar moves of that step, when it has any
        self.move_index = 0
        self.looking_since: float | None = None
        self.repeat: Repeat | None = None
        self.delegate: Delegate | None = None
        self.before: Before | None = None
        #: the case that did not pass, which the next cases would depend on
        self.broken: int | None = None

    @property
    def done(self) -> bool:
        """Whether every case has ended."""
        return self.case_index >= len(self.plan.cases)

    @property
    def case(self) -> Case:
        return self.plan.cases[self.case_index]

    def current_number(self) -> int | None:
        return self.case.number if not self.done else None

    def step(self) -> StepText | None:
        steps = self.case.steps
        return steps[self.step_index] if self.step_index < len(steps) else None

    def step_text(self) -> str:
        step = self.step()
        return step.text if step is not None else ""

    def where(self) -> str:
        step = self.step()
        if step is not None:
            return f'step {self.step_index + 1} (line {step.line}) "{step.text}"'
        expectation = f'expectation "{self.case.expectation}"'
        if not self.case.steps:
            return expectation
        last = self.case.steps[-1]
        return f'after step {len(self.case.steps)} (line {last.line}) "{last.text}", {expectation}'

    def caption(self, text: str) -> str:
        return f"c{self.case.number} {text}"

    def next_step(self) -> None:
        self.step_index += 1
        self.moves, self.move_index, self.looking_since = None, 0, None

    def end_case(self, status: CaseStatus, reason: str = "", finding: Finding | None = None) -> None:
        if self.done:
            return
        self.plan.outcomes.append(CaseOutcome(self.case, status, reason))
        if finding is not None:
            self.findings.append(finding)
        if status != "pass" and self.broken is None:
            self.broken = self.case.number
        self.case_index += 1
        self.step_index = 0
        self.moves, self.move_index, self.looking_since = None, 0, None
        self.repeat, self.before = None, None
        self.close_delegate()

    def close_delegate(self) -> None:
        if self.delegate is not None:
            self.delegate.policy.close()
            self.delegate = None
