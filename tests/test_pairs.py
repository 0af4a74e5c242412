"""Matching pairs: what each clicked place showed, told from a look caught while it turned."""

from __future__ import annotations

import numpy as np

from pytest_playtest.geometry import Box
from pytest_playtest.policies.pairs import Faces

BACK, PAGE = (90, 90, 160), (255, 255, 255)
CARDS = {"a": Box(0, 0, 40, 40), "b": Box(50, 0, 40, 40), "c": Box(100, 0, 40, 40)}


def frame(**shown: tuple[int, int, int]) -> np.ndarray:
    """Three cards on a white page, each showing its back unless ``shown`` gives its colour."""
    picture = np.full((40, 140, 3), PAGE, dtype=np.uint8)
    for name, box in CARDS.items():
        picture[box.y : box.bottom, box.x : box.right] = shown.get(name, BACK)
    return picture


def test_a_face_is_what_a_card_showed_at_two_looks_running_not_the_page_behind_it_while_it_turned() -> None:
    faces = Faces()
    for card, colour in (("a", (200, 30, 30)), ("b", (30, 30, 200)), ("c", (200, 30, 30))):
        faces.clicked(card, CARDS[card], frame())
        for look in (PAGE, colour, colour):  # edge-on, the whole page shows through; then the face, twice
            faces.see(frame(**{card: look}))
        faces.see(frame())  # turned back
    assert faces.pair(frame()) == ("a", "c")
    faces.clicked("a", CARDS["a"], frame())
    faces.see(frame(a=(30, 200, 30)))  # seen once: no face yet, the one before stands
    assert faces.pair(frame()) == ("a", "c")
