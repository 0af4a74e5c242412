"""The repair rounds of one sample: diagnose → ask → validate → run the stages again, until all pass.

The loop knows nothing of pytest or of how stages run: the benchmark (or the ``playtest-repair`` command)
hands it a ``run_stages`` callable that puts a completion in a fresh copy of the repository and runs the
stages from exec on the same runtime path as every sample, returning a ``StageRun``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from ..benchmark.splice import splice_source
from ..errors import EndpointError, PlaytestRepairWarning, SpliceError
from .diagnosis import Diagnosis
from .model import RepairModel
from .prompt import RepairPrompt, RepairTask
from .reply import Unusable, extract_code, validate


@dataclass(frozen=True)
class StageRun:
    """The stages of one candidate: which passed (in order, up to the first failure) and why one failed."""

    results: dict[str, bool]
    failure: Diagnosis | None = None
    #: the play verdict's status and finding kinds ("fail: exception"), when play ran
    verdict: str | None = None
    artifacts: str | None = None
    tester_tokens: int = 0

    @property
    def passed(self) -> bool:
        return self.failure is None


@dataclass
class Round:
    """One repair round as the results record it (``to_dict`` is its JSON form)."""

    round: int
    diagnosis: str
    tokens: int = 0
    completion: str | None = None
    #: the stages of the completion tried; empty when the round had nothing to try
    stages: dict[str, bool] = field(default_factory=dict)
    #: why the round had nothing to try (endpoint down, no usable code), else None
    error: str | None = None
    verdict: str | None = None
    artifacts: str | None = None
    tester_tokens: int = 0

    @property
    def passed(self) -> bool:
        return bool(self.stages) and all(self.stages.values()) and self.error is None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


RunStages = Callable[[str, int], StageRun]


class RepairLoop:
    """Up to ``rounds`` rounds for one failing sample; stops at the first round where every stage passes."""

    def __init__(self, model: RepairModel, prompt: RepairPrompt, task: RepairTask, source: str,
                 rounds: int, run_stages: RunStages, signature: str | None = None) -> None:
        #: the file holding the symbol, as in the repository (the code is spliced into it for each try)
        self.source = source
        self.model = model
        self.prompt = prompt
        self.task = task
        self.rounds = rounds
        self.run_stages = run_stages
        self.signature = signature

    def run(self, completion: str, diagnosis: Diagnosis) -> list[Round]:
        """The rounds for a sample whose ``completion`` failed as ``diagnosis`` says."""
        records: list[Round] = []
        unusable: str | None = None
        for number in range(1, self.rounds + 1):
            record = Round(number, diagnosis.kind)
            records.append(record)
            failing_source = self._in_place(completion)
            messages = self.prompt.messages(self.task, completion, failing_source, diagnosis, number, unusable)
            try:
                answer = self.model.ask(messages)
            except EndpointError as exc:
                record.error = f"endpoint: {exc}"
                warnings.warn(PlaytestRepairWarning(
                    f"{self.task.task_id}: repair round {number} could not ask the model ({exc}); "
                    "the sample keeps its original outcome"), stacklevel=2)
                break  # the endpoint is down: more rounds would only wait for it again
            record.tokens = answer.tokens
            try:
                candidate = extract_code(answer.text)
                validate(self.source, self.task.symbol, candidate, self.signature, self.task.file, self.task.language)
            except Unusable as exc:
                record.error = f"no usable code: {exc}"
                record.completion = answer.text
                unusable = str(exc)
                continue
            unusable = None
            record.completion = candidate
            run = self.run_stages(candidate, number)
            record.stages, record.verdict = run.results, run.verdict
            record.artifacts, record.tester_tokens = run.artifacts, run.tester_tokens
            if run.failure is None:
                break
            completion, diagnosis = candidate, run.failure
        return records

    def _in_place(self, completion: str) -> str:
        """The file with the failing completion in it, parsing or not (never the original symbol's code)."""
        try:
            return splice_source(self.source, self.task.symbol, completion, self.signature, filename=self.task.file,
                                 language=self.task.language)
        except SpliceError as exc:
            return f"(the file cannot be shown with this version in place: {exc})"
