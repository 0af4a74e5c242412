"""The reports of real playtests: a Tk app launched under Xvfb by the real plugin, on two xdist workers."""

from __future__ import annotations

import base64
import html
import json
import re
import shutil
import xml.etree.ElementTree as ET
from io import BytesIO

import numpy as np
import pytest
from PIL import Image

from pytest_playtest.files import STORYBOARD_FILE
from pytest_playtest.report.artifacts import slugify
from pytest_playtest.report.drawing import FINDING_RED
from tests.support import APPS

TK_TOY = APPS / "tk_toy.py"

pytestmark = [pytest.mark.gui,
              pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb (make setup installs it)")]


def test_a_real_failing_playtest_reported_everywhere(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(
        """
        import pytest
        from pytest_playtest.reporting import ReportPlugin

        @pytest.hookimpl(trylast=True)
        def pytest_configure(config):
            # plugin.py registers the report plugin itself once it is wired in; until then, do it here
            if config.getoption("playtest") and not config.pluginmanager.hasplugin("playtest-report"):
                config.pluginmanager.register(ReportPlugin(config), "playtest-report")
        """
    )
    pytester.makepyfile(
        test_toy=f"""
        import sys
        import pytest
        from pytest_playtest import expect

        @pytest.mark.playtest(app=[sys.executable, {str(TK_TOY)!r}, "--raise"], max_steps=8)
        def test_increment_works(playtest):
            verdict = playtest.run()
            assert verdict, verdict.summary()

        @pytest.mark.playtest(app={str(TK_TOY)!r}, expect=[expect.text("Count: [1-9]")], max_steps=10)
        def test_counter_counts(playtest):
            verdict = playtest.run()
            assert verdict, verdict.summary()
        """
    )
    result = pytester.runpytest_subprocess(
        "--playtest", "-n", "2", "-v", "--html=report.html", "--self-contained-html", "--junitxml=junit.xml",
        "-p", "no:cacheprovider", timeout=300,
    )
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines_random([
        "*PASSED (playtest pass, * steps)*test_counter_counts*",
        "*FAILED (playtest fail: exception, * steps)*test_increment_works*",
    ])
    result.stdout.fnmatch_lines(["*- playtest -*", "playtest FAIL after * step(s)*: exception", "  step *"])

    failing = "test_toy.py::test_increment_works"
    folder = pytester.path / "playtest-results" / slugify(failing)
    properties = {
        case.get("name"): {p.get("name"): p.get("value") for p in case.iter("property")}
        for case in ET.parse(pytester.path / "junit.xml").getroot().iter("testcase")
    }
    assert properties["test_increment_works"]["playtest_status"] == "fail"
    assert properties["test_increment_works"]["playtest_findings"] == "exception"
    assert properties["test_increment_works"]["playtest_artifacts"] == str(folder)
    assert properties["test_counter_counts"]["playtest_status"] == "pass"

    blob = re.search(r'data-jsonblob="([^"]*)"', (pytester.path / "report.html").read_text(encoding="utf-8"))
    (row,) = json.loads(html.unescape(blob.group(1)))["tests"][failing]
    assert '<td class="col-verdict">fail: exception</td>' in row["resultsTableRow"]
    storyboard = next(extra for extra in row["extras"] if extra["name"] == "storyboard")
    png = base64.b64decode(storyboard["content"].partition(",")[2])
    assert png == (folder / STORYBOARD_FILE).read_bytes()
    image = np.asarray(Image.open(BytesIO(png)).convert("RGB"))
    assert image.shape[0] <= 1080 and image.shape[1] <= 1920
    assert np.all(image == FINDING_RED, axis=2).sum() > 500, "the step that raised is framed in red"


def test_inputs_sent_by_hand_get_a_storyboard(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_by_hand=f"""
        def test_increment_by_hand(playtest):
            playtest.launch({str(TK_TOY)!r})
            playtest.click(150, 105)
            playtest.wait_for_change(timeout=3)
            playtest.press("space")
            assert playtest.wait_for_text("Count: [1-9]", timeout=5)
        """
    )
    result = pytester.runpytest_subprocess("--playtest", "--html=report.html", "--self-contained-html",
                                           "-p", "no:cacheprovider", timeout=120)
    result.assert_outcomes(passed=1)
    folder = pytester.path / "playtest-results" / slugify("test_by_hand.py::test_increment_by_hand") / "by-hand"
    assert sorted(p.name for p in (folder / "frames").iterdir()) == [
        "step-0000.png", "step-0001.png", "step-0002.png"]
    first, after_click = (np.asarray(Image.open(folder / "frames" / f"step-000{i}.png")) for i in (0, 1))
    assert (first != after_click).any(), "the frame of the click shows its effect"

    blob = re.search(r'data-jsonblob="([^"]*)"', (pytester.path / "report.html").read_text(encoding="utf-8"))
    (row,) = json.loads(html.unescape(blob.group(1)))["tests"]["test_by_hand.py::test_increment_by_hand"]
    storyboard = next(extra for extra in row["extras"] if extra["name"] == "storyboard (inputs by hand)")
    assert base64.b64decode(storyboard["content"].partition(",")[2]) == (folder / STORYBOARD_FILE).read_bytes()
