"""What a screen tells its player to press: "Press SPACE to play again", "press any key to start", "Press [ENTER]
To Begin" (a key may be framed by brackets or quotes).

A person follows such a line when it appears: a game over's banner names the key that starts a new game, a
title screen the key that begins one ("Press 1 for a single player game"). Only a line that names a key *and* a
start (play, start, restart, begin, continue, retry, resume, a game, a player) within a few words counts: "Q to
quit" and a key legend are controls, tried like any other input.
"""

from __future__ import annotations

import re

from ..actions import Action
from .base import Decision
from .inputs import InputCatalog
from .notebook import Notebook
from .skill import Turn

PROMPT = re.compile(
    r"\b(?:press|hit|tap|push)\s+(?:the\s+)?[\[<(\"'`]?\s*"
    r"(?P<key>any\s*key|space\s*bar|space|enter|return|[a-z0-9])\s*[\]>)\"'`]?"
    r"(?:\s*key)?\s*(?:to|and|for)\s+(?!(?:quit|exit|pause|close|leave|end|stop|mute)\b)(?:[a-z]+\s+){0,3}?"
    r"(?:play|start|restart|begin|continue|retry|try|resume|replay|go|new|game|player)",
    re.I,
)
#: what "any key" is pressed as, the first of these the app reads (else the first)
ANY_KEY = ("space", "enter")


def prompted_key(text: str, keys: tuple[str, ...]) -> str | None:
    """The key a prompt in ``text`` names, as the executor calls it; ``keys`` are the app's own (for "any
    key")."""
    match = PROMPT.search(text)
    if match is None:
        return None
    named = re.sub(r"\s+", "", match.group("key").lower())
    if named == "anykey":
        return next((k for k in ANY_KEY if k in keys), ANY_KEY[0])
    return {"spacebar": "space", "return": "enter"}.get(named, named)


class Prompts:
    """Prompts followed once each time they appear: a person presses the key and looks; a prompt that stays
    (the key did nothing, or a HUD always shows it) is not pressed again and again."""

    def __init__(self) -> None:
        self.shown: str | None = None

    def appeared(self, text: str, keys: tuple[str, ...]) -> str | None:
        """The key of a prompt that was not on screen at the last look (else None)."""
        key = prompted_key(text, keys)
        new = key is not None and key != self.shown
        self.shown = key
        return key if new else None

    def forget(self) -> None:
        """The app started over: its title screen's prompt is new again."""
        self.shown = None


class PromptFollower:
    """The skill that follows a prompt: the key a line that just appeared on screen says to press to play (a game
    over's "press SPACE to play again"), pressed once, as a person does, unless it disrupted the app before."""

    def __init__(self, notebook: Notebook, inputs: InputCatalog) -> None:
        self.notebook = notebook
        self.inputs = inputs
        self.prompts = Prompts()

    def propose(self, turn: Turn) -> Decision | None:
        widgets = turn.screen.widgets if turn.screen is not None else []
        text = "\n".join([turn.observation.seen_text, *(w.text for w in widgets if w.text)])
        key = self.prompts.appeared(text, self.inputs.play_keys())
        if key is None or f"key:{key}" in self.notebook.memory.disruptive:
            return None
        return Decision(Action.press(key), note=f"the screen says to press {key}")

    def forget(self) -> None:
        self.prompts.forget()
