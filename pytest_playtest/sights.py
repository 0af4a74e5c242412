"""What a person would notice on the screen after each input, and what differs between two runs' sights.

A differential run (docs/differential.md) takes a :class:`Sight` after every step: whether the app is still
there, the lines of text it shows (OCR on the desktop, the DOM's text on a web page) and a coarse picture
(the mean colour of each tile of a grid over the window). Two runs of the same inputs are compared sight by
sight. What differed between two runs of the *same* app is :class:`Noise` (a clock, a frame counter, a sprite
that moved a few pixels more): it is learned, not guessed, and never counted as a divergence.

Lines are matched by their label: the line with its numbers taken out ("Score: #"). A label whose numbers
differ, or that one run shows and the other does not, is a difference; a noisy label (its numbers changed
between two runs of the same app) is not compared.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .files import TRAJECTORY_FILE, frame_step, frames_in
from .trajectory import Trajectory, read_records

SIGHTS_FILE = "sights.jsonl"
#: The golden run's pictures, small: step 0 and each step whose picture differs from the last one kept.
THUMBNAILS_DIR = "frames"
#: At most this many pictures are kept with a golden run (spread over its steps when it changes more often).
MAX_THUMBNAILS = 24
FORMAT_VERSION = 1
# The differential's knowledge (what makes two sights differ) is the data layer's one table of deciding numbers.
#: [tiles] the coarse picture's grid: columns and rows of tiles over the window
TILES = (16, 12)
#: [level 0-255] how far, in any colour channel, a tile's mean colour may move before the tile differs: a caret
#: that blinks, a few pixels of anti-aliasing stay below it; a sprite, a panel or a colour that changed does not
TILE_TOLERANCE = 40
#: [share of the run] the last share of a run in which a line the reference first showed may not come in a replay
#: of an app that moves by itself (a replay a few frames slower shows it after its last step)
LATE = 0.1
#: [differences] at most this many differences are spelled out per step
SHOWN_DIFFERENCES = 3
#: [share of tiles] a recording whose replays differed in more of the picture than this is unstable: a check
#: against it compares too little of the screen to see a slip, and says so rather than passing quietly
UNSTABLE_NOISE = 0.5
_NUMBER = re.compile(r"[-+]?\d+(?:[.,:]\d+)*")
#: What makes a line on a moving app text: a digit or a word of two letters (OCR reads a sprite now and then as
#: one glyph: a bird as «[]», a ghost as «口»).
_WORDS = re.compile(r"\d|[^\W\d_]{2}")


def label(line: str) -> str:
    """The line with its numbers taken out and its spacing and case evened: what says which line it is."""
    return _NUMBER.sub("#", " ".join(line.split())).lower()


@dataclass(frozen=True)
class Sight:
    """The screen after one step (step 0: the first paint, before any input)."""

    step: int
    alive: bool
    lines: tuple[str, ...] = ()
    #: the mean colour of each tile, ``rrggbb`` each, row by row (``TILES``); "" when no window was seen
    tiles: str = ""
    window: tuple[int, int] = (0, 0)
    #: whether the app was moving by itself: where its sprites are then depends on when the step came
    moving: bool = False

    def colours(self) -> list[tuple[int, int, int]]:
        return [(int(self.tiles[i:i + 2], 16), int(self.tiles[i + 2:i + 4], 16), int(self.tiles[i + 4:i + 6], 16))
                for i in range(0, len(self.tiles), 6)]

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step, "alive": self.alive, "lines": list(self.lines), "tiles": self.tiles,
                "window": list(self.window), "moving": self.moving}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Sight:
        return cls(step=int(data["step"]), alive=bool(data["alive"]), lines=tuple(str(x) for x in data["lines"]),
                   tiles=str(data.get("tiles", "")), window=(int(data["window"][0]), int(data["window"][1])),
                   moving=bool(data.get("moving", False)))


@dataclass
class Noise:
    """What differed between runs of the same app and inputs: labels of lines and tiles of the picture."""

    labels: set[str] = field(default_factory=set)
    tiles: set[int] = field(default_factory=set)
    #: whether the app's being there at all varied (it exits at a moment that depends on time)
    alive: bool = False
    #: labels whose course over a run of a moving app varied (``run_differences``); a score that changed a step
    #: sooner or later is noise step by step and not over the run
    run_labels: set[str] = field(default_factory=set)

    def learn(self, one: Sight, other: Sight) -> None:
        """Take what differs between two sights of the same app as noise."""
        self.alive |= one.alive != other.alive
        self.labels |= set(_changed_labels(one, other))
        self.tiles |= set(_changed_tiles(one, other))

    def learn_runs(self, one: list[Sight], other: list[Sight]) -> None:
        """Take the lines one of two runs of the same app showed while it moved and the other did not, or that
        changed, or went up or down, in one and not in the other, as noise."""
        mine, theirs = (_shown([sight for sight in run if sight.moving]) for run in (one, other))
        self.run_labels |= {name for name in mine.keys() | theirs.keys()
                            if name not in mine or name not in theirs or mine[name].changed != theirs[name].changed
                            or mine[name].side != theirs[name].side}

    def unstable(self) -> str:
        """Why a golden run with this noise cannot be trusted ("" when it can): the app's being there varied
        between its replays, or most of its picture did."""
        reasons = ["whether the app was still running"] if self.alive else []
        if len(self.tiles) > UNSTABLE_NOISE * TILES[0] * TILES[1]:
            reasons.append(f"{len(self.tiles)} of {TILES[0] * TILES[1]} regions of the picture")
        return " and ".join(reasons)

    def to_dict(self) -> dict[str, Any]:
        return {"labels": sorted(self.labels), "tiles": sorted(self.tiles), "alive": self.alive,
                "run_labels": sorted(self.run_labels)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Noise:
        return cls(labels={str(x) for x in data.get("labels", [])}, tiles={int(x) for x in data.get("tiles", [])},
                   alive=bool(data.get("alive", False)), run_labels={str(x) for x in data.get("run_labels", [])})


def differences(reference: Sight, seen: Sight, noise: Noise) -> list[str]:
    """What a person would notice differs between the reference's sight and this run's, beyond the noise.

    Only whether an app that moves by itself is there is compared step by step: a replay's inputs come a few
    frames earlier or later, so its sprites are elsewhere and its score changes a step sooner or later
    without anything being wrong. What it shows is compared over the whole run (``run_differences``)."""
    found: list[str] = []
    if reference.alive != seen.alive and not noise.alive:
        found.append("the app had exited (the reference's was still running)" if reference.alive
                     else "the app was still running (the reference's had exited)")
    if reference.moving or seen.moving:
        return found
    mine, theirs = _by_label(reference), _by_label(seen)
    for name in _changed_labels(reference, seen):
        if name in noise.labels:
            continue
        shown, now = (sorted(lines.get(name, Counter()).elements()) for lines in (mine, theirs))
        found.append(f"the reference showed {_quoted(shown) or 'no such line'}, "
                     f"this run {_quoted(now) or 'showed none'}")
    tiles = [t for t in _changed_tiles(reference, seen) if t not in noise.tiles]
    if tiles:
        found.append(f"the picture differs in {len(tiles)} of {TILES[0] * TILES[1]} regions, the first around "
                     f"{_tile_centre(tiles[0], seen.window or reference.window)}")
    return found


def run_differences(reference: list[Sight], seen: list[Sight], noise: Noise) -> list[tuple[int, str]]:
    """What an app that moves by itself showed over a run against the reference's, each with the step it
    shows at: a line the reference showed all along that this run never showed; and, of the lines it showed
    most of the time (a score while playing, not the score of a game-over screen, which comes and goes with
    time), one that changed (rose) in the reference and never changed in this run, or whose number went only
    up from where it started in one and only down in the other; lines matched by label.

    Whether a game ends, when, and how far a score gets depend on when each input met the game's frames,
    which a replay cannot repeat; that a score which moved before still moves, and which way, and that what
    was always on the screen is there, do not. A line the reference first changed in the ``LATE`` end of the
    run may change after a slower replay's end, and is not compared."""
    last = max((sight.step for sight in seen), default=-1)
    moving = [sight for sight in reference if sight.moving and sight.step <= last * (1 - LATE)]
    theirs, mine = _shown(moving), _shown(seen)
    found = []
    for name, shown in theirs.items():
        if name in noise.run_labels:
            continue
        if name not in mine and shown.sights == len(moving):
            found.append((last, f"the reference showed «{shown.lines[0]}» all along, this run never did"))
        elif name not in mine or 2 * shown.sights < len(moving):
            continue
        elif shown.changed and not mine[name].changed:
            found.append((last, f"«{mine[name].lines[0]}» never changed, where the reference's went from "
                                f"«{shown.lines[0]}» to «{shown.lines[-1]}»"))
        elif shown.side * mine[name].side < 0:
            found.append((last, f"«{mine[name].lines[0]}» went only {_WAY[mine[name].side]} from there, where the "
                                f"reference's went only {_WAY[shown.side]} from «{shown.lines[0]}»"))
    return found


