"""Golden runs: sights compared with their noise, the golden files, and record → check → diverge → update
through pytest on a real Tk app and a real page."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import numpy as np
import pytest

from pytest_playtest.actions import Action
from pytest_playtest.golden import exercise, unexercised
from pytest_playtest.policies.base import Observation, PolicyContext
from pytest_playtest.policies.replay import ReplayPolicy
from pytest_playtest.sights import SIGHTS_FILE, Golden, Noise, Sight, differences, label, run_differences
from pytest_playtest.source import Vocabulary
from pytest_playtest.trajectory import Step, Trajectory
from tests.support import APPS, REPO

WEB = REPO / "fixtures" / "webapps"

TILES = "202020" * 192


def sight(*lines: str, step: int = 1, alive: bool = True, tiles: str = TILES) -> Sight:
    return Sight(step, alive, lines, tiles, (800, 600))


def test_a_line_is_known_by_its_words_and_its_numbers_are_compared() -> None:
    assert label("Score:  12   Lives: 3") == label("score: 7 lives: 0") == "score: # lives: #"
    found = differences(sight("Dice: 2 and 5", "Total: 7"), sight("Dice: 2 and 5", "Total: 4"), Noise())
    assert found == ["the reference showed «Total: 7», this run «Total: 4»"]
    assert differences(sight("Total: 7"), sight("Total: 7", "Game over"), Noise()) == [
        "the reference showed no such line, this run «Game over»"]
    assert differences(sight("hello"), sight("hello", "hello"), Noise()) == [
        "the reference showed «hello», this run «hello», «hello»"]  # a note added twice


def test_what_differed_between_two_runs_of_the_same_app_is_noise_and_not_a_divergence() -> None:
    noise = Noise()
    noise.learn(sight("Time: 3", "Total: 7"), sight("Time: 4", "Total: 7"))
    assert noise.labels == {"time: #"}
    assert differences(sight("Time: 3", "Total: 7"), sight("Time: 9", "Total: 7"), noise) == []
    assert differences(sight("Time: 3", "Total: 7"), sight("Time: 9", "Total: 8"), noise) != []


def test_the_coarse_picture_differs_only_beyond_its_noise() -> None:
    moved = "ffffff" + TILES[6:]  # the top-left tile turned white
    found = differences(sight(), sight(tiles=moved), Noise())
    assert found == ["the picture differs in 1 of 192 regions, the first around (25, 25)"]
    slight = "303030" + TILES[6:]  # within the tolerance
    assert differences(sight(), sight(tiles=slight), Noise()) == []
    noise = Noise()
    noise.learn(sight(), sight(tiles=moved))
    assert noise.tiles == {0} and differences(sight(), sight(tiles=moved), noise) == []


def test_an_app_that_moves_by_itself_is_compared_step_by_step_only_by_being_there() -> None:
    moved = "ffffff" + TILES[6:]
    game = Sight(3, True, ("Score: 2",), TILES, (800, 600), moving=True)
    assert differences(game, Sight(3, True, ("Score: 1",), moved, (800, 600), moving=True), Noise()) == []
    assert differences(game, Sight(3, False, (), moved, (800, 600), moving=True), Noise()) == [
        "the app had exited (the reference's was still running)"]


def _game(*lines_per_step: tuple[str, ...]) -> list[Sight]:
    return [Sight(step, True, lines, TILES, (800, 600), moving=True) for step, lines in enumerate(lines_per_step)]


def test_what_a_moving_app_showed_is_compared_over_the_run_whenever_it_showed_it() -> None:
    reference = _game(("Score: 0",), ("Score: 0",), ("Score: 1",), ("Score: 1",), ("Score: 2",), *[("Score: 2",)] * 15)
    later = _game(("Score: 0",), ("Score: 0",), ("Score: 0",), ("Score: 1",), ("Score: 1",), *[("Score: 2",)] * 15)
    assert run_differences(reference, later, Noise()) == []  # a step later is no divergence
    fewer = _game(("Score: 0",), *[("Score: 1", "Game over")] * 19)
    assert run_differences(reference, fewer, Noise()) == []  # how far it gets, and whether it ends, depend on time
    stuck = _game(*[("Score: 0",)] * 20)
    assert run_differences(reference, stuck, Noise()) == [
        (19, "«Score: 0» never changed, where the reference's went from «Score: 0» to «Score: 2»")]
    falling = _game(("Score: 0",), ("Score: -1",), *[("Score: -2",)] * 18)
    assert run_differences(reference, falling, Noise()) == [
        (19, "«Score: 0» went only down from there, where the reference's went only up from «Score: 0»")]
    # a game that restarts from 0 still only went up; a game-over screen's score comes and goes with time
    restarted = _game(("Score: 0",), ("Score: 3",), ("Score: 0",), *[("Score: 1",)] * 5, ("Over: 9",),
                      *[("Score: 2",)] * 11)
    over_later = _game(*[("Score: 0",)] * 2, *[("Score: 1",)] * 2, ("Over: 1",), ("Over: 0",), *[("Score: 2",)] * 14)
    assert run_differences(restarted, over_later, Noise()) == []
    assert run_differences(reference, _game(*[("Lives: 3",)] * 20), Noise()) == [
        (19, "the reference showed «Score: 0» all along, this run never did")]
    # a line the reference first changed in the last tenth of the run may change after a replay's end
    late = _game(*[("Score: 0",)] * 19, ("Score: 1",))
    assert run_differences(late, stuck, Noise()) == []
    # a sprite OCR read as a glyph is no text
    assert run_differences(reference, _game(*[("Score: 0", "口")] * 3, *[("Score: 1",)] * 17), Noise()) == []


def test_two_runs_of_a_moving_app_that_reached_different_lines_make_them_noise() -> None:
    noise = Noise()
    noise.learn_runs(_game(("Score: 0",), ("Score: 1",)), _game(("Score: 0",), ("Score: 0",)))
    assert noise.run_labels == {"score: #"} and not noise.labels
    # a score that changed a step sooner in one replay is noise step by step, not over the run
    stepwise = Noise(labels={"score: #"})
    assert run_differences(_game(*[("Score: 0",)] * 3, *[("Score: 1",)] * 7), _game(*[("Score: 0",)] * 10), stepwise)
    rose_and_fell = Noise()
    rose_and_fell.learn_runs(_game(("Lives: 3",), ("Lives: 4",)), _game(("Lives: 3",), ("Lives: 2",)))
    assert rose_and_fell.run_labels == {"lives: #"}
    assert run_differences(_game(*[("Score: 3",)] * 10), _game(*[("Score: 0",)] * 10), noise) == []


def test_an_app_gone_where_the_reference_ran_on_is_a_divergence() -> None:
    assert differences(sight(), sight(alive=False), Noise()) == [
        "the app had exited (the reference's was still running)"]


def test_a_golden_run_whose_replays_differ_in_most_of_the_picture_or_in_the_app_being_there_is_unstable() -> None:
    assert Noise(tiles=set(range(96))).unstable() == ""  # half the picture: a check still sees the other half
    assert Noise(tiles=set(range(97))).unstable() == "97 of 192 regions of the picture"
    assert Noise(alive=True, labels={"score"}).unstable() == "whether the app was still running"


def test_a_golden_run_names_the_apps_own_inputs_its_recording_never_gave() -> None:
    """The recording explores: what it never pressed or clicked, a check against it cannot compare."""
    vocabulary = Vocabulary(keys=("left", "right", "x", "escape"), quit_keys=("escape",), buttons=("left", "right"))
    steps = [Step(index=1, action=Action.hold("left", 0.2), before_hash="a"),
             Step(index=2, action=Action.click(10, 10), before_hash="b"),
             Step(index=3, action=Action.press("x"), before_hash="c")]
    assert unexercised(vocabulary, steps) == ["key right", "right click"]  # (Escape quits: never asked for)
    assert unexercised(None, steps) == []


def test_a_recording_gives_each_input_its_exploring_run_never_gave_once_at_its_end() -> None:
    """A key is pressed once, a button clicked where the last pointer input landed (mid-window without one); a
    middle button no action gives stays unexercised."""
    vocabulary = Vocabulary(keys=("left", "right", "x"), buttons=("left", "right", "middle"))
    steps = [Step(index=1, action=Action.press("left"), window=(200, 100)),
             Step(index=2, action=Action.click(30, 40), window=(200, 100)),
             Step(index=3, action=Action.press("x"), window=(200, 100))]
    assert exercise(vocabulary, steps) == [("key right", Action.press("right")),
                                           ("right click", Action.right_click(30, 40))]
    assert exercise(vocabulary, steps[:1]) == [("key right", Action.press("right")), ("key x", Action.press("x")),
                                               ("left click", Action.click(100, 50)),
                                               ("right click", Action.right_click(100, 50))]
    assert exercise(None, steps) == []


def test_a_golden_folder_is_written_and_read_back_and_a_bad_line_is_named(tmp_path: Path) -> None:
    steps = [Step(index=1, action=Action.click(10, 20)), Step(index=2, action=Action.press("r"))]
    noise = Noise(labels={"time: #"}, tiles={3})
    golden = Golden(Trajectory({"app": "dice.py"}, steps), [sight(step=0), sight("Total: 7", step=1)], noise,
                    {"test": "t.py::test_dice", "run": 1})
    golden.write(tmp_path)
    again = Golden.read(tmp_path)
    assert again.sights == golden.sights and again.noise == noise and again.header["test"] == "t.py::test_dice"
    assert [s.action for s in again.trajectory.steps] == [s.action for s in steps]
    rows = (tmp_path / SIGHTS_FILE).read_text().splitlines()
    (tmp_path / SIGHTS_FILE).write_text("\n".join([rows[0], rows[1], '{"step": "x"}']) + "\n")
    with pytest.raises(ValueError, match=rf"{SIGHTS_FILE}:3: bad sights line"):
        Golden.read(tmp_path)
    (tmp_path / SIGHTS_FILE).write_text(json.dumps({"sights": 99}) + "\n")
    with pytest.raises(ValueError, match=rf"{SIGHTS_FILE}:1: not a version-1"):
        Golden.read(tmp_path)


def test_a_replay_of_a_moving_app_gives_each_input_as_long_after_the_first_as_it_came_and_a_still_one_at_once(
        tmp_path: Path) -> None:
    steps = [Step(index=i + 1, action=Action.press("space"), started=2.0 + 0.4 * i) for i in range(3)]
    Trajectory({"app": "game.py"}, steps).write(tmp_path)
    context = PolicyContext(strategy="goal", goal="", expectations=[], seed=0, max_steps=5, timeout=10.0,
                            window=(160, 120), options={"replay": str(tmp_path)})
    frame = np.zeros((120, 160, 3), dtype=np.uint8)

    def given_at(moving: bool) -> list[float]:
        policy, started, times = ReplayPolicy(context), time.monotonic(), []
        for index in range(3):
            observation = Observation(step=index + 1, frame=frame, frame_hash="f", history=[], vision=None,  # type: ignore[arg-type]
                                      elapsed=0.5 + time.monotonic() - started, moving=moving)
            assert policy.decide(observation).action == Action.press("space")
            times.append(time.monotonic() - started)
        return times

    moving = given_at(True)
    assert moving[1] >= 0.4 and moving[2] >= 0.8  # as long after the first input as in the recording
    assert given_at(False)[2] < 0.3


# -- through pytest, on a real app --------------------------------------------------------------------------
DICE_TEST = """
import pytest

