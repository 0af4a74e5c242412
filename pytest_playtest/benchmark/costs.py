"""Which benchmark samples a parallel run (``-n N``) starts first: the longest, as far as it can be known.

The run ends when its last worker ends. Started longest first, the samples left for the end are the short
ones, so the workers run out of work close together (longest-processing-time-first list scheduling); in
collection order, a long sample met late keeps one worker busy while the others have nothing left.

A sample's cost is what it took in an earlier run: the seconds of its stage reports in the store of the
same ``--playtest-results`` file, read before this run starts a new store. A sample that run did not hold
costs the median of its task's samples there. Without an earlier run, the task's play timeout (its
budget) orders the tasks. A unit of work with no estimate (another test, a task the earlier run did not
have) takes the median of the others' estimates, so it keeps its place among them. ``--playtest-benchmark-shard``
deals the tasks by the same costs (``task_costs``), from the store ``--playtest-benchmark-shard-costs`` names.

Samples are named by their node id without the stage (``<suite file>::<task id>[s<N>]``), as the xdist
controller sees them.
"""

from __future__ import annotations

import json
import re
import statistics
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from .metrics import STAGES

#: A stage item's node id: the sample's node id, then the stage.
STAGE_NODEID = re.compile(rf"(?P<sample>.+\[s\d+\])::(?:{'|'.join(STAGES)})")
#: A sample's node id: its suite file, its task id, its index.
SAMPLE_NODEID = re.compile(r"(?P<file>.+?)::(?P<task>.+)\[s(?P<index>\d+)\]")


def sample_of(nodeid: str) -> str | None:
    """The sample a stage item belongs to (its node id without the stage), or None for any other test."""
    match = STAGE_NODEID.fullmatch(nodeid)
    return match.group("sample") if match else None


def task_of(sample: str) -> tuple[str, str] | None:
    """A sample's (suite file, task id), from its node id."""
    match = SAMPLE_NODEID.fullmatch(sample)
    return (match.group("file"), match.group("task")) if match else None


def read_store(path: Path) -> Iterator[dict[str, Any]]:
    """The serialized reports of a run store, one JSON line each (a line a kill cut short is left out)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            report = json.loads(line)
        except ValueError:
            continue
        if isinstance(report, dict):
            yield report


def stored_seconds(reports: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """Each sample's seconds (setup, call and teardown of all its stages) in stored reports."""
    seconds: dict[str, float] = {}
    for report in reports:
        sample = sample_of(str(report.get("nodeid", "")))
        if sample is not None:
            seconds[sample] = seconds.get(sample, 0.0) + float(report.get("duration") or 0.0)
    return seconds


def estimates(units: Sequence[str], earlier: Mapping[str, float],
              budgets: Mapping[tuple[str, str], float]) -> dict[str, float]:
    """Each unit's expected cost: from the earlier run when it has any of them, else from the task budgets.

    ``units`` are sample node ids and other units' names; ``budgets`` maps (suite file, task id) to the
    task's play timeout."""
    measured = _from_earlier(units, earlier)
    known = measured or {unit: budgets[task] for unit in units
                         if (task := task_of(unit)) is not None and task in budgets}
    if not known:
        return {}
    fill = statistics.median(known.values())
    return {unit: known.get(unit, fill) for unit in units}


def task_costs(samples: Sequence[str], earlier: Mapping[str, float]) -> dict[tuple[str, str], float]:
    """Each task's expected seconds, keyed by (suite file, task id): the sum of its samples' ``estimates``
    from the earlier run (empty when that run holds none of them)."""
    costs: dict[tuple[str, str], float] = {}
    for sample, seconds in estimates(samples, earlier, {}).items():
        task = task_of(sample)
        if task is not None:
            costs[task] = costs.get(task, 0.0) + seconds
    return costs


def _from_earlier(units: Sequence[str], earlier: Mapping[str, float]) -> dict[str, float]:
    by_task: dict[tuple[str, str], list[float]] = {}
    for sample, seconds in earlier.items():
        task = task_of(sample)
        if task is not None:
            by_task.setdefault(task, []).append(seconds)
    known: dict[str, float] = {}
    for unit in units:
        task = task_of(unit)
        if unit in earlier:
            known[unit] = earlier[unit]
        elif task is not None and task in by_task:
            known[unit] = statistics.median(by_task[task])
    return known


def longest_first(units: Sequence[str], costs: Mapping[str, float]) -> list[str]:
    """The units in descending cost; equal costs (and no costs at all) keep their order."""
    return sorted(units, key=lambda unit: -costs.get(unit, 0.0))