@dataclass
class _Shown:
    """The lines of one label a run showed: in how many sights, and each line as it came."""

    sights: int = 0
    lines: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return len(self.lines) > 1

    @property
    def side(self) -> int:
        """1 if the line's number only went above where it started, -1 if only below; 0: both, or neither
        (a score that restarts from 0 still only went up)."""
        numbers = [_first_number(line) for line in self.lines]
        first = numbers[0]
        if first is None:
            return 0
        above = any(number is not None and number > first for number in numbers)
        below = any(number is not None and number < first for number in numbers)
        return above - below


_WAY = {1: "up", -1: "down"}


def _first_number(line: str) -> float | None:
    match = _NUMBER.search(line)
    try:
        return float(match.group().replace(",", "").replace(":", "")) if match else None
    except ValueError:  # a number OCR split in odd places
        return None


def _shown(sights: list[Sight]) -> dict[str, _Shown]:
    """The lines the sights show, by label."""
    shown: dict[str, _Shown] = {}
    for sight in sights:
        for name, lines in _by_label(sight).items():
            seen = shown.setdefault(name, _Shown())
            seen.sights += 1
            seen.lines.extend(line for line in lines if line not in seen.lines)
    return shown


def picture_changed(one: Sight, other: Sight) -> bool:
    """Whether two sights' coarse pictures differ in any tile."""
    return bool(_changed_tiles(one, other))


