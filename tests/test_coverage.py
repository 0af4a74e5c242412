"""App coverage: the bootstrap, the live stream, teardown that keeps the data, the report.

Real parts only: a real Xvfb, the real Tk and pygame toys (and small apps written here), real XTest
input, coverage.py in the app's process.
"""

from __future__ import annotations

import json
import os
import random
import signal
import statistics
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_playtest.actions import Action
from pytest_playtest.errors import AppError, CoverageError
from pytest_playtest.runtime.app import App
from pytest_playtest.runtime.coverage import (
    BOOT,
    CoverageReport,
    CoverageSetup,
    CoverageStream,
    FileCoverage,
    coverage_argv,
    default_source,
    report,
)
from pytest_playtest.runtime.display import Display
from pytest_playtest.runtime.executor import Executor
from pytest_playtest.runtime.procfs import cpu_seconds
from pytest_playtest.runtime.screen import Screen, frame_hash
from tests.support import APPS

TK_TOY = APPS / "tk_toy.py"
PYGAME_TOY = APPS / "pygame_toy.py"
PY = sys.executable
#: The ``launch`` fixture of tests/conftest.py.
Launch = Callable[..., App]


def line_of(script: Path, text: str) -> int:
    """The number of the first line of ``script`` that holds ``text``."""
    return next(number for number, line in enumerate(script.read_text().splitlines(), start=1) if text in line)


def saved_lines(data_file: Path) -> dict[str, set[int]]:
    """The executed lines per file name (not path) in a coverage data file."""
    from coverage import CoverageData

    data = CoverageData(basename=str(data_file))
    data.read()
    return {Path(name).name: set(data.lines(name) or ()) for name in data.measured_files()}


def streamed_lines(stream: CoverageStream) -> dict[str, set[int]]:
    return {Path(name).name: set(lines) for name, lines in stream.lines().items()}


def write_app(folder: Path, name: str, code: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(code).lstrip("\n"))
    return path


