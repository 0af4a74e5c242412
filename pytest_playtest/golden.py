"""Golden runs: a passing playtest's inputs and what the screen showed after each, kept beside the tests and
replayed later; a run whose app now shows something else diverges (docs/differential.md).

    pytest --playtest --playtest-golden record   # keep a golden run for every passing playtest without one
    pytest --playtest                            # a playtest with a golden run replays it and compares
    pytest --playtest --playtest-golden update   # record every golden run anew: the new behaviour is right
    pytest --playtest --playtest-golden off      # play as if there were none

A recording is the playtest as usual (it explores), then ``NOISE_REPLAYS`` replays of its inputs: the first
replay's sights are the golden ones, and what differed between the replays is their noise.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from PIL import Image

from .actions import Action
from .files import FRAMES_DIR, VOCABULARY_FILE, frame_path
from .loop.spec import Differential, RunResult, RunSpec
from .pipeline import Runtime
from .report.artifacts import slugify, write_verdict
from .settings import GoldenMode
from .sights import SIGHTS_FILE, THUMBNAILS_DIR, Golden, Noise
from .source import Vocabulary
from .trajectory import Step, Trajectory
from .verdict import Verdict

#: The folder of golden runs beside a test file: ``playtest-golden/<test file's stem>/<test>/``.
GOLDEN_DIR = "playtest-golden"
#: How often a new recording is replayed: the first replay is the golden run, the others measure its noise.
NOISE_REPLAYS = 2
#: The largest a kept picture of a golden run is (width, height).
THUMBNAIL_SIZE = (320, 320)
#: What became of a run's golden run (the ``golden`` entry of the test's report).
#: ``unstable``: recorded or updated, but its replays differed beyond the noise a check can set aside
Outcome = Literal["checked", "recorded", "updated", "unstable", "not recorded", ""]
#: the note that starts what a run says of an untrustworthy golden run (a person searches the report for it)
UNSTABLE = "golden: unstable"
#: the note that starts the list of the app's own inputs its golden run never gave
UNEXERCISED = "golden: never exercised"
#: the note that names the app's own inputs a recording gave after its exploring run, which never did
EXERCISED = "golden: given at the end of the recording"
#: The mouse button each pointer action is given with.
BUTTON_OF = {"click": "left", "double_click": "left", "drag": "left", "right_click": "right"}
#: How long after the input before it a recording's added input comes (a moving app's replay keeps that pace):
#: an input's effect is drawn within it, on a loaded machine too.
EXERCISE_GAP = 0.5


def golden_folder(test_file: Path, nodeid: str, run: int) -> Path:
    """Where the golden run of a test's ``run``-th playtest lives (beside its file, as snapshots do)."""
    name = slugify(nodeid.partition("::")[2] or nodeid)
    folder = test_file.parent / GOLDEN_DIR / test_file.stem / name
    return folder if run == 1 else folder / f"run-{run}"


def golden_folders(test_file: Path) -> Iterator[tuple[Path, str, int]]:
    """The golden runs kept for a test file: each folder with the test id and the run it was recorded for."""
    root = test_file.parent / GOLDEN_DIR / test_file.stem
    for sights in sorted(root.glob(f"**/{SIGHTS_FILE}")) if root.is_dir() else []:
        try:
            header = json.loads(sights.read_text(encoding="utf-8").partition("\n")[0])
        except (OSError, ValueError):
            continue
        if isinstance(header, dict) and "test" in header:
            yield sights.parent, str(header["test"]), int(header.get("run", 1))