@pytest.mark.playtest(app="{app}", max_steps=10, timeout=40)
def {name}(playtest):
    verdict = playtest.run()
    assert verdict, verdict.summary()
"""
#: each app, and its slip: the total adds the first die twice
DICE_APPS = {
    "dice.py": (APPS / "tk_dice.py", ("f\"Total: {dice[0] + dice[1]}", "f\"Total: {dice[0] + dice[0]}")),
    "dice.html": (WEB / "dice" / "index.html", ("`Total: ${dice[0] + dice[1]}", "`Total: ${dice[0] + dice[0]}")),
    "pygame_dice.py": (APPS / "pygame_dice.py", ("f\"Total: {dice[0] + dice[1]}", "f\"Total: {dice[0] + dice[0]}")),
}


@pytest.mark.gui
@pytest.mark.parametrize("app", DICE_APPS)
def test_a_golden_run_is_recorded_checked_diverges_after_a_slip_and_is_updated(pytester: pytest.Pytester,
                                                                              app: str) -> None:
    source, slip = DICE_APPS[app]
    shutil.copy(source, pytester.path / app)
    pytester.makepyfile(test_dice=DICE_TEST.format(app=app, name="test_dice"))
    run = ("--playtest", "-p", "no:cacheprovider")

    recorded = pytester.runpytest_subprocess(*run, "--playtest-golden", "record")
    recorded.assert_outcomes(passed=1)
    recorded.stdout.fnmatch_lines(["golden runs: 1 recorded"])
    folder = pytester.path / "playtest-golden" / "test_dice" / "test_dice"
    golden = Golden.read(folder)
    assert golden.trajectory.steps and golden.sights[0].step == 0 and golden.header["app"] == app
    assert isinstance(golden.header["unexercised"], list)  # the app's inputs it never gave (none, or named)
    assert any("Total:" in line for line in golden.sights[0].lines)
    assert (folder / "frames" / "step-0000.png").exists()  # its pictures, small

    for _ in range(2):  # the app, seeded, replays as it was recorded
        checked = pytester.runpytest_subprocess(*run)
        checked.assert_outcomes(passed=1)
        checked.stdout.fnmatch_lines(["golden runs: 1 checked"])

    changed = pytester.path / app
    changed.write_text(changed.read_text().replace(*slip))
    diverged = pytester.runpytest_subprocess(*run)
    diverged.assert_outcomes(failed=1)
    diverged.stdout.fnmatch_lines(["*[[]diverges[]]*the app diverged from its golden run*Total*"])
    verdict = json.loads(next(pytester.path.glob("playtest-results/*/verdict.json")).read_text())
    finding = next(f for f in verdict["findings"] if f["kind"] == "diverges")
    assert Path(finding["reference"]).parent == folder / "frames"  # the storyboard shows it beside this run's

    updated = pytester.runpytest_subprocess(*run, "--playtest-golden", "update")
    updated.assert_outcomes(passed=1)
    updated.stdout.fnmatch_lines(["golden runs: 1 updated"])
    pytester.runpytest_subprocess(*run).assert_outcomes(passed=1)

    pytester.makepyfile(test_dice=DICE_TEST.format(app=app, name="test_dice_renamed"))
    renamed = pytester.runpytest_subprocess(*run, "--playtest-golden", "off")
    renamed.assert_outcomes(passed=1)
    renamed.stdout.fnmatch_lines(["1 golden run(s) unused by this session's tests*", f"  {folder}"])


@pytest.mark.gui
@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb")
def test_a_replay_starts_with_the_pointer_in_the_displays_far_corner(tmp_path: Path) -> None:
    """Where the run before left the pointer must not light a button in a replay's first paint."""
    from pytest_playtest.loop.launcher import Launcher
    from pytest_playtest.loop.spec import Differential, RunSpec
    from pytest_playtest.runtime.display import Display
    from pytest_playtest.settings import Settings

    display = Display((400, 300))
    display.start()
    settings = Settings(size=(400, 300), display=None, output=tmp_path, policy="replay", max_steps=5, timeout=10.0,
                        screenshots="off", record=False)
    try:
        for differential, expected in ((None, (20, 30)), (Differential(None), (399, 299))):
            display.input().move(20, 30)
            spec = RunSpec.from_kwargs({"app": str(APPS / "tk_dice.py")}, defaults=settings, where="test")
            spec.differential = differential
            launcher = Launcher(spec, display, vision=None, cwd=APPS, artifacts=None)  # type: ignore[arg-type]
            launcher.start()
            pointer = display.xlib().screen().root.query_pointer()
            launcher.close()
            assert (pointer.root_x, pointer.root_y) == expected
    finally:
        display.stop()


