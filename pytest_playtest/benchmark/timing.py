"""What a benchmark run cost, from its store: wall time per stage and per sample, tester tokens, samples/hour.

Computed from the stored stage reports (``store.py``), so a resumed run counts the time its earlier part
spent too. Wall time of a stage is its items' setup + call + teardown; a sample's is the sum of its stages;
throughput is finished samples over the span from the first report's start to the last one's stop (with
``-n 2`` the stages overlap, so the span is less than the sum).

The timing keeps each sample's stage seconds (``per_sample``) and the span's ends (``started``,
``stopped``), so that ``playtest-merge`` recomputes the medians and the throughput of shards or repeated
runs from the samples themselves (``merge_timings``), not from medians of medians.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .metrics import STAGES


def run_timing(reports: Iterable[Mapping[str, Any]], property_name: str) -> dict[str, Any]:
    """The timing of one run (see ``summarize``) from its serialized stage reports."""
    per_sample: dict[tuple[str, str, int], dict[str, float]] = {}
    tokens: dict[tuple[Any, ...], int] = {}
    starts, stops = [], []
    for report in reports:
        props = dict(report.get("user_properties", [])).get(property_name)
        if not isinstance(props, dict):
            continue
        stages = per_sample.setdefault((props["suite"], props["task_id"], props["sample"]), {})
        stages[props["stage"]] = stages.get(props["stage"], 0.0) + float(report.get("duration") or 0.0)
        if props.get("tester_tokens"):
            tokens[(props["suite"], props["task_id"], props["sample"], props["stage"])] = int(props["tester_tokens"])
        if report.get("start") is not None and report.get("stop") is not None:
            starts.append(float(report["start"]))
            stops.append(float(report["stop"]))
    started, stopped = (min(starts), max(stops)) if starts else (None, None)
    span = stopped - started if started is not None and stopped is not None else 0.0
    suites = {suite for suite, _, _ in per_sample}
    named = {f"{task_id if len(suites) == 1 else f'{suite}/{task_id}'}[s{sample}]": stages
             for (suite, task_id, sample), stages in per_sample.items()}  # task ids as the results name them
    return summarize(named, span, sum(tokens.values()), started, stopped)


def summarize(per_sample: Mapping[str, Mapping[str, float]], span: float, tester_tokens: int,
              started: float | None = None, stopped: float | None = None) -> dict[str, Any]:
    """``{"stage_seconds": {stage: median}, "sample_seconds": median, "samples": n, "span_seconds": s,
    "samples_per_hour": r, "tester_tokens": t}``, plus ``per_sample`` and the span's ends when known.

    A stage a sample did not reach (an earlier one failed) counts as ~0 s in that stage's median: it was
    skipped at once."""
    timing: dict[str, Any] = {
        "stage_seconds": {stage: _median([stages[stage] for stages in per_sample.values() if stage in stages])
                          for stage in STAGES},
        "sample_seconds": _median([sum(stages.values()) for stages in per_sample.values()]),
        "samples": len(per_sample),
        "span_seconds": round(span, 3),
        "samples_per_hour": round(len(per_sample) * 3600 / span, 1) if span > 0 else None,
        "tester_tokens": tester_tokens,
    }
    if started is not None and stopped is not None:
        timing.update(started=round(started, 3), stopped=round(stopped, 3))
    timing["per_sample"] = {key: {stage: round(seconds, 3) for stage, seconds in stages.items()}
                            for key, stages in per_sample.items()}
    return timing


def merge_timings(timings: Sequence[Mapping[str, Any] | None], mode: str) -> dict[str, Any] | None:
    """The timing of merged results (None when an input has none, e.g. results written by hand).

    ``shards`` ran side by side (on other machines): their samples are pooled and the span runs from the
    first shard's start to the last one's stop, so samples/hour is the whole fleet's throughput. ``runs``
    repeated the same samples one after another: the medians are over every run's samples, and the span is
    the sum of the runs' own spans."""
    known = [timing for timing in timings if timing and "per_sample" in timing]
    if not known or len(known) < len(timings):
        return None
    timings = known
    tokens = sum(int(timing["tester_tokens"]) for timing in timings)
    if mode == "runs":
        pooled = {f"{key}@run{number}": stages for number, timing in enumerate(timings, 1)
                  for key, stages in timing["per_sample"].items()}
        merged = summarize(pooled, sum(float(timing["span_seconds"]) for timing in timings), tokens)
        del merged["per_sample"]  # a merge of runs is not merged again
        return merged
    samples = {key: stages for timing in timings for key, stages in timing["per_sample"].items()}
    ends = [(timing["started"], timing["stopped"]) for timing in timings if "started" in timing]
    started = min(start for start, _ in ends) if ends else None
    stopped = max(stop for _, stop in ends) if ends else None
    span = stopped - started if started is not None and stopped is not None else 0.0
    return summarize(samples, span, tokens, started, stopped)


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
