"""The offline tester plays like a person on real apps: it keeps hunting after the expectations are met,
paces a real-time game, reads text box by box, tells keys that never reach a game, and a hang on the first
click."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

from pytest_playtest import expect
from pytest_playtest.policies.thresholds import TOGGLE_EVIDENCE
from tests.support import APPS, Play

HUD = [sys.executable, str(APPS / "tk_hud.py")]
RUNNER = [sys.executable, str(APPS / "tk_runner.py")]


def test_expected_text_shown_from_the_first_frame_does_not_end_the_hunt(play: Play) -> None:
    """The HUD reads "Score: 0" at once; the bug is the sixth hit."""
    verdict = play(app=HUD, strategy="goal", goal="Hit as often as you can",
                   expect=[expect.text(r"Score: \d")], max_steps=40).verdict
    assert verdict.kinds() == ["exception"], verdict.summary()
    assert "KeyError: 6" in verdict.first("exception").message


def test_an_anchored_pattern_matches_one_text_box(play: Play) -> None:
    tile = play(app=HUD, expect=[expect.text(r"^(4|8|16|32)$")], max_steps=3).verdict
    assert tile.passed, tile.summary()
    missing = play(app=HUD, expect=[expect.text(r"^(16|32)$")], max_steps=3).verdict
    assert missing.kinds() == ["expectation"], missing.summary()


def test_a_real_time_game_is_played_for_30_seconds_within_150_steps(play: Play) -> None:
    """pygame's own aliens: 150 steps used to be over in about 4 s; a player plays for the budget's time."""
    result = play(app=[sys.executable, "-m", "pygame.examples.aliens"], strategy="goal",
                  goal="Shoot the aliens", max_steps=150, timeout=60)
    verdict = result.verdict
    assert verdict.status == "pass", verdict.summary()
    played = sum(step.duration for step in result.steps)
    assert verdict.steps <= 150 and played >= 30, (verdict.steps, played)


@pytest.mark.alone  # another GUI test beside it slows the game's frames and the tester's looks
def test_keys_that_never_reach_a_moving_game_are_unresponsive(play: Play) -> None:
    dead = play(app=[*RUNNER, "--unfocused"], strategy="goal", goal="Catch the green dots",
                max_steps=120, timeout=60).verdict
    assert dead.kinds() == ["unresponsive"], dead.summary()
    assert "none of the app's keys (left, right, up, down, p)" in dead.first("unresponsive").message
    working = play(app=RUNNER, strategy="goal", goal="Catch the green dots", max_steps=120,
                   timeout=60).verdict
    assert working.passed, working.summary()


@pytest.mark.alone  # another GUI test beside it slows the game's frames and the tester's looks
def test_a_key_that_pauses_a_moving_game_is_pressed_again_and_left_alone(play: Play) -> None:
    """P pauses the runner: the tester presses it again as soon as it sees the game stop, plays on without
    it, and never takes the paused game for one that is over (launching it again)."""
    result = play(app=[*RUNNER, "--pausable"], strategy="goal", goal="Catch the green dots", max_steps=80,
                  timeout=60)
    assert result.verdict.passed, result.verdict.summary()
    presses = [step.index for step in result.steps if step.action.key == "p"]
    if len(presses) % 2 and presses[-1] > result.steps[-1].index - 3:
        presses.pop()  # a pause pressed at the run's end had no step left to be undone in
    pauses, undone = presses[::2], presses[1::2]
    around = [(s.index, s.action.label(), s.note) for s in result.steps
              if any(abs(s.index - p) <= 4 for p in presses)]
    assert presses and len(presses) in (2, 2 * TOGGLE_EVIDENCE), around  # each pause undone; then left alone
    assert all(b - a <= 3 for a, b in zip(pauses, undone, strict=True)), around
    assert not any("launched it again" in note for note in result.verdict.notes), result.verdict.notes


def test_a_still_app_that_hangs_on_its_first_click_is_frozen(play: Play) -> None:
    """No input ever worked before the hang: the app reads no input and spins the CPU."""
    verdict = play(app=[*RUNNER, "--still", "--hang-on-click"], max_steps=40).verdict
    assert verdict.kinds() == ["freeze"], verdict.summary()
    assert "busy on the CPU" in verdict.first("freeze").message


def test_keys_of_a_still_app_that_plays_sound_are_not_called_dead(play: Play) -> None:
    """A player's keys pause a tone and change its volume: nothing to see, and the tester hears nothing."""
    result = play(app=[sys.executable, str(APPS / "pygame_player.py")], strategy="coverage", max_steps=30)
    assert result.verdict.passed, result.verdict.summary()
    keyed = [s for s in result.steps if s.action.key in ("space", "up", "down")]
    assert len(keyed) >= 16 and not any(s.changed for s in keyed)  # enough tries to judge a silent app's keys


def test_clicks_on_a_starfield_are_not_judged_against_its_specks(play: Play) -> None:
    """pygame's stars: a click moves the point the stars stream from, and every one-pixel star is a change
    the motion prediction cannot follow: no click there can be told from the field's own change."""
    verdict = play(app=[sys.executable, "-m", "pygame.examples.stars"], strategy="coverage", max_steps=30,
                   timeout=40).verdict
    assert verdict.passed, verdict.summary()


@pytest.mark.alone  # another GUI test beside it slows the game's frames and the tester's looks
def test_a_worm_is_steered_onto_the_apples_line_and_its_score_rises(play: Play) -> None:
    """A worm moving a cell a tick passes an apple by unless it turns onto the apple's row or column right
    then: the tester learns which heading each arrow sets, keeps its course until the apple's line is half a
    step ahead, turns, and turns before the walls. It goes two or three cells between looks, so a turn often
    lands a cell or two off the apple's line and the worm comes round again: the budget leaves room for that."""
    result = play(app=[sys.executable, str(APPS / "pygame_worm.py")], strategy="goal",
                  goal="Steer the worm onto the apple to raise the score", expect=[expect.text(r"Score: [1-9]")],
                  max_steps=300, timeout=100)
    assert result.verdict.passed, result.verdict.summary()
    # (once the worm is on the apple's line, letting it drift there is steering too)
    seeking = [step.note for step in result.steps if step.heading
               and step.note.startswith(("steer the avatar to the target", "let the avatar drift to the target"))]
    assert seeking, Counter(step.note for step in result.steps)



@pytest.mark.alone  # another GUI test beside it slows the game's frames and the tester's looks
@pytest.mark.parametrize(("guard", "kinds"), [("ship.left > 0", []), ("ship.left < 0", ["unresponsive"])])
def test_a_dead_left_among_tumbling_meteors_is_told_by_what_it_never_sets_going(
        guard: str, kinds: list[str], play: Play, tmp_path: Path) -> None:
    """The edge guard of Left written the wrong way round: Left never slides the ship while Right does. The
    meteors change the picture everywhere every frame, so no key's effect can be told from the game's own
    motion; what tells is that Right sets the ship going right, and Left sets nothing going left but a
    meteor now and then."""
    app = tmp_path / "meteors.py"
    app.write_text((APPS / "pygame_meteors.py").read_text().replace("ship.left > 0", guard))
    verdict = play(app=[sys.executable, str(app)], strategy="goal", goal="Dodge the meteors and shoot them",
                   max_steps=250, timeout=90).verdict
    assert verdict.kinds() == kinds, verdict.summary()
    if kinds:
        dead = verdict.findings[0].message
        assert dead.startswith("key left set nothing going left along the row where key right"), verdict.summary()
