"""Combine benchmark results files: shards of one run, or repeated runs of the same tasks.

``playtest-merge OUT.json IN1.json IN2.json ... [--mode auto|shards|runs]``

- shards: one run split across machines, each file holding a disjoint set of tasks (a shard dealt no task
  holds none). The per-task counts are pooled and every metric is recomputed, exactly as if the run had
  happened on one machine. Files from ``--playtest-benchmark-shard`` name their deal: shards of different deals
  (other ``--playtest-benchmark-shard-costs``, another shard count) are refused, as is the same shard twice.
- runs: the same tasks evaluated R times (the paper reports 5 repetitions). Every metric becomes the
  mean over runs, with a 95 % Student-t confidence interval.
- auto (default): shards when the task sets are disjoint, runs when they are equal, an error otherwise.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from pytest_playtest.benchmark.metrics import (
    RESULT_KEYS,
    TOKEN_KEYS,
    compute_metrics,
    efficiency_section,
    outcomes_from_results,
    price_of,
    write_results,
)
from pytest_playtest.benchmark.rounds import merge_repair
from pytest_playtest.benchmark.summary import format_table
from pytest_playtest.benchmark.timing import format_timing, merge_timings

from ..errors import MergeError

MODES: tuple[str, ...] = ("auto", "shards", "runs")

# Two-sided 95 % critical values of Student's t (the 0.975 quantile) for 1..30 degrees of freedom, from
# the NIST/SEMATECH e-Handbook of Statistical Methods, table 1.3.6.7.2 ("Critical values of the Student's
# t distribution", column 0.025). Beyond 30 the normal value 1.960 is used (4 % narrow at 31, less after).
_T_975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
_NORMAL_975 = 1.960

def t_quantile_975(degrees_of_freedom: int) -> float:
    """The 0.975 quantile of Student's t, for a two-sided 95 % interval."""
    if degrees_of_freedom < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {degrees_of_freedom}")
    if degrees_of_freedom <= len(_T_975):
        return _T_975[degrees_of_freedom - 1]
    return _NORMAL_975


def mean_interval(values: Sequence[float]) -> tuple[float, tuple[float, float] | None]:
    """The mean of ``values`` and its 95 % Student-t confidence interval (None with fewer than 2 values).

    The interval is mean ± t(0.975, R-1) · s / √R with s the sample standard deviation. It is not clipped
    to 0..1, so its half-width stays the "±" figure the paper reports.
    """
    count = len(values)
    mean = sum(values) / count
    if count < 2:
        return mean, None
    deviation = math.sqrt(sum((value - mean) ** 2 for value in values) / (count - 1))
    half_width = t_quantile_975(count - 1) * deviation / math.sqrt(count)
    return mean, (mean - half_width, mean + half_width)


def load_results(path: str) -> dict[str, Any]:
    """Read a results file written by ``--playtest-results`` (or by a merge); MergeError if unusable."""
    try:
        with open(path, encoding="utf-8") as handle:
            results = json.load(handle)
    except OSError as exc:
        raise MergeError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise MergeError(f"{path} is not valid JSON: {exc}") from None
    if not isinstance(results, dict):
        raise MergeError(f"{path} is not a results file: expected a JSON object")
    missing = [key for key in RESULT_KEYS if key not in results]
    if missing:
        raise MergeError(f"{path} is not a results file: missing {', '.join(missing)}")
    return results


def _resolve_mode(task_sets: list[set[str]], labels: Sequence[str], mode: str) -> str:
    """Check the task sets fit ``mode`` (picking one for auto), or explain which inputs do not."""
    pairs = [(i, j) for i in range(len(task_sets)) for j in range(i + 1, len(task_sets))]
    overlapping = [(i, j) for i, j in pairs if task_sets[i] & task_sets[j]]
    different = [(i, j) for i, j in pairs if task_sets[i] != task_sets[j]]

    def sharing(pair: tuple[int, int]) -> str:
        i, j = pair
        return f"{labels[i]} and {labels[j]} share {sorted(task_sets[i] & task_sets[j])[0]!r}"

    def differing(pair: tuple[int, int]) -> str:
        i, j = pair
        return f"{labels[i]} and {labels[j]} differ on {sorted(task_sets[i] ^ task_sets[j])[0]!r}"

    if mode == "auto":
        if not overlapping:
            return "shards"
        if not different:
            return "runs"
        raise MergeError(
            f"the inputs are neither disjoint shards of one run ({sharing(overlapping[0])}) nor repeated "
            f"runs of the same tasks ({differing(different[0])})"
        )
    if mode == "shards" and overlapping:
        raise MergeError(f"not disjoint shards of one run: {sharing(overlapping[0])}")
    if mode == "runs" and different:
        raise MergeError(f"not repeated runs of the same tasks: {differing(different[0])}")
    return mode


