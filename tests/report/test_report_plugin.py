"""The report plugin in real inner pytest sessions: terminal, pytest-html (self-contained) and JUnit XML.

The inner sessions use fixtures/report/inner_conftest.py in place of plugin.py (hence ``-p no:playtest``):
its ``scripted_playtest`` leaves exactly known verdicts and real frames, without needing a display.
"""

from __future__ import annotations

import base64
import html
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PIL import Image

from pytest_playtest.benchmark.metrics import TaskOutcome, compute_metrics
from pytest_playtest.benchmark.summary import format_table
from pytest_playtest.files import STORYBOARD_FILE
from pytest_playtest.report.artifacts import OUTPUT_MARKER, slugify
from pytest_playtest.reporting import ReportPlugin

INNER = ("-p", "no:playtest", "-p", "no:cacheprovider")
FAILING = "test_game.py::test_start_button_is_dead"
TWO_RUNS = "test_game.py::test_two_runs"
PASSING = "test_game.py::test_menu_opens"
PLAIN = "test_game.py::test_not_a_playtest"


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.copy_example("report/inner_conftest.py").rename(pytester.path / "conftest.py")
    pytester.copy_example("report/inner_tests.py").rename(pytester.path / "test_game.py")
    return pytester


def html_data(report: Path) -> dict[str, Any]:
    """The JSON data blob pytest-html embeds in its report (what its JavaScript renders)."""
    blob = re.search(r'data-jsonblob="([^"]*)"', report.read_text(encoding="utf-8"))
    assert blob, "no data blob in the HTML report"
    return json.loads(html.unescape(blob.group(1)))


def html_test(data: dict[str, Any], nodeid: str) -> dict[str, Any]:
    (entry,) = data["tests"][nodeid]  # one row: the call phase
    return entry


def data_uri_bytes(uri: str) -> bytes:
    header, _, payload = uri.partition(",")
    assert header.startswith("data:") and header.endswith(";base64"), header
    return base64.b64decode(payload)


def junit_properties(report: Path) -> dict[str, dict[str, str]]:
    root = ET.parse(report).getroot()
    return {
        case.get("name"): {prop.get("name"): prop.get("value") for prop in case.iter("property")}
        for case in root.iter("testcase")
    }


def check_html_and_junit(pytester: pytest.Pytester) -> None:
    """What both the single-process and the xdist session must produce."""
    data = html_data(pytester.path / "report.html")
    assert not (pytester.path / "assets").exists(), "self-contained: nothing beside the report"

    failing = html_test(data, FAILING)
    assert '<td class="col-verdict">fail: unresponsive</td>' in failing["resultsTableRow"]
    extras = {extra["name"]: extra for extra in failing["extras"]}
    assert list(extras) == ["storyboard", "final screenshot", "verdict", "explanation"]
    folder = pytester.path / "playtest-results" / slugify(FAILING)
    assert data_uri_bytes(extras["storyboard"]["content"]) == (folder / STORYBOARD_FILE).read_bytes()
    final_frame = folder / "frames" / "step-0003.png"
    assert data_uri_bytes(extras["final screenshot"]["content"]) == final_frame.read_bytes()
    verdict = json.loads(data_uri_bytes(extras["verdict"]["content"]))
    assert verdict["status"] == "fail"
    assert verdict["findings"][0]["kind"] == "unresponsive"
    assert verdict["findings"][0]["screenshot"] == str(folder / "frames" / "step-0002.png")
    assert "step 2: [unresponsive] click(120,90) on Start had no visible effect" in failing["log"]

    two_runs = html_test(data, TWO_RUNS)
    assert '<td class="col-verdict">fail: timeout</td>' in two_runs["resultsTableRow"]
    names = [extra["name"] for extra in two_runs["extras"]]
    assert {"storyboard (run 1)", "storyboard (run 2)", "verdict (run 2)"} <= set(names)
    assert '<td class="col-verdict">pass</td>' in html_test(data, PASSING)["resultsTableRow"]
    assert '<td class="col-verdict"></td>' in html_test(data, PLAIN)["resultsTableRow"]
    assert '<th class="sortable" data-column-type="verdict">Verdict</th>' in (
        pytester.path / "report.html").read_text(encoding="utf-8")

    properties = junit_properties(pytester.path / "junit.xml")
    assert properties["test_start_button_is_dead"] == {
        "playtest_status": "fail",
        "playtest_findings": "unresponsive",
        "playtest_steps": "3",
        "playtest_tokens": "0",
        "playtest_prompt_tokens": "0",
        "playtest_cached_tokens": "0",
        "playtest_runs": "1",
        "playtest_artifacts": str(folder),
    }
    assert properties["test_two_runs"]["playtest_status"] == "fail"
    assert properties["test_two_runs"]["playtest_tokens"] == "12"
    assert properties["test_two_runs"]["playtest_runs"] == "2"
    assert properties["test_menu_opens"]["playtest_status"] == "pass"
    assert properties["test_not_a_playtest"] == {}


REPORTS = ("--html=report.html", "--self-contained-html", "--junitxml=junit.xml")


def test_html_and_junit_reports(project: pytest.Pytester) -> None:
    result = project.runpytest_inprocess("--playtest", *REPORTS, *INNER)
    result.assert_outcomes(passed=3, failed=1, xfailed=1)
    check_html_and_junit(project)
    result.stdout.no_fnmatch_line("*external resource*")


