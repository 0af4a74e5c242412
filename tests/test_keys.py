"""One key-name table both ways: a key read from an app's source is sent as the keysym it was read as."""

from __future__ import annotations

import pytest
from Xlib import XK

from pytest_playtest.keys import FRIENDLY, SENT_AS, X_KEYSYMS, X_PUNCTUATION, X_SYNONYMS


@pytest.mark.parametrize("keysym", sorted(X_KEYSYMS.values()))
def test_a_keysym_read_from_source_is_sent_as_itself(keysym: str) -> None:
    assert XK.string_to_keysym(SENT_AS[FRIENDLY[keysym]]) == XK.string_to_keysym(keysym)


def test_another_name_of_a_key_is_that_key() -> None:
    assert all(FRIENDLY[alias] == FRIENDLY[keysym] for alias, keysym in X_SYNONYMS.items())


@pytest.mark.parametrize("keysym", sorted(X_PUNCTUATION))
def test_a_typed_character_is_its_keysym(keysym: str) -> None:
    assert XK.string_to_keysym(SENT_AS[X_PUNCTUATION[keysym]]) == XK.string_to_keysym(keysym)
