"""Playtests of the flappy game: the bird must die when it meets a pipe."""

import sys

import pytest

from pytest_playtest import expect

# The tester acts every few milliseconds on a moving game, so the runs are bounded by time (timeout);
# the first stops at GAME OVER, the second when the forbidden score shows (about 10 s of play).


def app(*bug):
    return [sys.executable, "../main.py", *(("--bug", bug[0]) if bug else ())]


@pytest.mark.playtest(app=app(), strategy="goal", goal="Fly; hitting a pipe or the ground ends the game.",
                      expect=[expect.text("GAME OVER")], max_steps=5000, timeout=30)
def test_the_bird_can_die(playtest):
    verdict = playtest.run()
    assert verdict, verdict.summary()


@pytest.mark.playtest(app=app("no-pipe-collision"), strategy="goal", goal="Score points.", max_steps=5000,
                      timeout=30, expect=[expect.no_text(r"Score: [3-9]")])
def test_bird_passing_through_pipes_is_caught(playtest):
    verdict = playtest.run()
    assert not verdict and "expectation" in verdict.kinds(), verdict.summary()
