"""The offline tester on web pages written the way people write them: every key tried early, drawn targets
clicked, the page's own buttons used in goal play, dialogs answered, links out of the app not followed."""

from __future__ import annotations

import time

import pytest

from pytest_playtest import expect
from pytest_playtest.actions import Action
from pytest_playtest.policies.pursuit import NEARER
from pytest_playtest.runtime.browser import Browser, web_target
from pytest_playtest.runtime.display import Display
from pytest_playtest.runtime.executor import Executor
from pytest_playtest.runtime.screen import Screen
from tests.support import REPO, Play

WEB = REPO / "fixtures" / "webapps"


@pytest.mark.parametrize("strategy", ["coverage", "goal"])
def test_a_hang_on_space_is_found_though_the_arrows_move(strategy: str, play: Play) -> None:
    verdict = play(app=str(WEB / "space_hang"), strategy=strategy, goal="Run and jump",
                   max_steps=40).verdict
    assert verdict.kinds() == ["freeze"], verdict.summary()


def test_a_drawn_targets_third_hit_is_found(play: Play) -> None:
    verdict = play(app=str(WEB / "targets"), strategy="goal", goal="Hit the targets",
                   max_steps=60).verdict
    assert verdict.kinds() == ["exception"], verdict.summary()
    assert "Cannot read properties of undefined (reading 'name')" in verdict.first("exception").message


def test_goal_play_presses_what_brought_the_expected_rule_nearer(play: Play) -> None:
    """Each button is tried once (−1 takes the count away from `#count > 0`, +1 brings it back, Reset asks
    first); then +1, seen to bring the rule nearer, is pressed again until it holds, not left to chance."""
    result = play(app=str(WEB / "tally"), strategy="goal", goal="Make the count positive.",
                  expect=[expect.rule("#count > 0")], max_steps=30)
    assert result.verdict.passed, result.verdict.summary()
    assert any("dialog" in note and "Reset the tally?" in note for note in result.verdict.notes), result.verdict.notes
    pursued = [step for step in result.steps if step.note.startswith(NEARER)]
    assert pursued and "(+1)" in pursued[-1].note and pursued[-1].index <= 10, [s.note for s in result.steps]


def test_a_link_out_of_the_app_is_not_followed(display: Display) -> None:
    target = web_target(str(WEB / "tally"), None)
    assert target is not None
    browser = Browser(target, display).start()
    try:
        assert browser.wait_for_window(timeout=20)
        Screen(display, browser).wait_until_painted(timeout=5)
        time.sleep(0.5)  # as the loop watches a new window before its first input
        box = browser.evaluate("(() => { const r = document.querySelector('a').getBoundingClientRect();"
                               " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        Executor(display, browser).perform(Action.click(int(box[0]), int(box[1])))
        reports = []
        for _ in range(50):
            reports += browser.reports()
            if any(r.kind == "navigation" for r in reports):
                break
            Executor(display, browser).perform(Action.wait(0.05))
        assert [r.message for r in reports if r.kind == "navigation"] == ["https://example.org/about"]
        assert browser.evaluate("location.pathname + document.title") == "/index.htmlTally"
    finally:
        browser.terminate()


def test_a_memory_game_is_played_from_the_faces_its_cards_showed(play: Play) -> None:
    """Twelve cards that flip with a transition beside a clock that runs by itself: once two of them showed
    different faces, a turn's second card is the twin of a face seen before, or a pair seen before is turned;
    each card is looked at once its flip ended (the page moving by itself does not hurry the look), and the
    game is won."""
    result = play(app=str(WEB / "pairs"), strategy="coverage", max_steps=60, timeout=60.0,
                  expect=[expect.rule("#status startswith 'You won'")])
    assert result.verdict.passed, result.verdict.summary()
    notes = [step.note or "" for step in result.steps]
    assert any(note.startswith(("its twin seen before", "a pair seen before")) for note in notes), notes
