"""The terminal explanation of a verdict: the outcome, each finding with its step, where to look."""

from __future__ import annotations

from pathlib import Path

from ..files import STORYBOARD_FILE
from ..verdict import Verdict


def explain(verdict: Verdict) -> str:
    """A few lines for the terminal: the outcome, each finding with its step, where to look."""
    head = f"playtest {verdict.status.upper()} after {verdict.steps} step(s)"
    if verdict.policy:
        head += f" (policy {verdict.policy})"
    kinds = verdict.kinds()
    if kinds:
        head += ": " + ", ".join(kinds)
    lines = [head]
    if verdict.status == "error":
        lines.append(f"  harness error (not the app's fault): {verdict.error or 'unknown'}")
    for finding in verdict.findings:
        where = f"step {finding.step}" if finding.step is not None else "end of run"
        lines.append(f"  {where}: [{finding.kind}] {finding.message}")
        last_detail = finding.details.strip().splitlines()[-1:] if finding.details else []
        lines.extend(f"      {line.strip()}" for line in last_detail)
        if finding.screenshot:
            lines.append(f"      screenshot: {finding.screenshot}")
    if verdict.artifacts:
        storyboard = Path(verdict.artifacts) / STORYBOARD_FILE
        if storyboard.exists():
            lines.append(f"  storyboard: {storyboard}")
        lines.append(f"  artifacts:  {verdict.artifacts}")
    return "\n".join(lines)
