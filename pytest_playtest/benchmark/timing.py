"""What a benchmark run cost, from its store: wall time per stage and per sample, tester tokens, samples/hour.

Computed from the stored stage reports (``store.py``), so a resumed run counts the time its earlier part
spent too. Wall time of a stage is its items' setup + call + teardown; a sample's is the sum of its stages;
throughput is finished samples over the span from the first report's start to the last one's stop (with
``-n 2`` the stages overlap, so the span is less than the sum).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping
from typing import Any

from .metrics import STAGES


def run_timing(reports: Iterable[Mapping[str, Any]], property_name: str) -> dict[str, Any]:
    """``{"stage_seconds": {stage: median}, "sample_seconds": median, "samples": n, "span_seconds": s,
    "samples_per_hour": r, "tester_tokens": t}`` from serialized stage reports."""
    per_stage: dict[tuple[Any, ...], float] = {}
    tokens: dict[tuple[Any, ...], int] = {}
    starts, stops = [], []
    for report in reports:
        props = dict(report.get("user_properties", [])).get(property_name)
        if not isinstance(props, dict):
            continue
        key = (props["suite"], props["task_id"], props["sample"], props["stage"])
        per_stage[key] = per_stage.get(key, 0.0) + float(report.get("duration") or 0.0)
        if props.get("tester_tokens"):
            tokens[key] = int(props["tester_tokens"])
        if report.get("start") and report.get("stop"):
            starts.append(float(report["start"]))
            stops.append(float(report["stop"]))
    per_sample: dict[tuple[Any, ...], float] = {}
    for (suite, task_id, sample, _), seconds in per_stage.items():
        per_sample[(suite, task_id, sample)] = per_sample.get((suite, task_id, sample), 0.0) + seconds
    span = max(stops) - min(starts) if starts else 0.0
    return {
        "stage_seconds": {stage: _median([s for key, s in per_stage.items() if key[3] == stage]) for stage in STAGES},
        "sample_seconds": _median(list(per_sample.values())),
        "samples": len(per_sample),
        "span_seconds": round(span, 3),
        "samples_per_hour": round(len(per_sample) * 3600 / span, 1) if span > 0 else None,
        "tester_tokens": sum(tokens.values()),
    }


def format_timing(timing: Mapping[str, Any]) -> str:
    """One line for the terminal under the metrics table."""
    stages = ", ".join(f"{stage} {seconds:.1f}s" for stage, seconds in timing["stage_seconds"].items()
                       if seconds is not None)
    rate = timing["samples_per_hour"]
    return (f"wall per sample (median) {timing['sample_seconds'] or 0:.1f}s ({stages}); "
            f"{timing['samples']} samples in {timing['span_seconds']:.1f}s = "
            f"{rate if rate is not None else '-'} samples/hour; tester tokens {timing['tester_tokens']}")


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 3) if values else None
