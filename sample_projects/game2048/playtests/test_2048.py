"""Playtests of 2048 and its seeded bugs: the goal strategy plays it with the arrow keys."""

import sys

import pytest

from pytest_playtest import expect

GOAL = "Merge tiles: the score must go up."
READABLE_TILE = r"(?<!Score: )\b(2|4|8|16)\b"


def app(*bug):
    return [sys.executable, "../main.py", *(("--bug", bug[0]) if bug else ())]


@pytest.mark.playtest(app=app(), strategy="goal", goal=GOAL, max_steps=80, timeout=40,
                      expect=[expect.text(r"Score: [1-9]"), expect.text(READABLE_TILE), expect.alive()])
def test_2048_plays(playtest):
    verdict = playtest.run()
    assert verdict, verdict.summary()


@pytest.mark.playtest(app=app("invisible-tiles"), strategy="goal", goal=GOAL, max_steps=40, timeout=30,
                      expect=[expect.text(READABLE_TILE)])
def test_invisible_tiles_fail_the_expectation(playtest):
    verdict = playtest.run()
    assert not verdict and "expectation" in verdict.kinds(), verdict.summary()


@pytest.mark.playtest(app=app("crash-after-moves"), strategy="goal", goal=GOAL, max_steps=80, timeout=40)
def test_crash_after_moves(playtest):
    verdict = playtest.run()
    assert not verdict and "crash" in verdict.kinds(), verdict.summary()


@pytest.mark.playtest(app=app("hang-on-key"), strategy="goal", goal=GOAL, max_steps=80, timeout=40)
def test_hang_on_a_key_is_a_freeze(playtest):
    verdict = playtest.run()
    assert not verdict and "freeze" in verdict.kinds(), verdict.summary()


def tiles(grid):
    return [int(cell) for row in grid.cells for cell in row if cell]


def test_a_move_keeps_the_tile_sum_and_adds_one_tile(playtest):
    """Read the board as a matrix (vision) and check the rule of 2048 exactly: a move that changes the
    board keeps the sum of the tiles (merges add up) and then adds one new tile, a 2 or a 4."""
    playtest.launch(app())
    before = tiles(playtest.read_grid(4, 4))
    assert len(before) == 2 and set(before) <= {2, 4}
    for key in ("left", "right", "up", "down"):
        playtest.press(key)
        if playtest.wait_for_change(timeout=1, raising=False):
            break
    after = tiles(playtest.read_grid(4, 4))
    assert sum(after) - sum(before) in (2, 4), (before, after)
