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

Some avatars keep the course an input set them on (a snake, a worm, a tank): each input turns them onto one
heading, and they go on so by themselves. What each input does to such an avatar is the heading it took right
after the input changed its course; a key never seen so is expected to act as the rest of its spelling
(arrows, WASD) was seen to act. Such an avatar is kept in play by turning it before the edge ahead, not
in the middle of the window (the apple may lie anywhere), and brought to a thing as a player brings a snake
to the apple: it keeps its course until the thing's line across it lies within half a step ahead, then it
turns onto that line (``line_up``): a greedy step toward the thing would pass it by at a step's distance. A
turn lands later than the look it was decided on (the key's way to the game, the game's next frame): where the
avatar turned, along the course it left, says how much later, and a player allows for that lag as a person
allows for their reaction time, turning that much earlier toward a line and before a wall. A thing straight
ahead, nearer than the wall, is gone for, the wall being turned from once it is reached: one near the edge is
not reached otherwise, kept out of the band along the edges where the avatar is turned aside. It is followed
through its turns: looked for along the heading a key just set too, farther after a look that
missed it, at the pace its course was seen at while a frame reads it still.

Pure bookkeeping over boxes and steps.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..geometry import Box
from ..keys import DIRECTION, SPELLING_OF, VECTOR
from ..trajectory import Step
from .thresholds import (
    CONSISTENT,
    COURSE_DOMINANCE,
    EDGE_STEPS,
    LEARNING,
    LOST_LOOKS,
    MARGIN,
    MAX_TURN_LAG,
    MIN_MOVE,
    REACH,
    TRAVEL_SLACK,
    TRUSTED,
    TURN_LOOKS,
    TURN_MAJORITY,
)

if TYPE_CHECKING:
    from ..vision.motion import Mover


