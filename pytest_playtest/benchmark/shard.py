"""One shard of a benchmark run: a deterministic, balanced split by task, for CI matrices and Kubernetes
Indexed Jobs.

``--playtest-benchmark-shard I/N`` (1-based ``I``) keeps the samples of the tasks dealt to shard ``I``; all samples of
a task stay in one shard, so ``playtest-merge`` of the N shards' results pools disjoint task sets into the
numbers of the whole run. ``--playtest-benchmark-shard auto/N`` takes ``I`` from ``JOB_COMPLETION_INDEX`` (0-based, as
Kubernetes sets it).

The tasks of every suite of the run are put in one order, the costliest first when the cost of each is
known (``--playtest-benchmark-shard-costs``: an earlier run's store), else by suite file and task id, and dealt out
like cards, there and back (shards 1..N, then N..1, ...): shard sizes differ by one task at most, and the
costly tasks are spread over the shards. Every machine computes the same deal from the same suites (and
the same costs) without talking to the others; ``split_id`` names the deal, so that a merge can tell shards
of different deals apart.
"""

from __future__ import annotations

import hashlib
import os
import re
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..errors import ShardError

#: The variable a Kubernetes Indexed Job sets to the pod's 0-based index.
INDEX_VARIABLE = "JOB_COMPLETION_INDEX"

#: A task of the run: its suite file (as its node id names it) and its task id.
TaskKey = tuple[str, str]


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based
    count: int

    @classmethod
    def parse(cls, raw: str, environ: dict[str, str] | None = None) -> Shard:
        environ = dict(os.environ) if environ is None else environ
        match = re.fullmatch(r"\s*(\d+|auto)\s*/\s*(\d+)\s*", raw)
        if not match:
            raise ShardError(f"--playtest-benchmark-shard: expected I/N (e.g. 2/4) or auto/N, got {raw!r}")
        count = int(match.group(2))
        if match.group(1) == "auto":
            value = environ.get(INDEX_VARIABLE, "")
            if not value.isdigit():
                raise ShardError(f"--playtest-benchmark-shard auto/{count}: {INDEX_VARIABLE} is not set to an index "
                                 f"(got {value!r})")
            index = int(value) + 1
        else:
            index = int(match.group(1))
        if count < 1 or not 1 <= index <= count:
            raise ShardError(f"--playtest-benchmark-shard: shard {index} of {count} does not exist (1 <= I <= N)")
        return cls(index, count)

    def holds(self, order: Sequence[TaskKey]) -> list[TaskKey]:
        """The tasks dealt to this shard, from every task of the run in ``dealing_order``."""
        return [task for position, task in enumerate(order) if self._dealt_to(position) == self.index]

    def _dealt_to(self, position: int) -> int:
        """The shard the card at ``position`` goes to: 1..N in even rounds, N..1 in odd ones."""
        round_, seat = divmod(position, self.count)
        return seat + 1 if round_ % 2 == 0 else self.count - seat


def dealing_order(tasks: Iterable[TaskKey], costs: Mapping[TaskKey, float]) -> list[TaskKey]:
    """Every task once, in the order they are dealt: the costliest first (a task ``costs`` lacks costs their
    median), equal costs (and no costs at all) by suite file and task id."""
    tasks = set(tasks)
    known = [costs[task] for task in tasks if task in costs]
    fill = statistics.median(known) if known else 0.0
    return sorted(tasks, key=lambda task: (-costs.get(task, fill), task))


def split_id(order: Sequence[TaskKey]) -> str:
    """A short name of a deal: the same for every shard dealt from the same order, another for another."""
    text = "\n".join(f"{suite}\0{task}" for suite, task in order)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
