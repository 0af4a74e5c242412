"""Playtests of the Tk calculator and its seeded bugs."""

import sys

import pytest

from pytest_playtest import expect


def app(*bug):
    return [sys.executable, "../main.py", *(("--bug", bug[0]) if bug else ())]


@pytest.mark.playtest(app=app(), strategy="coverage", expect=[expect.alive()], max_steps=40, timeout=60)
def test_correct_calculator_passes(playtest):
    verdict = playtest.run()
    assert verdict, verdict.summary()


@pytest.mark.playtest(app=app("callback-exception"), strategy="coverage", max_steps=40, timeout=60)
def test_callback_exception_is_found(playtest):
    verdict = playtest.run()
    assert not verdict and "exception" in verdict.kinds(), verdict.summary()


@pytest.mark.playtest(app=app("dead-button"), strategy="coverage", max_steps=60, timeout=60)
def test_dead_button_is_unresponsive(playtest):
    verdict = playtest.run()
    assert not verdict and "unresponsive" in verdict.kinds(), verdict.summary()