def settle(stream: CoverageStream, quiet: float = 0.3, timeout: float = 5.0) -> int:
    """Wait until no new line has come for ``quiet`` seconds (the app's start-up code is done)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and stream.wait_for_new(quiet):
        pass
    return stream.total_lines()


# -- the wrapper ---------------------------------------------------------------------------------------
def test_coverage_argv_wraps_python_scripts_and_modules(tmp_path: Path) -> None:
    data = tmp_path / "cov"
    assert coverage_argv([PY, "app.py", "--level", "2"], tmp_path, data, 7) == [
        PY, str(BOOT), "--source", str(tmp_path), "--data", str(data), "--fd", "7", "--", "app.py", "--level", "2"]
    assert coverage_argv([PY, "-u", "-X", "dev", "-Wignore", "-m", "pkg.game", "-v"], tmp_path, data, None) == [
        PY, "-u", "-X", "dev", "-Wignore", str(BOOT), "--source", str(tmp_path), "--data", str(data),
        "-m", "pkg.game", "-v"]
    assert coverage_argv([PY, "-mpkg"], tmp_path, data, None)[-2:] == ["-m", "pkg"]  # type: ignore[index]


@pytest.mark.parametrize("argv", [
    ["xeyes"],
    ["sh", "-c", "exec python3 app.py"],
    ["/usr/bin/env", "python3", "app.py"],
    ["/definitely/another/python3", "app.py"],
    [PY, "-c", "print(1)"],
    [PY, "-"],
    [PY, "-i"],
    [PY, "-m"],
    [PY],
    [],
], ids=lambda argv: " ".join(argv) or "empty")
def test_non_python_argv_is_refused(argv: list[str], tmp_path: Path) -> None:
    assert coverage_argv(argv, tmp_path, tmp_path / "cov", 3) is None
    assert default_source(argv, tmp_path) is None


def test_default_source_is_the_script_folder_or_the_cwd(tmp_path: Path) -> None:
    assert default_source([PY, "games/snake.py"], tmp_path) == (tmp_path / "games").resolve()
    assert default_source([PY, str(TK_TOY)]) == APPS.resolve()
    assert default_source([PY, "-m", "snake"], tmp_path) == tmp_path.resolve()


def test_non_python_app_runs_unmeasured(display: Display, launch: Launch, tmp_path: Path) -> None:
    setup = CoverageSetup(data_file=tmp_path / "cov" / "data")
    app = launch(["sleep", "30"], window=False, coverage=setup)
    assert app.alive and not app.covered
    assert app.coverage_refused and "sleep 30" in app.coverage_refused
    assert app.coverage_stream is None and app.launch_argv == app.argv == ["sleep", "30"]
    started = time.monotonic()
    assert app.terminate() == -signal.SIGTERM  # the plain teardown: SIGTERM to the group
    assert time.monotonic() - started < 1
    assert app.coverage_report() is None
    assert not (tmp_path / "cov").exists()
    assert App([PY, "-c", "pass"], display, coverage=setup).coverage_report() is None  # not started


# -- the bootstrap behaves like python --------------------------------------------------------------
CASES = {
    "returns": """
        import sys
        print("out", sys.argv[1:], __name__, __file__ == __import__("os").path.abspath(sys.argv[0]))
        print("path0", sys.path[0] == __import__("os").path.dirname(__file__))
        print("err", file=sys.stderr)
        def branch(n):
            return "big" if n > 2 else "small"
        print(branch(len(sys.argv)))
    """,
    "exits_3": """
        import sys
        def leave():
            sys.exit(3)
        leave()
    """,
    "exits_with_message": """
        import sys
        sys.exit("leaving: bad level file")
    """,
    "raises_chained": """
        import atexit, sys
        atexit.register(lambda: print("app atexit ran", file=sys.stderr))
        def load(name):
            try:
                return {}[name]
            except KeyError as exc:
                raise RuntimeError(f"no level {name}") from exc
        load("two")
    """,
    "raises_in_thread_then_main": """
        import threading
        def work():
            raise ValueError("in a thread")
        t = threading.Thread(target=work)
        t.start(); t.join()
        raise SystemError("then in main")
    """,
    "custom_excepthook": """
        import sys
        def hook(kind, value, tb):
            print("hooked:", kind.__name__, value, tb.tb_frame.f_code.co_filename == __file__, file=sys.stderr)
        sys.excepthook = hook
        raise LookupError("x")
    """,
    "failing_excepthook": """
        import sys
        def hook(kind, value, tb):
            raise TypeError("hook broke")
        sys.excepthook = hook
        raise LookupError("y")
    """,
    "keyboard_interrupt": """
        raise KeyboardInterrupt
    """,
    "syntax_error": """
        def broken(:
            pass
    """,
}


def run_both(argv_tail: list[str], cwd: Path, data: Path, fd_reader: bool = False) -> tuple[tuple, tuple, str]:
    """(rc, stdout, stderr) of ``python ARGV`` and of the same under the bootstrap, and what was streamed."""
    plain = subprocess.run([PY, *argv_tail], cwd=cwd, capture_output=True, text=True, timeout=30)
    read_fd, write_fd = os.pipe()
    wrapped = coverage_argv([PY, *argv_tail], cwd, data, write_fd)
    assert wrapped is not None
    try:
        covered = subprocess.run(wrapped, cwd=cwd, capture_output=True, text=True, timeout=30, pass_fds=(write_fd,))
    finally:
        os.close(write_fd)
    with os.fdopen(read_fd, "rb") as pipe:
        streamed = pipe.read().decode()
    return ((plain.returncode, plain.stdout, plain.stderr), (covered.returncode, covered.stdout, covered.stderr),
            streamed)


@pytest.mark.parametrize("case", sorted(CASES))
def test_bootstrap_runs_a_script_exactly_as_python_does(case: str, tmp_path: Path) -> None:
    app = write_app(tmp_path, f"{case}.py", CASES[case])
    data = tmp_path / "data" / "cov"
    plain, covered, streamed = run_both([app.name, "a", "b"], tmp_path, data)
    assert covered == plain  # exit code, stdout and stderr, traceback included
    if case == "syntax_error":
        return
    assert "coverage_boot" not in covered[2] and "runpy" not in covered[2]
    expected = {"returns": 0, "exits_3": 3, "keyboard_interrupt": -signal.SIGINT}.get(case, 1)
    assert covered[0] == expected
    lines = saved_lines(data)[app.name]
    assert lines, "the data was saved on the way out"
    assert lines == streamed_from(streamed)[app.name], "the stream matches the saved data"


def streamed_from(text: str) -> dict[str, set[int]]:
    lines: dict[str, set[int]] = {}
    for record in map(json.loads, text.splitlines()):
        lines.setdefault(Path(record["f"]).name, set()).update(record["l"])
    return lines


def test_bootstrap_runs_a_module_exactly_as_python_m_does(tmp_path: Path) -> None:
    package = tmp_path / "arcade"
    package.mkdir()
    (package / "__init__.py").write_text("")
    write_app(package, "boom.py", """
        import sys
        print(__name__, __spec__.name, sys.argv[0] == __file__, sys.argv[1:])
        def crash():
            raise ArithmeticError("tilt")
        crash()
    """)
    data = tmp_path / "cov"
    plain, covered, _ = run_both(["-m", "arcade.boom", "--fast"], tmp_path, data)
    assert covered == plain and covered[0] == 1
    assert '<frozen runpy>' in covered[2] and "coverage_boot" not in covered[2]  # as python -m prints it
    assert "ArithmeticError: tilt" in covered[2]
    assert saved_lines(data)["boom.py"] == {1, 2, 3, 4, 5}
    plain, covered, _ = run_both(["-m", "arcade.missing"], tmp_path, data)
    assert covered == plain and "No module named arcade.missing" in covered[2]


def test_bootstrap_also_runs_as_a_module_of_the_package(tmp_path: Path) -> None:
    app = write_app(tmp_path, "chained.py", CASES["raises_chained"])
    plain = subprocess.run([PY, app.name], cwd=tmp_path, capture_output=True, text=True, timeout=30)
    covered = subprocess.run([PY, "-m", "pytest_playtest.runtime.coverage_boot", "--source", str(tmp_path),
                              "--data", str(tmp_path / "cov"), "--", app.name],
                             cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert (covered.returncode, covered.stdout, covered.stderr) == (plain.returncode, plain.stdout, plain.stderr)
    assert saved_lines(tmp_path / "cov")["chained.py"]


def test_bootstrap_reports_a_missing_script_as_python_does(tmp_path: Path) -> None:
    plain, covered, streamed = run_both(["nowhere.py"], tmp_path, tmp_path / "cov")
    assert covered == plain and covered[0] == 2 and "can't open file" in covered[2]
    assert streamed == ""


@pytest.mark.parametrize("reader", ["closed", "never_reads"])
def test_bootstrap_keeps_running_when_nobody_reads_the_pipe(reader: str, tmp_path: Path) -> None:
    # 30 001 lines make ≈ 200 KB of records: more than a pipe holds
    app = write_app(tmp_path, "many.py", "".join(f"x{i} = {i}\n" for i in range(30000)) + "print('done')\n")
    read_fd, write_fd = os.pipe()
    if reader == "closed":
        os.close(read_fd)  # EPIPE on the first write: streaming stops quietly
    wrapped = coverage_argv([PY, str(app)], tmp_path, tmp_path / "cov", write_fd)
    assert wrapped is not None
    started = time.monotonic()
    try:
        result = subprocess.run(wrapped, capture_output=True, text=True, timeout=60, pass_fds=(write_fd,))
    finally:
        os.close(write_fd)
        if reader != "closed":
            os.close(read_fd)
    assert time.monotonic() - started < 10
    assert (result.returncode, result.stdout, result.stderr) == (0, "done\n", "")
    assert len(saved_lines(tmp_path / "cov")["many.py"]) == 30001


# -- the stream and the report as data ---------------------------------------------------------------
def test_stream_counts_distinct_lines_and_ignores_what_is_not_a_record() -> None:
    read_fd, write_fd = os.pipe()
    stream = CoverageStream(read_fd).start()
    assert stream.wait_for_new(0.05) == 0
    mark = stream.total_lines()
    os.write(write_fd, b'{"f":"a.py","l":[1,2],"a":[[-1,1],[1,2]]}\n{"f":"a.py","l":[2,3],"a":[]}\n')
    assert stream.wait_for_new(2, since=mark) == 3
    os.write(write_fd, b'garbage\n{"f": 3, "l": [], "a": []}\n{"f":"b.py","l":["x"],"a":[]}\n')
    os.write(write_fd, b'{"f":"b.py","l":[7],"a":[[7,-1]]}\n')
    assert stream.wait_for_new(2, since=3) == 1
    assert stream.new_lines_since(mark) == 4 and stream.total_arcs() == 3 and stream.rejected == 3
    assert stream.lines() == {"a.py": frozenset({1, 2, 3}), "b.py": frozenset({7})}
    os.close(write_fd)
    stream.join()
    assert stream.closed
    assert stream.wait_for_new(5) == 0  # returns at once once the app is gone


def test_report_describes_itself_in_one_line_and_round_trips() -> None:
    measured = CoverageReport({"game.py": FileCoverage(400, 500, 90, 160), "ui/menu.py": FileCoverage(12, 30, 6, 10)})
    assert measured.describe() == "lines 412/530 (78%), branches 96/170 (56%)"
    assert CoverageReport.from_dict(json.loads(json.dumps(measured.to_dict()))) == measured
    assert measured.to_dict()["lines_total"] == 530
    assert CoverageReport({"a.py": FileCoverage(1, 1000, 999, 1000)}).describe() == \
        "lines 1/1000 (1%), branches 999/1000 (99%)"
    assert CoverageReport().describe() == "lines 0/0 (n/a), branches 0/0 (n/a)"


def test_report_without_data_file_raises(tmp_path: Path) -> None:
    with pytest.raises(CoverageError, match="no coverage data"):
        report(tmp_path / "missing", tmp_path)


# -- real apps on a real display --------------------------------------------------------------------
def covered_launch(launch: Launch, target: Path | list[str], tmp_path: Path) -> App:
    setup = CoverageSetup(data_file=tmp_path / "coverage" / "data")
    argv = [PY, str(target)] if isinstance(target, Path) else target
    app = launch(argv, coverage=setup)
    assert app.covered and app.coverage_stream is not None
    return app


def check_saved(app: App, name: str) -> None:
    """The saved data holds what was streamed, and the report says part of the file ran."""
    assert app.coverage_setup is not None and app.coverage_stream is not None
    assert saved_lines(app.coverage_setup.data_file)[name] == streamed_lines(app.coverage_stream)[name]
    measured = app.coverage_report()
    assert measured is not None
    stats = measured.files[name]
    assert 0 < stats.lines_hit < stats.lines_total
    assert 0 < stats.branches_hit < stats.branches_total
    print(f"\n{name}: {measured.describe()}; {name} alone: lines {stats.lines_hit}/{stats.lines_total}, "
          f"branches {stats.branches_hit}/{stats.branches_total}")


def test_tk_app_streams_its_lines_and_saves_them_when_blocked_in_its_event_loop(
        display: Display, launch: Launch, tmp_path: Path) -> None:
    app = covered_launch(launch, TK_TOY, tmp_path)
    stream = app.coverage_stream
    assert stream is not None
    mark = settle(stream)
    assert mark > 0, "the app's start-up lines streamed while it runs"
    assert "tk_toy.py" in stream.lines() and 17 not in stream.lines()["tk_toy.py"]  # increment() not run yet
    Executor(display, app).perform(Action.click(150, 105))  # the Increment button
    clicked = time.monotonic()
    assert stream.wait_for_new(10, since=mark) > 0, "the click's handler lines arrived"
    print(f"\nTk click → new lines: {1000 * (stream.last_change - clicked):.1f} ms")
    assert {17, 19, 23} <= stream.lines()["tk_toy.py"]  # the test, the step, the label's update
    assert app.wait_for_output("tk toy ready", timeout=1)
    assert app.alive  # idle in Tcl_DoOneEvent
    started = time.monotonic()
    assert app.terminate() == -signal.SIGTERM, app.text_output()  # saved, then died by SIGTERM, not SIGKILL
    print(f"Tk teardown with save: {1000 * (time.monotonic() - started):.0f} ms")
    assert app.text_output("stderr") == ""
    check_saved(app, "tk_toy.py")
    assert stream.closed


def test_pygame_app_streams_its_lines_and_saves_them_on_quit_after_sigterm(
        display: Display, launch: Launch, tmp_path: Path) -> None:
    app = covered_launch(launch, PYGAME_TOY, tmp_path)
    stream = app.coverage_stream
    assert stream is not None
    mark = settle(stream)
    assert mark > 0
    Executor(display, app).perform(Action.press("right"))
    pressed = time.monotonic()
    assert stream.wait_for_new(10, since=mark) > 0, "the key handler's lines arrived"
    print(f"\npygame key → new lines: {1000 * (stream.last_change - pressed):.1f} ms")
    time.sleep(0.2)
    started = time.monotonic()
    # as without coverage: SDL's SIGTERM handler would post QUIT, on which the toy exits 0
    assert app.terminate() == 0, app.text_output()
    print(f"pygame teardown with save: {1000 * (time.monotonic() - started):.0f} ms")
    check_saved(app, "pygame_toy.py")
    assert line_of(PYGAME_TOY, "x += {") in app.coverage_stream.lines()["pygame_toy.py"]  # type: ignore[union-attr]


def test_a_crashing_app_prints_its_traceback_exits_1_and_keeps_its_data(
        display: Display, launch: Launch, tmp_path: Path) -> None:
    app = covered_launch(launch, [PY, str(PYGAME_TOY), "--on-key", "crash"], tmp_path)
    settle(app.coverage_stream)  # type: ignore[arg-type]
    Executor(display, app).perform(Action.press("space"))
    assert app.wait(10) == 1
    app.terminate()
    stderr = app.text_output("stderr")
    assert stderr.startswith("Traceback (most recent call last):\n"), stderr
    assert f'File "{PYGAME_TOY}", line {line_of(PYGAME_TOY, "raise RuntimeError")}, in <module>' in stderr
    assert stderr.rstrip().endswith("RuntimeError: boom on key")
    assert "coverage_boot" not in stderr and "runpy" not in stderr
    assert 44 in saved_lines(app.coverage_setup.data_file)["pygame_toy.py"]  # type: ignore[union-attr]


TK_OWN_HANDLER = """
    import signal, sys, tkinter as tk
    def on_term(signum, frame):
        print("own handler ran", flush=True)
        sys.exit(7)
    signal.signal(signal.SIGTERM, on_term)
    root = tk.Tk()
    root.geometry("200x120+0+0")
    tk.Label(root, text="own handler").pack()
    root.mainloop()
"""


def test_a_tk_app_with_its_own_sigterm_handler_is_woken_by_a_client_message(
        display: Display, launch: Launch, tmp_path: Path) -> None:
    app = covered_launch(launch, write_app(tmp_path, "own_handler.py", TK_OWN_HANDLER), tmp_path)
    settle(app.coverage_stream)  # type: ignore[arg-type]
    os.kill(app.pid, signal.SIGTERM)
    assert app.wait(0.5) is None, "blocked in Tcl_DoOneEvent, Tk cannot run the Python handler"
    woken = time.monotonic()
    assert app.wake() == 1
    assert app.wait(2) == 7, app.text_output()  # the app ended its own way, not the bootstrap's
    print(f"\nClientMessage → Tk app ran its SIGTERM handler and exited: {1000 * (time.monotonic() - woken):.0f} ms")
    assert "own handler ran" in app.text_output("stdout")
    app.terminate()
    assert {3, 4} <= saved_lines(app.coverage_setup.data_file)["own_handler.py"]  # type: ignore[union-attr]


TK_DIALOG = """
    import tkinter as tk
    from tkinter import messagebox
    root = tk.Tk()
    root.geometry("200x120+0+0")
    def game_over():
        print("dialog open", flush=True)
        messagebox.showinfo("Game over", "You lost")
        print("dialog closed")
    root.after(100, game_over)
    root.mainloop()
"""


def test_a_tk_app_in_a_modal_dialog_still_saves(display: Display, launch: Launch, tmp_path: Path) -> None:
    # the ClientMessage cannot help here (Tcl waits in vwait: no Python runs); the bootstrap's thread sees
    # SIGTERM through the signal wakeup fd and saves
    app = covered_launch(launch, write_app(tmp_path, "dialog.py", TK_DIALOG), tmp_path)
    assert app.wait_for_output("dialog open", timeout=5)
    time.sleep(0.3)
    started = time.monotonic()
    assert app.terminate() == -signal.SIGTERM
    assert time.monotonic() - started < 1
    lines = saved_lines(app.coverage_setup.data_file)["dialog.py"]  # type: ignore[union-attr]
    assert {6, 7} <= lines and 8 not in lines


def test_an_app_killed_before_saving_is_reported_from_its_stream(
        display: Display, launch: Launch, tmp_path: Path) -> None:
    stubborn = write_app(tmp_path, "stubborn.py", """
        import signal, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print("ignoring SIGTERM", flush=True)
        def tick(n):
            return n + 1 if n < 10 else 0
        n = 0
        while True:
            n = tick(n)
            time.sleep(0.01)
    """)
    setup = CoverageSetup(data_file=tmp_path / "coverage" / "data", grace=0.3)
    app = launch([PY, str(stubborn)], window=False, coverage=setup)
    stream = app.coverage_stream
    assert stream is not None
    assert app.wait_for_output("ignoring SIGTERM", timeout=15)  # under load the app starts late
    settle(stream)
    assert app.terminate() == -signal.SIGKILL
    assert not setup.data_file.exists()
    measured = app.coverage_report()
    assert measured is not None and list(measured.files) == ["stubborn.py"]
    assert measured.files["stubborn.py"].lines_hit == measured.files["stubborn.py"].lines_total == 9


@pytest.mark.parametrize("stream", [True, False])
def test_a_module_app_is_measured_from_its_working_directory(
        display: Display, launch: Launch, tmp_path: Path, stream: bool) -> None:
    write_app(tmp_path, "ticker.py", """
        import time
        print("ticking", flush=True)
        while True:
            time.sleep(0.05)
    """)
    setup = CoverageSetup(data_file=tmp_path / "out" / "data", stream=stream)
    app = launch([PY, "-m", "ticker"], window=False, cwd=tmp_path, coverage=setup)
    assert app.covered and app.coverage_source == tmp_path.resolve()
    assert (app.coverage_stream is not None) == stream
    assert app.wait_for_output("ticking", timeout=10)
    if app.coverage_stream is not None:
        assert app.coverage_stream.wait_for_new(2, since=0)
    time.sleep(0.2)  # in its loop
    assert app.terminate() == -signal.SIGTERM  # its handler saved (interrupting time.sleep), then died
    measured = app.coverage_report()
    assert measured is not None
    assert measured.files["ticker.py"].lines_hit == measured.files["ticker.py"].lines_total == 4


# -- measurements (printed, not asserted) -----------------------------------------------------------
def frame_rate(display: Display, app: App, seconds: float = 3.0) -> tuple[float, float]:
    """(frames per second seen on screen, CPU share of the app) over ``seconds``."""
    screen = Screen(display, app)
    try:
        screen.wait_until_painted(timeout=5)
    except AppError:  # SDL may replace its first window: look the app's window up again, as the loop does
        assert app.wait_for_window(timeout=6), app.text_output()
        screen.wait_until_painted(timeout=5)
    time.sleep(0.5)
    changes, last = 0, frame_hash(screen.screenshot())
    cpu_before, started = cpu_seconds(app.pid) or 0.0, time.monotonic()
    while time.monotonic() - started < seconds:
        current = frame_hash(screen.screenshot())
        changes += current != last
        last = current
        time.sleep(0.002)
    elapsed = time.monotonic() - started
    cpu = ((cpu_seconds(app.pid) or 0.0) - cpu_before) / elapsed
    screen.close()
    return changes / elapsed, cpu


UNCAPPED = """
    import time, pygame
    pygame.init()
    screen = pygame.display.set_mode((320, 240))
    def step(state):
        total = 0
        for i in range(2000):
            total += (i * state) % 7
        return total
    frames, state, started = 0, 1, time.monotonic()
    while time.monotonic() - started < 1.5:
        pygame.event.pump()
        state = step(state) + 1
        screen.fill((frames % 255, 0, 0))
        pygame.display.flip()
        frames += 1
    print("frames", frames, flush=True)
"""

KEYS = "abcdefghij"
#: Apps where each key runs a handler of its own: every first press reaches new lines.
TK_KEYS = "\n".join([
    "import tkinter as tk",
    "root = tk.Tk()",
    "root.geometry('200x120+0+0')",
    "label = tk.Label(root)",
    "label.pack()",
    *(f"def on_{k}(event):\n    label.config(text={k!r})\nroot.bind('<KeyPress-{k}>', on_{k})" for k in KEYS),
    "root.mainloop()\n",
])
PYGAME_KEYS = "\n".join([
    "import pygame",
    "pygame.init()",
    "screen = pygame.display.set_mode((200, 120))",
    "clock = pygame.time.Clock()",
    *(f"def on_{k}():\n    return {k!r}" for k in KEYS),
    "handlers = {" + ", ".join(f"pygame.K_{k}: on_{k}" for k in KEYS) + "}",
    "while True:",
    "    for event in pygame.event.get():",
    "        if event.type == pygame.KEYDOWN and event.key in handlers:",
    "            handlers[event.key]()",
    "    screen.fill((0, 0, 0))",
    "    pygame.display.flip()",
    "    clock.tick(60)\n",
])


def input_to_lines(display: Display, app: App) -> list[float]:
    """Milliseconds from each key (a handler never run before) to its new lines on the stream."""
    stream = app.coverage_stream
    assert stream is not None
    settle(stream)
    executor, latencies = Executor(display, app), []
    for key in KEYS:
        mark = stream.total_lines()
        executor.perform(Action.press(key))
        sent = time.monotonic()
        if stream.wait_for_new(1.0, since=mark):
            latencies.append(1000 * (stream.last_change - sent))
        time.sleep(0.05 + random.random() * 0.04)  # no phase lock with the app's 20 ms reports
    return latencies


def test_measure_cost_and_latency(display: Display, launch: Launch, tmp_path: Path) -> None:
    figures, codes = [], []
    for covered in (False, True):  # start-up: coverage is imported before the app runs
        started = time.monotonic()
        app = covered_launch(launch, TK_TOY, tmp_path) if covered else launch([PY, str(TK_TOY)])
        figures.append(f"tk_toy start → window {'covered' if covered else 'plain  '}: "
                       f"{1000 * (time.monotonic() - started):.0f} ms")
        app.terminate()
    for covered in (False, True):
        app = covered_launch(launch, PYGAME_TOY, tmp_path) if covered else launch([PY, str(PYGAME_TOY)])
        fps, cpu = frame_rate(display, app)
        figures.append(f"pygame_toy (30 fps cap) {'covered' if covered else 'plain  '}: "
                       f"{fps:.1f} frames/s on screen, {100 * cpu:.0f}% CPU")
        codes.append(app.terminate())
    assert codes[0] == codes[1] == 0, "SIGTERM ends the toy the same way with and without coverage"
    uncapped = write_app(tmp_path, "uncapped.py", UNCAPPED)
    rates: dict[bool, list[float]] = {False: [], True: []}
    for covered in (False, True) * 3:  # alternated: the machine is shared
        app = covered_launch(launch, uncapped, tmp_path) if covered else launch([PY, str(uncapped)])
        app.wait(10)
        rates[covered].append(int(app.text_output("stdout").split()[-1]) / 1.5)
        app.terminate()
    for covered, label in ((False, "plain  "), (True, "covered")):
        figures.append(f"uncapped loop, 2000 Python iterations a frame, {label}: "
                       f"{statistics.median(rates[covered]):.0f} frames/s (median of 3)")
    for name, code in (("tk_keys.py", TK_KEYS), ("pygame_keys.py", PYGAME_KEYS)):
        app = covered_launch(launch, write_app(tmp_path, name, code), tmp_path)
        latencies = input_to_lines(display, app)
        assert latencies, app.text_output()
        figures.append(f"{name}: key → new lines {statistics.median(latencies):.1f} ms median, "
                       f"{min(latencies):.1f}–{max(latencies):.1f} ms over {len(latencies)}/{len(KEYS)} keys")
        app.terminate()
    print("\n" + "\n".join(figures))
