"""The offline tester plays like a person on real apps: it keeps hunting after the expectations are met,
paces a real-time game, reads text box by box, tells keys that never reach a game, and a hang on the first
click."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import pytest

from pytest_playtest import expect
from pytest_playtest.loop.playthrough import run_session
from pytest_playtest.loop.spec import RunSpec
from pytest_playtest.runtime.display import Display
from pytest_playtest.vision import Vision
from tests.conftest import APPS

DEFAULTS = SimpleNamespace(policy="heuristic", max_steps=40, timeout=40.0, options={})
HUD = [sys.executable, str(APPS / "tk_hud.py")]
RUNNER = [sys.executable, str(APPS / "tk_runner.py")]


@pytest.fixture(scope="module")
def vision() -> Vision:
    return Vision()


def play(display: Display, vision: Vision, **kwargs):  # noqa: ANN201
    spec = RunSpec.from_kwargs(kwargs, defaults=DEFAULTS, where="test")
    return run_session(spec, display=display, vision=vision, artifacts=None, screenshots="off")


def test_expected_text_shown_from_the_first_frame_does_not_end_the_hunt(display: Display, vision: Vision) -> None:
    """The HUD reads "Score: 0" at once; the bug is the sixth hit."""
    verdict = play(display, vision, app=HUD, strategy="goal", goal="Hit as often as you can",
                   expect=[expect.text(r"Score: \d")], max_steps=40).verdict
    assert verdict.kinds() == ["exception"], verdict.summary()
    assert "KeyError: 6" in verdict.first("exception").message


def test_an_anchored_pattern_matches_one_text_box(display: Display, vision: Vision) -> None:
    tile = play(display, vision, app=HUD, expect=[expect.text(r"^(4|8|16|32)$")], max_steps=3).verdict
    assert tile.passed, tile.summary()
    missing = play(display, vision, app=HUD, expect=[expect.text(r"^(16|32)$")], max_steps=3).verdict
    assert missing.kinds() == ["expectation"], missing.summary()


def test_a_real_time_game_is_played_for_30_seconds_within_150_steps(display: Display, vision: Vision) -> None:
    """pygame's own aliens: 150 steps used to be over in about 4 s; a player plays for the budget's time."""
    result = play(display, vision, app=[sys.executable, "-m", "pygame.examples.aliens"], strategy="goal",
                  goal="Shoot the aliens", max_steps=150, timeout=60)
    verdict = result.verdict
    assert verdict.status == "pass", verdict.summary()
    played = sum(step.duration for step in result.steps)
    assert verdict.steps <= 150 and played >= 30, (verdict.steps, played)


def test_keys_that_never_reach_a_moving_game_are_unresponsive(display: Display, vision: Vision) -> None:
    dead = play(display, vision, app=[*RUNNER, "--unfocused"], strategy="goal", goal="Catch the green dots",
                max_steps=120, timeout=60).verdict
    assert dead.kinds() == ["unresponsive"], dead.summary()
    assert "none of the app's keys (left, right, up, down)" in dead.first("unresponsive").message
    working = play(display, vision, app=RUNNER, strategy="goal", goal="Catch the green dots", max_steps=120,
                   timeout=60).verdict
    assert working.passed, working.summary()


def test_a_still_app_that_hangs_on_its_first_click_is_frozen(display: Display, vision: Vision) -> None:
    """No input ever worked before the hang: the app reads no input and spins the CPU."""
    verdict = play(display, vision, app=[*RUNNER, "--still", "--hang-on-click"], max_steps=40).verdict
    assert verdict.kinds() == ["freeze"], verdict.summary()
    assert "busy on the CPU" in verdict.first("freeze").message
