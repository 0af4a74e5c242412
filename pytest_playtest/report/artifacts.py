"""The artifacts folder of a run: what it holds, where it lives, and how a finished run fills it.

Per test, artifacts live in ``<output root>/<slugify(nodeid)>/`` (later runs of the same test in ``run-2/``,
``run-3/``... inside it)::

    frames/step-0000.png   the window before the first action, then after each step (when screenshots are on)
    verdict.json           Verdict.to_dict()
    stdout.txt stderr.txt  what the app printed
    storyboard.png         one image of the run: a tile per step, the action drawn on it, findings in red
    run.gif                the frames as an animation
    trajectory.jsonl       the steps, when recording (--playtest-record)
    vocabulary.json        the inputs the app's source handles, as the offline tester read them
    coverage-N.data        coverage.py data of launch N, when coverage is measured
    stacks-N.txt           launch N's thread stacks, dumped when it froze (a desktop app's)
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import warnings
from pathlib import Path

from ..errors import OutputFolderError, PlaytestReportWarning
from ..files import (
    ANIMATION_FILE,
    FRAMES_DIR,
    SCREENSHOT_MODES,
    STDERR_FILE,
    STDOUT_FILE,
    STORYBOARD_FILE,
    VERDICT_FILE,
    frame_path,
    frames_in,
)
from ..trajectory import Step
from ..verdict import Finding, Verdict

#: Written into the output root so ``clean_output`` only ever deletes a folder this plugin created.
OUTPUT_MARKER = ".pytest-playtest"
MAX_SLUG_LENGTH = 120
_SLUG_HASH_LENGTH = 8
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


# -- the artifacts folder ----------------------------------------------------------------------------------
def slugify(nodeid: str) -> str:
    """A folder name for a test id: readable, filesystem- and glob-safe, at most MAX_SLUG_LENGTH characters.

    ``tests/test_snake.py::test_plays[fast]`` becomes ``tests_test_snake.py__test_plays-fast``. When
    characters had to be replaced (so two ids could meet) or the name was truncated, a short hash of the
    full id is appended to keep names distinct.
    """
    path, _, names = nodeid.partition("::")
    if names.endswith("]") and "[" in names:  # a parametrized test: name[id]
        name, _, parameters = names[:-1].partition("[")
        names = f"{name}-{parameters}"
    # path separators only stand for themselves in the file part: inside an id, "/" is as lossy as ":"
    readable = path.replace("/", "_").replace("\\", "_") + ("__" + names.replace("::", "__") if names else "")
    slug = _UNSAFE.sub("_", readable).lstrip(".") or "test"
    lossy = slug != readable
    if lossy or len(slug) > MAX_SLUG_LENGTH:
        digest = hashlib.sha1(nodeid.encode("utf-8", "surrogatepass")).hexdigest()[:_SLUG_HASH_LENGTH]
        slug = f"{slug[: MAX_SLUG_LENGTH - _SLUG_HASH_LENGTH - 1]}-{digest}"
    return slug


def artifacts_dir(root: Path, nodeid: str, run_index: int = 1) -> Path:
    """The folder for run ``run_index`` (1-based) of test ``nodeid``, created if missing."""
    if run_index < 1:
        raise ValueError(f"run_index starts at 1, got {run_index}")
    folder = Path(root) / slugify(nodeid)
    if run_index > 1:
        folder = folder / f"run-{run_index}"
    folder.mkdir(parents=True, exist_ok=True)
    return folder



def clean_output(root: Path) -> None:
    """Empty the output root at the start of a session, or create it.

    Only a folder this plugin created (it holds OUTPUT_MARKER) or an empty one is emptied: a mistyped
    ``--playtest-output .`` must not delete the user's files.
    """
    root = Path(root)
    if root.exists():
        if not root.is_dir():
            raise OutputFolderError(f"playtest output {root} exists and is not a folder")
        entries = [entry for entry in root.iterdir() if entry.name != OUTPUT_MARKER]
        if entries and not (root / OUTPUT_MARKER).exists():
            raise OutputFolderError(
                f"playtest output folder {root} is not empty and was not created by pytest-playtest; "
                "refusing to delete its contents. Empty it or choose another --playtest-output."
            )
        for entry in entries:
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
    root.mkdir(parents=True, exist_ok=True)
    (root / OUTPUT_MARKER).write_text("created by pytest-playtest; emptied at the start of each session\n")


def finalize_artifacts(
    folder: Path,
    verdict: Verdict,
    steps: list[Step],
    *,
    stdout: str,
    stderr: str,
    screenshots: str,
) -> None:
    """Write what a run leaves behind into ``folder`` (see the module docstring).

    ``screenshots`` is ``"on"``, ``"off"`` or ``"only-on-failure"``: with the latter the frames of a passing
    run are deleted and no storyboard is made. Findings get the absolute path of their step's frame (the final
    frame for end-of-run findings) when one is kept. Sets ``verdict.artifacts`` to ``folder`` if unset.
    """
    if screenshots not in SCREENSHOT_MODES:
        raise ValueError(f"screenshots must be one of {', '.join(SCREENSHOT_MODES)}, not {screenshots!r}")
    folder = Path(folder).absolute()
    folder.mkdir(parents=True, exist_ok=True)
    if verdict.artifacts is None:
        verdict.artifacts = folder
    frames_dir = folder / FRAMES_DIR
    frames = frames_in(frames_dir)

    if frames and screenshots == "only-on-failure" and verdict.passed:
        shutil.rmtree(frames_dir)
    elif frames and screenshots != "off":
        _attach_screenshots(verdict.findings, frames_dir, frames[-1])
        from .animation import build_animation  # the drawing libraries load with the first pictures
        from .storyboard import build_storyboard

        try:
            build_storyboard(steps, frames_dir, verdict.findings, folder / STORYBOARD_FILE, verdict=verdict)
            build_animation(frames_dir, folder / ANIMATION_FILE)
        except (OSError, ValueError) as exc:  # a damaged frame must not turn the verdict into a test error
            message = f"could not draw the storyboard or animation in {folder}: {exc}"
            warnings.warn(PlaytestReportWarning(message), stacklevel=2)

    write_verdict(verdict, folder)
    (folder / STDOUT_FILE).write_text(stdout, encoding="utf-8", errors="replace")
    (folder / STDERR_FILE).write_text(stderr, encoding="utf-8", errors="replace")



def _attach_screenshots(findings: list[Finding], frames_dir: Path, final_frame: Path) -> None:
    for finding in findings:
        if finding.screenshot:
            continue
        frame = final_frame if finding.step is None else frame_path(frames_dir, finding.step)
        if frame.exists():
            finding.screenshot = str(frame)


def write_verdict(verdict: Verdict, folder: Path) -> None:
    """The verdict's file in its artifacts folder (written again when a later stage adds notes to it)."""
    (folder / VERDICT_FILE).write_text(json.dumps(verdict.to_dict(), indent=2) + "\n", encoding="utf-8")
