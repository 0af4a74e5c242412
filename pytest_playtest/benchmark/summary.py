"""What a person reads of a benchmark run: the results table (terminal and pytest-html), the metrics after each
repair round under it, and a sample's repair rounds under its failed stage (text and one HTML row per round)."""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

from ..files import STORYBOARD_FILE
from ..usage import TokenPrice
from .metrics import STAGES, UNDIFFERENTIAL
from .rounds import suffix

STORYBOARD_WIDTH = 360


def outcome(record: Mapping[str, Any]) -> str:
    """``exec ✓ pass ✓ play ✗ (fail: exception)``, or why the round had nothing to try."""
    if record.get("error"):
        return f"failed: {record['error']}"
    stages = record.get("stages") or {}
    text = " ".join(f"{stage} {'✓' if stages[stage] else '✗'}" for stage in STAGES if stage in stages)
    return text + (f" ({record['verdict']})" if record.get("verdict") else "")


def describe_rounds(rounds: Sequence[Mapping[str, Any]]) -> str:
    """The rounds under a failed stage in the terminal."""
    if not rounds:
        return "repair: no round was run"
    lines = [f"repair: {len(rounds)} round(s)"]
    for record in rounds:
        lines.append(f"  round {record['round']} ({record['diagnosis']} diagnosis, {record['tokens']} tokens): "
                     f"{outcome(record)}")
    return "\n".join(lines)


def rounds_html(rounds: Sequence[Mapping[str, Any]]) -> str:
    """A table with one row per round: diagnosis, tokens, stages, verdict, the round's storyboard."""
    rows = []
    for record in rounds:
        storyboard = _storyboard(record.get("artifacts"))
        code = escape(record.get("completion") or "")
        rows.append(
            f"<tr><td>{record['round']}</td><td>{escape(record['diagnosis'])}</td><td>{record['tokens']}</td>"
            f"<td>{escape(outcome(record))}</td><td>{escape(record.get('verdict') or '')}</td>"
            f"<td><details><summary>code</summary><pre>{code}</pre></details></td><td>{storyboard}</td></tr>")
    head = ("<tr><th>round</th><th>diagnosis</th><th>tokens</th><th>stages</th><th>verdict</th><th>completion</th>"
            "<th>storyboard</th></tr>")
    return f'<table class="playtest-repair"><caption>repair rounds</caption>{head}{"".join(rows)}</table>'


def _storyboard(artifacts: str | None) -> str:
    """The round's storyboard, embedded so the table survives --self-contained-html."""
    if not artifacts or not (Path(artifacts) / STORYBOARD_FILE).is_file():
        return ""
    data = base64.b64encode((Path(artifacts) / STORYBOARD_FILE).read_bytes()).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" width="{STORYBOARD_WIDTH}" alt="storyboard">'


def _percent(value: float | None, half_width: float | None = None) -> str:
    if value is None:
        return "-"
    if half_width is None:
        return f"{100 * value:.1f}"
    return f"{100 * value:.1f}±{100 * half_width:.1f}"


def _half_width(results: Mapping[str, Any], metric: str) -> float | None:
    interval = results.get("interval", {}).get(metric)
    if interval is None:
        return None
    low, high = interval
    return (high - low) / 2