Vector = tuple[float, float]
#: a heading along one axis: (1, 0) right, (-1, 0) left, (0, 1) down, (0, -1) up
Heading = tuple[int, int]
#: a heading's name, as ``keys.DIRECTION`` names the way a movement key moves
WAYS: dict[Heading, str] = {vector: way for way, vector in VECTOR.items()}


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
    #: per key (or "click"), the headings the avatar took right after it, counted when its course changed: a key
    #: pressed or held turns a course-keeping avatar alike
    turns: dict[str, Counter[Heading]] = field(default_factory=dict)
    _before: Vector | None = None  # the avatar before the last step
    _course_before: Heading | None = None  # its last course seen
    _turned_by: str | None = None  # the input given when it left that course, while its new one is not seen yet
    _awaited: Heading | None = None  # the heading of the turn last proposed, until a look shows it (or too late)
    _awaited_looks: int = 0
    #: where the avatar was seen on the look a turn was decided on, and the course it kept then
    _turn_from: tuple[Vector, Heading] | None = None
    lag: float = 0.0  # seconds from a look to the turn decided on it, learnt from the turns seen
    #: the thing the avatar is brought to (its middle and size), as the last ``line_up`` was told
    _aim: tuple[Vector, tuple[int, int]] | None = None
    _lags: int = 0  # the turns it was learnt from
    _seen_at: float | None = None  # when the last look was (seconds into the run)
    offered: set[str] = field(default_factory=set)  # the inputs the player was ever asked to choose from
    _unseen: int = 0  # looks in a row that did not find the avatar
    _pace: float = 0.0  # its speed (px/s) when a course was last seen: a turn keeps it, a frame may read 0

    def look(self, last: Step | None, name: str | None, movers: Sequence[Mover], now: float | None = None) -> None:
        """Update from the step just done (``name``: the input it was, in the terms ``steer`` is asked in) and
        the things that moved since (``now``: when this look is, seconds into the run)."""
        self._time(now)
        before = self._before
        effect = last.changed_box if last is not None and last.changed else None
        if effect is not None:  # effects keep showing at the avatar, or it is no avatar (a typing game's letters)
            near = self.avatar is not None and _distance(Box(*effect).center, self.avatar) <= 2 * self._reach()
            self.consistent = self.consistent + 1 if near else 0
        given = self.headings([name]).get(name) if name is not None else None
        turn = self._awaited or given
        nearest = self._nearest(movers, effect, turn)
        if nearest is not None:
            self.avatar, self.velocity, self.followed = nearest.box.center, self._velocity(nearest, turn), True
            self._unseen = 0
        else:
            self.followed = False
            self._unseen = min(self._unseen + 1, LOST_LOOKS)
        if self.course is not None:
            self._pace = self._speed
        if before is not None and self.followed and last is not None and last.changed and name is not None:
            assert self.avatar is not None
            self.responses.setdefault(name, Response()).learn((self.avatar[0] - before[0],
                                                                 self.avatar[1] - before[1]))
        self._learn_turn(name)
        self._await_turn()
        self._before = self.avatar if self.followed else None

    def _learn_turn(self, name: str | None) -> None:
        """The avatar's course changed: the heading it took is the doing of the input given when it left its old
        course (a measured velocity mixes the two courses for a look or so after a turn)."""
        course = self.course
        if course is None:
            if self.followed and self._turned_by is None:
                self._turned_by = name
            return
        by = self._turned_by or name
        if by is not None and self._course_before not in (None, course):
            self.turns.setdefault(_key(by), Counter())[course] += 1
        self._course_before, self._turned_by = course, None

    def _await_turn(self) -> None:
        """A turn proposed is awaited until a look shows the avatar on its heading, at most ``TURN_LOOKS``
        looks (a turn the game refused never shows)."""
        if self._awaited is None:
            return
        self._awaited_looks += 1
        if self.course == self._awaited:
            self._learn_lag()
        if self.course == self._awaited or self._awaited_looks >= TURN_LOOKS:
            self._awaited, self._turn_from = None, None

    def _learn_lag(self) -> None:
        """The turn awaited shows: the avatar turned where it now stands along the course it left, so that far
        along it from where the look the turn was decided on saw it, at its pace, is how long a turn lags a look.
        A turn seen to come later than ``MAX_TURN_LAG`` steps was another's doing (a wall, a second key)."""
        if self._turn_from is None or self.avatar is None or self._pace * self.step < MIN_MOVE:
            return
        start, old = self._turn_from
        axis = 0 if old[0] else 1
        seconds = (self.avatar[axis] - start[axis]) * old[axis] / self._pace
        if seconds > MAX_TURN_LAG * self.step:
            return
        weight = 1.0 if not self._lags else LEARNING
        self.lag += weight * (max(seconds, 0.0) - self.lag)
        self._lags += 1

    def forget(self) -> None:
        """The game started over: the avatar is to be found again (what the inputs do stays known)."""
        self.avatar, self.followed, self._before, self.consistent, self._seen_at = None, False, None, 0, None
        self._unseen = 0
        self._course_before = self._turned_by = self._awaited = self._turn_from = self._aim = None

    def _time(self, now: float | None) -> None:
        """Measure how long a step lasts, look to look (a running average: one slow look is no new pace)."""
        if now is not None and self._seen_at is not None and now > self._seen_at:
            self.step += LEARNING * (now - self._seen_at - self.step)
        self._seen_at = now

    def _nearest(self, movers: Sequence[Mover], effect: tuple[int, int, int, int] | None,
                 turn: Heading | None) -> Mover | None:
        """The mover at the avatar: nearest to where the last input's effect showed, or to where it would be now
        had it gone on as it went, or had it taken the ``turn`` just given (a key that sets its course)."""
        anchors: list[Vector] = [Box(*effect).center] if effect is not None else []
        if self.avatar is not None:
            anchors += [self._after(self._gone(None))] + ([self._after(self._gone(turn))] if turn else [])
        there = [m for m in movers if not m.vacated]  # (where a thing is now, not where it left)
        if not anchors or not there:
            return None
        found = [(min(_distance(m.box.center, anchor) for anchor in anchors), i) for i, m in enumerate(there)]
        distance, index = min(found)
        return there[index] if distance <= self._reach() else None

    def _velocity(self, mover: Mover, turn: Heading | None) -> Vector:
        """The avatar's velocity, found at ``mover``: the mover's, or, for one that keeps its course while the
        mover reads still (its speed measured over a frame or two of a turn), its pace along the turn just given
        or the course it kept."""
        heading = turn or self._course_before
        if (_distance(mover.velocity, (0.0, 0.0)) * self.step >= MIN_MOVE or heading is None
                or not self.keeps_course):
            return mover.velocity
        return heading[0] * self._pace, heading[1] * self._pace

    def _gone(self, turn: Heading | None) -> Vector:
        """How far the avatar went since it was last found, as it went: its velocity over the steps it went
        unseen; or onto the heading of a ``turn`` at its pace (a worm turned up is not where it would be had it
        gone on right)."""
        seconds = self.step * (1 + self._unseen)
        if turn is not None:
            speed = max(self._speed, self._pace)
            return turn[0] * speed * seconds, turn[1] * speed * seconds
        return self.velocity[0] * seconds, self.velocity[1] * seconds

    def _reach(self) -> float:
        """How far from where it was looked for the avatar may be found: a fast one goes far in a step, and the
        speed it went at is measured over a few frames only; the longer it went unseen, the farther."""
        return REACH + TRAVEL_SLACK * self._travel() * (1 + self._unseen)

    def _travel(self) -> float:
        """How far the avatar goes in a step by itself: at its velocity, or at the pace its course was last seen
        at while that reads less (a velocity measured over a frame or two of a turn may read 0)."""
        return max(self._speed, self._pace if self._going else 0.0) * self.step

    def steer(self, names: Sequence[str]) -> str | None:
        """The input (one of ``names``, or ``""`` for doing nothing) to play now because the avatar is headed
        out of the middle of the window (one that keeps the course its keys set: toward the edge ahead); None
        while it is not, or while too little is known to steer."""
        self.offered.update(names)
        headings = self.headings(names)
        if self._awaited is not None and self.keeps_course:
            return ""  # the turn just given is let show before the next (a measured velocity lags a turn)
        going = self._going
        if going is not None and self.keeps_course:  # (inputs that set its course found the avatar)
            return self._turn_before_edge(going, headings)
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

    @property
    def heading(self) -> str:
        """The way the avatar goes by itself ("left", "up"...) when it is known to keep the course its inputs set
        (inputs seen to turn it onto headings along both axes): the course seen, else the turn awaited, else the
        last course seen (it keeps that until turned); "" otherwise."""
        course = self._believed
        if course is None or not self.keeps_course:
            return ""
        return WAYS[course]

    @property
    def keeps_course(self) -> bool:
        """Whether the avatar keeps the course its inputs set: inputs were seen (or, of those ever offered, are
        expected by their spelling) to turn it onto headings along both axes, whatever inputs this step offers (a
        worm is no ship because only its vertical keys are offered now)."""
        return _both_axes(self.headings([*self.turns, *self.offered]))

    @property
    def _believed(self) -> Heading | None:
        """The heading the avatar is believed on: the course seen, else the turn awaited, else its last course
        seen (one that keeps its course keeps it until turned, though a frame may show it still)."""
        return self.course or self._awaited or self._course_before

    @property
    def _going(self) -> Heading | None:
        """The heading believed of an avatar in sight this look (None when it was not found)."""
        return self._believed if self.followed else None

    @property
    def _speed(self) -> float:
        return _distance(self.velocity, (0.0, 0.0))

    @property
    def course(self) -> Heading | None:
        """The heading the avatar goes along by itself, when it was found this look moving mostly along one axis
        (far enough in a step to tell)."""
        if not self.followed:
            return None
        vx, vy = self.velocity
        if _distance(self.velocity, (0.0, 0.0)) * self.step < MIN_MOVE:
            return None
        if abs(vx) >= COURSE_DOMINANCE * abs(vy):
            return (1 if vx > 0 else -1), 0
        if abs(vy) >= COURSE_DOMINANCE * abs(vx):
            return 0, (1 if vy > 0 else -1)
        return None

    def line_up(self, names: Sequence[str], point: Vector, size: tuple[int, int]) -> str | None:
        """For an avatar that keeps the course an input set: the input (one of ``names``) that turns it onto
        the line through ``point`` (a thing of this ``size`` to reach) once that line lies within half a step
        ahead, ``""`` to keep its course meanwhile; None when the avatar is not one steered so."""
        self.offered.update(names)
        self._aim = (point, size)
        course, headings = self._going, self.headings(names)
        if self.avatar is None or not self.keeps_course:
            return None
        if self._awaited is not None or course is None:
            return ""
        along, across = (0, 1) if course[0] else (1, 0)
        ahead = (point[along] - self.avatar[along]) * course[along] - self._lagging()
        aside = point[across] - self.avatar[across]
        travel = self._travel()
        if abs(aside) <= size[across] / 2:  # on its line already
            return "" if ahead >= 0 else self._sidestep(course, headings)
        if ahead > travel / 2:  # the thing's line comes later: turning now would pass it by
            return ""
        turn: Heading = (0, 1 if aside > 0 else -1) if course[0] else (1 if aside > 0 else -1, 0)
        return self._turn(turn, headings)

    def headings(self, names: Sequence[str]) -> dict[str, Heading]:
        """The inputs among ``names`` known to turn the avatar onto a heading, and that heading: seen so, or a
        movement key of a spelling that was seen to steer it (``_steering_spellings``) and never seen otherwise."""
        found: dict[str, Heading] = {}
        spellings = self._steering_spellings()
        for name in names:
            key = _key(name)
            heading = _heading(key, self.turns.get(key))
            if heading is None and SPELLING_OF.get(key) in spellings and not _contrary(key, self.turns.get(key)):
                heading = VECTOR[DIRECTION[key]]
            if heading is not None:
                found.setdefault(name, heading)
        return found

    def _steering_spellings(self) -> set[str]:
        """The spellings of movement keys (arrows, WASD...) seen to turn the avatar the ways their keys name,
        ``TRUSTED`` times in all and by no key of theirs otherwise: a player who saw Down and Right steer the
        worm expects Up and Left to, and a fast one dies before each key was seen twice."""
        named: Counter[str] = Counter()
        spoiled: set[str] = set()
        for key, turns in self.turns.items():
            spelling = SPELLING_OF.get(key)
            if spelling is None:
                continue
            named[spelling] += _turns_as_named(key, turns)
            if _contrary(key, turns):
                spoiled.add(spelling)
        return {spelling for spelling, count in named.items() if count >= TRUSTED and spelling not in spoiled}

    def _turn_before_edge(self, course: Heading, headings: dict[str, Heading]) -> str | None:
        """Keep a course-keeping avatar in play: turn it aside once the window's edge ahead is within
        ``EDGE_STEPS`` steps of its travel; None while it is not."""
        if self._room(course) - self._lagging() > EDGE_STEPS * self._travel() or self._aimed_ahead(course):
            return None
        return self._sidestep(course, headings)

    def _aimed_ahead(self, course: Heading) -> bool:
        """Whether the thing the avatar is brought to lies on its line ahead, nearer than the window's edge."""
        if self._aim is None or self.avatar is None:
            return False
        point, size = self._aim
        along, across = (0, 1) if course[0] else (1, 0)
        ahead = (point[along] - self.avatar[along]) * course[along]
        return abs(point[across] - self.avatar[across]) <= size[across] / 2 and 0 <= ahead < self._room(course)

    def aim(self, point: Vector | None, size: tuple[int, int] = (0, 0)) -> None:
        """The thing to bring the avatar to now (None: none in sight)."""
        self._aim = None if point is None else (point, size)

    def _sidestep(self, course: Heading, headings: dict[str, Heading]) -> str | None:
        """The input that turns the avatar across its course, toward the side with more room."""
        sides: list[Heading] = [(0, 1), (0, -1)] if course[0] else [(1, 0), (-1, 0)]
        for side in sorted(sides, key=self._room, reverse=True):
            name = self._turn(side, headings)
            if name is not None:
                return name
        return None

    def _turn(self, heading: Heading, headings: dict[str, Heading]) -> str | None:
        """The input that turns the avatar onto ``heading`` (None: no known one); the turn is then awaited."""
        name = next((name for name, known in headings.items() if known == heading), None)
        if name is not None:
            course = self._believed  # (the one it keeps until the turn lands)
            self._turn_from = (self.avatar, course) if self.avatar is not None and course is not None else None
            self._awaited, self._awaited_looks = heading, 0
        return name

    def _lagging(self) -> float:
        """How far the avatar goes on along its course before a turn decided now lands (the lag learnt)."""
        return self.lag * self._travel() / self.step

    def _room(self, heading: Heading) -> float:
        """How far the avatar may go along ``heading`` before it leaves the window."""
        assert self.avatar is not None
        axis = 0 if heading[0] else 1
        sign = heading[axis]
        return self.size[axis] - self.avatar[axis] if sign > 0 else self.avatar[axis]

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


