"""Functional completeness: passed / all cases, skipped counted apart."""

from __future__ import annotations

import pytest

from pytest_playtest.scenarios.completeness import overall, results, tally


def test_fc_per_file_and_overall() -> None:
    tallies = tally({"a.md": ["pass", "pass", "fail", "skip"], "b.md": ["pass", "error"]}, {"b.md": 1, "c.md": 2})

    assert tallies["a.md"].describe() == "FC 2/4 = 50% (1 failed, 1 skipped)"
    assert tallies["b.md"].to_dict() == {"cases": 2, "passed": 1, "failed": 0, "skipped": 0, "errors": 1,
                                         "malformed_items": 1, "fc": 0.5, "fc_checked": 0.5}
    assert tallies["c.md"].fc is None and tallies["c.md"].describe() == "FC 0/0 (2 malformed item(s))"
    total = overall(tallies)
    assert (total.passed, total.cases, total.skipped, total.fc, total.fc_checked) == (3, 6, 1, 0.5, 0.6)
    assert results(tallies)["overall"]["fc"] == 0.5


def test_an_unknown_status_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown case status 'maybe'"):
        tally({"a.md": ["maybe"]}, {})
