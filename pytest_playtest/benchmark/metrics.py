"""Exec@k, Pass@k, Play@k and Efficiency@k over a benchmark run, and the results file that holds them.

The stages are nested (a sample is only tested for pass if it executed, for play if it passed), and each
@k is the unbiased estimator of Chen et al. (2021) per task, averaged over tasks. Fractions are 0..1 in
the results; only the terminal table shows percentages.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..usage import TokenPrice

STAGES: tuple[str, ...] = ("exec", "pass", "play")
#: Play judged by the playtest alone, as if no sample had been compared with its task's reference: the metric
#: ``play_without_divergence@k`` of a run with ``--playtest-benchmark-differential on``.
UNDIFFERENTIAL = "play_without_divergence"
#: What every results file holds (``compute_metrics`` writes them; ``playtest-merge`` refuses a file without one).
RESULT_KEYS: tuple[str, ...] = ("suite", "n", "k", "metrics", "by_language", "by_category", "tasks", "tokens",
                                "efficiency", "task_info")
#: The tester's token counts a task's ``task_info`` keeps beside its ``tokens`` (model and tester together).
TESTER_TOKENS: tuple[str, ...] = ("tester_tokens", "tester_prompt_tokens", "tester_cached_tokens")
#: Every token count of a task's ``task_info``: what a merge of runs averages.
TOKEN_KEYS: tuple[str, ...] = ("tokens", "sample_tokens", *TESTER_TOKENS)


def estimate_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of ``k`` samples drawn from ``n`` (``c`` of them good) is good.

    The unbiased estimator 1 - C(n-c, k) / C(n, k), computed as a product so large ``n`` neither
    overflows nor loses precision. Needs 0 <= c <= n and 1 <= k <= n; it is 1.0 when n - c < k, since
    then every draw of k contains a good sample.
    """
    if not 0 <= c <= n:
        raise ValueError(f"need 0 <= c <= n, got n={n}, c={c}")
    if not 1 <= k <= n:
        raise ValueError(f"need 1 <= k <= n, got n={n}, k={k}")
    if n - c < k:
        return 1.0
    # C(n-c, k) / C(n, k) = prod over i in (n-c, n] of (1 - k/i)
    all_bad = 1.0
    for i in range(n - c + 1, n + 1):
        all_bad *= 1.0 - k / i
    return 1.0 - all_bad


@dataclass(frozen=True)
class TaskOutcome:
    """How the ``n`` samples of one task fared: how many reached each stage, and the tokens spent.

    ``sample_tokens`` is what generating the samples cost, ``tester_tokens`` what the LLM tester spent
    playing them (``tester_prompt_tokens`` of it on prompts, ``tester_cached_tokens`` of those served from the
    endpoint's prompt cache); unknown counts are taken as 0.
    """

    task_id: str
    language: str
    category: str
    n: int
    exec: int
    pass_: int
    play: int
    sample_tokens: int = 0
    tester_tokens: int = 0
    tester_prompt_tokens: int = 0
    tester_cached_tokens: int = 0
    #: mean share of the app's lines its play stages reached (None: coverage was not measured)
    coverage: float | None = None
    #: samples that passed their playtest and failed on the task's reference's inputs (None: not compared)
    diverged: int | None = None

    def __post_init__(self) -> None:
        # The stages are nested, so anything else means the counting went wrong upstream.
        if not 0 <= self.play <= self.pass_ <= self.exec <= self.n:
            raise ValueError(
                f"task {self.task_id!r}: need 0 <= play <= pass <= exec <= n, got "
                f"play={self.play}, pass={self.pass_}, exec={self.exec}, n={self.n}"
            )
        if self.diverged is not None and not 0 <= self.play + self.diverged <= self.pass_:
            raise ValueError(f"task {self.task_id!r}: need 0 <= play + diverged <= pass, got "
                             f"diverged={self.diverged}, play={self.play}, pass={self.pass_}")
        if self.sample_tokens < 0 or self.tester_tokens < 0:
            raise ValueError(f"task {self.task_id!r}: token counts cannot be negative")

    @property
    def tokens(self) -> int:
        return self.sample_tokens + self.tester_tokens

    def passed(self, stage: str) -> int:
        """Samples that got through ``stage`` (one of STAGES, or ``UNDIFFERENTIAL``)."""
        return {"exec": self.exec, "pass": self.pass_, "play": self.play,
                UNDIFFERENTIAL: self.play + (self.diverged or 0)}[stage]


