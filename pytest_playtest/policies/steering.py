"""Goal play on a real-time game: the input that keeps the avatar in play when it is headed out (``player.py``
learns where the avatar is and what each input does to it)."""

from __future__ import annotations

from ..actions import Action
from .exploration import Candidate, Rank
from .notebook import Notebook
from .player import Player
from .skill import Choice, Turn
from .thresholds import HOLD_SECONDS


class Steering:
    """The skill that keeps the avatar of a real-time game in play (goal strategy only)."""

    def __init__(self, notebook: Notebook, *, goal: bool, beat: float) -> None:
        self.notebook = notebook
        self.goal = goal
        self.beat = beat or HOLD_SECONDS
        self.player: Player | None = None

    def propose(self, turn: Turn) -> Choice | None:
        if not self.goal or not self.notebook.animating:
            return None
        observation = turn.observation
        if self.player is None:
            self.player = Player(observation.size, self.beat)
        last = observation.history[-1] if observation.history else None
        self.player.look(last, response_name(last.action) if last else None, observation.movers,
                         now=observation.elapsed)
        by_name: dict[str, Candidate] = {}
        for candidate in turn.candidates:
            name = response_name(candidate.actions[0])
            if name is not None and len(candidate.actions) == 1:
                by_name.setdefault(name, candidate)
        chosen = self.player.steer(list(by_name))
        if chosen is None:
            return None
        if chosen == "":
            return Choice(Candidate("wait", (self.drift(),), rank=Rank.REST), "let the avatar drift")
        return Choice(by_name[chosen], "keep the avatar in play")

    def drift(self) -> Action:
        """Doing nothing for a step: the avatar goes on as it goes."""
        return Action.wait(self.beat)

    def forget(self) -> None:
        if self.player is not None:
            self.player.forget()


def response_name(action: Action) -> str | None:
    """What an action is to the avatar: every click is one input (it flaps, fires, punches wherever it lands),
    a key pressed or held another; pointer moves and waits are not learnt."""
    if action.kind == "click":
        return "click"
    if action.kind in ("press", "hold"):
        return f"{action.kind} {action.key}"
    return None
