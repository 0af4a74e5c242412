"""Under pytest-xdist, the stages of one benchmark sample run on one worker, in order, longest samples first.

A later stage needs its sample's earlier ones (the repository copy, their verdicts): on another worker it
would run them again. The stage items carry an ``xdist_group`` mark for ``--dist loadgroup``, but with
pytest 9.2 and pytest-xdist 3.8 that mark no longer groups anything (xdist puts the group in ``_nodeid``,
which pytest 9.2 no longer reads: pytest-dev/pytest-xdist#1386), and ``-n`` alone (``--dist load``) sends
tests in batches that may cut a sample between two workers. With ``--playtest``, both modes therefore
schedule in units of work (xdist's ``loadgroup`` scheduler): a sample's stage items are one unit, recognised
by their node ids (``<suite file>::<task id>[s<N>]::<stage>``, as the controller only sees node ids); any
other test is a unit of its own (or of its ``xdist_group``, where xdist still marks it in the node id).

Two changes to xdist's handing out of units make the workers end together:

- the units go out longest first (``costs.py``: the seconds of an earlier run, else the task budgets);
- a worker is promised its next unit only when the last stage of its current sample starts, not when
  the first one ends. An xdist worker starts an item only once it knows the next one (for fixture
  teardown), so one unit is always promised ahead; xdist promises it two items early, which for a sample
  means during its whole pass and play stages, while another worker may run out of work.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from xdist.scheduler import LoadGroupScheduling

from .costs import estimates, longest_first, sample_of, task_of
from .tasks import load_tasks


class SampleScheduling(LoadGroupScheduling):
    """xdist's ``loadgroup`` scheduling where each benchmark sample's stages are one unit of work, handed
    out longest first and promised as late as xdist allows.

    ``earlier`` holds each sample's seconds in an earlier run (``costs.stored_seconds``)."""

    workqueue: OrderedDict[str, dict[str, bool]]  # xdist's: unit → its node ids → done

    def __init__(self, config: pytest.Config, log: Any = None, earlier: Mapping[str, float] | None = None) -> None:
        super().__init__(config, log)
        self.earlier = dict(earlier or {})
        self._ordered = False

    def _split_scope(self, nodeid: str) -> str:
        sample = sample_of(nodeid)
        return sample if sample is not None else str(super()._split_scope(nodeid))

    def _assign_work_unit(self, node: Any) -> None:
        if not self._ordered:
            self._order()
        super()._assign_work_unit(node)

    def remove_node(self, node: Any) -> str | None:
        self._ordered = False  # a dead worker's units go back to the queue: they take their place again
        return super().remove_node(node)

    def _order(self) -> None:
        queue = self.workqueue
        units = list(queue)
        budgets = {} if self.earlier else task_budgets(self.config.rootpath, units)
        costs = estimates(units, self.earlier, budgets)
        self.workqueue = OrderedDict((unit, queue[unit]) for unit in longest_first(units, costs))
        self._ordered = True

    def _reschedule(self, node: Any) -> None:
        """xdist's rescheduling, with the next unit promised only when the worker needs it."""
        if node.shutting_down:
            return
        if not self.workqueue:
            node.shutdown()
            return
        if self._needs_work(self.assigned_work[node]):
            self._assign_work_unit(node)

    def _needs_work(self, workload: dict[str, dict[str, bool]]) -> bool:
        """Whether a worker should be sent its next unit: when it is about to start its last pending item
        (it waits for the next one before it starts), or, as xdist does, when two items are left that are
        not the stages of a sample."""
        pending = [nodeid for unit in workload.values() for nodeid, done in unit.items() if not done]
        if len(pending) <= 1:
            return True
        return len(pending) == 2 and not any(sample_of(nodeid) for nodeid in pending)


def task_budgets(root: Path, units: list[str]) -> dict[tuple[str, str], float]:
    """Each task's play timeout, from the suite files the units name (a suite that does not load has none)."""
    budgets: dict[tuple[str, str], float] = {}
    files = {task[0] for unit in units if (task := task_of(unit)) is not None}
    for file in sorted(files):
        try:
            tasks, _ = load_tasks(root / file)
        except OSError:
            continue
        budgets.update({(file, task.task_id): float(task.playtest.timeout) for task in tasks})
    return budgets