def test_reports_under_xdist(project: pytest.Pytester) -> None:
    stale = project.path / "playtest-results"
    stale.mkdir()
    (stale / OUTPUT_MARKER).write_text("")
    (stale / "from-an-earlier-session").mkdir()

    result = project.runpytest_subprocess("--playtest", "-n", "2", *REPORTS, *INNER)
    result.assert_outcomes(passed=3, failed=1, xfailed=1)
    assert not (stale / "from-an-earlier-session").exists(), "the controller cleaned the output root"
    check_html_and_junit(project)
    # workers never clean: every test's artifacts survive, whichever worker ran it
    for nodeid in (PASSING, FAILING, TWO_RUNS):
        assert (stale / slugify(nodeid) / STORYBOARD_FILE).exists()
    assert (stale / slugify(TWO_RUNS) / "run-2" / STORYBOARD_FILE).exists()


def test_terminal_shows_the_verdicts(project: pytest.Pytester) -> None:
    result = project.runpytest_inprocess("--playtest", "-v", *INNER)
    result.stdout.fnmatch_lines_random([
        "*test_menu_opens PASSED (playtest pass, 3 steps)*",
        "*test_start_button_is_dead FAILED (playtest fail: unresponsive, 3 steps)*",
        "*test_two_runs PASSED (playtest fail: timeout, 2 runs, 3 steps)*",
        "*test_score_known_bug XFAIL*",
        "*test_not_a_playtest PASSED*",
    ])
    # the failure shows the explanation, with where to look
    result.stdout.fnmatch_lines([
        "*_ test_start_button_is_dead _*",
        "*- playtest -*",
        "playtest FAIL after 3 step(s) (policy scripted): unresponsive",
        "  step 2: [unresponsive] click(120,90) on Start had no visible effect",
        "      screenshot: */frames/step-0002.png",
        "  storyboard: */storyboard.png",
        "  artifacts:  */playtest-results/test_game.py__test_start_button_is_dead",
    ])
    result.stdout.fnmatch_lines([
        "*- playtest -*",
        "4 test(s) with playtests: 3 fail, 1 pass",
        "test_game.py::test_start_button_is_dead: playtest fail: unresponsive, 3 steps  */playtest-results/*",
    ])


def test_quiet_output_keeps_the_usual_letters(project: pytest.Pytester) -> None:
    result = project.runpytest_inprocess("--playtest", "-q", *INNER)
    result.stdout.fnmatch_lines([".F.x. *[[]100%[]]"])


def test_only_on_failure_attaches_no_pictures_of_a_passing_run(project: pytest.Pytester) -> None:
    result = project.runpytest_inprocess("--playtest", "--playtest-screenshots=only-on-failure", *REPORTS,
                                         *INNER)
    result.assert_outcomes(passed=3, failed=1, xfailed=1)
    data = html_data(project.path / "report.html")
    assert [e["name"] for e in html_test(data, PASSING)["extras"]] == ["verdict", "explanation"]
    assert [e["name"] for e in html_test(data, FAILING)["extras"]][0] == "storyboard"


def test_the_storyboard_in_the_report_is_a_real_image(project: pytest.Pytester) -> None:
    project.runpytest_inprocess("--playtest", *REPORTS, *INNER)
    data = html_data(project.path / "report.html")
    storyboard = html_test(data, FAILING)["extras"][0]
    image_file = project.path / "from-report.png"
    image_file.write_bytes(data_uri_bytes(storyboard["content"]))
    with Image.open(image_file) as image:
        assert image.format == "PNG"
        assert image.width <= 1920 and image.height <= 1080


def test_benchmark_metrics_in_the_html_summary(project: pytest.Pytester) -> None:
    results = compute_metrics(
        "playeval-mini",
        [TaskOutcome("snake-eat", "python", "classic-games", n=3, exec=3, pass_=2, play=1),
         TaskOutcome("counter-click", "python", "desktop-widgets", n=3, exec=2, pass_=2, play=2)],
        [1, 3],
    )
    project.makepyfile(metrics_plugin=f"""
        from pytest_playtest.benchmark.collector import BenchmarkPlugin

        def pytest_configure(config):  # the benchmark's plugin, as if its suite had run
            plugin = BenchmarkPlugin(config)
            plugin.results = {results!r}
            config.pluginmanager.register(plugin, "playtest-benchmark")
    """)
    project.syspathinsert()
    project.runpytest_inprocess("--playtest", *REPORTS, "-p", "metrics_plugin", *INNER)
    text = (project.path / "report.html").read_text(encoding="utf-8")
    assert "<h2>Playtest benchmark: playeval-mini</h2>" in text
    assert html.escape(format_table(results)) in text


def test_an_output_folder_it_did_not_create_is_never_cleaned(project: pytest.Pytester) -> None:
    result = project.runpytest_inprocess("--playtest", "--playtest-output=.", *INNER)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*is not empty and was not created by pytest-playtest; refusing*"])
    assert (project.path / "test_game.py").exists()


def test_only_the_controller_cleans(tmp_path: Path, pytester: pytest.Pytester) -> None:
    root = tmp_path / "results"
    root.mkdir()
    (root / OUTPUT_MARKER).write_text("")
    (root / "written-by-another-worker").mkdir()
    config = pytester.parseconfig("-p", "no:playtest", "--html=report.html")
    config.option.playtest_output = str(root)
    plugin = ReportPlugin(config)

    config.workerinput = {"workerid": "gw1"}
    plugin.pytest_sessionstart(SimpleNamespace(config=config))
    assert (root / "written-by-another-worker").exists()

    del config.workerinput
    plugin.pytest_sessionstart(SimpleNamespace(config=config))
    assert not (root / "written-by-another-worker").exists()
