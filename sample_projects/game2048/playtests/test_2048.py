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