def _mean(values: list[Any]) -> tuple[float | None, list[float] | None]:
    """Mean and 95 % interval of one metric over runs; None if any run could not compute it."""
    if any(value is None for value in values):
        return None, None
    mean, bounds = mean_interval(values)
    return mean, None if bounds is None else list(bounds)


def _merge_runs(results: Sequence[Mapping[str, Any]], labels: Sequence[str]) -> dict[str, Any]:
    first = results[0]
    for result, label in zip(results[1:], labels[1:], strict=True):
        for task_id, info in first["task_info"].items():
            other = result["task_info"][task_id]
            if (other["language"], other["category"]) != (info["language"], info["category"]):
                raise MergeError(
                    f"{labels[0]} and {label} disagree on the language or category of {task_id!r}"
                )

    metrics: dict[str, float | None] = {}
    interval: dict[str, list[float] | None] = {}
    for metric in first["metrics"]:
        # a metric some run did not compute (play without divergence, off in that run) has no mean
        metrics[metric], interval[metric] = _mean([result["metrics"].get(metric) for result in results])
    tokens, interval["tokens"] = _mean([result["tokens"] for result in results])

    def group_means(section: str) -> dict[str, dict[str, float | None]]:
        return {
            group: {
                metric: _mean([result[section][group].get(metric) for result in results])[0] for metric in values
            }
            for group, values in first[section].items()
        }

    def task_info(task_id: str) -> dict[str, Any]:
        info = first["task_info"][task_id]
        token_means = {
            key: sum(result["task_info"][task_id].get(key, 0) for result in results) / len(results)
            for key in TOKEN_KEYS
        }
        return {"language": info["language"], "category": info["category"], **token_means}

    return {
        "suite": first["suite"],
        "n": max(result["n"] for result in results),
        "k": first["k"],
        "metrics": metrics,
        "by_language": group_means("by_language"),
        "by_category": group_means("by_category"),
        # Counts are pooled over runs: n here is runs × samples per task.
        "tasks": {task_id: _pooled([result["tasks"][task_id] for result in results]) for task_id in first["tasks"]},
        **({"coverage": mean} if (mean := _mean([result.get("coverage") for result in results])[0]) is not None
           else {}),
        "tokens": tokens,
        "efficiency": efficiency_section(metrics),
        "task_info": {task_id: task_info(task_id) for task_id in first["task_info"]},
        **_mean_tester(results),
        "interval": interval,
        "runs": len(results),
    }