STREAK_TEST = """
import pytest

@pytest.mark.playtest(app="streak.py", max_steps=8, timeout=40, coverage=True)
def test_streak(playtest):
    verdict = playtest.run()
    assert verdict, verdict.summary()
"""


@pytest.mark.gui
def test_a_divergence_names_the_line_one_build_ran_and_the_other_did_not(pytester: pytest.Pytester) -> None:
    """Two builds differ in one line (the number turns red past 1 instead of past 3): under coverage the replay's
    divergence points at the line the changed test lets run."""
    shutil.copy(APPS / "tk_streak.py", pytester.path / "streak.py")
    pytester.makepyfile(test_streak=STREAK_TEST)
    run = ("--playtest", "-p", "no:cacheprovider")
    pytester.runpytest_subprocess(*run, "--playtest-golden", "record").assert_outcomes(passed=1)
    changed = pytester.path / "streak.py"
    changed.write_text(changed.read_text().replace("if count > 3:", "if count > 1:"))
    diverged = pytester.runpytest_subprocess(*run)
    diverged.assert_outcomes(failed=1)
    verdict = json.loads(next(pytester.path.glob("playtest-results/*/verdict.json")).read_text())
    finding = next(f for f in verdict["findings"] if f["kind"] == "diverges")
    assert finding["location"] is not None, finding
    assert finding["location"]["how"] == "coverage" and finding["location"]["file"] == "streak.py"
    assert finding["location"]["text"] == 'label.config(fg="red")'


