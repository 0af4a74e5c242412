"""Scenario steps and expectations as other people phrase them, played for real: a Tk app on Xvfb (real clicks
and keys, real OCR) and a web page in Chromium (the real DOM). Runs under the GUI lock.

The inner sessions run in a subprocess, as in test_scenario_play.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import APPS, REPO

pytestmark = pytest.mark.gui

SHOPPING = REPO / "fixtures" / "scenarios" / "TestCases_Shopping.md"
COUNTER = REPO / "fixtures" / "web" / "counter.html"


@pytest.fixture
def shopping(pytester: pytest.Pytester) -> Path:
    pytester.mkdir("apps").joinpath("shopping.py").write_text((APPS / "tk_shopping.py").read_text())
    pytester.path.joinpath(SHOPPING.name).write_text(SHOPPING.read_text())
    return pytester.path


def steps(root: Path, name: str) -> list[dict]:
    (trajectory,) = (root / "playtest-results").glob(f"*{name}*/trajectory.jsonl")
    return [json.loads(line) for line in trajectory.read_text().splitlines()[1:]]


def test_the_text_field_a_repeated_click_and_a_number_that_increases_on_a_tk_window(
        pytester: pytest.Pytester, shopping: Path) -> None:
    result = pytester.runpytest_subprocess("--playtest", "-p", "no:cacheprovider", "-rs", "--playtest-record",
                                           "--playtest-scenario-apps", "TestCases_Shopping.md=apps/shopping.py",
                                           "--playtest-results", "results.json")

    # 1: "milk" typed into the window's only field and added; then the item count goes 1 -> 2 (OCR).
    # 2: two clicks on "Add 3" take the total 0 -> 6; one more takes it to 9, not up by 5: a real failure.
    # 3: case 1 cannot be performed offline, so case 2 (whose "Total: 3" needs the state case 1 was meant to
    # leave) is skipped as depending on it, not failed.
    result.assert_outcomes(passed=1, failed=1, skipped=1)
    result.stdout.fnmatch_lines([
        "*TestCases_Shopping.md:10: Functionalities 2. Counting in threes",
        "case 1: pass",
        'case 2: fail: after step 1 (line 14) "Click "Add 3".", expectation "The total increases by 5.": expected '
        "the total increases by 5; the total was 6 and is 9*",
    ])
    result.stdout.fnmatch_lines([
        "*case 1: skip: step 2 (line 19) \"Shake the window until the list sorts itself.\" is outside the step "
        "grammar*; case 2: skip: depends on case 1, which did not pass",
    ])
    assert "TestCases_Shopping.md: FC 3/6 = 50% (1 failed, 2 skipped)" in result.stdout.str()

    adding = [(s["caption"], s["action"]["kind"], s["changed"]) for s in steps(shopping, "Adding_items")]
    assert adding[:4] == [("c1 click the text field", "click", False), ("c1 type 'milk'", "type_text", True),
                          ('c1 click "Add"', "click", True), ('c1 ✓ "milk"', "wait", False)]
    assert adding[-2][0] == "c2 ✓ items increases by 1"
    counting = [(s["caption"], s["changed"]) for s in steps(shopping, "Counting_in_threes")]
    assert counting[:3] == [('c1 click "Add 3" 1/2', True), ('c1 click "Add 3" 2/2', True),
                            ("c1 ✓ total increases by 6", False)]


def test_independent_cases_start_again_from_a_fresh_launch(pytester: pytest.Pytester, shopping: Path) -> None:
    result = pytester.runpytest_subprocess("--playtest", "-p", "no:cacheprovider", "-rs",
                                           "--playtest-scenario-apps", "TestCases_Shopping.md=apps/shopping.py",
                                           "--playtest-scenario-cases", "independent", "-k", "after")

    # case 1 clicked "Add 3" (Total: 3) and then could not go on; case 2 runs in a fresh launch, where one
    # click makes the total 3 again: it passes, which it could not on the state case 1 left (Total: 6).
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines([
        "*::Functionalities 3. A case after one that could not be performed: case 1 skip, case 2 pass",
        "TestCases_Shopping.md: FC 1/2 = 50% (1 skipped)",
    ])
    folders = sorted(p.name for p in (shopping / "playtest-results").iterdir() if p.is_dir())
    assert len(folders) == 2 and folders[1].endswith("-case-2")  # the second launch's artifacts


DOM_SCENARIO = """---
app: counter.html
timeout: 40
---
#### Functionalities 1. Adding
- **Step**: Click "Add" 3 times.
  **Expectation**: The count increases by 3.

