"""Goal play on a real-time game: steer the avatar to the thing worth reaching, as a player steers a snake to
the apple. The thing is what ``vision.targets`` finds: small, compact, colourful, of a colour that is rare on
screen and not the avatar's own, standing where it stood at the last look (things that move are the game's
others, not a goal). Which input brings the avatar nearer is ``Player``'s knowledge (what each input was seen to
do to it; an avatar that keeps the course an input set is turned onto the thing's line when it comes near it,
``Player.line_up``); keeping the avatar in play comes first (``steering.py``).

A colour whose things ended the game when the avatar reached them (a mine, a spike) is a hazard: after
HAZARD_EVIDENCE such ends it is left alone.
"""

from __future__ import annotations

from collections import Counter

from ..geometry import Box
from ..vision.targets import Target, find_targets
from .base import Observation
from .exploration import Candidate, Rank
from .notebook import Notebook
from .skill import Choice, Turn
from .steering import Steering, response_name
from .thresholds import HAZARD_EVIDENCE, REACH, SEEK_SHARE, STILL_TARGET


class Seeking:
    """The skill that steers the avatar of a real-time game to a target (goal strategy only)."""

    def __init__(self, notebook: Notebook, steering: Steering) -> None:
        self.notebook = notebook
        self.steering = steering
        self.last: list[Target] = []  # the candidate targets of the last look
        self.near: Target | None = None  # the target the avatar came near lately
        self.hazards: Counter[int] = Counter()  # colour → games ended right after the avatar reached one

    def propose(self, turn: Turn) -> Choice | None:
        observation = turn.observation
        player = self.steering.player
        if not self.steering.goal or not self.notebook.animating or player is None or player.avatar is None:
            return None
        self._judge_end(observation)
        targets = self._still_targets(observation, player.avatar)
        if not targets:
            player.aim(None)
            return None
        target = min(targets, key=lambda t: _distance(t.box.center, player.avatar or (0.0, 0.0)))
        if _distance(target.box.center, player.avatar) <= REACH:
            self.near = target
        by_name = {name: c for c in turn.candidates
                   if len(c.actions) == 1 and (name := response_name(c.actions[0])) is not None}
        chosen = player.line_up(list(by_name), target.box.center, (target.box.w, target.box.h))
        # (a turn onto the thing's line is due now or never; between turns, other inputs get their tries)
        if not chosen and self.notebook.rng.random() >= SEEK_SHARE:
            return None
        if chosen is None:
            chosen = player.seek(list(by_name), target.box.center)
        if chosen is None:
            return None
        if chosen == "":
            drift = Candidate("wait", (self.steering.drift(),), rank=Rank.REST)
            return Choice(drift, "let the avatar drift to the target")
        return Choice(by_name[chosen], "steer the avatar to the target")

    def forget(self) -> None:
        self.last, self.near = [], None

    def _still_targets(self, observation: Observation, avatar: tuple[float, float]) -> list[Target]:
        """The candidates that stand where a candidate of their colour stood at the last look, of a colour that
        is no hazard and not the avatar's own (a colour found right at the avatar is its body)."""
        movers = [m.box for m in observation.movers]
        x, y = avatar
        around = Box(int(x - REACH / 2), int(y - REACH / 2), REACH, REACH)
        found = find_targets(observation.frame, avoid=movers)
        own = {t.colour for t in found if t.box.intersection(around).area}
        previous, self.last = self.last, found
        return [t for t in found if t.colour not in own and self.hazards[t.colour] < HAZARD_EVIDENCE
                and any(p.colour == t.colour and _distance(p.box.center, t.box.center) <= STILL_TARGET
                        for p in previous)]

    def _judge_end(self, observation: Observation) -> None:
        """A game that stopped right after the avatar came near a target: that colour may be a hazard."""
        if self.near is not None and observation.stopped_at is not None:
            self.hazards[self.near.colour] += 1
            self.near = None


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)
