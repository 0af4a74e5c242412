"""Scenario files played for real: the notes app on Xvfb, real clicks and keys, real OCR (runs under the GUI lock).

The inner sessions run in a subprocess: an in-process one would unload the X client and OCR modules it loaded
and leave the later tests of this process with stale copies.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.support import APPS, REPO

pytestmark = pytest.mark.gui

FIXTURE = REPO / "fixtures" / "scenarios" / "TestCases_Notes.md"


@pytest.fixture
def notes_project(pytester: pytest.Pytester) -> Path:
    pytester.mkdir("apps").joinpath("notes.py").write_text((APPS / "tk_notes.py").read_text())
    pytester.path.joinpath(FIXTURE.name).write_text(FIXTURE.read_text())
    return pytester.path


def test_the_fsd_bench_fixture_plays_with_per_case_outcomes_and_fc(pytester: pytest.Pytester,
                                                                   notes_project: Path) -> None:
    result = pytester.runpytest_subprocess("--playtest", "-p", "no:cacheprovider", "-rs",
                                "--playtest-scenario-apps", "TestCases_Notes.md=apps/notes.py",
                                "--junitxml", "junit.xml", "--playtest-results", "results.json")

    # by hand: 1. both cases pass (typed text + labelled button); 2. the clear passes, "Notes: 5" is false;
    # 3. both key cases pass (a repeated key press, then one more); 4. a step and an expectation the grammar
    # cannot do offline: skipped. 8 cases: 5 passed, 1 failed, 2 skipped.
    result.assert_outcomes(passed=2, failed=1, skipped=1)
    result.stdout.fnmatch_lines([
        "*TestCases_Notes.md:12: Functionality 2. Clearing the notes",
        "case 1: pass",
        'case 2: fail: after step 1 (line 17) "Click the "Clear" button.", expectation "The counter shows '
        '"Notes: 5".": expected "Notes: 5" on the window, it is not there (the window shows: *Notes: 0*',
    ])
    result.stdout.fnmatch_lines([
        "TestCases_Notes.md: FC 5/8 = 62% (1 failed, 2 skipped)",
        '*case 1: skip: step 1 (line 28) "Export all notes to a text file." is outside the step grammar*'
        "none is configured (--playtest-model); case 2: skip: depends on case 1, which did not pass",
    ])
    scenarios = json.loads((notes_project / "results.json").read_text())["scenarios"]
    assert scenarios["files"]["TestCases_Notes.md"] == {
        "cases": 8, "passed": 5, "failed": 1, "skipped": 2, "errors": 0, "malformed_items": 0, "fc": 0.625,
        "fc_checked": 0.8333}
    assert scenarios["overall"]["fc"] == 0.625

    cases = {}
    for testcase in ET.parse(notes_project / "junit.xml").iter("testcase"):
        properties = {p.get("name"): p.get("value") for p in testcase.iter("property")}
        cases[testcase.get("name")] = {k: v.split(":")[0] for k, v in properties.items()
                                       if k.startswith("playtest_case_")}
    assert cases == {
        "Functionalities 1. Saving a note": {"playtest_case_1": "pass", "playtest_case_2": "pass"},
        "Functionality 2. Clearing the notes": {"playtest_case_1": "pass", "playtest_case_2": "fail"},
        "Functionalities 3. Changing the level": {"playtest_case_1": "pass", "playtest_case_2": "pass"},
        "Functionalities 4. Exporting the notes": {"playtest_case_1": "skip", "playtest_case_2": "skip"},
    }


def test_grammar_steps_change_the_app_as_they_say(pytester: pytest.Pytester, notes_project: Path) -> None:
    """The trajectory shows what each grammar step did to the window, read back from the recorded run."""
    result = pytester.runpytest_subprocess("--playtest", "-p", "no:cacheprovider", "--playtest-record",
                                "--playtest-scenario-apps", "TestCases_Notes.md=apps/notes.py", "-k",
                                "Saving or level")
    result.assert_outcomes(passed=2)
    def recorded(name: str) -> list[dict]:
        (trajectory,) = (notes_project / "playtest-results").glob(f"*{name}*/trajectory.jsonl")
        return [json.loads(line) for line in trajectory.read_text().splitlines()[1:]]

    saving = recorded("Saving_a_note")
    kinds = [(s["caption"], s["action"]["kind"], s["changed"]) for s in saving]
    # typing into the labelled field (a click on the entry, then the text), then the labelled button
    assert kinds[:3] == [('c1 click "Title"', "click", True), ("c1 type 'milk'", "type_text", True),
                         ('c1 click "Save"', "click", True)]
    assert kinds[3][0] == 'c1 ✓ "Notes: 1", "milk"'
    level = recorded("Changing_the_level")
    assert [(s["caption"], s["changed"]) for s in level][:2] == [("c1 press up ×3", True),
                                                                 ('c1 ✓ "Level: 3"', False)]


def test_a_harness_error_is_no_failure_of_the_cases(pytester: pytest.Pytester, notes_project: Path) -> None:
    pytester.path.joinpath("missing.playtest.md").write_text(
        "---\napp: apps/missing.py\n---\n#### Functionalities 1. Nothing\n- **Step**: press up\n"
        '  **Expectation**: "Level: 1"\n')

    result = pytester.runpytest_subprocess("--playtest", "-p", "no:cacheprovider", "-rs", "missing.playtest.md")

    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "case 1: error: not performed: harness error: *missing.py*",
        "*harness error (not the app's fault)*",
    ])


def test_a_drag_by_label_moves_a_card_on_a_tk_window(pytester: pytest.Pytester) -> None:
    """Both labels are found by OCR on a desktop window; the drag is real X input (press, motion, release)."""
    pytester.mkdir("apps").joinpath("board.py").write_text((APPS / "tk_board.py").read_text())
    pytester.path.joinpath("board.playtest.md").write_text(
        "---\napp: apps/board.py\ntimeout: 40\n---\n#### Functionalities 1. Moving a card\n"
        '- **Step**: Drag the "Milk" card onto the "Finished" column.\n  **Expectation**: "Finished: 1"\n')

    result = pytester.runpytest_subprocess("--playtest", "-p", "no:cacheprovider", "--playtest-record")

    result.assert_outcomes(passed=1)
    (trajectory,) = (pytester.path / "playtest-results").glob("*Moving_a_card*/trajectory.jsonl")
    steps = [json.loads(line) for line in trajectory.read_text().splitlines()[1:]]
    assert [(s["caption"], s["action"]["kind"], s["changed"]) for s in steps[:2]] == [
        ('c1 drag "Milk" to "Finished"', "drag", True), ('c1 ✓ "Finished: 1"', "wait", False)]
    assert steps[0]["action"]["x"] < 230 < steps[0]["action"]["x2"]  # from the Todo column to the Finished one