def _normalise_ks(ks: Iterable[int]) -> list[int]:
    ks = sorted(set(ks))
    if not ks or any(isinstance(k, bool) or not isinstance(k, int) or k < 1 for k in ks):
        raise ValueError(f"k values must be positive integers, got {ks!r}")
    return ks


def _efficiency(play: float | None, tokens: int, task_count: int) -> float | None:
    """Play@k / AT_k with AT_k = tokens / (N * 1000), the paper's Efficiency@k (eq. 2)."""
    if play is None or tokens == 0:
        return None
    return play / (tokens / (task_count * 1000))


def _group_metrics(outcomes: list[TaskOutcome], ks: list[int]) -> dict[str, float | None]:
    """Every metric for every k over ``outcomes``; a k no task has enough samples for is None."""
    tokens = sum(outcome.tokens for outcome in outcomes)
    metrics: dict[str, float | None] = {}
    compared = any(outcome.diverged is not None for outcome in outcomes)
    for k in ks:
        # A task with fewer than k samples cannot estimate @k, so it sits out that k (and only that k).
        eligible = [outcome for outcome in outcomes if outcome.n >= k]
        for stage in (*STAGES, UNDIFFERENTIAL) if compared else STAGES:
            estimates = [estimate_at_k(outcome.n, outcome.passed(stage), k) for outcome in eligible]
            metrics[f"{stage}@{k}"] = sum(estimates) / len(estimates) if estimates else None
        metrics[f"efficiency@{k}"] = _efficiency(metrics[f"play@{k}"], tokens, len(outcomes))
    return metrics


def _grouped(outcomes: list[TaskOutcome], key: str, ks: list[int]) -> dict[str, dict[str, float | None]]:
    groups: dict[str, list[TaskOutcome]] = {}
    for outcome in outcomes:
        groups.setdefault(getattr(outcome, key), []).append(outcome)
    return {name: _group_metrics(members, ks) for name, members in sorted(groups.items())}


def compute_metrics(suite: str, outcomes: Iterable[TaskOutcome], ks: Iterable[int],
                    price: TokenPrice | None = None) -> dict[str, Any]:
    """The results of a run, as written to ``--playtest-results``.

    Metrics are computed per k in ``ks``, averaged over the tasks that have at least k samples (a task
    with n < k is skipped for that k; if no task qualifies the value is None), overall and per language
    and category. ``efficiency@k`` is Play@k / AT_k where AT_k = total tokens / (N * 1000) over the N
    tasks; it is None when no tokens were counted. Because Play@k is a fraction here, multiply
    efficiency by 100 to compare with the paper's Table 4, which uses percentages (the table does).

    Keys: ``suite``, ``n`` (largest sample count of a task), ``k``, ``metrics``, ``by_language``,
    ``by_category``, ``tasks`` (per-task counts), ``tokens`` (total), ``efficiency``, ``task_info``
    (per-task language, category and tokens, so that shards of a run can be merged and recomputed) and
    ``tester``: the LLM tester's ``tokens``, ``prompt_tokens`` and ``cached_tokens``, with ``price`` and
    ``cost_usd`` (an estimate of what the tester's tokens cost) when a price is given.
    """
    outcomes = list(outcomes)
    ks = _normalise_ks(ks)
    seen: set[str] = set()
    for outcome in outcomes:
        if outcome.task_id in seen:
            raise ValueError(f"task {outcome.task_id!r} appears twice")
        seen.add(outcome.task_id)
    metrics = _group_metrics(outcomes, ks)
    return {
        "suite": suite,
        "n": max((outcome.n for outcome in outcomes), default=0),
        "k": ks,
        "metrics": metrics,
        "by_language": _grouped(outcomes, "language", ks),
        "by_category": _grouped(outcomes, "category", ks),
        "tasks": {
            outcome.task_id: {
                "n": outcome.n,
                "exec": outcome.exec,
                "pass": outcome.pass_,
                "play": outcome.play,
                # present only when measured, so results without coverage keep their shape
                **({"coverage": outcome.coverage} if outcome.coverage is not None else {}),
                **({"diverged": outcome.diverged} if outcome.diverged is not None else {}),
            }
            for outcome in outcomes
        },
        **({"coverage": mean} if (mean := _mean_coverage(outcomes)) is not None else {}),
        "tokens": sum(outcome.tokens for outcome in outcomes),
        "efficiency": efficiency_section(metrics),
        "task_info": {
            outcome.task_id: {
                "language": outcome.language,
                "category": outcome.category,
                "tokens": outcome.tokens,
                "sample_tokens": outcome.sample_tokens,
                "tester_tokens": outcome.tester_tokens,
                "tester_prompt_tokens": outcome.tester_prompt_tokens,
                "tester_cached_tokens": outcome.tester_cached_tokens,
            }
            for outcome in outcomes
        },
        "tester": tester_usage(outcomes, price),
    }