@dataclass
class GoldenRun:
    """The golden run kept in ``folder``, played as the mode says.

    ``header`` is what the kept run says of itself (the test and its run; a benchmark's task), ``base`` the
    folder an app's path is written relative to (golden runs are committed and checked out elsewhere).
    """

    runtime: Runtime
    mode: GoldenMode
    folder: Path
    header: dict[str, Any]
    base: Path

    @classmethod
    def of_test(cls, runtime: Runtime, mode: GoldenMode, test_file: Path, test: str, run: int = 1) -> GoldenRun:
        """The golden run of a test's ``run``-th playtest, beside its file."""
        return cls(runtime, mode, golden_folder(test_file, test, run), {"test": test, "run": run}, test_file.parent)

    def play(self, spec: RunSpec, *, artifacts: Path, default_cwd: Path) -> tuple[RunResult, Outcome]:
        """The run (a replay checked against the golden run, or a playtest recorded as one) and what became of it."""
        kept = (self.folder / SIGHTS_FILE).is_file()
        if self.mode == "off" or (self.mode == "check" and not kept):
            return self._play(spec, artifacts, default_cwd), ""
        outcome: Outcome
        if kept and self.mode != "update":
            result, outcome = self._check(spec, artifacts, default_cwd), "checked"
        else:
            result, outcome = self._record(spec, artifacts, default_cwd, "updated" if kept else "recorded")
        if result.verdict.artifacts is not None:  # with the golden run's notes
            write_verdict(result.verdict, Path(result.verdict.artifacts))
        return result, outcome

    def _play(self, spec: RunSpec, artifacts: Path, default_cwd: Path) -> RunResult:
        return self.runtime.play(spec, artifacts=artifacts, default_cwd=default_cwd)

    def _check(self, spec: RunSpec, artifacts: Path, default_cwd: Path) -> RunResult:
        try:
            golden = Golden.read(self.folder)
        except (OSError, ValueError) as exc:
            verdict = Verdict(status="error", error=f"the golden run cannot be read: {exc}", policy="replay")
            return RunResult(verdict, [])
        result = self._play(_replaying(spec, self.folder, len(golden.trajectory.steps), golden), artifacts,
                            default_cwd)
        result.verdict.notes.append(f"replayed and compared with the golden run in {self.folder}")
        _note_unexercised(result.verdict, golden.header.get("unexercised", []))
        unstable = golden.noise.unstable()
        if unstable:
            result.verdict.notes.append(f"{UNSTABLE}: its recording's replays differed in {unstable}; this check "
                                        "compared little (record it anew: --playtest-golden update)")
        return result

    def _record(self, spec: RunSpec, artifacts: Path, default_cwd: Path,
                outcome: Outcome) -> tuple[RunResult, Outcome]:
        result = self._play(dataclasses.replace(spec, record=True), artifacts, default_cwd)
        if result.verdict.status != "pass":
            result.verdict.notes.append("no golden run recorded: the playtest did not pass")
            return result, "not recorded"
        recording, steps, added = _exercising(result, artifacts)
        replays = []
        for number in range(1, NOISE_REPLAYS + 1):
            replay = self._play(_replaying(spec, recording, steps), artifacts / f"golden-replay-{number}", default_cwd)
            if replay.verdict.status != "pass":
                result.verdict.notes.append(f"no golden run recorded: replay {number} of the playtest's inputs "
                                            f"did not pass ({replay.verdict.summary().splitlines()[0]})")
                return result, "not recorded"
            replays.append(replay)
        missing = unexercised(_vocabulary(result.verdict), replays[0].steps)
        golden = self._keep(spec, replays, missing)
        result.verdict.notes.append(f"golden run {outcome} in {self.folder}")
        if added:
            result.verdict.notes.append(f"{EXERCISED} (its exploring run never gave them): {', '.join(added)}")
        _note_unexercised(result.verdict, missing)
        unstable = golden.noise.unstable()
        if unstable:
            result.verdict.notes.append(f"{UNSTABLE}: two replays of the recorded inputs differed in {unstable}; "
                                        "a check against it compares little")
            return result, "unstable"
        return result, outcome

    def _keep(self, spec: RunSpec, replays: list[RunResult], missing: list[str]) -> Golden:
        first = replays[0]
        noise = Noise()
        for other in replays[1:]:
            theirs = {sight.step: sight for sight in other.sights}
            for sight in first.sights:
                if sight.step in theirs:
                    noise.learn(sight, theirs[sight.step])
            noise.learn_runs(first.sights, other.sights)
        steps = [step for step in first.steps if step.action.kind != "finish"]
        app = _relative(spec.app, self.base)
        header = {**self.header, "app": app, "seed": spec.seed, "unexercised": missing}
        golden = Golden(Trajectory({"app": app, "policy": spec.policy, "seed": spec.seed}, steps),
                        first.sights, noise, header)
        shutil.rmtree(self.folder / THUMBNAILS_DIR, ignore_errors=True)  # no picture of an older golden run stays
        golden.write(self.folder)
        if first.verdict.artifacts is not None:
            _keep_pictures(golden, Path(first.verdict.artifacts) / FRAMES_DIR, self.folder / THUMBNAILS_DIR)
        return golden


