"""The runtime against real parts: Xvfb, Tk and pygame apps, XTest input, pixels read back."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

from pytest_playtest.actions import Action
from pytest_playtest.errors import ActionError, AppError
from pytest_playtest.loop.oracles import Oracles
from pytest_playtest.loop.spec import OracleSettings
from pytest_playtest.runtime.app import App, scrubbed_environment
from pytest_playtest.runtime.display import Display
from pytest_playtest.runtime.executor import Executor
from pytest_playtest.runtime.scratch import OWNER_FILE, scratch_dir
from pytest_playtest.runtime.screen import Screen, difference
from pytest_playtest.trajectory import Step
from pytest_playtest.vision import Vision
from tests.support import APPS, pid_alive, wait_gone

TK_TOY = str(APPS / "tk_toy.py")
PYGAME_TOY = str(APPS / "pygame_toy.py")
TK_DICE = str(APPS / "tk_dice.py")


def test_click_on_tk_button_changes_its_label(display: Display, launch) -> None:
    app = launch(TK_TOY)
    screen = Screen(display, app)
    before = screen.wait_until_painted(timeout=5)
    Executor(display, app).perform(Action.click(150, 105))  # the Increment button
    # the label "Count: 0" → "Count: 1" sits in the top band of the window (the button's own press relief,
    # below it, may be drawn first)
    change = screen.wait_for_change(before, timeout=3, compare=lambda old, new: difference(old[10:60], new[10:60]))
    assert change.fraction > 0.001, "the click did not change the label"
    screen.close()


def test_the_rim_of_a_found_button_is_not_the_button(display: Display, launch) -> None:
    """The box found around a Tk button reaches past its face: a click on its rim lands on the window
    behind, so only a click the widget is surely hit by can show that a button does nothing."""
    app = launch(str(APPS / "tk_white_form.py"))
    screen = Screen(display, app)
    button = next(w for w in Vision().widgets(screen.wait_until_painted(timeout=5)) if w.kind == "button")
    box, (x, y) = button.box, button.center
    executor = Executor(display, app)
    for rim in ((x, box.y), (box.x, y), (box.right - 1, y), (x, box.bottom - 1)):
        assert box.contains(*rim) and not button.surely_hit_by(*rim)
        executor.perform(Action.click(*rim))
    executor.perform(Action.click(x, y))
    deadline = time.monotonic() + 3
    while "clicked" not in app.text_output("stdout") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert button.surely_hit_by(x, y)
    assert app.text_output("stdout").split() == ["clicked"]  # the centre's click only


def test_a_window_replaced_before_its_first_paint_is_followed(display: Display, launch) -> None:
    """An app may destroy its first window and show another while it sets up (SDL may): the wait for the
    first paint goes on in the new window instead of ending the launch with "the window is gone"."""
    app = launch([sys.executable, str(APPS / "tk_replaces_window.py"), "--after", "1500"])
    screen = Screen(display, app)
    blank = screen.screenshot()
    assert "replaced" not in app.text_output("stdout") and (blank == blank[0, 0]).all()
    painted = screen.wait_until_painted(timeout=10)
    assert app.wait_for_output("replaced", timeout=5)
    assert (painted == 255).all(axis=2).mean() > 0.9 and not (painted == painted[0, 0]).all()
    screen.close()


def test_waking_a_window_that_is_gone_prints_nothing(display: Display, launch,
                                                    capfd: pytest.CaptureFixture[str]) -> None:
    """The wake-up message also goes to the window last looked at, which the app may have destroyed: the
    server's BadWindow answer is expected and must not reach the test's output."""
    app = launch([sys.executable, str(APPS / "tk_replaces_window.py"), "--after", "300"])
    assert app.wait_for_output("replaced", timeout=10)
    assert app.wake() == 2  # the new window, and the old one still remembered
    display.xlib().sync()
    assert "X protocol error" not in capfd.readouterr().err


def test_a_menu_dropped_from_the_menu_bar_is_no_dialog(display: Display, launch, tmp_path: Path) -> None:
    """A Tk menu is a top-level window of its own while it is down; answering it with Enter would choose an
    item (turtledemo's Fontsize menu, its label then counted as a dead button in ever new states)."""
    app_file = tmp_path / "menu_app.py"
    app_file.write_text(
        "import tkinter as tk\n"
        "root = tk.Tk()\nroot.geometry('300x200+0+0')\n"
        "bar = tk.Menu(root)\nsizes = tk.Menu(bar, tearoff=0)\n"
        "sizes.add_command(label='Bigger', command=lambda: print('chosen', flush=True))\n"
        "bar.add_cascade(label='Size', menu=sizes)\nroot.config(menu=bar)\n"
        "root.after(300, lambda: (sizes.post(20, 40), print('posted', flush=True)))\n"
        "root.mainloop()\n")
    app = launch([sys.executable, str(app_file)])
    assert app.wait_for_output("posted", timeout=10)
    deadline = time.monotonic() + 5
    while len(app.window.top_level()) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(app.window.top_level()) == 2, "the menu never came down"
    assert app.dialog() is None
    assert "chosen" not in app.text_output("stdout")


def test_difference_counts_every_pixel_with_any_channel_changed() -> None:
    """The fast paths (equal frames, channels OR-ed) find what a plain any-channel comparison finds."""
    before = np.random.default_rng(0).integers(0, 256, (60, 80, 3), dtype=np.uint8)
    assert not difference(before, before.copy()) and difference(before, before.copy()).box is None
    after = before.copy()
    after[10:14, 20:31, 1] ^= 1  # one channel of a block
    after[40, 5] ^= 255  # every channel of one pixel
    after[25, 30, 2] ^= 7
    expected = (before != after).any(axis=2)
    change = difference(before, after)
    assert change.fraction == np.count_nonzero(expected) / expected.size == (4 * 11 + 2) / (60 * 80)
    assert change.box == (5, 10, 26, 31)
    assert difference(before, after[:, :40]).fraction == 1.0  # another size: all changed


def test_key_changes_the_pygame_frame(display: Display, launch) -> None:
    app = launch(PYGAME_TOY)
    screen = Screen(display, app)
    screen.wait_until_painted(timeout=5)
    square = np.array([240, 200, 40], dtype=np.uint8)

    def square_x() -> int:
        frame = screen.screenshot()
        return int(np.flatnonzero((frame == square).all(axis=2).any(axis=0))[0])

    start = square_x()
    Executor(display, app).perform(Action.press("right", times=3))
    deadline = time.monotonic() + 3
    while square_x() != start + 30 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert square_x() == start + 30  # three presses, three moves of 10 px
    screen.close()


def test_tk_callback_exception_is_captured_while_app_lives(display: Display, launch) -> None:
    app = launch([sys.executable, TK_TOY, "--raise"])
    Screen(display, app).wait_until_painted(timeout=5)
    Executor(display, app).perform(Action.click(150, 105))
    assert app.wait_for_output(r"ZeroDivisionError", timeout=5), app.text_output()
    assert "Exception in Tkinter callback" in app.text_output("stderr")
    assert app.alive


def test_exit_code_is_reported(display: Display, launch) -> None:
    app = launch([sys.executable, PYGAME_TOY, "--exit", "3"], window=False)
    assert app.wait(10) == 3
    assert not app.wait_for_window(timeout=1)
    assert "exiting with 3" in app.text_output("stderr")


# The last piece of its traceback reaches the app's stderr half a second after its exit (a child it
# started writes it): the pipe's reader is behind the exit, as a reader thread is on a busy machine.
LATE_TRACEBACK = """\
import subprocess, sys
print("Traceback (most recent call last):", file=sys.stderr)
print('  File "late.py", line 9, in <module>', file=sys.stderr, flush=True)
late = subprocess.Popen(["sh", "-c", "sleep 0.5; cat >&2"], stdin=subprocess.PIPE)
late.stdin.write(b"MemoryError: the last piece\\n")
late.stdin.close()
sys.exit(1)
"""


def test_an_exit_is_judged_on_the_whole_output(display: Display, launch, tmp_path: Path) -> None:
    (tmp_path / "late.py").write_text(LATE_TRACEBACK)
    app = launch([sys.executable, "late.py"], cwd=tmp_path, window=False)
    assert app.wait(10) == 1
    oracles = Oracles(app, [], OracleSettings())
    assert oracles.check_exit(0)
    assert [f.message for f in oracles.findings] == ["the app exited with code 1: MemoryError: the last piece"]
    assert app.text_output("stderr").endswith("MemoryError: the last piece")


@pytest.mark.parametrize(("changes", "over"), [(3, False), (30, True)])
def test_only_an_app_that_moved_like_a_game_is_over_for_good_when_it_stands_still(
        display: Display, launch, changes: int, over: bool) -> None:
    """A page whose toast faded three times in 20 s, then stood still while inputs changed nothing, is a page
    between inputs; a game that changed 30 times in those 20 s and then stood so is over."""
    app = launch(TK_TOY)
    oracles = Oracles(app, [], OracleSettings(stall_after=1.0))
    start = time.monotonic()
    for _ in range(changes):
        oracles.observe_idle(True, start)
    for index in range(1, 6):
        oracles.after_step(Step(index, Action.press("end")), on_widget=False, now=start)
    assert oracles.animating
    assert oracles.stalled(start + 20.0) is over


def test_fatal_signal_is_named(display: Display, launch) -> None:
    app = launch(PYGAME_TOY)
    os.kill(app.pid, signal.SIGSEGV)
    assert app.wait(5) == -signal.SIGSEGV
    assert app.exit_signal == "SIGSEGV"


def test_teardown_kills_app_and_its_children(display: Display) -> None:
    app = App([sys.executable, PYGAME_TOY, "--spawn"], display).start()
    assert app.wait_for_window(timeout=15)
    assert app.wait_for_output(r"child \d+", timeout=5)
    child = int(app.text_output("stdout").split("child ")[1].split()[0])
    assert pid_alive(child)
    app.terminate()
    assert wait_gone([app.pid, child], timeout=5) == []


@pytest.mark.gui
def test_display_stop_leaves_no_xvfb() -> None:
    screen = Display((640, 480))
    screen.start()
    pid = screen.pid
    assert pid and pid_alive(pid)
    assert os.environ.get("DISPLAY") != screen.name  # the test process's environment is left alone
    screen.stop()
    assert wait_gone([pid], timeout=5) == []


def test_app_environment_has_no_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp-secret")
    monkeypatch.setenv("HARMLESS", "1")
    env = scrubbed_environment({"DISPLAY": ":99"})
    assert "OPENAI_API_KEY" not in env and "GITHUB_TOKEN" not in env
    assert env["HARMLESS"] == "1" and env["DISPLAY"] == ":99"
    assert env["SDL_AUDIODRIVER"] == "dummy" and env["PYTHONFAULTHANDLER"] == "1"
    with pytest.raises(AppError, match="secret"):
        scrubbed_environment({"DISPLAY": ":99"}, {"MY_API_KEY": "x"})


def test_app_really_runs_without_secrets(display: Display, launch, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret")
    app = launch([sys.executable, "-c", "import os, json; print(json.dumps(dict(os.environ)))"], window=False)
    app.wait(10)
    seen = json.loads(app.text_output("stdout"))
    assert "OPENAI_API_KEY" not in seen and seen["DISPLAY"] == display.name


def test_click_outside_the_window_is_refused(display: Display, launch) -> None:
    app = launch(TK_TOY)
    with pytest.raises(ActionError, match="outside the app window"):
        Executor(display, app).perform(Action.click(5000, 10))


def test_missing_app_file_is_a_clear_error(display: Display) -> None:
    with pytest.raises(AppError, match="app file not found"):
        App("no/such/game.py", display)


@pytest.mark.gui
def test_xdist_workers_get_distinct_displays(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        f"""
        import pytest, time

        @pytest.mark.parametrize("n", range(4))
        def test_display(playtest, n, worker_id):
            app = playtest.launch({TK_TOY!r})
            playtest.click(150, 105)
            playtest.wait_for_change(timeout=3)
            with open(f"display-{{worker_id}}-{{n}}.txt", "w") as out:
                out.write(playtest.runtime.display().name)
        """
    )
    result = pytester.runpytest_subprocess("--playtest", "-n", "2", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=4)
    by_worker: dict[str, set[str]] = {}
    for path in Path(pytester.path).glob("display-*.txt"):
        by_worker.setdefault(path.name.split("-")[1], set()).add(path.read_text())
    assert len(by_worker) == 2
    names = [next(iter(s)) for s in by_worker.values()]
    assert all(len(s) == 1 for s in by_worker.values()), by_worker  # one display per worker, reused
    assert names[0] != names[1]


@pytest.mark.gui
def test_kill_9_of_a_run_leaves_nothing(pytester: pytest.Pytester, tmp_path: Path) -> None:
    pids_file = tmp_path / "pids.json"
    pytester.makepyfile(
        f"""
        import json, sys, time

        def test_hangs_mid_test(playtest):
            app = playtest.launch([sys.executable, {PYGAME_TOY!r}, "--spawn"])
            assert app.wait_for_output(r"child \\d+", timeout=10)
            child = int(app.text_output("stdout").split("child ")[1].split()[0])
            display = playtest.runtime.display()
            with open({str(pids_file)!r}, "w") as out:
                json.dump({{"app": app.pid, "child": child, "xvfb": display.pid}}, out)
            time.sleep(600)
        """
    )
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "--playtest", "-p", "no:cacheprovider", "-q"],
                            cwd=pytester.path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not pids_file.exists() and time.monotonic() < deadline:
            assert proc.poll() is None, "the inner run ended early"
            time.sleep(0.05)
        time.sleep(0.2)
        pids = json.loads(pids_file.read_text())
        assert all(pid_alive(pid) for pid in pids.values()), pids
    finally:
        proc.kill()
        proc.wait()
    assert wait_gone(list(pids.values()), timeout=10) == [], pids
    # a killed run cannot remove its display's folder; the next run to make one removes it
    left = [folder for folder in Path(tempfile.gettempdir()).glob("playtest-display-*")
            if (folder / OWNER_FILE).is_file() and (folder / OWNER_FILE).read_text() == str(proc.pid)]
    assert left, "the killed run's display folder names its owner"
    shutil.rmtree(scratch_dir("playtest-display-"))
    assert not any(folder.exists() for folder in left)


def test_a_python_app_draws_the_same_random_numbers_on_every_launch_of_a_seed(display: Display, launch) -> None:
    def drawn(seed: int, env: dict[str, str] | None = None) -> str:
        app = launch(TK_DICE, seed=seed, env=env or {})
        assert app.wait_for_output(r"drew .*\]", timeout=10), app.text_output()
        line = next(line for line in app.text_output("stdout").splitlines() if line.startswith("drew"))
        app.terminate()
        return line

    first = drawn(7)
    assert drawn(7) == first  # random, numpy.random and a set's order alike
    assert drawn(8) != first


def test_a_sitecustomize_of_the_apps_own_still_runs_behind_the_seeding_one(display: Display, launch,
                                                                          tmp_path: Path) -> None:
    (tmp_path / "sitecustomize.py").write_text("OWN = 'ran'\n")
    script = "import random, sys, sitecustomize; print(sitecustomize.OWN, random.random(), sys.path[1:2])"
    outputs = []
    for _ in range(2):
        app = launch([sys.executable, "-c", script], window=False, seed=3, env={"PYTHONPATH": str(tmp_path)})
        assert app.wait(10) == 0, app.text_output()
        outputs.append(app.text_output("stdout").strip())
    assert outputs[0] == outputs[1]  # seeded all the same
    assert outputs[0].startswith("ran ") and outputs[0].endswith(f"[{str(tmp_path)!r}]")  # the seeding folder left
