"""The offline step grammar and what an Expectation checks."""

from __future__ import annotations

import re

import pytest

from pytest_playtest.actions import Action
from pytest_playtest.scenarios.grammar import (
    Act,
    ClickText,
    DragText,
    EnsureLoggedIn,
    FocusField,
    Login,
    Navigate,
    Reload,
    ScrollAt,
    StartGame,
    parse_expectation,
    parse_step,
    split_parts,
)
from tests.support import REPO

TYPE = Action.type_text


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
    # clicks as people write them: single quotes, a control named in prose, a count, where the control is
    ("Click the 'Set Reminder' button.", [ClickText("Set Reminder")]),
    ("Click the restart button.", [ClickText("restart", quoted=False)]),
    ('Click "Add 3" 2 times.', [ClickText("Add 3", times=2)]),
    ('Click on the "Register here" link on the Login Page.',
     [ClickText("Register here", context="on the Login Page")]),
    ('On the Dashboard Page, click the "Logout" button.', [ClickText("Logout", context="On the Dashboard Page")]),
    ("Click the reset button during gameplay.", [ClickText("reset", quoted=False, context="during gameplay")]),
    ('Click the "Remove" button next to a product in the shopping cart.',
     [ClickText("Remove", context="next to a product in the shopping cart")]),
    ('Click on the "Archive" button after logging in.',
     [EnsureLoggedIn(), ClickText("Archive", context="after logging in")]),
    ('Click the "Start Timer" button, then click it again to stop the timer.',
     [ClickText("Start Timer"), ClickText("Start Timer")]),
    ("Click on the tile with number 5 (skipping number 4).", [ClickText("5", quoted=False)]),
    ("Click on the tile with number 1, then the tile with number 2, and continue clicking in numerical order up to 4.",
     [ClickText(str(n), quoted=False) for n in range(1, 5)]),
    ("Click the exit button or use a corresponding keyboard command to close the game.",
     [ClickText("exit", quoted=False)]),
    ('Select the desired output format as "24-hour".', [ClickText("24-hour", context="as the desired output format")]),
    # typing: into the text field, an example value, a field named in prose, several fields
    ('Type "milk" into the text field, then click "Add".',
     [FocusField(None, quoted=False), Act(TYPE("milk")), ClickText("Add")]),
    ('Input a valid birthdate (e.g., "1990-05-15").', [FocusField("birthdate", quoted=False), Act(TYPE("1990-05-15"))]),
    ("Input valid weight (e.g., 70 kg) and height (e.g., 1.75 m).",
     [FocusField("weight", quoted=False), Act(TYPE("70")), FocusField("height", quoted=False), Act(TYPE("1.75"))]),
    ('Enter a valid keyword in the search bar (e.g., "quantum physics").',
     [FocusField("search", quoted=False), Act(TYPE("quantum physics"))]),
    ('Input a valid time duration (e.g., "10 seconds") in the input field.',
     [FocusField("time duration", quoted=False), Act(TYPE("10 seconds"))]),
    ("Enter a valid total expense amount (e.g., $100) in the designated input field.",
     [FocusField("total expense amount", quoted=False), Act(TYPE("100"))]),
    ('Enter the date as "2023-10-02", merchant as "Walmart", and total amount as "75.50".',
     [FocusField("date", quoted=False), Act(TYPE("2023-10-02")), FocusField("merchant", quoted=False),
      Act(TYPE("Walmart")), FocusField("total amount", quoted=False), Act(TYPE("75.50"))]),
    ("Input a positive base and exponent (e.g., 2 and 3).",
     [FocusField("base", quoted=False), Act(TYPE("2")), FocusField("exponent", quoted=False), Act(TYPE("3"))]),
    ('Search for a book by title (e.g., "Dune").',
     [FocusField("search", quoted=False), Act(TYPE("Dune")), Act(Action.press("enter"))]),
    ("Type the following code:\n```python\ndef f():\n    return 1\n```", [Act(TYPE("def f():\n    return 1"))]),
    # keys
    ('Press the "up" arrow key.', [Act(Action.press("up"))]),
    ("Press the space bar to place a bomb.", [Act(Action.press("space"))]),
    ("Press the 'D' key to move the frog right.", [Act(Action.press("d"))]),
    ("Press the right arrow key on the keyboard.", [Act(Action.press("right"))]),
    ("Hold the left arrow key down.", [Act(Action.hold("left", 1.0))]),
    ("Use the arrow keys to move the character up, down, left, and right.",
     [Act(Action.press(key)) for key in ("up", "down", "left", "right")]),
    ("Click the mouse or press any key to make the bird flap.", [Act(Action.press("space"))]),
    # the game, pages, accounts, time
    ("Start a new game which initializes the 4x4 game board.", [StartGame()]),
    ("Start the game and press the left arrow key.", [StartGame(), Act(Action.press("left"))]),
    ("Restart the game after a game over.", [StartGame(restart=True)]),
    ("Navigate to the Registration Page.", [Navigate("Registration")]),
    ('Navigate to the "View Knowledge" section.', [Navigate("View Knowledge")]),
    ("Login successfully and navigate to the Dashboard Page.", [Login(), Navigate("Dashboard")]),
    ("Enter a valid username and password on the Login Page.", [Login()]),
    ("Fill in valid username and password on the Registration Page.", [Login("register")]),
    ("Register with a valid username, password, and email.", [Login("register")]),
    ("Logout from the Dashboard Page.", [ClickText("logout", quoted=False, context="Dashboard Page")]),
    ("Refresh the Dashboard Page.", [Reload()]),
    ("Wait for one second during gameplay.", [Act(Action.wait(1.0))]),
    ("Observe the targets for a duration of 10 seconds.", [Act(Action.wait(5.0)), Act(Action.wait(5.0))]),
    ("Start the game and observe the falling blocks.", [StartGame()]),
])
def test_grammar_steps_become_moves(step: str, moves: list | None) -> None:
    assert parse_step(step) == moves


