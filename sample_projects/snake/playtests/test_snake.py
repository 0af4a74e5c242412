"""Playtests of snake: it must keep running and drawing whatever keys are pressed."""

import pytest

from pytest_playtest import expect


@pytest.mark.playtest(app="../main.py", strategy="goal", goal="Steer the snake; the game must keep running.",
                      expect=[expect.text(r"Score: \d+"), expect.alive()], max_steps=60, timeout=30)
def test_snake_plays(playtest):
    verdict = playtest.run()
    assert verdict, verdict.summary()
