"""The artifacts folder: names, cleaning, and what finalize_artifacts leaves for each screenshots mode."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PIL import Image

from pytest_playtest.actions import Action
from pytest_playtest.errors import OutputFolderError, PlaytestReportWarning
from pytest_playtest.files import ANIMATION_FILE, STORYBOARD_FILE, VERDICT_FILE
from pytest_playtest.report.artifacts import (
    MAX_SLUG_LENGTH,
    OUTPUT_MARKER,
    artifacts_dir,
    clean_output,
    finalize_artifacts,
    slugify,
)
from pytest_playtest.report.terminal import explain
from pytest_playtest.verdict import Finding, Verdict


# -- names ------------------------------------------------------------------------------------------------
def test_slug_is_readable() -> None:
    assert slugify("tests/test_snake.py::test_plays") == "tests_test_snake.py__test_plays"
    assert (slugify("tests/test_snake.py::TestMenu::test_opens[fast]")
            == "tests_test_snake.py__TestMenu__test_opens-fast")


@pytest.mark.parametrize("nodeid", [
    "tests/test_a.py::test_x[a b]",
    "tests/test_a.py::test_x[a/b]",
    "tests/test_a.py::test_x[a_b]",
    "tests/test_a.py::test_x[a:b]",
    "tests/test_a.py::test_x[é]",
    "tests/test_a.py::test_x[e]",
    "../../etc/passwd",
    "tests/test_a.py::test_x[" + "long" * 60 + "]",
    "tests/test_a.py::test_x[" + "long" * 60 + "-2]",
])
def test_slug_is_safe(nodeid: str) -> None:
    slug = slugify(nodeid)
    assert re.fullmatch(r"[A-Za-z0-9_-][A-Za-z0-9._-]*", slug), slug
    assert len(slug) <= MAX_SLUG_LENGTH
    assert slug == slugify(nodeid), "stable across calls and processes"


def test_slugs_of_different_ids_differ() -> None:
    ids = [
        "tests/test_a.py::test_x[a b]", "tests/test_a.py::test_x[a/b]", "tests/test_a.py::test_x[a_b]",
        "tests/test_a.py::test_x[a:b]", "tests/test_a.py::test_x[é]", "tests/test_a.py::test_x[e]",
        "tests/test_a.py::test_x[" + "long" * 60 + "]", "tests/test_a.py::test_x[" + "long" * 60 + "-2]",
    ]
    assert len({slugify(nodeid) for nodeid in ids}) == len(ids)


def test_later_runs_live_inside_the_first_runs_folder(tmp_path: Path) -> None:
    first = artifacts_dir(tmp_path, "tests/test_a.py::test_x")
    second = artifacts_dir(tmp_path, "tests/test_a.py::test_x", run_index=2)
    assert first == tmp_path / "tests_test_a.py__test_x" and first.is_dir()
    assert second == first / "run-2" and second.is_dir()
    with pytest.raises(ValueError):
        artifacts_dir(tmp_path, "tests/test_a.py::test_x", run_index=0)


# -- cleaning ---------------------------------------------------------------------------------------------
def test_clean_output_creates_the_root(tmp_path: Path) -> None:
    clean_output(tmp_path / "results")
    assert [p.name for p in (tmp_path / "results").iterdir()] == [OUTPUT_MARKER]


def test_clean_output_empties_a_root_it_created(tmp_path: Path) -> None:
    root = tmp_path / "results"
    clean_output(root)
    (artifacts_dir(root, "tests/test_a.py::test_x") / VERDICT_FILE).write_text("{}")
    (root / "stray.txt").write_text("left over")
    clean_output(root)
    assert [p.name for p in root.iterdir()] == [OUTPUT_MARKER]


def test_clean_output_adopts_an_empty_folder(tmp_path: Path) -> None:
    clean_output(tmp_path)
    assert (tmp_path / OUTPUT_MARKER).exists()


def test_clean_output_never_deletes_a_folder_it_did_not_create(tmp_path: Path) -> None:
    (tmp_path / "precious.txt").write_text("the user's work")
    with pytest.raises(OutputFolderError, match="refusing"):
        clean_output(tmp_path)
    assert (tmp_path / "precious.txt").read_text() == "the user's work"


# -- finalize_artifacts -----------------------------------------------------------------------------------
def failing_verdict() -> Verdict:
    return Verdict(
        "fail",
        findings=[Finding("unresponsive", "click(20,20) on Start had no visible effect", step=2),
                  Finding("timeout", "goal not reached in 3 steps")],
        steps=3,
        policy="heuristic",
    )


def finalize(runs, verdict: Verdict, screenshots: str, *, frames: bool = True) -> Path:
    if frames:
        runs.frames(3)
    steps = runs.steps([Action.click(20, 20), Action.click(20, 20), Action.press("space")],
                       findings={2: ["unresponsive"]} if not verdict else None)
    finalize_artifacts(runs.folder, verdict, steps, stdout="hello\n", stderr="warn\udcff\n",
                       screenshots=screenshots)
    return runs.folder


def test_on_keeps_frames_and_draws_storyboard_and_animation(runs) -> None:
    verdict = failing_verdict()
    folder = finalize(runs, verdict, "on")

    assert sorted(p.name for p in (folder / "frames").iterdir()) == [f"step-000{i}.png" for i in range(4)]
    with Image.open(folder / STORYBOARD_FILE) as storyboard:
        assert storyboard.width <= 1920 and storyboard.height <= 1080
    with Image.open(folder / ANIMATION_FILE) as gif:
        assert gif.n_frames == 4
    assert (folder / "stdout.txt").read_text() == "hello\n"
    assert (folder / "stderr.txt").read_text(encoding="utf-8").startswith("warn")

    # findings point at their step's frame, end-of-run findings at the final frame, as absolute paths
    assert verdict.findings[0].screenshot == str(folder.absolute() / "frames" / "step-0002.png")
    assert verdict.findings[1].screenshot == str(folder.absolute() / "frames" / "step-0003.png")
    assert verdict.artifacts == folder.absolute()
    written = json.loads((folder / VERDICT_FILE).read_text())
    assert Verdict.from_dict(written) == verdict


def test_only_on_failure_deletes_the_frames_of_a_passing_run(runs) -> None:
    verdict = Verdict("pass", steps=3)
    folder = finalize(runs, verdict, "only-on-failure")
    assert not (folder / "frames").exists()
    assert not (folder / STORYBOARD_FILE).exists()
    assert json.loads((folder / VERDICT_FILE).read_text())["status"] == "pass"
    assert (folder / "stdout.txt").exists() and (folder / "stderr.txt").exists()


@pytest.mark.parametrize("status", ["fail", "error"])
def test_only_on_failure_keeps_everything_of_a_failing_run(runs, status: str) -> None:
    verdict = failing_verdict() if status == "fail" else Verdict("error", error="endpoint unreachable")
    folder = finalize(runs, verdict, "only-on-failure")
    assert len(list((folder / "frames").iterdir())) == 4
    assert (folder / STORYBOARD_FILE).exists() and (folder / ANIMATION_FILE).exists()


def test_off_writes_the_verdict_and_output_only(runs) -> None:
    verdict = failing_verdict()
    folder = finalize(runs, verdict, "off", frames=False)
    assert sorted(p.name for p in folder.iterdir()) == ["stderr.txt", "stdout.txt", VERDICT_FILE]
    assert all(finding.screenshot is None for finding in verdict.findings)


def test_a_damaged_frame_is_a_warning_not_an_error(runs) -> None:
    runs.frames(3)
    (runs.frames_dir / "step-0002.png").write_bytes(b"not a png")
    verdict = failing_verdict()
    with pytest.warns(PlaytestReportWarning, match="storyboard"):
        finalize(runs, verdict, "on", frames=False)
    assert json.loads((runs.folder / VERDICT_FILE).read_text())["status"] == "fail"


def test_an_unknown_screenshots_mode_is_refused(runs) -> None:
    with pytest.raises(ValueError, match="only-on-failure"):
        finalize(runs, failing_verdict(), "sometimes")


# -- explain ----------------------------------------------------------------------------------------------
def test_explain_names_each_finding_with_its_step_and_where_to_look(runs) -> None:
    verdict = failing_verdict()
    traceback = "Traceback (most recent call last):\n  ...\nZeroDivisionError: boom"
    verdict.findings.append(Finding("exception", "traceback in stderr", step=3, details=traceback))
    finalize(runs, verdict, "on")
    text = explain(verdict)
    lines = text.splitlines()
    assert lines[0] == "playtest FAIL after 3 step(s) (policy heuristic): exception, unresponsive, timeout"
    assert "  step 2: [unresponsive] click(20,20) on Start had no visible effect" in lines
    assert "  end of run: [timeout] goal not reached in 3 steps" in lines
    assert "      ZeroDivisionError: boom" in lines
    assert f"  storyboard: {runs.folder.absolute() / STORYBOARD_FILE}" in lines
    assert f"  artifacts:  {runs.folder.absolute()}" in lines


def test_explain_says_an_error_is_the_harness(runs) -> None:
    text = explain(Verdict("error", error="no display: Xvfb not found"))
    assert "harness error (not the app's fault): no display: Xvfb not found" in text