def _key(name: str) -> str:
    """The key (or "click") of an input's name: ``press up`` and ``hold up`` turn an avatar alike."""
    return name.rsplit(" ", 1)[-1]


def _heading(key: str, turns: Counter[Heading] | None) -> Heading | None:
    """The heading a movement key turns the avatar onto, once seen often enough, mostly the same, and the way
    the key names (a thing followed for the avatar by mistake, a shot flying up after Space, sets no course)."""
    count = _turns_as_named(key, turns)
    return VECTOR[DIRECTION[key]] if count >= TRUSTED else None


def _contrary(key: str, turns: Counter[Heading] | None) -> bool:
    """Whether a key was seen often enough to tell that it turns the avatar some other way than it names."""
    return turns is not None and turns.total() >= TRUSTED and not _turns_as_named(key, turns)


def _turns_as_named(key: str, turns: Counter[Heading] | None) -> int:
    """How often a key turned the avatar the way it names, when that is ``TURN_MAJORITY`` of its turns; else 0."""
    if not turns:
        return 0
    heading, count = turns.most_common(1)[0]
    named = DIRECTION.get(key) == WAYS[heading] and count >= TURN_MAJORITY * turns.total()
    return count if named else 0


def _both_axes(headings: dict[str, Heading]) -> bool:
    """Whether the known headings turn the avatar along both axes (a course-keeping avatar can be steered)."""
    return {bool(h[0]) for h in headings.values()} == {True, False}


def _distance(a: Vector, b: Vector) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)