def efficiency_section(metrics: Mapping[str, float | None]) -> dict[str, float | None]:
    """The results' ``efficiency`` section: the Efficiency@k of the overall metrics."""
    return {key: value for key, value in metrics.items() if key.startswith("efficiency@")}


def tester_usage(outcomes: list[TaskOutcome], price: TokenPrice | None) -> dict[str, Any]:
    """The LLM tester's tokens over ``outcomes``; with a price, what they cost (in US dollars)."""
    tokens = sum(outcome.tester_tokens for outcome in outcomes)
    prompt = sum(outcome.tester_prompt_tokens for outcome in outcomes)
    cached = sum(outcome.tester_cached_tokens for outcome in outcomes)
    usage: dict[str, Any] = {"tokens": tokens, "prompt_tokens": prompt, "cached_tokens": cached}
    if price is not None:
        usage |= {"price": asdict(price), "cost_usd": price.cost(prompt, cached, tokens - prompt)}
    return usage


def price_of(results: Mapping[str, Any]) -> TokenPrice | None:
    """The price a results dict's tester cost was estimated with, if any."""
    price = results.get("tester", {}).get("price")
    return TokenPrice(**price) if price else None


def _mean_coverage(outcomes: list[TaskOutcome]) -> float | None:
    """The mean over tasks of their play stages' line coverage; None when no task measured it."""
    measured = [outcome.coverage for outcome in outcomes if outcome.coverage is not None]
    return sum(measured) / len(measured) if measured else None


def outcomes_from_results(results: Mapping[str, Any]) -> list[TaskOutcome]:
    """Rebuild the per-task outcomes a results dict was computed from (needs its ``task_info``)."""
    outcomes = []
    for task_id, counts in results["tasks"].items():
        info = results["task_info"][task_id]
        outcomes.append(
            TaskOutcome(
                task_id=task_id,
                language=info["language"],
                category=info["category"],
                n=counts["n"],
                exec=counts["exec"],
                pass_=counts["pass"],
                play=counts["play"],
                sample_tokens=info.get("sample_tokens", info["tokens"]),
                tester_tokens=info.get("tester_tokens", 0),
                tester_prompt_tokens=info.get("tester_prompt_tokens", 0),
                tester_cached_tokens=info.get("tester_cached_tokens", 0),
                coverage=counts.get("coverage"),
                diverged=counts.get("diverged"),
            )
        )
    return outcomes


def write_results(path: str | os.PathLike[str], results: Mapping[str, Any]) -> None:
    """Write a results dict as indented JSON, creating parent folders; readers never see a partial file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    os.replace(partial, path)
