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
#: The coarse picture's grid: columns and rows of tiles over the window.
TILES = (16, 12)
#: How far (0-255, in any colour channel) a tile's mean colour may move before the tile differs: a caret
#: that blinks, a few pixels of anti-aliasing stay below it; a sprite, a panel or a colour that changed does not.
TILE_TOLERANCE = 40
#: At most this many differences are spelled out per step.
SHOWN_DIFFERENCES = 3
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

    def learn(self, one: Sight, other: Sight) -> None:
        """Take what differs between two sights of the same app as noise."""
        self.alive |= one.alive != other.alive
        self.labels |= set(_changed_labels(one, other))
        self.tiles |= set(_changed_tiles(one, other))

    def to_dict(self) -> dict[str, Any]:
        return {"labels": sorted(self.labels), "tiles": sorted(self.tiles), "alive": self.alive}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Noise:
        return cls(labels={str(x) for x in data.get("labels", [])}, tiles={int(x) for x in data.get("tiles", [])},
                   alive=bool(data.get("alive", False)))


def differences(reference: Sight, seen: Sight, noise: Noise) -> list[str]:
    """What a person would notice differs between the reference's sight and this run's, beyond the noise.

    The pictures of an app that moves by itself are not compared: a replay's inputs come a few frames
    earlier or later, and its sprites are elsewhere without anything being wrong (its text, and whether
    it is there, still are; a line there is text when it has a digit or a word of two letters)."""
    found: list[str] = []
    if reference.alive != seen.alive and not noise.alive:
        found.append("the app had exited (the reference's was still running)" if reference.alive
                     else "the app was still running (the reference's had exited)")
    mine, theirs = _by_label(reference), _by_label(seen)
    for name in _changed_labels(reference, seen):
        if name in noise.labels:
            continue
        shown, now = (sorted(lines.get(name, Counter()).elements()) for lines in (mine, theirs))
        found.append(f"the reference showed {_quoted(shown) or 'no such line'}, "
                     f"this run {_quoted(now) or 'showed none'}")
    moving = reference.moving or seen.moving
    tiles = [] if moving else [t for t in _changed_tiles(reference, seen) if t not in noise.tiles]
    if tiles:
        found.append(f"the picture differs in {len(tiles)} of {TILES[0] * TILES[1]} regions, the first around "
                     f"{_tile_centre(tiles[0], seen.window or reference.window)}")
    return found


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
