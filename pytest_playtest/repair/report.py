"""Repair rounds for a person: a few lines under a failed stage, and one HTML table row per round."""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

from ..benchmark.metrics import STAGES
from ..files import STORYBOARD_FILE

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