@pytest.mark.gui
def test_a_golden_run_names_the_randomness_no_seed_reaches(pytester: pytest.Pytester) -> None:
    source = (APPS / "tk_dice.py").read_text()
    unseedable = "dice[:] = [random.SystemRandom().randint(1, 6), random.randint(1, 6)]"
    shutil.copy(APPS / "tk_dice.py", pytester.path / "dice.py")
    (pytester.path / "dice.py").write_text(source.replace("dice[:] = [random.randint(1, 6), random.randint(1, 6)]",
                                                          unseedable))
    pytester.makepyfile(test_dice=DICE_TEST.format(app="dice.py", name="test_dice"))
    pytester.runpytest_subprocess("--playtest", "-p", "no:cacheprovider", "--playtest-golden", "record")
    verdict = json.loads(next(pytester.path.glob("playtest-results/*/verdict.json")).read_text())
    line = next(number for number, text in enumerate((pytester.path / "dice.py").read_text().splitlines(), 1)
                if unseedable in text)
    assert any(note.startswith("randomness the run cannot seed") and f"random.SystemRandom at dice.py:{line}" in note
               for note in verdict["notes"]), verdict["notes"]


FLICKER = """\
import os
import tkinter as tk

root = tk.Tk()
root.title("Flicker")
canvas = tk.Canvas(root, width=320, height=240, highlightthickness=0)
canvas.pack()


def paint(_event=None):
    canvas.configure(bg="#" + os.urandom(3).hex())


root.bind("<Key>", paint)
canvas.bind("<Button-1>", paint)
paint()
root.mainloop()
"""

