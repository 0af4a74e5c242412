"""The terminal explanation of a verdict: the outcome, each finding with its step, where to look."""

from __future__ import annotations

from ..verdict import Verdict


def explain(verdict: Verdict) -> str:
    """A few lines for the terminal (``Verdict.summary`` with one line of evidence per finding)."""
    return verdict.summary(detail_lines=1)