def unexercised(vocabulary: Vocabulary | None, steps: Sequence[Step]) -> list[str]:
    """The app's own inputs (its vocabulary's keys and mouse buttons, named as the dead-control check names them)
    that none of ``steps`` gave: what they do, a check against those steps cannot compare."""
    if vocabulary is None:
        return []
    keys = {step.action.key for step in steps if step.action.kind in ("press", "hold")}
    buttons = {BUTTON_OF[step.action.kind] for step in steps if step.action.kind in BUTTON_OF}
    return ([f"key {key}" for key in vocabulary.safe_keys if key not in keys]
            + [f"{button} click" for button in vocabulary.buttons if button not in buttons])


def exercise(vocabulary: Vocabulary | None, steps: Sequence[Step]) -> list[tuple[str, Action]]:
    """An input for each of the app's own keys and mouse buttons none of ``steps`` gave (``unexercised``), by
    name: a key pressed once, a button clicked where the last pointer input landed (else mid-window), so that a
    check compares what each of them does. A button no action gives (the middle one) stays unexercised."""
    pointer = next((step.action.target for step in reversed(steps) if step.action.target is not None), None)
    if pointer is None:
        width, height = steps[-1].window if steps else (0, 0)
        pointer = (width // 2, height // 2)
    given = {"left click": Action.click(*pointer), "right click": Action.right_click(*pointer)}
    return [(name, Action.press(name.removeprefix("key ")) if name.startswith("key ") else given[name])
            for name in unexercised(vocabulary, steps) if name.startswith("key ") or name in given]


def _exercising(result: RunResult, artifacts: Path) -> tuple[Path, int, list[str]]:
    """The recording the golden run replays (a folder holding its trajectory), its number of steps and the names
    of the inputs added to it: the playtest's inputs, then once each of the app's own that they never gave."""
    played = [step for step in result.steps if step.action.kind != "finish"]
    added = exercise(_vocabulary(result.verdict), played)
    if not added or not played:
        return artifacts, len(result.steps), []
    last = played[-1]
    steps = played + [Step(index=last.index + number, action=action, window=last.window,
                           started=last.started + last.duration + number * EXERCISE_GAP)
                      for number, (_, action) in enumerate(added, start=1)]
    folder = artifacts / "golden-recording"
    Trajectory(Trajectory.read(artifacts).header, steps).write(folder)
    return folder, len(steps), [name for name, _ in added]


def _vocabulary(verdict: Verdict) -> Vocabulary | None:
    """What the run read the app's code to handle (its artifacts' vocabulary file), if it was written."""
    if verdict.artifacts is None:
        return None
    try:
        return Vocabulary.from_dict(json.loads((Path(verdict.artifacts) / VOCABULARY_FILE).read_text("utf-8")))
    except (OSError, ValueError, TypeError, KeyError):
        return None


def _note_unexercised(verdict: Verdict, missing: Sequence[str]) -> None:
    if missing:
        verdict.notes.append(f"{UNEXERCISED}: {', '.join(missing)} (what they do is not compared: a longer "
                             "budget, or a scenario that gives them, exercises them)")


def _keep_pictures(golden: Golden, frames: Path, into: Path) -> None:
    """Small copies of the frames of the steps the golden run keeps pictures of (as the replay saved them)."""
    for step in golden.thumbnail_steps():
        frame = frame_path(frames, step)
        if frame.exists():
            into.mkdir(parents=True, exist_ok=True)
            with Image.open(frame) as picture:
                picture.thumbnail(THUMBNAIL_SIZE)
                picture.save(frame_path(into, step), optimize=True)


def _relative(app: str | list[str], base: Path) -> str | list[str]:
    """The app as a golden run names it: a path under the tests' folder relative to it (golden runs are
    committed, and checked out elsewhere)."""
    if not isinstance(app, str):
        return app
    try:
        return str(Path(app).relative_to(base))
    except ValueError:
        return app


def _replaying(spec: RunSpec, recording: Path, steps: int, golden: Golden | None = None) -> RunSpec:
    """The spec of a replay of the ``steps`` inputs of ``recording`` (a golden run's folder or a run's
    artifacts), its sights taken and, with ``golden``, compared with its."""
    return dataclasses.replace(spec, policy="replay", options={**spec.options, "replay": str(recording)},
                               max_steps=steps + 1, record=False, differential=Differential(golden))
