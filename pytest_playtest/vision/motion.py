"""What an input changed in an app that moves by itself: the part of its next frames its own motion does not
explain.

A real-time game changes every frame, so "the window changed" says nothing about an input there. A person
judges an input by whether the game went on differently: the snake turned, the paddle moved, a shot appeared,
the letter vanished. ``MotionWatch`` follows the app's ticks (frames that differ from the one before) and
predicts each tick from the ones before it: every place that changed (a blob of changed pixels) keeps moving
the way it moved between the two ticks before (its nearest blob there, by centroid), and the next frame is
drawn so. The tester sees the ticks at uneven intervals (frames of the app go unseen while it decides and acts,
which is always just before an input): where an interval was longer or shorter than the app's frame period
(the median interval), a thing may have moved on as many of its last steps as the intervals span frames, and a
tick after an unseen stretch of more than a few frames is not judged. What a tick changes where it differs
from that prediction is *surprise*. An input had an effect when the ticks right after it hold more surprise
than the app makes on its own: more than the ticks right before the input did, and more than a floor that one
small sprite's worth of pixels clears.

Frames are RGB arrays in window coordinates; large windows are looked at every second pixel.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

import cv2
import numpy as np

from ..geometry import Box
from .thresholds import (
    AFTER,
    ALONE_MOVES,
    CHANGE_LEVEL,
    FULL_WIDTH,
    JOIN,
    KEPT,
    MATCH_LEVEL,
    MATCHED_AREA,
    MATCHED_BLOBS,
    MAX_MOVER,
    MAX_STEP,
    MIN_BLOB,
    MIN_SURPRISE,
    OVER_BEFORE,
    PACED,
    QUIET_SURPRISE,
    SAME_PLACE,
    SAME_SIZE,
    SLACK,
    SPECK_PIXELS,
    SPRITE_PIXELS,
    STOPPED,
    TICKS_BEFORE,
    UNEVEN,
    UNSEEN,
    VACATED,
    WAY_SHIFT,
)


@dataclass(frozen=True)
class Tick:
    """A frame that differs from the one before, with when it was seen."""

    time: float
    frame: np.ndarray  # scaled RGB


@dataclass(frozen=True)
class Blob:
    centre: tuple[float, float]
    box: tuple[int, int, int, int]  # x, y, width, height of its changed pixels (scaled)


@dataclass(frozen=True)
class Mover:
    """A thing that moved: where (window coordinates) and how fast (pixels per second); ``vacated`` when the
    place now shows the background (something left it: a snake's tail, not its head)."""

    box: Box
    velocity: tuple[float, float]
    vacated: bool = False


@dataclass(frozen=True)
class Surprise:
    """What the ticks after an input held beyond the app's own motion: ``pixels`` (after scaling) and
    where (window coordinates); ``before`` is the same measure for the ticks just before the input."""

    pixels: int
    before: int
    box: Box | None
    fraction: float

    @property
    def effect(self) -> bool:
        floor = QUIET_SURPRISE if self.before == 0 else MIN_SURPRISE
        return self.pixels >= floor and self.pixels > OVER_BEFORE * self.before

    @property
    def telling(self) -> bool:
        """Whether this tells if the input had an effect: one was seen, or a sprite's worth of surprise would
        have stood out over what the app's own motion left unexplained just before (a starfield of single
        pixels, each a surprise, hides any effect)."""
        return self.effect or MIN_SURPRISE > (OVER_BEFORE - 1) * self.before


@dataclass
class OwnEvents:
    """Surprises an app made by itself, while watched without input: a snake that dies at the wall it was
    launched towards, a thing that wraps at the window's edge. A person who saw one does not take the same
    change, in the same place, for an input's doing the next time (the next launch included)."""

    seen: list[tuple[Box, int]] = field(default_factory=list)

    def learn(self, box: Box | None, pixels: int) -> None:
        if box is not None and pixels >= QUIET_SURPRISE and not self.knows(box, pixels):
            self.seen.append((box, pixels))

    def knows(self, box: Box, pixels: int) -> bool:
        return any(_same_place(box, known) and abs(pixels - size) <= SAME_SIZE * size for known, size in self.seen)


@dataclass
class MotionWatch:
    """The recent ticks of one launch of an animating app, and the surprises it made by itself (kept over
    launches: give the last launch's ``own`` to the next watch)."""

    ticks: deque[Tick] = field(default_factory=lambda: deque(maxlen=KEPT))
    moved: deque[float] = field(default_factory=lambda: deque(maxlen=KEPT))  # when ticks moved things
    scale: int = 1
    own: OwnEvents = field(default_factory=OwnEvents)
    looked: float = 0.0  # when the loop last looked (the newest frame offered, a tick or not)
    #: the watches without input: when each ended, and whether it saw things move by themselves
    alone: deque[tuple[float, bool]] = field(default_factory=lambda: deque(maxlen=KEPT))

    def add(self, frame: np.ndarray, now: float) -> None:
        """A frame the loop saw; kept when it differs from the last tick."""
        self.looked = now
        if not self.ticks:
            self.scale = 2 if frame.shape[1] > FULL_WIDTH else 1
        small = np.ascontiguousarray(frame[:: self.scale, :: self.scale])
        if self.ticks and (self.ticks[-1].frame.shape != small.shape or np.array_equal(self.ticks[-1].frame, small)):
            if self.ticks[-1].frame.shape != small.shape:  # a new window size: a new scene
                self.clear()
                self.ticks.append(Tick(now, small))
            return
        if self.ticks and _moves_a_thing(self.ticks[-1].frame, small):
            self.moved.append(now)
        self.ticks.append(Tick(now, small))

    def stopped(self) -> float | None:
        """When a picture that moved at a steady pace missed its next tick (its last tick plus its frame
        period), once it has been seen unchanged for ``STOPPED`` periods since; or, while a backdrop of specks
        moves on behind them (a starfield), when its things, seen moving by themselves, stopped so (a game
        paused, its sprites gone). None while it moves, or when too few ticks were seen to know its pace."""
        return self._stopped([tick.time for tick in self.ticks]) or self._things_stopped()

    def _things_stopped(self) -> float | None:
        """When things seen moving by themselves (in the last watch without input before they stopped) stopped;
        things that moved only after inputs (a page's list) stand still between them, and that is no stop."""
        if not self.moved:
            return None
        watched = [moving for ended, moving in self.alone if ended <= self.moved[-1]]
        return self._stopped(list(self.moved)) if watched and watched[-1] else None

    def watched_alone(self, since: float) -> None:
        """The loop watched the app without input from ``since`` until now: did things move by themselves?"""
        self.alone.append((self.looked, sum(time >= since for time in self.moved) >= ALONE_MOVES))

    def _stopped(self, times: list[float]) -> float | None:
        if len(times) < PACED:
            return None
        period = float(np.median(np.diff(times)))
        return times[-1] + period if self.looked - times[-1] > STOPPED * period else None

    def surprise(self, since: float, *, learn: bool = False) -> Surprise | None:
        """The surprise of the ticks after ``since`` (when an input began), or None when too few ticks
        around it were seen to tell (three before, one after). A tick's surprise the app made by itself before
        (``own``) is its own doing again, no surprise; with ``learn`` (no input was given at ``since``) the
        ticks' surprises are the app's own and are remembered so."""
        ticks = list(self.ticks)
        first_after = next((i for i, tick in enumerate(ticks) if tick.time >= since), None)
        if first_after is None or first_after < TICKS_BEFORE:
            return None
        seen = _Seen(ticks)
        before = seen.surprise(first_after - 1)
        judged = [s for s in map(seen.surprise, range(first_after, min(first_after + AFTER, len(ticks)))) if s]
        if before is None or not judged:
            return None
        before_pixels = self._news(before[0], self._box(before[1]))[0]
        placed = [(pixels, self._box(where)) for pixels, where in judged]
        after, box = max((self._news(*tick) for tick in placed), key=lambda news: news[0])
        if learn:
            for pixels, where_box in placed:
                self.own.learn(where_box, pixels)
        return Surprise(after, before_pixels, box, after / judged[0][1].size)

    def _news(self, pixels: int, box: Box | None) -> tuple[int, Box | None]:
        """A tick's surprise and where, none when the app made that very surprise by itself before."""
        if not pixels or box is None or self.own.knows(box, pixels):
            return 0, None
        return pixels, box

    def _box(self, where: np.ndarray) -> Box | None:
        if not where.any():
            return None
        x, y, w, h = cv2.boundingRect(where.astype(np.uint8))
        return Box(x * self.scale, y * self.scale, w * self.scale, h * self.scale)

    def movers(self) -> list[Mover]:
        """The things that moved between the last two ticks (window coordinates): each a blob of changed pixels
        (a sprite's old and new place together) with its velocity, from the nearest blob of the ticks before.
        Blobs bigger than a fifth of the window are scenery."""
        if len(self.ticks) < 3:
            return []
        ticks = list(self.ticks)[-3:]
        previous, current = _changes(ticks[0].frame, ticks[1].frame), _changes(ticks[1].frame, ticks[2].frame)
        olds = _blobs(previous)
        seconds = max(ticks[2].time - ticks[1].time, 1e-3)
        largest = MAX_MOVER * current.size
        background = _background(ticks[2].frame)
        found = []
        for blob in _blobs(current):
            x, y, w, h = blob.box
            if w * h > largest:
                continue
            changed = current[y : y + h, x : x + w]
            now = ticks[2].frame[y : y + h, x : x + w][changed]
            vacated = bool(now.size) and float(np.mean(np.all(now == background, axis=-1))) >= VACATED
            near = min(olds, key=lambda o: _distance(o.centre, blob.centre), default=None)
            velocity = (0.0, 0.0)
            if near is not None and _distance(near.centre, blob.centre) <= MAX_STEP:
                velocity = ((blob.centre[0] - near.centre[0]) * self.scale / seconds,
                            (blob.centre[1] - near.centre[1]) * self.scale / seconds)
            found.append(Mover(self._window_box(blob.box), velocity, vacated))
        return found

    def set_going(self, at: float) -> dict[tuple[int, int], list[Box]] | None:
        """The things that stood still and started going one way right after ``at`` (when an input was given, or
        a beat began), by way (a unit step: (-1, 0) left) and where (window coordinates): each moved so in one
        of the ``AFTER`` ticks after it, where nothing changed in the tick before (a ship a key slides, a
        paddle; not a meteor that was flying anyway). None when too few ticks around it were seen (three before,
        one after)."""
        ticks = list(self.ticks)
        first_after = next((i for i, tick in enumerate(ticks) if tick.time >= at), None)
        if first_after is None or first_after < 3:
            return None
        frames = [tick.frame for tick in ticks]
        changed = [blob.box for blob in _blobs(_changes(frames[first_after - 2], frames[first_after - 1]))]
        going: dict[tuple[int, int], list[Box]] = {}
        for ticks_after, index in enumerate(range(first_after, min(first_after + AFTER, len(ticks))), start=1):
            for blob, shift in _steps(frames, index):
                way = _way(shift)
                swept = _swept(blob.box, shift, ticks_after)  # where it came from since the input
                if way is not None and not any(_overlap(swept, box) for box in changed):
                    going.setdefault(way, []).append(self._window_box(blob.box))
        return going

    def _window_box(self, box: tuple[int, int, int, int]) -> Box:
        x, y, w, h = box
        return Box(x * self.scale, y * self.scale, w * self.scale, h * self.scale)

    def clear(self) -> None:
        self.ticks.clear()
        self.moved.clear()
        self.alone.clear()


def _background(frame: np.ndarray) -> np.ndarray:
    """The most common colour of a frame (sampled): what a place something left shows again."""
    sample = frame[::4, ::4].reshape(-1, frame.shape[-1])
    colours, counts = np.unique(sample, axis=0, return_counts=True)
    return colours[int(np.argmax(counts))]


def _moves_a_thing(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether the places where two frames differ that are more than specks (near pixels joined) changed as many
    pixels as things moving do (``SPRITE_PIXELS``)."""
    changed = _changes(a, b)
    if int(changed.sum()) < SPRITE_PIXELS:
        return False
    joined = cv2.dilate(changed.astype(np.uint8), np.ones((JOIN, JOIN), np.uint8))
    count, labels = cv2.connectedComponents(joined, connectivity=8)
    sizes = np.bincount(labels[changed], minlength=count)[1:]
    return int(sizes[sizes > SPECK_PIXELS].sum()) >= SPRITE_PIXELS


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Whether two boxes (x, y, width, height) meet, ``JOIN`` pixels around each counted."""
    return (a[0] - JOIN < b[0] + b[2] and b[0] - JOIN < a[0] + a[2]
            and a[1] - JOIN < b[1] + b[3] and b[1] - JOIN < a[1] + a[3])


def _swept(box: tuple[int, int, int, int], shift: tuple[int, int], ticks: int) -> tuple[int, int, int, int]:
    """A thing's box stretched back over the way it came in so many ticks at this shift a tick."""
    x, y, w, h = box
    dx, dy = shift[0] * ticks, shift[1] * ticks
    return min(x, x - dx), min(y, y - dy), w + abs(dx), h + abs(dy)


def _way(shift: tuple[int, int]) -> tuple[int, int] | None:
    """The way a thing's shift in a tick went along one axis (far enough along it, no farther across); None for
    a shift too small or aslant."""
    (x, y), size = shift, max(abs(shift[0]), abs(shift[1]))
    if size < WAY_SHIFT or abs(x) == abs(y):
        return None
    return ((1 if x > 0 else -1), 0) if abs(x) > abs(y) else (0, (1 if y > 0 else -1))


def _changes(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Where two frames differ (bool mask)."""
    return _difference(a, b) > CHANGE_LEVEL


def _difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pixel, the largest difference of two RGB images in any channel (OpenCV and channel by channel:
    a reduction over numpy's last axis is several times slower)."""
    d = cv2.absdiff(a, b)
    return np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])


def _blobs(mask: np.ndarray) -> list[Blob]:
    """The changed places of a mask, near pixels joined; each looked at within its own box (a starfield's
    hundreds of specks, each a component, cost one count, not a pass over the frame each)."""
    joined = cv2.dilate(mask.astype(np.uint8), np.ones((JOIN, JOIN), np.uint8))
    count, labels, stats, centres = cv2.connectedComponentsWithStats(joined, connectivity=8)
    sizes = np.bincount(labels[mask], minlength=count)
    found = []
    for label in np.flatnonzero(sizes[1:] >= MIN_BLOB) + 1:
        x, y, w, h = (int(v) for v in stats[label, :4])
        own = (labels[y : y + h, x : x + w] == label) & mask[y : y + h, x : x + w]
        bx, by, bw, bh = cv2.boundingRect(own.astype(np.uint8))
        found.append(Blob((float(centres[label][0]), float(centres[label][1])), (x + bx, y + by, bw, bh)))
    return found


def _steps(frames: list[np.ndarray], index: int) -> list[tuple[Blob, tuple[int, int]]]:
    """Each thing that moved into frame ``index`` (a blob of its change from the frame before) with how far it
    moved: the shift that draws the frame before onto it there. A thing's nearest blob in the change before
    gives a first guess (right for a thing that moves less than its size each tick); a look around for where
    its picture came from replaces a guess that draws it worse, for the few largest blobs (a fast ball jumps
    more than its size, and the frames between two ticks seen may have gone unseen). A thing whose picture was
    nowhere near keeps its guess, and without one (it appeared) is not moved."""
    earlier = _changes(frames[index - 2], frames[index - 1])
    last = _changes(frames[index - 1], frames[index])
    olds = _blobs(earlier)
    blobs = sorted(_blobs(last), key=lambda blob: blob.box[2] * blob.box[3], reverse=True)
    found = []
    for rank, blob in enumerate(blobs):
        near = min(olds, key=lambda o: _distance(o.centre, blob.centre), default=None)
        guess = None
        if near is not None and _distance(near.centre, blob.centre) <= MAX_STEP:
            guess = round(blob.centre[0] - near.centre[0]), round(blob.centre[1] - near.centre[1])
        step = _matched(blob, frames[index - 1], frames[index], guess) if rank < MATCHED_BLOBS else guess
        if step is not None and step != (0, 0):
            found.append((blob, step))
    return found


def _matched(blob: Blob, before: np.ndarray, after: np.ndarray,
             guess: tuple[int, int] | None) -> tuple[int, int] | None:
    """How far the thing in ``blob`` moved from ``before`` to ``after``: the shift within MAX_STEP under which
    the frame before draws the blob's box best, or ``guess`` when it draws it as well; None when none draws it
    (a thing that appeared)."""
    x, y, w, h = blob.box
    if not MATCHED_AREA[0] <= w * h <= MATCHED_AREA[1]:
        return guess
    template = after[y : y + h, x : x + w]
    if guess is not None and _draws(before, template, x - guess[0], y - guess[1]):
        return guess
    height, width = before.shape[:2]
    x0, y0 = max(x - MAX_STEP, 0), max(y - MAX_STEP, 0)
    search = before[y0 : min(y + h + MAX_STEP, height), x0 : min(x + w + MAX_STEP, width)]
    # score[v, u]: the box drawn from the frame before at (x0 + u, y0 + v), i.e. moved by (x - x0 - u, y - y0 - v)
    scores = cv2.matchTemplate(search, template, cv2.TM_SQDIFF) / template.size
    least = float(scores.min())
    if least > MATCH_LEVEL**2:
        return guess
    if guess is not None:
        u, v = x - x0 - guess[0], y - y0 - guess[1]
        if 0 <= v < scores.shape[0] and 0 <= u < scores.shape[1] and scores[v, u] <= least + MATCH_LEVEL:
            return guess
    row, column = np.unravel_index(int(np.argmin(scores)), scores.shape)
    return x - x0 - int(column), y - y0 - int(row)


def _draws(before: np.ndarray, template: np.ndarray, x: int, y: int) -> bool:
    """Whether the frame before, at ``x, y``, draws ``template`` within MATCH_LEVEL."""
    h, w = template.shape[:2]
    if x < 0 or y < 0 or y + h > before.shape[0] or x + w > before.shape[1]:
        return False
    difference = cv2.absdiff(before[y : y + h, x : x + w], template).astype(np.float32)
    return float(np.mean(difference * difference)) <= MATCH_LEVEL**2


def _moved_on(frame: np.ndarray, steps: list[tuple[Blob, tuple[int, int]]], pace: float = 1.0) -> np.ndarray:
    """The next frame as the app's own motion would draw it: each thing that moved into ``frame`` moved on
    ``pace`` times as far again."""
    predicted = frame.copy()
    height, width = frame.shape[:2]
    for blob, (sx, sy) in steps:
        dx, dy = round(sx * pace), round(sy * pace)
        if not dx and not dy:
            continue
        x, y, w, h = blob.box
        reach = max(abs(dx), abs(dy)) + SLACK
        x0, y0 = max(x - reach, 0, dx), max(y - reach, 0, dy)
        x1, y1 = min(x + w + reach, width, width + dx), min(y + h + reach, height, height + dy)
        if x1 > x0 and y1 > y0:
            predicted[y0:y1, x0:x1] = frame[y0 - dy : y1 - dy, x0 - dx : x1 - dx]
    return predicted


def _unlike(predicted: np.ndarray, frame: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Where ``frame`` differs from ``predicted`` (within the box of ``where``), a pixel's neighbours counting
    as its place: a thing predicted one pixel off is predicted."""
    unlike = np.zeros(where.shape, bool)
    if not where.any():
        return unlike
    x, y, w, h = cv2.boundingRect(where.astype(np.uint8))
    height, width = where.shape
    x0, y0, x1, y1 = max(x - 1, 1), max(y - 1, 1), min(x + w + 1, width - 1), min(y + h + 1, height - 1)
    if x1 <= x0 or y1 <= y0:
        return unlike
    target = frame[y0:y1, x0:x1]
    least = None
    for sy in (-1, 0, 1):
        for sx in (-1, 0, 1):
            difference = _difference(target, predicted[y0 + sy : y1 + sy, x0 + sx : x1 + sx])
            least = difference if least is None else np.minimum(least, difference)
    assert least is not None
    unlike[y0:y1, x0:x1] = least > CHANGE_LEVEL
    return unlike


class _Seen:
    """The ticks around an input with when they were seen: what the app's own motion predicts for each."""

    def __init__(self, ticks: list[Tick]) -> None:
        self.frames = [tick.frame for tick in ticks]
        self.gaps = [0.0] + [b.time - a.time for a, b in zip(ticks, ticks[1:], strict=False)]
        self.period = float(np.median(self.gaps[1:]))

    def surprise(self, index: int) -> tuple[int, np.ndarray] | None:
        """The pixels tick ``index`` changed that differ from what the app's own motion over the two ticks
        before it predicts (and where): a turn, a jump, a shot fired, a letter gone. None when frames between
        these ticks went unseen: the motion between them is not known."""
        if max(self.gaps[index - 2 : index + 1]) > UNSEEN * self.period:
            return None
        frames = self.frames
        steps = _steps(frames, index - 1)
        now = _changes(frames[index - 1], frames[index])
        least: tuple[int, np.ndarray] | None = None
        for pace in self._paces(index):
            predicted = _moved_on(frames[index - 1], steps, pace)
            unexplained = now & _unlike(predicted, frames[index], now)
            pixels = int(unexplained.sum())
            if least is None or pixels < least[0]:
                least = pixels, unexplained
        return least

    def _paces(self, index: int) -> set[float]:
        """How far things may have moved at tick ``index`` against their last step: as far again, and as many
        times as far as the app's frames the two intervals may span (its frame period: the median interval)
        say: twice as far when a frame went unseen now, half as far when the last step spanned two."""
        now = _frames_spanned(self.gaps[index] / self.period)
        last = _frames_spanned(self.gaps[index - 1] / self.period)
        return {a / b for a in now for b in last}


def _frames_spanned(periods: float) -> set[int]:
    """How many frames of the app an interval of so many of its frame periods may span."""
    if periods < UNEVEN:
        return {1}
    return {1, math.floor(periods), math.ceil(periods)}


def _same_place(a: Box, b: Box) -> bool:
    return max(abs(a.x - b.x), abs(a.y - b.y), abs(a.right - b.right), abs(a.bottom - b.bottom)) <= SAME_PLACE


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(np.hypot(a[0] - b[0], a[1] - b[1]))
