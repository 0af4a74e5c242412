"""Goal play on a real-time game: where the avatar is, what each input does to it, and keeping it in play.

LAP's idea without a model: turn the screen into a little state. In a game that moves by itself, the place
where an input's effect shows (the part of the next frames the game's own motion does not explain) is where
the thing the player controls is: the avatar. Between inputs it is followed as the moving thing nearest to
where it was, with that thing's velocity (the loop's ``Observation.movers``). What each input does to it is
learned as a displacement per step. A person keeps the avatar away from the edges of the field before it
falls out or runs into the wall: when the avatar, left alone for a step, would leave the middle of the window,
the input whose learned effect keeps it nearest the middle is played — doing nothing being one of the
choices (a bird high up is let fall). Only the directions the avatar moves in count: a ship that slides
sideways along the bottom is not out of play at the bottom.

Pure bookkeeping over boxes and steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..geometry import Box
from ..trajectory import Step
from .thresholds import CONSISTENT, LEARNING, MARGIN, MIN_MOVE, REACH, TRAVEL_SLACK, TRUSTED

if TYPE_CHECKING:
    from ..vision.motion import Mover


Vector = tuple[float, float]


@dataclass
class Response:
    """What one input did to the avatar over a step on average (pixels), and how often it was seen."""

    move: Vector = (0.0, 0.0)
    seen: int = 0

    def learn(self, delta: Vector) -> None:
        weight = 1.0 if not self.seen else LEARNING
        self.move = (self.move[0] + weight * (delta[0] - self.move[0]),
                     self.move[1] + weight * (delta[1] - self.move[1]))
        self.seen += 1


@dataclass
class Player:
    """The avatar of one run and the inputs that move it; ``steer`` proposes an input when it is headed out.

    ``step`` is how long a step lasts (seconds): the avatar's own velocity times it is where it goes when the
    player does nothing. It starts as the step's own length and is then measured between looks (deciding,
    acting and looking take time too: a snake moves on meanwhile)."""

    size: tuple[int, int]
    step: float
    avatar: Vector | None = None
    velocity: Vector = (0.0, 0.0)
    followed: bool = False  # whether the avatar was found this look (not only remembered)
    consistent: int = 0  # effects in a row that showed where the avatar was
    responses: dict[str, Response] = field(default_factory=dict)
    _before: Vector | None = None  # the avatar before the last step
    _seen_at: float | None = None  # when the last look was (seconds into the run)

    def look(self, last: Step | None, name: str | None, movers: Sequence[Mover], now: float | None = None) -> None:
        """Update from the step just done (``name``: the input it was, in the terms ``steer`` is asked in) and
        the things that moved since (``now``: when this look is, seconds into the run)."""
        self._time(now)
        before = self._before
        effect = last.changed_box if last is not None and last.changed else None
        if effect is not None:  # effects keep showing at the avatar, or it is no avatar (a typing game's letters)
            near = self.avatar is not None and _distance(Box(*effect).center, self.avatar) <= 2 * self._reach()
            self.consistent = self.consistent + 1 if near else 0
        nearest = self._nearest(movers, effect)
        if nearest is not None:
            self.avatar, self.velocity, self.followed = nearest.box.center, nearest.velocity, True
        else:
            self.followed = False
        if before is not None and self.followed and last is not None and last.changed and name is not None:
            assert self.avatar is not None
            self.responses.setdefault(name, Response()).learn((self.avatar[0] - before[0],
                                                                 self.avatar[1] - before[1]))
        self._before = self.avatar if self.followed else None

    def forget(self) -> None:
        """The game started over: the avatar is to be found again (what the inputs do stays known)."""
        self.avatar, self.followed, self._before, self.consistent, self._seen_at = None, False, None, 0, None

    def _time(self, now: float | None) -> None:
        """Measure how long a step lasts, look to look (a running average: one slow look is no new pace)."""
        if now is not None and self._seen_at is not None and now > self._seen_at:
            self.step += LEARNING * (now - self._seen_at - self.step)
        self._seen_at = now

    def _nearest(self, movers: Sequence[Mover], effect: tuple[int, int, int, int] | None) -> Mover | None:
        """The mover at the avatar: nearest to where the last input's effect showed, else to where it would be now
        had it gone on as it went (a step's worth of its velocity from where it was)."""
        if effect is not None:
            anchor: Vector | None = Box(*effect).center
        elif self.avatar is not None:
            anchor = self._after((self.velocity[0] * self.step, self.velocity[1] * self.step))
        else:
            anchor = None
        if anchor is None:
            return None
        ax, ay = anchor
        there = [m for m in movers if not m.vacated]  # (where a thing is now, not where it left)
        near = min(there, key=lambda m: (m.box.center[0] - ax) ** 2 + (m.box.center[1] - ay) ** 2, default=None)
        if near is None or _distance(near.box.center, anchor) > self._reach():
            return None
        return near

    def _reach(self) -> float:
        """How far from where it was looked for the avatar may be found: a fast one goes far in a step, and the
        speed it went at is measured over a few frames only."""
        travel = _distance(self.velocity, (0.0, 0.0)) * self.step
        return REACH + TRAVEL_SLACK * travel

    def steer(self, names: Sequence[str]) -> str | None:
        """The input (one of ``names``, or ``""`` for doing nothing) to play now because the avatar is headed
        out of the middle of the window; None while it is not, or while too little is known to steer."""
        if self.avatar is None or not self.followed or self.consistent < CONSISTENT:
            return None
        known = [(name, self.responses[name].move) for name in names
                 if name in self.responses and self.responses[name].seen >= TRUSTED]
        drift = (self.velocity[0] * self.step, self.velocity[1] * self.step)
        choices = [("", drift), *known]
        axes = [axis for axis in (0, 1) if any(abs(move[axis]) >= MIN_MOVE for _, move in choices)]
        if not known or not axes or self._off_centre(self._after(drift), axes) == 0:
            return None
        best, move = min(choices, key=lambda choice: self._off_centre(self._after(choice[1]), axes))
        if best == "" and self._off_centre(self._after(move), axes) >= self._off_centre(self._after((0, 0)), axes):
            return None  # waiting brings it no nearer: no known input helps, play on
        return best

    def seek(self, names: Sequence[str], point: Vector) -> str | None:
        """The input (one of ``names``, or ``""`` for letting the avatar drift) that brings it nearest ``point``
        (a thing to reach) in a step, by what each input was learned to do to it; None while too little is known
        or when nothing known brings it nearer."""
        if self.avatar is None or not self.followed or self.consistent < CONSISTENT:
            return None
        known = [(name, self.responses[name].move) for name in names
                 if name in self.responses and self.responses[name].seen >= TRUSTED]
        if not known:
            return None
        drift = (self.velocity[0] * self.step, self.velocity[1] * self.step)
        best, move = min([("", drift), *known], key=lambda choice: _distance(self._after(choice[1]), point))
        if _distance(self._after(move), point) >= _distance(self._after((0.0, 0.0)), point) - MIN_MOVE:
            return None  # (nothing known brings it nearer than it is)
        return best

    def _after(self, move: Vector) -> Vector:
        assert self.avatar is not None
        return self.avatar[0] + move[0], self.avatar[1] + move[1]

    def _off_centre(self, point: Vector, axes: Sequence[int]) -> float:
        """How far a point lies outside the middle of the window along these axes (0 inside)."""
        outside = 0.0
        for axis in axes:
            extent = self.size[axis]
            outside = max(outside, MARGIN * extent - point[axis], point[axis] - (1 - MARGIN) * extent)
        return outside


def _distance(a: Vector, b: Vector) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)
