"""PlayEval-style benchmark suites: load tasks and samples, splice completions, score and merge runs.

A suite is a folder with ``tasks.jsonl``, the app repositories its tasks point into, and
``samples/*.jsonl``. Each sample goes through the nested stages exec → pass → play, and the results
report Exec@k, Pass@k, Play@k and Efficiency@k.
"""

from pytest_playtest.benchmark.merge import merge_results
from pytest_playtest.benchmark.metrics import TaskOutcome, compute_metrics, estimate_at_k, write_results
from pytest_playtest.benchmark.splice import splice_repo, splice_source
from pytest_playtest.benchmark.summary import format_table
from pytest_playtest.benchmark.tasks import (
    PlaytestSpec,
    Sample,
    SampleError,
    Task,
    TaskError,
    load_samples,
    load_tasks,
    resolve_argv,
)

from ..errors import MergeError, SpliceError

__all__ = [
    "MergeError",
    "PlaytestSpec",
    "Sample",
    "SampleError",
    "SpliceError",
    "Task",
    "TaskError",
    "TaskOutcome",
    "compute_metrics",
    "estimate_at_k",
    "format_table",
    "load_samples",
    "load_tasks",
    "merge_results",
    "resolve_argv",
    "splice_repo",
    "splice_source",
    "write_results",
]