#### Functionalities 2. A count that is wrong
- **Step**: Click the 'Add' button.
  **Expectation**: The count increases by 2.
"""


def test_a_number_that_increases_on_the_dom(pytester: pytest.Pytester) -> None:
    for name in (COUNTER.name, "toy.js", "toy.css"):
        pytester.path.joinpath(name).write_text((COUNTER.parent / name).read_text())
    pytester.path.joinpath("counter.playtest.md").write_text(DOM_SCENARIO)

    result = pytester.runpytest_subprocess("--playtest", "-p", "no:cacheprovider", "--playtest-record")

    # the page's own text says "Count: N" (read from the DOM): 0 -> 3 after three clicks; 0 -> 1 after one
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*counter.playtest.md:9: Functionalities 2. A count that is wrong",
        'case 1: fail: after step 1 (line 10) "Click the \'Add\' button.", expectation "The count increases by 2.": '
        "expected the count increases by 2; the count was 0 and is 1*",
    ])
    adding = [(s["caption"], s["action"]["kind"]) for s in steps(pytester.path, "Adding")]
    assert adding[:4] == [('c1 click "Add" 1/3', "click"), ('c1 click "Add" 2/3', "click"),
                          ('c1 click "Add" 3/3', "click"), ("c1 ✓ count increases by 3", "wait")]


ACCOUNTS = REPO / "fixtures" / "scenarios" / "accounts"

ACCOUNTS_SCENARIO = """---
app: login.html
timeout: 60
login: {username: alice, password: wonderland}
---
#### 1. User Login
- **Step**: Enter a valid username and password.
  **Expectation**: The user is logged in and redirected to the Dashboard Page.

#### 2. Navigate to Registration Page
- **Step**: Click on the "Register here" link on the Login Page.
  **Expectation**: The Registration Page is displayed with fields for username and password.

#### 3. User Logout
- **Step**: Log in successfully and navigate to the Profile Page.
- **Step**: Click the logout button.
  **Expectation**: The user is logged out and redirected to the Login Page.
"""


def test_logging_in_going_to_pages_and_logging_out_with_the_files_credentials(pytester: pytest.Pytester) -> None:
    for page in ACCOUNTS.iterdir():
        pytester.path.joinpath(page.name).write_text(page.read_text())
    pytester.path.joinpath("accounts.playtest.md").write_text(ACCOUNTS_SCENARIO)

    result = pytester.runpytest_subprocess("--playtest", "-p", "no:cacheprovider", "-rs", "--playtest-record")

    # each case is performed and confirmed on the page itself: its title names it, its fields are found by
    # their labels, the logout control is there after logging in and the password field after logging out
    result.assert_outcomes(passed=3)
    logout = [(s["caption"], s["action"]["kind"]) for s in steps(pytester.path, "User_Logout")]
    assert [caption for caption, kind in logout if kind not in ("wait", "finish")] == [
        'c1 click "username"', "c1 type 'alice'", 'c1 click "password"', "c1 type 'wonderland'",
        'c1 click "login"', 'c1 click "Profile"', 'c1 click "logout"']
    assert logout[-2][0] == "c1 ✓ the Login page is shown, the user is logged out"


ROUND_SCENARIO = """---
app: round.py
timeout: 40
---
#### Functionalities 1. Ending and restarting a round
- **Step**: Start the game and press the up arrow key 3 times.
  **Expectation**: The score becomes 3.

