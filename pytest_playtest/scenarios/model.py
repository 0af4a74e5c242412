"""What a scenario file holds: its front matter, its Functionalities, their test cases; and a case's outcome.

Data only (no pytest, no numpy): the parser makes these, the policy performs them, the collector reports them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

from ..errors import ScenarioError

#: How one test case ended. ``skip``: it could not be performed or checked offline (the reason names the
#: step or expectation); ``error``: the harness or the scenario's own input failed, never the app.
CaseStatus = Literal["pass", "fail", "skip", "error"]
CASE_STATUSES: tuple[CaseStatus, ...] = get_args(CaseStatus)


@dataclass(frozen=True)
class StepText:
    """One ``**Step**`` of a case, as written, and the line it starts on."""

    text: str
    line: int


@dataclass(frozen=True)
class Case:
    """One test case: its steps, in order, then the Expectation checked after the last of them."""

    number: int
    steps: tuple[StepText, ...]
    expectation: str
    line: int
    #: the line the Expectation starts on (0: not known)
    expectation_line: int = 0

    def describe(self) -> str:
        first = self.steps[0].text if self.steps else self.expectation
        return f"case {self.number} (line {self.line}): {first}"


@dataclass(frozen=True)
class Functionality:
    """``#### Functionalities N. <title>``: one pytest item; ``problem`` is set when it is malformed."""

    name: str
    line: int
    cases: tuple[Case, ...] = ()
    problem: ScenarioError | None = None


@dataclass
class ScenarioFile:
    """A parsed scenario file: the run arguments from its front matter (or the app mapping) and its items.

    ``problems`` are faults of the whole file (bad front matter, no app, no Functionality): each becomes one
    failing item and nothing of the file runs. ``strays`` are Steps or Expectations outside any Functionality:
    each stretch of them is one failing item, and the Functionalities still run.
    """

    path: Path
    arguments: dict[str, Any] = field(default_factory=dict)
    #: the policy that performs steps outside the grammar and judges free-form expectations
    tester: str = "llm"
    #: front matter ``login``: the credentials the login and registration steps type (username, password, email)
    login: dict[str, str] | None = None
    #: front matter ``cases``: True for "independent" (a case after one that did not pass starts from a fresh
    #: launch), False for "sequential" (it is skipped), None when the file does not say
    independent: bool | None = None
    functionalities: list[Functionality] = field(default_factory=list)
    problems: list[ScenarioError] = field(default_factory=list)
    strays: list[ScenarioError] = field(default_factory=list)


@dataclass
class CaseOutcome:
    """How one case ended, and why (the reason names the step or the expectation)."""

    case: Case
    status: CaseStatus
    reason: str = ""

    def describe(self) -> str:
        text = f"case {self.case.number}: {self.status}"
        return f"{text}: {self.reason}" if self.reason else text
