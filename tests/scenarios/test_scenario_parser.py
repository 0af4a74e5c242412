"""Reading scenario files: FSD-Bench's format as published, front matter, and malformed files named by line."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_playtest.scenarios.parser import parse_file
from tests.support import REPO

FIXTURE = REPO / "fixtures" / "scenarios" / "TestCases_Notes.md"


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


VARIANTS = FIXTURE.parent / "variants"


@pytest.mark.parametrize(("name", "functionalities", "cases"), [
    # bold headings, steps behind zero-width-space/tab/bullet runs, an Expectation as a list item or a paragraph
    ("TestCases_BoldHeadings.md", ["Functionalities 1. Counting visitors", "Functionalities 2. Resetting the tally"],
     [1, 2]),
    # the colon inside the bold marker, two spaces before the number, the word written twice
    ("TestCases_ColonInBold.md", ["Functionalities 1: Adding an entry",
                                  "Functionalities Functionality 2: Clearing entries"], [1, 2]),
    # the heading after the word and number, plain markers behind a tab and a bullet, a trailing data section
    ("TestCases_PlainMarkers.md", ["Functionalities 1. Opening a picture", "Functionalities 2. Rotating it"], [1, 1]),
    # numbered headings without the word, at two levels, one in bold
    ("TestCases_NumberedHeadings.md", ["1. Signing in", "2. Reaching the sign-up form", "3. Finding a recipe"],
     [1, 1, 1]),
    # numbered bullets, "**Test Case N**" labels between cases, a Functionality named by a bold line of its own
    ("TestCases_NumberedBullets.md", ["Functionalities 1. Budget entry", "Functionalities 2. Budget limit"], [2, 1]),
])
def test_the_variants_people_write_are_read(name: str, functionalities: list[str], cases: list[int]) -> None:
    scenario = parse_file(VARIANTS / name, default_app="app.py")

    assert (scenario.problems, scenario.strays) == ([], [])
    assert [f.name for f in scenario.functionalities] == functionalities
    assert [len(f.cases) for f in scenario.functionalities] == cases
    assert all(f.problem is None for f in scenario.functionalities)
    assert all(step.text and "**" not in step.text and "Expectation" not in step.text
               for f in scenario.functionalities for case in f.cases for step in case.steps)


def test_labels_between_cases_and_blank_lines_end_a_continuation() -> None:
    budget = parse_file(VARIANTS / "TestCases_NumberedBullets.md", default_app="app.py").functionalities[0]

    assert [(c.steps[0].text, c.expectation) for c in budget.cases] == [
        ('Enter the amount as "25".', "The total increases by 25."),
        ('Click "Undo".', "The total decreases by 25.")]
    assert [(c.line, c.expectation_line) for c in budget.cases] == [(7, 9), (13, 15)]


def test_a_code_block_stays_in_its_step_and_a_code_span_in_prose_is_no_rule() -> None:
    scenario = parse_file(VARIANTS / "TestCases_CodeAndSpans.md", default_app="app.html")
    writing, saving, themes = scenario.functionalities

    assert writing.problem is None
    assert writing.cases[0].steps[1].text == 'Type the following code:\n```python\ndef greet():\n    return "hi"\n```'
    assert saving.problem is None and saving.cases[0].expectation.endswith("next to `editor.py`.")
    # the file ends in the middle of a Functionality: the one fault, naming its line, and the others stay
    assert themes.problem is not None and themes.problem.line == 17
    assert str(themes.problem).endswith("TestCases_CodeAndSpans.md:17: 2 Step(s) without an Expectation after them")


def test_a_step_outside_any_functionality_is_its_own_fault_and_the_functionalities_stay(tmp_path: Path) -> None:
    path = write(tmp_path, "---\napp: a.py\n---\n- **Step**: press up\n  **Expectation**: \"Level: 1\"\n"
                           "#### Functionalities 1. Good\n- **Step**: press up\n  **Expectation**: \"Level: 1\"\n")
    scenario = parse_file(path)

    assert scenario.problems == []
    (stray,) = scenario.strays
    assert (stray.line, stray.problem) == (4, 'a Step outside any "#### Functionalities N. <title>" section')
    assert [f.name for f in scenario.functionalities] == ["Functionalities 1. Good"]
