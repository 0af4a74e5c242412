"""Playtests of the TypeScript DOM app: the correct app passes, each bug variant is found."""

import pytest

from pytest_playtest import expect


@pytest.mark.playtest(app="../index.html", expect=[expect.rule("#total > 0 AND #inside >= 0")], max_steps=30,
                      timeout=40)
def test_the_tally_counts(playtest):
    verdict = playtest.run()
    assert verdict, verdict.summary()


@pytest.mark.playtest(app="../bug-throw.html", max_steps=30, timeout=40)
def test_leaving_an_empty_room_throws(playtest):
    verdict = playtest.run()
    assert "exception" in verdict.kinds(), verdict.summary()
    assert "TypeError" in verdict.first("exception").message and "app.js:" in verdict.first("exception").message


@pytest.mark.playtest(app="../bug-dead-reset.html", max_steps=50, timeout=60)
def test_a_dead_reset_button_is_unresponsive(playtest):
    verdict = playtest.run()
    assert "unresponsive" in verdict.kinds(), verdict.summary()


@pytest.mark.playtest(app="../bug-no-total.html", expect=[expect.rule("#total > 0")], max_steps=30, timeout=40)
def test_a_total_that_never_counts_breaks_the_rule(playtest):
    verdict = playtest.run()
    assert verdict.kinds() == ["expectation"], verdict.summary()
    assert "#total is '0'" in verdict.first("expectation").message
