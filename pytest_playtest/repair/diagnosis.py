"""What went wrong in a stage, as the repair prompt shows it: the evidence of the first failing stage."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, get_args

from ..files import STORYBOARD_FILE
from ..trajectory import Step
from ..verdict import Finding, Verdict

DiagnosisKind = Literal["exec", "pass", "play"]
DIAGNOSIS_KINDS: tuple[DiagnosisKind, ...] = get_args(DiagnosisKind)
#: The evidence lines of a finding the prompt keeps (the end of a traceback says the most).
FINDING_DETAIL_LINES = 12


@dataclass(frozen=True)
class Diagnosis:
    """The failing stage and its evidence.

    ``evidence`` is the compile error or traceback (exec), the unit-test output (pass) or the verdict's
    summary (play); ``findings``, ``steps`` and ``storyboard`` are filled for play only.
    """

    kind: DiagnosisKind
    evidence: str
    #: where each finding points in the app's code, with the lines around it (play only; the model reads it first)
    locations: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    storyboard: Path | None = None

    @classmethod
    def from_failure(cls, stage: str, message: str, verdict: Verdict | None = None,
                     steps: Sequence[Step] = ()) -> Diagnosis:
        if stage not in DIAGNOSIS_KINDS:
            raise ValueError(f"unknown stage {stage!r}; expected one of {', '.join(DIAGNOSIS_KINDS)}")
        kind: DiagnosisKind = DIAGNOSIS_KINDS[DIAGNOSIS_KINDS.index(stage)]
        if kind != "play" or verdict is None:
            return cls(kind, message.strip())
        return cls.from_verdict(verdict, steps)

    @classmethod
    def from_verdict(cls, verdict: Verdict, steps: Sequence[Step]) -> Diagnosis:
        """A play diagnosis: the verdict, each finding with the end of its evidence, the steps, the storyboard."""
        storyboard = Path(verdict.artifacts) / STORYBOARD_FILE if verdict.artifacts else None
        return cls(
            "play",
            verdict.summary(detail_lines=FINDING_DETAIL_LINES),
            locations=[_location_text(finding) for finding in verdict.findings if finding.location is not None],
            findings=[_finding_text(finding.describe(), finding.details) for finding in verdict.findings],
            steps=[describe_step(step) for step in steps],
            storyboard=storyboard if storyboard is not None and storyboard.is_file() else None,
        )


def describe_step(step: Step) -> str:
    """``3. click (120, 40) 'Increment' → window changed (2.1% of pixels)``, with what the harness noticed."""
    line = f"{step.index}. {step.action.label()} → {step.effect}"
    if step.findings:
        line += f" (harness noticed: {'; '.join(step.findings)})"
    return line


def _location_text(finding: Finding) -> str:
    """``[freeze] game.py:42 in update: while x > 0: (found by stack)`` and the lines around it."""
    location = finding.location
    assert location is not None
    head = f"[{finding.kind}] {location.describe()} (found by {location.how})"
    return "\n".join([head, *(f"    {line}" for line in location.excerpt.splitlines())])


def _finding_text(head: str, details: str) -> str:
    evidence = details.strip().splitlines()[-FINDING_DETAIL_LINES:] if details else []
    return "\n".join([head, *(f"    {line}" for line in evidence)])
