"""The offline step grammar and what an Expectation checks."""

from __future__ import annotations

import pytest

from pytest_playtest.actions import Action
from pytest_playtest.scenarios.grammar import (
    Act,
    ClickText,
    DragText,
    FocusField,
    ScrollAt,
    parse_expectation,
    parse_step,
    split_parts,
)


@pytest.mark.parametrize(("step", "moves"), [
    ('Click the "Save" button.', [ClickText("Save")]),
    ('click on "Save"', [ClickText("Save")]),
    ('Press the "Calculate" button to see the result', [ClickText("Calculate")]),
    ('double-click "Report"', [ClickText("Report", "double_click")]),
    ('Right click the "Item" menu item', [ClickText("Item", "right_click")]),
    ("click at 120, 40", [Act(Action.click(120, 40))]),
    ("double click at (5, 6)", [Act(Action.double_click(5, 6))]),
    ('type "milk"', [Act(Action.type_text("milk"))]),
    ('Enter "a, b" into the "Title" field', [FocusField("Title"), Act(Action.type_text("a, b"))]),
    ("press enter", [Act(Action.press("enter"))]),
    ("Press the up arrow key 3 times to move the tiles up.", [Act(Action.press("up", 3))]),
    ("press + twice", [Act(Action.press("+", 2))]),
    ("press ctrl+s", [Act(Action.hotkey("ctrl", "s"))]),
    ("hold space for 1.5 seconds", [Act(Action.hold("space", 1.5))]),
    ("hold right for 7 s", [Act(Action.hold("right", 5.0)), Act(Action.hold("right", 2.0))]),
    ("drag from 10, 20 to 200, 20", [Act(Action.drag(10, 20, 200, 20))]),
    ('drag "Milk" to "Done"', [DragText("Milk", "Done")]),
    ('Drag the "Milk" card onto the "Done" column to finish it.', [DragText("Milk", "Done")]),
    ('move "a, b" into "Trash", then drag from (1, 2) to 3, 4',
     [DragText("a, b", "Trash"), Act(Action.drag(1, 2, 3, 4))]),
    ("scroll down", [ScrollAt("down", 3)]),
    ("scroll up 2 times at 100, 50", [ScrollAt("up", 2, (100, 50))]),
    ("wait 2 seconds", [Act(Action.wait(2.0))]),
    ("Open the BMI Calculator application.", []),
    ('click at 10, 20 then press r, type "x"; wait 1 s',
     [Act(Action.click(10, 20)), Act(Action.press("r")), Act(Action.type_text("x")), Act(Action.wait(1.0))]),
    ("\u201cclick\u201d", None),
])
def test_grammar_steps_become_moves(step: str, moves: list | None) -> None:
    assert parse_step(step) == moves


@pytest.mark.parametrize("step", [
    "Start a new game which initializes the 4x4 game board.",
    "Input valid weight (e.g., 70 kg) and height (e.g., 1.75 m).",
    "Press the Frobnicate key",
    "press up 99 times",
    'click "Save" and admire the result',
    'click "Save", then export the notes',
    'drag "Milk" somewhere',  # one part outside the grammar makes the whole step free-form
])
def test_steps_outside_the_grammar_are_none(step: str) -> None:
    assert parse_step(step) is None


def test_separators_are_not_seen_inside_quotes_or_coordinates() -> None:
    assert split_parts('type "a, then b", click at 1, 2 then press x') == [
        'type "a, then b"', "click at 1, 2", "press x"]


def test_expectations_name_quoted_texts_and_backtick_rules() -> None:
    checks = parse_expectation('The status is "In Progress," and \u201cSaved.\u201d, `#total` holds 3.')
    assert (checks.texts, checks.rules, checks.free_form) == (("In Progress", "Saved"), ("#total",), False)
    assert parse_expectation("The board updates correctly.").free_form
