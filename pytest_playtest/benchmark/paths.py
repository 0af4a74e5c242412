"""Where a benchmark run keeps its files: the results, the run store beside them, the tasks' references."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..config import output_root, setting

#: The store's name beside the results file: results.json → results.store.jsonl.
STORE_SUFFIX = ".store.jsonl"
#: The references' folder beside the results file: results.json → results.references/.
REFERENCES_SUFFIX = ".references"
#: Where the references go in the artifacts folder of a run that writes no results file.
REFERENCES_DIR = "references"


def results_path(config: pytest.Config) -> Path | None:
    """The results file ``--playtest-results`` names, relative to where pytest was invoked (None: no file)."""
    target = setting(config, "playtest_results")
    if not target:
        return None
    path = Path(target)
    return path if path.is_absolute() else config.invocation_params.dir / path


def store_path(config: pytest.Config) -> Path | None:
    """Where this run's store is (None without ``--playtest-results``)."""
    results = results_path(config)
    return None if results is None else results.with_name(results.stem + STORE_SUFFIX)


def references_path(config: pytest.Config) -> Path:
    """Where this run keeps its tasks' references: beside the store (shards and resumed runs reuse them),
    else in the artifacts folder (xdist workers share either)."""
    results = results_path(config)
    if results is None:
        return output_root(config) / REFERENCES_DIR
    return results.with_name(results.stem + REFERENCES_SUFFIX)
