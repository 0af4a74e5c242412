"""Where a text expectation is searched: the whole text, each line, each text box."""

from __future__ import annotations

from pytest_playtest import expect
from pytest_playtest.loop.expectations import ExpectationTracker


def test_an_anchored_pattern_matches_one_line_or_one_text_box() -> None:
    tile = expect.text(r"^(4|8|16|32)$")
    assert tile.search("Score: 12\n16")  # a line of its own
    assert not tile.search("2 4 8\nScore: 12")  # one OCR line of three tiles...
    assert tile.search("2 4 8\nScore: 12", ["2", "4", "8", "Score: 12"])  # ...is three text boxes


def test_a_pattern_may_still_span_lines_and_ignores_case() -> None:
    assert expect.text(r"game\s+over").search("GAME\nOVER")
    assert not expect.text(r"^over").search("game over", ["game over"])


def test_the_tracker_reads_text_boxes_for_seen_and_forbidden_text() -> None:
    tracker = ExpectationTracker([expect.text(r"^32$"), expect.no_text(r"^0$")])
    tracker.observe_text("2 4 8", 1, ["2", "4", "8"])
    assert tracker.seen == {} and tracker.violated == {}
    tracker.observe_text("16 32 0", 2, ["16", "32", "0"])
    assert tracker.seen == {0: 2} and tracker.violated == {1: (2, "0")}
