"""A memory game as a person plays it: faces told from looks caught while a card turns, cards not yet seen
turned first, a turn's second card matched to the face seen before."""

from __future__ import annotations

import numpy as np

from pytest_playtest.geometry import Box
from pytest_playtest.policies.pairs import Faces

BACK, PAGE = (90, 90, 160), (255, 255, 255)
RED, BLUE, GREEN = (200, 30, 30), (30, 30, 200), (30, 200, 30)
CARDS = {name: Box(50 * index, 0, 40, 40) for index, name in enumerate("abcdef")}
BOXES = dict(CARDS)


def frame(**shown: tuple[int, int, int]) -> np.ndarray:
    """Six cards on a white page, each showing its back unless ``shown`` gives its colour."""
    picture = np.full((40, 300, 3), PAGE, dtype=np.uint8)
    for name, box in CARDS.items():
        picture[box.y : box.bottom, box.x : box.right] = shown.get(name, BACK)
    return picture


def turn(faces: Faces, card: str, colour: tuple[int, int, int], *, up: dict[str, tuple[int, int, int]]) -> None:
    """``card`` clicked: seen edge-on (the page shows through), then its face at two looks."""
    faces.clicked(card, CARDS[card], frame(**up))
    for seen in (PAGE, colour, colour):
        faces.see(frame(**up, **{card: seen}))


def test_a_face_is_what_a_card_showed_at_two_looks_running_not_the_page_behind_it_while_it_turned() -> None:
    faces = Faces()
    for card, colour in (("a", RED), ("b", BLUE), ("c", GREEN), ("d", RED)):
        turn(faces, card, colour, up={})
        faces.see(frame())  # turned back
    assert faces.pair(frame()) == ("a", "d")
    faces.clicked("b", CARDS["b"], frame())
    faces.see(frame(b=(200, 200, 30)))  # seen once: no face yet, the one before stands
    faces.see(frame())
    assert faces.places["b"].face is not None and faces.places["b"].face[0, 0, 2] == BLUE[2]


def test_cards_not_yet_seen_come_first_and_a_turns_second_card_is_the_twin_seen_before() -> None:
    faces = Faces()
    turn(faces, "a", RED, up={})
    turn(faces, "b", BLUE, up={"a": RED})
    faces.see(frame())  # no match: both turned back
    assert faces.unturned(frame(), BOXES) == []  # two alike things are no deck yet
    turn(faces, "c", GREEN, up={})
    assert faces.first == "c"
    turn(faces, "d", RED, up={"c": GREEN})
    faces.see(frame())
    assert faces.first is None and faces.unturned(frame(), BOXES) == ["e", "f"]  # they look like the cards' back
    assert faces.pair(frame()) == ("a", "d")
    turn(faces, "e", BLUE, up={})
    assert faces.first == "e" and faces.twin(frame(e=BLUE)) == "b"
    assert faces.pair(frame(e=BLUE)) is None  # a turn is under way: its second card first
    turn(faces, "b", BLUE, up={"e": BLUE})
    assert faces.first is None and faces.unturned(frame(b=BLUE, e=BLUE), BOXES) == ["f"]


def test_no_deck_without_several_things_alike_before_they_were_clicked() -> None:
    faces = Faces()
    for card, colour in (("a", RED), ("b", BLUE)):
        turn(faces, card, colour, up={})
        faces.see(frame())
    assert faces.deck() == {} and faces.pair(frame()) is None


def test_buttons_that_light_alike_when_clicked_are_no_deck() -> None:
    faces = Faces()
    lit = (120, 120, 190)
    for button in "abcd":
        turn(faces, button, lit, up={})
        faces.see(frame())
    assert faces.deck() == {} and faces.pair(frame()) is None and faces.unturned(frame(), BOXES) == []


def test_a_card_drawn_turned_only_after_the_next_click_still_begins_its_turn() -> None:
    faces = Faces()
    for card, colour in (("a", RED), ("b", BLUE), ("c", GREEN), ("d", RED)):
        turn(faces, card, colour, up={})
        faces.see(frame())
    faces.clicked("e", CARDS["e"], frame())
    faces.see(frame())  # the page drew nothing yet
    faces.clicked("f", CARDS["f"], frame())  # a second click before the first card showed its turn
    faces.see(frame(e=BLUE))
    assert faces.first == "e"
    faces.see(frame(e=BLUE, f=GREEN))
    assert faces.first is None  # both cards of the turn came up, late


def test_a_first_card_that_shows_its_back_again_has_ended_its_turn() -> None:
    faces = Faces()
    for card, colour in (("a", RED), ("b", BLUE), ("c", GREEN), ("d", RED)):
        turn(faces, card, colour, up={})
        faces.see(frame())
    turn(faces, "e", BLUE, up={})
    assert faces.first == "e"
    faces.clicked("f", CARDS["f"], frame(e=BLUE))
    faces.see(frame())  # the pair did not match: both turned back before the second card was seen up
    assert faces.first is None and faces.pair(frame()) == ("a", "d")
