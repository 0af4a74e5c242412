"""One shard of a benchmark run: a deterministic split by task, for CI matrices and Kubernetes Indexed Jobs.

``--playtest-shard I/N`` (1-based ``I``) keeps the samples of the tasks whose stable hash falls in shard
``I``; all samples of a task stay in one shard, so ``playtest-merge`` of the N shards' results pools
disjoint task sets into the numbers of the whole run. ``--playtest-shard auto/N`` takes ``I`` from
``JOB_COMPLETION_INDEX`` (0-based, as Kubernetes sets it). The hash is of the suite and task id only, so
every machine computes the same split without talking to the others.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass

#: The variable a Kubernetes Indexed Job sets to the pod's 0-based index.
INDEX_VARIABLE = "JOB_COMPLETION_INDEX"


class ShardError(ValueError):
    """A ``--playtest-shard`` value that is not ``I/N`` (or ``auto/N`` with the index set)."""


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based
    count: int

    @classmethod
    def parse(cls, raw: str, environ: dict[str, str] | None = None) -> Shard:
        environ = dict(os.environ) if environ is None else environ
        match = re.fullmatch(r"\s*(\d+|auto)\s*/\s*(\d+)\s*", raw)
        if not match:
            raise ShardError(f"--playtest-shard: expected I/N (e.g. 2/4) or auto/N, got {raw!r}")
        count = int(match.group(2))
        if match.group(1) == "auto":
            value = environ.get(INDEX_VARIABLE, "")
            if not value.isdigit():
                raise ShardError(f"--playtest-shard auto/{count}: {INDEX_VARIABLE} is not set to an index "
                                 f"(got {value!r})")
            index = int(value) + 1
        else:
            index = int(match.group(1))
        if count < 1 or not 1 <= index <= count:
            raise ShardError(f"--playtest-shard: shard {index} of {count} does not exist (1 <= I <= N)")
        return cls(index, count)

    def holds(self, suite: str, task_id: str) -> bool:
        """Whether the task's samples run in this shard."""
        digest = hashlib.sha256(f"{suite}\0{task_id}".encode()).digest()
        return int.from_bytes(digest[:8], "big") % self.count == self.index - 1
