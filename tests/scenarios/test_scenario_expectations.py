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
     (Confirm("message", "success"),), ""),
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
    ("The input is rejected, and the cell keeps its old value.", (), "input rejected cell keeps old value"),
    ("The app confirms the order and lets the user pick a seat.", (Confirm("message", "success"),),
     "lets pick seat"),
    ("The product is removed from the cart, and a success message appears.", (Confirm("message", "success"),),
     "product removed from cart"),
])
def test_confirmations_and_what_is_left_for_the_tester(text: str, confirms: tuple[Confirm, ...], rest: str) -> None:
    checks = parse_expectation(text)
    assert sorted(checks.confirms, key=repr) == sorted(confirms, key=repr)
    assert checks.rest == rest


@pytest.mark.parametrize(("text", "numbers"), [
    ("The points go up by 5 for each coin collected.", (NumberCheck("points", "up", 5.0, each=True),)),
    ("The player's score increases by 50 points for each crate broken.",
     (NumberCheck("score", "up", 50.0, each=True),)),
    ("The lives decrease by one with each hit taken.", (NumberCheck("lives", "down", 1.0, each=True),)),
    ("The score continues to increase with each lap completed.", (NumberCheck("score", "up"),)),
    ("The combo counter increases by a fixed amount.", (NumberCheck("combo", "up"),)),
    ("The car's speed decreases.", (NumberCheck("speed", "down"),)),
    ("The round is over and the total is set back to 0.", (NumberCheck("total", "to", 0.0),)),
])
def test_amounts_per_event_and_other_numbers(text: str, numbers: tuple[NumberCheck, ...]) -> None:
    assert parse_expectation(text).numbers == numbers


@pytest.mark.parametrize(("text", "confirms"), [
    # a message said by what it tells the player
    ("The player is notified that they lost.", (Confirm("message", "loss"),)),
    ("The game is over and the players are notified that time is up.", (Confirm("message", "loss"), Confirm("ends"))),
    ("The game ends and shows a message indicating that the player won.",
     (Confirm("message", "win"), Confirm("ends"))),
    ("The game is over, and a message indicating game over appears.", (Confirm("message", "loss"), Confirm("ends"))),
    ("The app shows an error message indicating that the name is already taken.", (Confirm("message", "error"),)),
    ("The game refuses the hint request and displays a message indicating that no hints are available.",
     (Confirm("message", "error"),)),
    ("The note is saved successfully, and the user is notified with a confirmation message.",
     (Confirm("message", "success"),)),
    ("The invitation was sent successfully and a thank you message is shown.", (Confirm("message", "success"),)),
    ("The timer is set successfully, and a success message appears.", (Confirm("message", "success"),)),
    ("The photo is shared successfully and confirmation appears.", (Confirm("message", "success"),)),
    # the app confirming: a message of the kind its words name
    ("The system confirms the booking and redirects the user to the Home Page.",
     (Confirm("message", "success"), Confirm("page", "Home"))),
    ("The application confirms that the password cannot be reused.", (Confirm("message", "error"),)),
    # a plain clause said beside a message of its kind is what the message says
    ("The contact is deleted, and a confirmation message is displayed.", (Confirm("message", "success"),)),
    ("The survey submission is successful and a success message appears.", (Confirm("message", "success"),)),
    ("The move is rejected and an error message appears.", (Confirm("message", "error"),)),
    ("The game prevents the jump and shows an error message.", (Confirm("message", "error"),)),
    ("The app does not allow an empty title and displays a warning message.", (Confirm("message", "error"),)),
    ("The software returns to the Dashboard Page.", (Confirm("page", "Dashboard"),)),
])
def test_messages_and_pages_said_in_more_ways(text: str, confirms: tuple[Confirm, ...]) -> None:
    checks = parse_expectation(text)
    assert sorted(checks.confirms, key=repr) == sorted(confirms, key=repr)
    assert (checks.rest, checks.offline) == ("", True)


@pytest.mark.parametrize("text", [
    # said without a message, a refusal or a saved record claims what no message shows
    "The input is rejected.",
    "The game prevents the move, and the piece stays where it was.",
    "The profile is updated.",
    # a message that names no kind
    "The game prevents the player from starting and displays a message indicating the move limit.",
])
def test_clauses_without_a_message_of_their_kind_stay_for_the_tester(text: str) -> None:
    assert not parse_expectation(text).offline


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
