"""Repair inside a benchmark run: the rounds of one failing sample, each in a fresh copy of the task's repo.

The collector calls ``BenchmarkRepair.run`` when a sample first fails a stage, with a ``run_stage``
callable that runs one stage exactly as for the samples (the same launch, unit tests and playtest on the
same runtime), so repaired code is as untrusted as any sample. Copies live in the run's work folder and
play artifacts in the sample's artifacts folder; the task's own repository is never written.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..benchmark.metrics import STAGES
from ..benchmark.rounds import RunStage, StageAttempt
from ..benchmark.splice import splice_repo
from ..benchmark.tasks import Task
from ..errors import PlaytestRepairWarning, PolicyError, SpliceError
from ..verdict import Verdict
from .diagnosis import Diagnosis
from .loop import RepairLoop, Round, StageRun
from .model import RepairModel
from .prompt import RepairPrompt, RepairTask, read_context

#: The folder, inside a sample's artifacts folder, of round N's playtest.
ROUND_FOLDER = "repair-round-{number}"


class BenchmarkRepair:
    """The repair rounds of one sample of a task."""

    def __init__(self, task: Task, *, rounds: int, options: Mapping[str, Any], workdir: Path, artifacts: Path,
                 run_stage: RunStage) -> None:
        self.task = task
        self.rounds = rounds
        self.options = options
        self.workdir = workdir
        self.artifacts = artifacts
        self.run_stage = run_stage

    def run(self, completion: str, stage: str, attempt: StageAttempt) -> list[Round]:
        """Rounds for ``completion``, which failed ``stage`` as ``attempt`` says."""
        task = self.task
        diagnosis = diagnose(stage, attempt)
        try:
            source = (task.repo / task.file).read_text(encoding="utf-8")
            repair_task = RepairTask(task.task_id, task.requirement, task.file, task.symbol, task.signature,
                                     task.language, read_context(task.repo, task.context))
            model = RepairModel(self.options)
        except (OSError, UnicodeDecodeError, PolicyError) as exc:
            return self._cannot_repair(diagnosis, exc)
        try:
            loop = RepairLoop(model, RepairPrompt(model.options), repair_task, source, self.rounds,
                              self._run_stages, signature=task.signature)
            return loop.run(completion, diagnosis)
        except (OSError, PolicyError) as exc:  # an unreadable prompt file or storyboard, a bad placeholder
            return self._cannot_repair(diagnosis, exc)
        finally:
            model.close()

    def _cannot_repair(self, diagnosis: Diagnosis, problem: Exception) -> list[Round]:
        """A repair that cannot start (bad prompt files or options): one failed round; the run goes on."""
        warnings.warn(PlaytestRepairWarning(f"{self.task.task_id}: cannot repair: {problem}"), stacklevel=3)
        return [Round(1, diagnosis.kind, error=f"cannot repair: {problem}")]

    def _run_stages(self, completion: str, number: int) -> StageRun:
        """Splice into a fresh copy and run exec → pass → play, stopping at the first failure."""
        task = self.task
        try:
            repo = splice_repo(task.repo, self.workdir / f"repair-{number}", task.file, task.symbol, completion,
                               task.signature, language=task.language)
        except (SpliceError, OSError) as exc:
            return StageRun({"exec": False}, Diagnosis("exec", f"cannot splice the completion: {exc}"))
        artifacts = self.artifacts / ROUND_FOLDER.format(number=number)
        results: dict[str, bool] = {}
        verdict: Verdict | None = None
        failure: Diagnosis | None = None
        for stage in STAGES:
            attempt = self.run_stage(stage, repo, artifacts)
            results[stage] = attempt.passed
            if attempt.verdict is not None:
                verdict = attempt.verdict
            if not attempt.passed:
                failure = diagnose(stage, attempt)
                break
        if verdict is None:  # (a Verdict is falsy when it did not pass)
            return StageRun(results, failure)
        return StageRun(results, failure, verdict=_verdict_text(verdict),
                        artifacts=str(verdict.artifacts) if verdict.artifacts else None, tester_tokens=verdict.tokens)


def diagnose(stage: str, attempt: StageAttempt) -> Diagnosis:
    return Diagnosis.from_failure(stage, attempt.message, attempt.verdict, attempt.steps)


def _verdict_text(verdict: Verdict) -> str:
    kinds = ", ".join(verdict.kinds())
    return verdict.status + (f": {kinds}" if kinds else "")
