"""Reading scenario files: FSD-Bench's format as published, front matter, and malformed files named by line."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_playtest.scenarios.parser import parse_file

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "TestCases_Notes.md"


def write(tmp_path: Path, text: str, name: str = "notes.playtest.md") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_fsd_bench_fixture_is_read_as_published() -> None:
    scenario = parse_file(FIXTURE, default_app="notes.py")

    assert scenario.problems == []
    assert scenario.arguments == {"app": "notes.py"}
    names = [f.name for f in scenario.functionalities]
    assert names == ["Functionalities 1. Saving a note", "Functionality 2. Clearing the notes",
                     "Functionalities 3. Changing the level", "Functionalities 4. Exporting the notes"]
    assert [len(f.cases) for f in scenario.functionalities] == [2, 2, 2, 2]  # 8 Expectations, 8 cases
    saving = scenario.functionalities[0]
    first, second = saving.cases
    assert [s.text for s in first.steps] == ["Open the Notes application.", 'Type "milk" into "Title".',
                                             'Click the "Save" button.']
    assert first.expectation == 'The counter shows "Notes: 1" and the last note is "milk".'
    assert (first.line, first.steps[1].line) == (4, 5)
    assert [s.text for s in second.steps] == ['Type "eggs" into "Title", then click "Save".']
    clearing = scenario.functionalities[1]
    assert clearing.cases[1].expectation == 'The counter shows "Notes: 5".'  # a list item of its own
    assert all(f.problem is None for f in scenario.functionalities)


def test_front_matter_names_the_app_and_the_tester(tmp_path: Path) -> None:
    path = write(tmp_path, "---\napp: [python, main.py, --bug, x]\nsize: 640x480\nenv: {LEVEL: 2}\n"
                           "timeout: 20\npolicy: llm\n---\n"
                           "#### Functionalities 1. One\n- **Step**: press r **Expectation**: \"Count: 0\"\n")
    scenario = parse_file(path, default_app="ignored.py")

    assert scenario.problems == []
    assert scenario.arguments == {"app": ["python", "main.py", "--bug", "x"], "size": "640x480",
                                  "env": {"LEVEL": 2}, "timeout": 20}
    assert scenario.tester == "llm"
    (case,) = scenario.functionalities[0].cases
    assert ([s.text for s in case.steps], case.expectation) == (["press r"], '"Count: 0"')


def test_continuation_lines_extend_the_item_above(tmp_path: Path) -> None:
    path = write(tmp_path, "---\napp: a.py\n---\n#### Functionality 1. Long\n- **Step**: Click \"A\",\n"
                           "  then click \"B\".\n  **Expectation**: The window shows\n  \"Done\".\n")
    (case,) = parse_file(path).functionalities[0].cases

    assert case.steps[0].text == 'Click "A", then click "B".'
    assert case.expectation == 'The window shows "Done".'


@pytest.mark.parametrize(("text", "line", "problem"), [
    ("---\napp: a.py\ncolour: red\n---\n#### Functionalities 1. X\n- **Step**: a\n  **Expectation**: b\n", 3,
     "unknown front matter key 'colour'"),
    ("---\napp: [a.py\n---\n#### Functionalities 1. X\n- **Step**: a\n  **Expectation**: b\n", 2,
     "front matter is not valid YAML"),
    ("---\napp: a.py\n#### Functionalities 1. X\n", 1, "not closed with ---"),
    ("#### Functionalities 1. X\n- **Step**: a\n  **Expectation**: b\n", 1, "no app to test"),
    ("---\napp: a.py\n---\n- **Step**: a\n  **Expectation**: b\n", 4, "a Step outside any"),
    ("---\napp: a.py\n---\nJust prose.\n", 1, 'no "#### Functionalities N. <title>" section'),
])
def test_a_malformed_file_names_its_line(tmp_path: Path, text: str, line: int, problem: str) -> None:
    path = write(tmp_path, text)
    scenario = parse_file(path)

    (error,) = scenario.problems
    assert (error.line, str(error).startswith(f"{path}:{line}: ")) == (line, True)
    assert problem in error.problem


def test_a_malformed_functionality_is_its_own_fault_and_the_others_stay(tmp_path: Path) -> None:
    path = write(tmp_path, "---\napp: a.py\n---\n#### Functionalities 1. Good\n- **Step**: a\n  **Expectation**: b\n"
                           "#### Functionalities 2. Dangling\n- **Step**: a\n- **Step**: b\n"
                           "#### Functionalities 3. Empty\n\n#### Functionalities 1. Good\n- **Expectation**: c\n")
    scenario = parse_file(path)

    good, dangling, empty, again = scenario.functionalities
    assert scenario.problems == [] and good.problem is None and len(good.cases) == 1
    assert dangling.problem is not None and dangling.problem.line == 8
    assert "2 Step(s) without an Expectation" in dangling.problem.problem
    assert empty.problem is not None and empty.problem.line == 10 and "no test case" in empty.problem.problem
    assert again.name == "Functionalities 1. Good (line 12)" and again.cases[0].steps == ()


def test_a_rule_that_does_not_parse_is_a_fault_of_its_functionality_naming_the_expectation_line(
        tmp_path: Path) -> None:
    path = write(tmp_path, "---\napp: a.html\n---\n#### Functionalities 1. Rules\n- **Step**: press up\n"
                           "  **Expectation**: `#total == '1'`\n- **Step**: press up\n"
                           "  **Expectation**: the level\n  `#level holds 2`\n"
                           "#### Functionalities 2. Fine\n"
                           "- **Step**: press up **Expectation**: `#a > 1 AND #b exists`\n")
    scenario = parse_file(path)

    rules, fine = scenario.functionalities
    assert fine.problem is None and fine.cases[0].expectation_line == 11
    assert rules.problem is not None and rules.problem.line == 8
    assert str(rules.problem).startswith(f"{path}:8: Expectation of case 2: rule '#level holds 2': cannot read the "
                                         "clause '#level holds 2'")
