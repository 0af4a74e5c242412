"""Metrics before repair and after each round: ``exec@1_r1`` ... ``play@3_r2``, ``efficiency@k_rN``.

After round r a sample counts with the code in hand then: the last completion a round ≤ r could try
(a round with nothing to try keeps the previous code, so a sample whose endpoint was down keeps its
original outcome). The rounds stop at the first full pass, so a repaired sample stays repaired.
Per task the results keep ``tasks[id]["rounds"]``: for each round, the samples through each stage and the
tokens the rounds up to it spent (model and tester), from which every round metric is recomputed, also
after ``playtest-merge``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .metrics import STAGES, compute_metrics, outcomes_from_results

if TYPE_CHECKING:
    from ..trajectory import Step
    from ..verdict import Verdict
    from .tasks import Task

@dataclass(frozen=True)
class StageAttempt:
    """One stage's outcome as the collector saw it: the failure message, and for play the verdict and steps."""

    passed: bool
    message: str = ""
    verdict: Verdict | None = None
    steps: Sequence[Step] = ()


#: runs one stage (exec, pass or play) of a round's code in a repo copy, with the play artifacts in a folder
RunStage = Callable[[str, Path, Path], StageAttempt]


class RoundRecord(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


class SampleRepair(Protocol):
    """The repair rounds of one failing sample (``repair.benchmark.BenchmarkRepair``)."""

    def run(self, completion: str, stage: str, attempt: StageAttempt) -> Sequence[RoundRecord]: ...


class Repairer(Protocol):
    """What the collector is handed to repair samples with (``--playtest-benchmark-repair``): it never imports
    repair/."""

    def __call__(self, task: Task, *, rounds: int, options: Mapping[str, Any], workdir: Path, artifacts: Path,
                 run_stage: RunStage) -> SampleRepair: ...


#: One sample of a task: (its index, its original stages, its rounds as dicts).
SampleRounds = tuple[int, Mapping[str, bool], Sequence[Mapping[str, Any]]]
SECTIONS = ("metrics", "by_language", "by_category")


def suffix(metric: str, number: int) -> str:
    """``play@1`` after round 2 is ``play@1_r2``."""
    return f"{metric}_r{number}"


def nested(stages: Mapping[str, bool]) -> dict[str, bool]:
    """Stages as the metrics count them: a stage only counts when every earlier one passed."""
    passed: dict[str, bool] = {}
    good = True
    for stage in STAGES:
        good = good and bool(stages.get(stage, False))
        passed[stage] = good
    return passed


def stages_after(original: Mapping[str, bool], rounds: Sequence[Mapping[str, Any]], count: int
                 ) -> list[dict[str, bool]]:
    """A sample's stages after each of rounds 1..count (the code in hand then)."""
    current = nested(original)
    after = []
    for number in range(count):
        record = rounds[number] if number < len(rounds) else None
        if record is not None and record.get("stages"):
            current = nested(record["stages"])
        after.append(current)
    return after


def round_tokens(rounds: Sequence[Mapping[str, Any]], count: int) -> list[int]:
    """Tokens spent by rounds 1..r (the repair model's and the tester's on the replays), for each r."""
    spent = 0
    totals = []
    for number in range(count):
        if number < len(rounds):
            spent += int(rounds[number].get("tokens") or 0) + int(rounds[number].get("tester_tokens") or 0)
        totals.append(spent)
    return totals


def task_rounds(samples: Sequence[SampleRounds], count: int) -> list[dict[str, int]]:
    """One task's per-round counts: samples through each stage after round r, and tokens spent up to r."""
    per_sample = [(stages_after(original, rounds, count), round_tokens(rounds, count))
                  for _, original, rounds in samples]
    return [
        {**{stage: sum(1 for after, _ in per_sample if after[number][stage]) for stage in STAGES},
         "tokens": sum(tokens[number] for _, tokens in per_sample)}
        for number in range(count)
    ]


def add_repair_results(results: dict[str, Any], count: int, samples: Mapping[str, Sequence[SampleRounds]]) -> None:
    """Add the rounds of every task, the round metrics and a ``repair`` summary to a results dict.

    ``repair["samples"]`` keeps every repaired sample's rounds: ``{task_id: {sample index: [round, ...]}}``
    with each round's diagnosis kind, tokens, the completion tried, its stages, verdict or error.
    """
    records = [record for task in samples.values() for _, _, rounds in task for record in rounds]
    for task_id, task_samples in samples.items():
        if task_id in results["tasks"]:
            results["tasks"][task_id]["rounds"] = task_rounds(task_samples, count)
    failures = [str(record["error"]) for record in records if record.get("error")]
    results["repair"] = {
        "rounds": count,
        "repaired_samples": sum(1 for task in samples.values() for _, _, rounds in task if rounds),
        "rounds_run": len(records),
        "failed_rounds": len(failures),
        "errors": sorted(set(failures))[:5],
        "samples": {task_id: {str(index): list(rounds) for index, _, rounds in task if rounds}
                    for task_id, task in samples.items() if any(rounds for _, _, rounds in task)},
    }
    add_round_metrics(results)


def add_round_metrics(results: dict[str, Any]) -> None:
    """Recompute every ``*_rN`` metric (overall, per language and category) from the tasks' rounds."""
    count = int(results["repair"]["rounds"])
    outcomes = outcomes_from_results(results)
    for number in range(1, count + 1):
        after = []
        for outcome in outcomes:
            counts = results["tasks"][outcome.task_id]["rounds"][number - 1]
            after.append(replace(outcome, exec=counts["exec"], pass_=counts["pass"], play=counts["play"],
                                 sample_tokens=outcome.sample_tokens + counts["tokens"]))
        computed = compute_metrics(results["suite"], after, results["k"])
        for name, value in computed["metrics"].items():
            results["metrics"][suffix(name, number)] = value
            if name.startswith("efficiency@"):
                results["efficiency"][suffix(name, number)] = value
        for section in SECTIONS[1:]:
            for group, metrics in computed[section].items():
                results[section][group].update({suffix(name, number): value for name, value in metrics.items()})
    results["repair"]["tokens"] = sum(
        task["rounds"][-1]["tokens"] for task in results["tasks"].values() if task.get("rounds"))


def pool_rounds(rounds: Sequence[Sequence[Mapping[str, int]]]) -> list[dict[str, int]]:
    """Per-round counts of one task over several runs or shards: they add up, round by round."""
    return [{key: sum(run[number][key] for run in rounds) for key in rounds[0][number]}
            for number in range(len(rounds[0]))]


def merge_repair(merged: dict[str, Any], inputs: Sequence[Mapping[str, Any]], mode: str) -> None:
    """The repair part of merged results: the tasks' rounds and summary from the inputs, metrics recomputed
    (shards) or averaged by the merge itself (runs, whose metric dicts already hold the round keys).

    Shards keep every sample's rounds; repeated runs leave them in each run's own file.
    """
    for task_id, task in merged["tasks"].items():
        task["rounds"] = pool_rounds([result["tasks"][task_id]["rounds"] for result in inputs
                                      if task_id in result["tasks"]])
    summaries = [result["repair"] for result in inputs]
    merged["repair"] = {
        "rounds": summaries[0]["rounds"],
        **{key: sum(summary[key] for summary in summaries)
           for key in ("repaired_samples", "rounds_run", "failed_rounds")},
        "errors": sorted({error for summary in summaries for error in summary["errors"]})[:5],
    }
    if mode == "shards":
        merged["repair"]["samples"] = {task_id: rounds for summary in summaries
                                       for task_id, rounds in summary.get("samples", {}).items()}
        add_round_metrics(merged)
    else:
        merged["repair"]["tokens"] = sum(summary["tokens"] for summary in summaries) / len(summaries)