def _task_counts(results: Mapping[str, Any], key: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for info in results.get("task_info", {}).values():
        counts[info[key]] = counts.get(info[key], 0) + 1
    return counts


def format_table(results: Mapping[str, Any]) -> str:
    """A terminal table of a results dict, in percentages: overall, then per language and per category.

    Columns are Exec@k, Pass@k and Play@k for each k; "-" marks a value that could not be computed.
    Merged runs show mean±half-width of the 95 % interval on the overall row. Below the table: the token
    total and Efficiency@k on the paper's scale (Play@k in percent per thousand tokens per task).
    """
    ks = results["k"]
    headers = ["", "tasks"] + [f"{stage.capitalize()}@{k}" for k in ks for stage in STAGES]
    task_count = len(results["tasks"])
    rows = [
        ["overall", str(task_count)]
        + [
            _percent(results["metrics"][f"{s}@{k}"], _half_width(results, f"{s}@{k}"))
            for k in ks
            for s in STAGES
        ]
    ]
    for section, key in (("by_language", "language"), ("by_category", "category")):
        counts = _task_counts(results, key)
        for name, metrics in results[section].items():
            count = str(counts[name]) if name in counts else ""
            rows.append(
                [f"{key}: {name}", count] + [_percent(metrics[f"{s}@{k}"]) for k in ks for s in STAGES]
            )

    widths = [max(len(row[column]) for row in [headers, *rows]) for column in range(len(headers))]

    def render(row: list[str]) -> str:
        cells = [row[0].ljust(widths[0])] + [
            cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)
        ]
        return "  ".join(cells).rstrip()

    lines = [
        f"suite {results['suite']}: {task_count} tasks, n={results['n']}, k={','.join(map(str, ks))}, in %"
    ]
    if "runs" in results:
        lines[0] += f", mean of {results['runs']} runs (± 95 % interval)"
    lines += [render(headers), render(["-" * width for width in widths]), *(render(row) for row in rows)]

    tokens = results["tokens"]
    lines.append("")
    if not tokens:
        lines.append("tokens: none counted, so no Efficiency@k")
    else:
        per_task = tokens / task_count
        scores = {k: results["efficiency"][f"efficiency@{k}"] for k in ks}
        efficiency = "  ".join(
            f"Efficiency@{k} {'-' if score is None else f'{100 * score:.2f}'}" for k, score in scores.items()
        )
        lines.append(f"tokens: {tokens:,.0f} ({per_task:,.0f} per task)  {efficiency}")
    tester = results.get("tester") or {}
    if tester.get("tokens"):
        line = (f"tester tokens: {tester['tokens']:,.0f} ({tester['prompt_tokens']:,.0f} prompt, "
                f"{tester['cached_tokens']:,.0f} of it cached)")
        if "cost_usd" in tester:
            line += f", estimated cost ${tester['cost_usd']:,.4f} at {TokenPrice(**tester['price']).describe()}"
        lines.append(line)
    lines += _undifferential(results)
    if "repair" in results:
        lines += format_rounds(results)
    return "\n".join(lines)


def _undifferential(results: Mapping[str, Any]) -> list[str]:
    """What the samples compared with their task's reference would score by their playtests alone."""
    scores = {k: results["metrics"].get(f"{UNDIFFERENTIAL}@{k}") for k in results["k"]}
    if all(score is None for score in scores.values()):
        return []
    diverged = sum(counts.get("diverged", 0) for counts in results["tasks"].values())
    alone = "  ".join(f"Play@{k} {_percent(score)}" for k, score in scores.items())
    return [f"compared with each task's reference: {diverged:,} sample(s) passed their playtest and diverged; "
            f"by the playtests alone {alone} %"]


def metrics_html(results: Mapping[str, Any]) -> str:
    """The results as the terminal's table, in HTML (pytest-html's summary)."""
    suite = f": {escape(str(results['suite']))}" if results.get("suite") else ""
    return f'<h2>Playtest benchmark{suite}</h2><pre class="playtest-metrics">{escape(format_table(results))}</pre>'


def format_rounds(results: Mapping[str, Any]) -> list[str]:
    """Lines under the benchmark table: the metrics before repair and after each round, in %."""
    repair = results["repair"]
    ks = results["k"]
    columns = [f"{stage}@{k}" for k in ks for stage in STAGES] + [f"efficiency@{k}" for k in ks]
    headers = ["", *(name.capitalize() for name in columns)]
    rows = [["before repair", *(_cell(results["metrics"].get(name), name) for name in columns)]]
    for number in range(1, int(repair["rounds"]) + 1):
        rows.append([f"after round {number}",
                     *(_cell(results["metrics"].get(suffix(name, number)), name) for name in columns)])
    widths = [max(len(row[column]) for row in [headers, *rows]) for column in range(len(headers))]

    def render(row: list[str]) -> str:
        return "  ".join([row[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True))])

    lines = [
        "",
        f"repair: up to {repair['rounds']} round(s) for each failing sample; {repair['repaired_samples']} "
        f"sample(s) repaired in {repair['rounds_run']} round(s), {repair['tokens']:,.0f} repair tokens "
        "(model and tester), counted in Efficiency@k after each round",
        render(headers), render(["-" * width for width in widths]), *(render(row) for row in rows),
    ]
    if repair["failed_rounds"]:
        lines.append(f"{repair['failed_rounds']} round(s) had nothing to try: {'; '.join(repair['errors'])}")
    return lines


def _cell(value: float | None, name: str) -> str:
    if value is None:
        return "-"
    return f"{100 * value:.2f}" if name.startswith("efficiency@") else f"{100 * value:.1f}"
