"""Playtests of the Tk counter: one written by hand with the low-level API, one with the marker."""

import sys

import pytest

from pytest_playtest import expect

APP = "../main.py"


def test_increment_button_counts(playtest):
    playtest.launch(APP)
    assert playtest.wait_for_text(r"Count: 0", timeout=10)
    width = playtest.screenshot().shape[1]
    boxes = playtest.runtime.vision.read(playtest.screenshot())
    button = next(b for b in boxes if b.text.startswith("Increment"))
    playtest.click(*button.box.center)
    playtest.wait_for_change(timeout=3)
    assert playtest.wait_for_text(r"Count: 1", timeout=5)
    assert 0 < button.box.center[0] < width


@pytest.mark.playtest(app=APP, strategy="coverage", expect=[expect.text(r"Count: [1-9]"), expect.alive()],
                      max_steps=25, timeout=40)
def test_every_button_works(playtest):
    verdict = playtest.run()
    assert verdict, verdict.summary()


@pytest.mark.playtest(app=[sys.executable, "../main.py", "--bug", "dead-reset"], strategy="coverage",
                      max_steps=40, timeout=40)
def test_dead_reset_is_unresponsive(playtest):
    verdict = playtest.run()
    assert not verdict and "unresponsive" in verdict.kinds(), verdict.summary()