def _by_label(sight: Sight) -> dict[str, Counter[str]]:
    lines: dict[str, Counter[str]] = {}
    for line in sight.lines:
        if sight.moving and not _WORDS.search(line):
            continue
        lines.setdefault(label(line), Counter())[" ".join(line.split())] += 1
    return lines


def _changed_labels(one: Sight, other: Sight) -> list[str]:
    mine, theirs = _by_label(one), _by_label(other)
    return [name for name in dict.fromkeys([*mine, *theirs]) if mine.get(name) != theirs.get(name)]


def _changed_tiles(one: Sight, other: Sight) -> list[int]:
    if not one.tiles or not other.tiles or len(one.tiles) != len(other.tiles):
        return []  # a window seen against none: the app's being there says it
    return [index for index, (a, b) in enumerate(zip(one.colours(), other.colours(), strict=True))
            if max(abs(x - y) for x, y in zip(a, b, strict=True)) > TILE_TOLERANCE]


def _tile_centre(tile: int, window: tuple[int, int]) -> str:
    columns, rows = TILES
    x, y = (tile % columns + 0.5) * window[0] / columns, (tile // columns + 0.5) * window[1] / rows
    return f"({x:.0f}, {y:.0f})"


def _quoted(lines: list[str]) -> str:
    return ", ".join(f"«{line}»" for line in lines)


@dataclass
class Golden:
    """A recorded run to compare with: its inputs (a trajectory), its sights and their noise.

    On disk, a folder: ``trajectory.jsonl`` (the inputs, as ``--playtest-record`` writes them) and
    ``sights.jsonl`` (a header line ``{"sights": 1, "noise": {...}, ...}``, then one sight per line).
    """

    trajectory: Trajectory
    sights: list[Sight]
    noise: Noise
    header: dict[str, Any] = field(default_factory=dict)
    #: the folder it was read from (None: not written yet)
    folder: Path | None = None

    def write(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.trajectory.write(folder)
        lines = [json.dumps({"sights": FORMAT_VERSION, **self.header, "noise": self.noise.to_dict()}),
                 *(json.dumps(sight.to_dict()) for sight in self.sights)]
        (folder / SIGHTS_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")

    @classmethod
    def read(cls, folder: Path) -> Golden:
        """Read a golden folder; a bad file is a ValueError naming the file and line."""
        trajectory = Trajectory.read(folder / TRAJECTORY_FILE)
        header, sights = read_records(folder / SIGHTS_FILE, "sights", FORMAT_VERSION, Sight.from_dict)
        noise = Noise.from_dict(header.pop("noise", {}))
        return cls(trajectory=trajectory, sights=sights, noise=noise, header=header, folder=folder)

    def sight(self, step: int) -> Sight | None:
        return next((sight for sight in self.sights if sight.step == step), None)

    def picture(self, step: int) -> Path | None:
        """The kept picture of the golden run at ``step``: the last one kept at or before it."""
        if self.folder is None:
            return None
        kept = [p for p in frames_in(self.folder / THUMBNAILS_DIR) if frame_step(p) <= step]
        return kept[-1] if kept else None

    def thumbnail_steps(self) -> list[int]:
        """The steps whose pictures are kept: step 0 and each whose picture differs from the last kept."""
        kept: list[Sight] = []
        for sight in self.sights:
            if not kept or picture_changed(kept[-1], sight):
                kept.append(sight)
        steps = [sight.step for sight in kept]
        if len(steps) <= MAX_THUMBNAILS:
            return steps
        return [steps[round(i * (len(steps) - 1) / (MAX_THUMBNAILS - 1))] for i in range(MAX_THUMBNAILS)]