#: a test file whose playtest keeps its verdict's notes in notes.json
NOTES_TEST = """
import json
from pathlib import Path

import pytest

@pytest.mark.playtest(app="{app}", max_steps={steps}, timeout=40)
def test_{name}(playtest):
    verdict = playtest.run()
    Path("notes.json").write_text(json.dumps(verdict.notes))
    assert verdict, verdict.summary()
"""


@pytest.mark.gui
def test_a_recording_whose_replays_differ_everywhere_is_reported_unstable(pytester: pytest.Pytester) -> None:
    (pytester.path / "flicker.py").write_text(FLICKER)
    pytester.makepyfile(test_flicker=NOTES_TEST.format(app="flicker.py", steps=6, name="flicker"))
    run = ("--playtest", "-p", "no:cacheprovider")
    recorded = pytester.runpytest_subprocess(*run, "--playtest-golden", "record")
    recorded.assert_outcomes(passed=1)
    recorded.stdout.fnmatch_lines(["golden runs: 1 unstable"])
    notes = json.loads((pytester.path / "notes.json").read_text())
    assert any(note.startswith("golden: unstable: two replays of the recorded inputs differed in ") for note in notes)
    kept = json.loads(next(pytester.path.glob("playtest-results/*/verdict.json")).read_text())["notes"]
    assert kept == notes  # the artifacts' verdict has the golden run's notes too
    checked = pytester.runpytest_subprocess(*run)
    checked.stdout.fnmatch_lines(["golden runs: 1 checked"])
    notes = json.loads((pytester.path / "notes.json").read_text())
    assert any(note.startswith("golden: unstable: its recording's replays differed in ") for note in notes), notes


@pytest.mark.gui
def test_a_key_only_the_end_of_the_recording_gave_diverges_when_it_goes_dead(pytester: pytest.Pytester) -> None:
    """A one-step exploring run gives one key of a board's eight; the recording gives the others once each at
    its end, so a slip that kills one of those keys diverges in a check."""
    shutil.copy(APPS / "tk_slide.py", pytester.path / "slide.py")
    pytester.makepyfile(test_slide=NOTES_TEST.format(app="slide.py", steps=1, name="slide"))
    run = ("--playtest", "-p", "no:cacheprovider")
    pytester.runpytest_subprocess(*run, "--playtest-golden", "record").assert_outcomes(passed=1)
    notes = json.loads((pytester.path / "notes.json").read_text())
    assert any(note.startswith("golden: given at the end of the recording") for note in notes), notes
    golden = Golden.read(pytester.path / "playtest-golden" / "test_slide" / "test_slide")
    assert golden.header["unexercised"] == []
    given = [step.action.key for step in golden.trajectory.steps if step.action.kind == "press"]
    assert sorted(given) == ["a", "d", "down", "left", "right", "s", "up", "w"], given
    added = golden.trajectory.steps[1].action.key  # the first the exploring run never gave
    assert added is not None
    keysym, slip = (added.capitalize(), added) if len(added) > 1 else (added, added.upper())  # "left", "A"
    app = pytester.path / "slide.py"
    app.write_text(app.read_text().replace(f'event.keysym == "{keysym}"', f'event.keysym == "{slip}"'))
    diverged = pytester.runpytest_subprocess(*run)
    diverged.assert_outcomes(failed=1)
    verdict = json.loads(next(pytester.path.glob("playtest-results/*/verdict.json")).read_text())
    assert "diverges" in [f["kind"] for f in verdict["findings"]], verdict["findings"]