def _mean_tester(results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The LLM tester's token counts and cost, each the mean over runs (priced as the first run was)."""
    first = results[0].get("tester")
    if not first:
        return {}
    tester = {key: _mean([result.get("tester", {}).get(key) for result in results])[0]
              for key in first if key != "price"}
    return {"tester": tester | ({"price": first["price"]} if "price" in first else {})}


def _pooled(counts: list[Mapping[str, Any]]) -> dict[str, Any]:
    """One task's counts over several runs: stage counts add up, line coverage is their mean."""
    # repair rounds (a list per task) are pooled by the repair package
    pooled: dict[str, Any] = {key: sum(c.get(key, 0) for c in counts) for key in counts[0]
                              if key not in ("coverage", "rounds")}
    coverage = _mean([c.get("coverage") for c in counts])[0]
    return {**pooled, "coverage": coverage} if coverage is not None else pooled


def merge_results(
    results: Sequence[Mapping[str, Any]], mode: str = "auto", labels: Sequence[str] | None = None
) -> dict[str, Any]:
    """Merge results dicts of one suite and the same k values into one results dict.

    ``mode`` "shards" needs disjoint task sets: the per-task counts are pooled and the metrics recomputed
    (adds ``"shards": S``). "runs" needs identical task sets: each metric, per-group metric, efficiency
    and token total becomes the mean over runs; ``tasks`` counts are summed over runs; it adds
    ``"interval": {metric: [low, high]}`` (95 % Student-t, also for ``tokens``; None when a metric is
    None or there is a single run) and ``"runs": R``. The inputs' ``timing`` is merged too (``timing.py``:
    pooled samples, the shards' common span or the runs' summed spans). "auto" picks shards for disjoint
    task sets and runs for equal ones. ``labels`` name the inputs in error messages (file names, for the CLI).

    Raises ``MergeError`` for nothing to merge, mixed suites or k values, inputs that are already a merge
    of runs, task sets that do not fit the mode, or shards of different deals (or one shard twice).
    """
    if mode not in MODES:
        raise MergeError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    if not results:
        raise MergeError("nothing to merge")
    labels = list(labels) if labels is not None else [f"input {i}" for i in range(1, len(results) + 1)]
    if len(labels) != len(results):
        raise ValueError(f"{len(labels)} labels for {len(results)} results")
    for result, label in zip(results, labels, strict=True):
        missing = [key for key in RESULT_KEYS if key not in result]
        if missing:
            raise MergeError(f"{label} is not a results dict: missing {', '.join(missing)}")
        if "runs" in result:
            raise MergeError(f"{label} is already a merge of {result['runs']} runs; merge the original files")
        if result["suite"] != results[0]["suite"]:
            raise MergeError(
                f"{labels[0]} is suite {results[0]['suite']!r} but {label} is {result['suite']!r}"
            )
        if list(result["k"]) != list(results[0]["k"]):
            raise MergeError(f"{labels[0]} has k={results[0]['k']} but {label} has k={result['k']}")

    mode = _resolve_mode([set(result["tasks"]) for result in results], labels, mode)
    _check_repair(results, labels)
    if mode == "runs":
        merged = _merge_runs(results, labels)
    else:
        _check_deal(results, labels)
        outcomes = [outcome for result in results for outcome in outcomes_from_results(result)]
        merged = compute_metrics(results[0]["suite"], outcomes, results[0]["k"], price_of(results[0]))
        merged["shards"] = len(results)
    # a shard that holds no task ran no sample: it has no timing, and takes nothing from the others'
    timing = merge_timings([result.get("timing") for result in results if result["tasks"]], mode)
    if timing is not None:
        merged["timing"] = timing
    if "repair" in results[0]:
        merge_repair(merged, results, mode)
    return merged


def _check_deal(results: Sequence[Mapping[str, Any]], labels: Sequence[str]) -> None:
    """Shards pooled together come from one deal of the tasks (``shard.py``), each shard once."""
    dealt = [(result["shard"], label) for result, label in zip(results, labels, strict=True) if "shard" in result]
    seen: dict[int, str] = {}
    for shard, label in dealt:
        first, first_label = dealt[0]
        if (shard["count"], shard["split"]) != (first["count"], first["split"]):
            raise MergeError(
                f"{first_label} and {label} are shards of different deals (split {first['split']} into "
                f"{first['count']}, split {shard['split']} into {shard['count']}): run every shard of a run with "
                "the same suites, shard count and --playtest-benchmark-shard-costs")
        if shard["index"] in seen:
            raise MergeError(f"{seen[shard['index']]} and {label} are both shard {shard['index']}/{shard['count']}")
        seen[shard["index"]] = label


def _check_repair(results: Sequence[Mapping[str, Any]], labels: Sequence[str]) -> None:
    """Repaired and unrepaired results, or different round budgets, do not measure the same thing."""
    budgets = [result["repair"]["rounds"] if "repair" in result else 0 for result in results]
    for budget, label in zip(budgets[1:], labels[1:], strict=True):
        if budget != budgets[0]:
            raise MergeError(f"{labels[0]} has {budgets[0]} repair round(s) but {label} has {budget}")


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: merge results files into OUT.json and print the table. Exit 2 on unusable input."""
    parser = argparse.ArgumentParser(
        prog="playtest-merge",
        description="Merge pytest-playtest benchmark results: shards of one run, or repeated runs.",
    )
    parser.add_argument("output", metavar="OUT.json", help="where to write the merged results")
    parser.add_argument("inputs", metavar="IN.json", nargs="+", help="results files from --playtest-results")
    parser.add_argument(
        "--mode",
        choices=MODES,
        default="auto",
        help="shards: disjoint task sets of one run; runs: the same tasks repeated; "
        "auto (default): decide from the task sets",
    )
    args = parser.parse_args(argv)
    try:
        results = [load_results(path) for path in args.inputs]
        merged = merge_results(results, args.mode, labels=args.inputs)
    except MergeError as exc:
        print(f"playtest-merge: error: {exc}", file=sys.stderr)
        return 2
    try:
        write_results(args.output, merged)
    except OSError as exc:
        print(f"playtest-merge: error: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(format_table(merged))
    if merged.get("timing"):
        print(format_timing(merged["timing"]))
    how = f"mean of {merged['runs']} runs" if "runs" in merged else f"{merged['shards']} shard(s)"
    print(f"\nwrote {args.output} ({how})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
