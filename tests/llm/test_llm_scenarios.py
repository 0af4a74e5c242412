"""Scenario steps and expectations outside the grammar, given to the LLM tester (the loopback endpoint, a real
Tk app on Xvfb, real OCR); without a model those cases are skipped with reasons (runs under the GUI lock).

The inner sessions run in a subprocess, which reaches the loopback endpoint of this one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support import APPS
from tests.support.openai_server import OpenAIServer, act, request_text

pytestmark = pytest.mark.gui

SCENARIO = """---
app: apps/notes.py
timeout: 40
---
#### Functionalities 1. Levels
- **Step**: Raise the level by one with the keyboard.
  **Expectation**: The level went up from zero.

- **Step**: Press up.
  **Expectation**: The level reached five.
"""


def scripted_tester(request: dict) -> object:
    """A stand-in model that acts and judges on what it is sent: the goal and the OCR text of the window."""
    text = request_text(request)
    level = re.search(r"Level:\s*(\d+)", text)
    shown = int(level.group(1)) if level else -1
    if "Perform this step" in text:
        if shown >= 1:
            return act("finish", {"verdict": "pass", "reason": "the level is 1 now"})
        return act("press", {"key": "up"}, content="Up raises the level.")
    wanted = 1 if "went up from zero" in text else 5
    if shown == wanted:
        return act("finish", {"verdict": "pass", "reason": f"the window shows Level: {shown}"})
    return act("finish", {"verdict": "fail", "reason": f"the window shows Level: {shown}, not {wanted}"})


@pytest.fixture
def project(pytester: pytest.Pytester) -> Path:
    pytester.mkdir("apps").joinpath("notes.py").write_text((APPS / "tk_notes.py").read_text())
    pytester.path.joinpath("levels.playtest.md").write_text(SCENARIO)
    return pytester.path


def test_the_model_performs_a_free_form_step_and_judges_free_form_expectations(
        pytester: pytest.Pytester, project: Path, openai_server: OpenAIServer) -> None:
    openai_server.default = scripted_tester
    result = pytester.runpytest_subprocess("--playtest", "-p", "no:cacheprovider", "--playtest-record",
                                "--playtest-model", "tester-model", "--playtest-base-url", openai_server.url)

    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "case 1: pass: the window shows Level: 1",
        'case 2: fail: after step 1 (line 9) "Press up.", expectation "The level reached five.": the window '
        "shows Level: 2, not 5",
        "*functional completeness*",
        "levels.playtest.md: FC 1/2 = 50% (1 failed)",
    ])
    (verdict_file,) = (project / "playtest-results").glob("*/verdict.json")
    folder = verdict_file.parent
    verdict = json.loads(verdict_file.read_text())
    (finding,) = verdict["findings"]
    assert finding["kind"] == "judge" and finding["message"].endswith("the window shows Level: 2, not 5")
    steps = [json.loads(line) for line in (folder / "trajectory.jsonl").read_text().splitlines()[1:]]
    assert [s["caption"] for s in steps] == ["c1 tester: press up", "c1 ✓ judged by the tester", "c2 press up",
                                             "c2 ✕ judged by the tester", ""]
    assert steps[0]["action"] == {"kind": "press", "key": "up"} and steps[0]["changed"]
    assert finding["step"] == 4
    # the model: one press and a finish for the step, one verdict per expectation; every token is counted
    assert len(openai_server.bodies()) == 4
    assert verdict["tokens"] == 4 * 120


def test_without_a_model_those_cases_are_skipped_with_reasons(pytester: pytest.Pytester, project: Path) -> None:
    result = pytester.runpytest_subprocess("--playtest", "-p", "no:cacheprovider", "-rs")

    # case 2 would run on the state case 1 was to leave: it is skipped as depending on it
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines([
        "levels.playtest.md: FC 0/2 = 0% (2 skipped)",
        '*case 1: skip: step 1 (line 6) "Raise the level by one with the keyboard." is outside the step grammar: '
        "a model performs such steps, and none is configured (--playtest-model); case 2: skip: depends on case 1, "
        "which did not pass",
    ])

    # independent cases: case 2 runs from a fresh launch, and its free-form expectation needs the model
    independent = SCENARIO.replace("timeout: 40\n", "timeout: 40\ncases: independent\n")
    project.joinpath("levels.playtest.md").write_text(independent)
    result = pytester.runpytest_subprocess("--playtest", "-p", "no:cacheprovider", "-rs")

    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines([
        '*case 2: skip: after step 1 (line 10) "Press up.", expectation "The level reached five." is free-form: it '
        "is judged by a model, and none is configured (--playtest-model)",
    ])
