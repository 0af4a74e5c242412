"""Playtests of the JavaScript canvas game: the correct game plays, each bug variant is found."""

import pytest

from pytest_playtest import expect


@pytest.mark.playtest(app="../index.html", expect=[expect.rule("#score > 0"), expect.alive()], max_steps=40,
                      timeout=40)
def test_the_game_plays_and_scores(playtest):
    verdict = playtest.run()
    assert verdict, verdict.summary()


@pytest.mark.playtest(app="../bug-throw.html", max_steps=30, timeout=40)
def test_an_error_after_a_few_moves_is_found(playtest):
    verdict = playtest.run()
    assert "exception" in verdict.kinds(), verdict.summary()
    assert "TypeError" in verdict.first("exception").message and "game.js:" in verdict.first("exception").message


@pytest.mark.playtest(app="../bug-no-score.html", expect=[expect.rule("#score > 0")], max_steps=40, timeout=40)
def test_a_score_that_never_counts_breaks_the_rule(playtest):
    verdict = playtest.run()
    assert verdict.kinds() == ["expectation"], verdict.summary()
    assert "#score is '0'" in verdict.first("expectation").message
