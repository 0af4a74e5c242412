"""The artifacts folder's file names: one place for every name the loop writes and the reports read."""

from __future__ import annotations

from pathlib import Path
from typing import Literal, get_args

#: Which frames a run keeps: all, none, or only those of a run that did not pass.
ScreenshotMode = Literal["on", "off", "only-on-failure"]
SCREENSHOT_MODES: tuple[ScreenshotMode, ...] = get_args(ScreenshotMode)

FRAMES_DIR = "frames"
#: A frame's name: the window before the first action (step 0), then after each step.
FRAME_NAME = "step-{index:04d}.png"
FRAME_GLOB = "step-[0-9][0-9][0-9][0-9].png"
VERDICT_FILE = "verdict.json"
STORYBOARD_FILE = "storyboard.png"
ANIMATION_FILE = "run.gif"
TRAJECTORY_FILE = "trajectory.jsonl"
#: The inputs the app's source handles, as the offline tester read them before the run.
VOCABULARY_FILE = "vocabulary.json"
#: The stack dumps of launch N of a desktop app, asked for when it froze (where it was stuck).
STACKS_FILE = "stacks-{launch}.txt"
STDOUT_FILE = "stdout.txt"
STDERR_FILE = "stderr.txt"
#: Where the storyboard of the inputs a test sent by hand goes, inside its artifacts folder.
HAND_DIR = "by-hand"


def frame_path(frames_dir: Path, step_index: int) -> Path:
    """Where the run loop saves the window after step ``step_index`` (0 = before the first action)."""
    return Path(frames_dir) / FRAME_NAME.format(index=step_index)


def frames_in(frames_dir: Path) -> list[Path]:
    """The frames saved in ``frames_dir``, in step order."""
    return sorted(Path(frames_dir).glob(FRAME_GLOB)) if Path(frames_dir).is_dir() else []


def frame_step(frame: Path) -> int:
    """The step a frame file belongs to."""
    return int(frame.stem.removeprefix("step-"))