- **Step**: Press x.
  **Expectation**: The game ends.

- **Step**: Restart the game.
  **Expectation**: The score resets to zero.
"""


def test_a_game_is_restarted_with_the_key_its_window_names(pytester: pytest.Pytester) -> None:
    pytester.path.joinpath("round.py").write_text((APPS / "tk_round.py").read_text())
    pytester.path.joinpath("round.playtest.md").write_text(ROUND_SCENARIO)

    result = pytester.runpytest_subprocess("--playtest", "-p", "no:cacheprovider", "--playtest-record")

    # "start the game" needs nothing on a freshly launched game; "the game ends" is seen as GAME OVER;
    # "restart the game" presses R, the key the window names and the app binds, and the score is 0 again
    result.assert_outcomes(passed=1)
    played = [(s["caption"], s["action"]["kind"]) for s in steps(pytester.path, "Ending_and_restarting")]
    assert ("c3 press r", "press") in played
    assert [c for c, _ in played if "✓" in c] == ["c1 ✓ score becomes 3", "c2 ✓ the game is over",
                                                  "c3 ✓ score becomes 0"]


EACH_SCENARIO = """---
app: counter.html
timeout: 40
---
#### Functionalities 1. One point a click
- **Step**: Click "Add" twice.
  **Expectation**: The count goes up by 1 with each click.

#### Functionalities 2. Two points a click
- **Step**: Click "Add" 3 times.
  **Expectation**: The count increases by 2 for each click.
"""


def test_a_number_that_increases_by_an_amount_for_each_event_on_the_dom(pytester: pytest.Pytester) -> None:
    for name in (COUNTER.name, "toy.js", "toy.css"):
        pytester.path.joinpath(name).write_text((COUNTER.parent / name).read_text())
    pytester.path.joinpath("each.playtest.md").write_text(EACH_SCENARIO)

    result = pytester.runpytest_subprocess("--playtest", "-p", "no:cacheprovider", "--playtest-record")

    # two clicks take "Count: 0" to 2, a multiple of 1; three take it to 3, which is no multiple of 2
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*each.playtest.md:9: Functionalities 2. Two points a click",
        'case 1: fail: after step 1 (line 10) "Click "Add" 3 times.", expectation "The count increases by 2 for '
        'each click.": expected the count increases by a multiple of 2; the count was 0 and is 3*',
    ])
    adding = [s["caption"] for s in steps(pytester.path, "One_point")]
    assert "c1 ✓ count increases by a multiple of 1" in adding


MESSAGES_SCENARIO = """---
app: login.html
timeout: 60
---
#### 1. A wrong password
- **Step**: Type "mallory" into "Username".
- **Step**: Type "guess" into "Password".
- **Step**: Click "Log in".
  **Expectation**: The login is rejected, and an error message is displayed.

#### 2. A new account
- **Step**: Click the "Register here" link.
- **Step**: Type "bob" into "Username".
- **Step**: Type "builder" into "Password".
- **Step**: Click "Register".
  **Expectation**: The account is created, and a confirmation message appears.
"""


def test_a_refusal_and_a_success_said_beside_their_messages_on_the_dom(pytester: pytest.Pytester) -> None:
    for page in ACCOUNTS.iterdir():
        pytester.path.joinpath(page.name).write_text(page.read_text())
    pytester.path.joinpath("messages.playtest.md").write_text(MESSAGES_SCENARIO)

    result = pytester.runpytest_subprocess("--playtest", "-p", "no:cacheprovider", "-rs", "--playtest-record")

    # "Invalid username or password" is a new line in failure words; "Account created successfully" one in
    # success words: both confirmed on the page, so neither case is left for a model
    result.assert_outcomes(passed=2)
    wrong = [s["caption"] for s in steps(pytester.path, "A_wrong_password")]
    assert "c1 ✓ an error message appears" in wrong
    created = [s["caption"] for s in steps(pytester.path, "A_new_account")]
    assert "c1 ✓ a success message appears" in created