@pytest.mark.parametrize("step", [
    # a step the grammar cannot perform as the author meant stays for the model
    "Input a birthdate that is today (e.g., \"2023-10-05\").",  # the example is no longer today
    "Input two positive integers (e.g., 8 and 2) for division.",  # which operation is not said
    "Navigate to the Book Details Page of a specific book.",  # which book is not said
    "Navigate to the Reminders Page after setting a reminder.",  # a precondition the grammar cannot do
    "Click the mouse button to shoot.",  # where is not said
    "Click on a product to view its detailed information.",
    'Select "Celsius" to "Fahrenheit".',
    "Move the snake towards the wall of the screen.",
    "Log in as a manager and navigate to the feedback review page.",
    "Save the current game state to a local text file.",
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


def test_a_code_span_is_a_rule_only_when_it_compares_or_tests_an_element() -> None:
    checks = parse_expectation("The user is saved in the `.txt` file; `#count == '2'` and `#menu visible`, `save()`.")
    assert checks.rules == ("#count == '2'", "#menu visible")


DOCS = REPO / "docs" / "scenarios.md"


def grammar_table_examples() -> list[str]:
    """The examples of the step grammar's table in docs/scenarios.md (its second column, in backticks)."""
    text = DOCS.read_text(encoding="utf-8")
    table = text[text.index("## The step grammar (offline)"):text.index("A step the grammar cannot perform")]
    rows = [line.split(" | ")[1] for line in table.splitlines() if line.startswith("| ") and " | " in line]
    examples = [example for row in rows[1:] for example in re.findall(r"`([^`]+)`", row)]
    # fragments ("… on the Login Page"), templates ("[at 200, 150]") and a code step's first line are no steps
    return [e for e in examples if not e.startswith("…") and "[" not in e and not e.startswith("Type the following")]


def test_every_example_of_the_documented_grammar_is_performed() -> None:
    examples = grammar_table_examples()
    assert len(examples) > 80
    assert [e for e in examples if parse_step(e) is None] == []
