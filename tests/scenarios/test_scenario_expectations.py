"""What an Expectation checks offline, and how the words of a scenario meet the words of a window."""

from __future__ import annotations

import pytest

from pytest_playtest.scenarios.expectations import Confirm, NumberCheck, parse_expectation
from pytest_playtest.scenarios.words import match_rank, named_number


@pytest.mark.parametrize(("text", "numbers"), [
    ("The total increases by 6.", (NumberCheck("total", "up", 6.0),)),
    ("The score increases.", (NumberCheck("score", "up"),)),
    ("The number of lives decreases by one.", (NumberCheck("lives", "down", 1.0),)),
    ("The score counter resets to zero.", (NumberCheck("score", "to", 0.0),)),
    ("The timer resets.", (NumberCheck("timer", "to", 0.0),)),
    ("The level becomes 3.", (NumberCheck("level", "to", 3.0),)),
    ("The score displayed should be 10.", (NumberCheck("score", "to", 10.0),)),
    ("The player's score is initialized to 0.", (NumberCheck("score", "to", 0.0),)),
    ("The score remains unchanged.", (NumberCheck("score", "same"),)),
    ("The high score remains at 5 points.", (NumberCheck("score", "same", 5.0),)),
])
def test_a_named_number_and_how_it_changes(text: str, numbers: tuple[NumberCheck, ...]) -> None:
    checks = parse_expectation(text)
    assert (checks.numbers, checks.rest, checks.offline) == (numbers, "", True)


@pytest.mark.parametrize(("text", "confirms", "rest"), [
    ("The game ends, and a game-over screen is displayed.", (Confirm("ends"),), ""),
    ("The user is registered successfully, and a confirmation message is displayed.",
     (Confirm("message", "success"), Confirm("message", "success")), ""),
    ("An error message is displayed.", (Confirm("message", "error"),), ""),
    ("The game ends, and a message is displayed indicating the player has lost.",
     (Confirm("ends"), Confirm("message", "loss")), ""),
    ("The user is logged out and redirected to the Login Page.", (Confirm("page", "Login"), Confirm("logged_out")), ""),
    ("The Registration Page is displayed with fields for username and password.",
     (Confirm("page", "Registration"), Confirm("fields", "username,password")), ""),
    ("The game ends, and the final score is displayed.", (Confirm("ends"), Confirm("number", "score")), ""),
    # the words no check covers stay for the tester
    ("The book is added to the user's reading list, and a confirmation message is displayed.",
     (Confirm("message", "success"),), "book added user's reading list"),
    ("The game ends, and the player is notified that the time is up.", (Confirm("ends"),), "notified time up"),
])
def test_confirmations_and_what_is_left_for_the_tester(text: str, confirms: tuple[Confirm, ...], rest: str) -> None:
    checks = parse_expectation(text)
    assert sorted(checks.confirms, key=repr) == sorted(confirms, key=repr)
    assert checks.rest == rest


def test_the_window_closing_and_quoted_texts_gone() -> None:
    assert parse_expectation("The application closes without errors.").closes
    checks = parse_expectation('"Milk" no longer appears, and the list shows "Bread".')
    assert (checks.texts, checks.gone) == (("Bread",), ("Milk",))
    assert parse_expectation("The button changes to 'Unfollow'.").texts == ("Unfollow",)


@pytest.mark.parametrize("text", [
    "Tiles are combined appropriately, and the game board updates correctly.",
    "The frog moves left on the screen.",
    "The current game state is saved to a local text file.",
])
def test_prose_without_a_check_is_free_form(text: str) -> None:
    assert parse_expectation(text).free_form


@pytest.mark.parametrize(("label", "text", "rank"), [
    ("logout", "Log out", 0), ("logout", "Sign Out", 0), ("Registration", "Register here", 1),
    ("back", "Back to Home", 1), ("back", "Feedback", None), ("restart", "Play Again", 0),
    ("Login Page", "Login", 0), ("5", "Score: 15", None), ("5", "5", 0),
])
def test_a_label_named_in_prose_matches_whole_words_and_synonyms(label: str, text: str, rank: int | None) -> None:
    assert match_rank(label, text) == rank


def test_a_named_number_is_read_beside_its_name() -> None:
    window = "Counter\nScore: 12   Lives: 3\nlevel=4"
    assert [named_number(window, name) for name in ("score", "lives", "level", "moves")] == [12, 3, 4, None]
