"""Runtime reliability against real parts: Xvfb starts that are slow or fail, and a SIGKILLed xdist controller."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pytest_playtest.errors import DisplayError
from pytest_playtest.runtime.display import Display
from tests.support import APPS, pid_alive, wait_gone

REAL_XVFB = shutil.which("Xvfb")
pytestmark = pytest.mark.skipif(REAL_XVFB is None, reason="needs Xvfb")


def _fake_xvfb(folder: Path, body: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An ``Xvfb`` first on PATH that runs ``body`` (a shell script) before, or instead of, the real one."""
    folder.mkdir(exist_ok=True)
    script = folder / "Xvfb"
    script.write_text(f"#!/bin/sh\n{body}\n")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")


@pytest.mark.gui
def test_a_slow_xvfb_start_is_waited_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that needs longer than a fixed 10 s poll (a machine loading OCR models) still starts."""
    _fake_xvfb(tmp_path / "bin", f'sleep 11\nexec "{REAL_XVFB}" "$@"', monkeypatch)
    screen = Display((320, 240))
    try:
        screen.start()
        assert screen.xlib().screen().width_in_pixels == 320
        assert screen.failed_starts == []
    finally:
        screen.stop()


@pytest.mark.gui
def test_a_start_that_fails_once_is_retried(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    marker = tmp_path / "failed-once"
    _fake_xvfb(tmp_path / "bin", f'if [ ! -e "{marker}" ]; then touch "{marker}"; echo "simulated crash" >&2; '
                                 f'exit 1; fi\nexec "{REAL_XVFB}" "$@"', monkeypatch)
    screen = Display((320, 240))
    try:
        screen.start()
        assert screen.pid and pid_alive(screen.pid)
        assert len(screen.failed_starts) == 1
        assert "exited with code 1" in screen.failed_starts[0] and "simulated crash" in screen.failed_starts[0]
    finally:
        screen.stop()


def test_the_error_quotes_xvfbs_own_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_xvfb(tmp_path / "bin", 'echo "_XSERVTransMakeAllCOTSServerListeners: server already running" >&2; exit 1',
               monkeypatch)
    screen = Display((320, 240))
    with pytest.raises(DisplayError, match=r"3 attempts.*exited with code 1.*Xvfb said:\n.*server already running"):
        screen.start()
    assert not screen.started


@pytest.mark.gui
def test_kill_9_of_the_xdist_controller_leaves_nothing_within_5s(pytester: pytest.Pytester, tmp_path: Path) -> None:
    """Workers, their apps (plain and sandboxed) and their Xvfb servers go when the controller is SIGKILLed."""
    record = tmp_path / "pids"
    record.mkdir()
    # a failing inner test says why at once (the run's own summary never comes: it is killed)
    pytester.makeconftest(f"""
        def pytest_runtest_logreport(report):
            if report.failed:
                with open({str(tmp_path / "failures.txt")!r}, "a") as out:
                    out.write(str(report.longrepr) + "\\n")
    """)
    pytester.makepyfile(f"""
        import json, os, sys, time
        import pytest

        @pytest.mark.parametrize("sandbox", ["off", "auto"])
        def test_hangs(playtest, sandbox):
            playtest.launch([sys.executable, {str(APPS / "pygame_toy.py")!r}, "--spawn"], sandbox=sandbox)
            app = playtest.app
            assert app.wait_for_output(r"child \\d+", timeout=60), app.text_output()
            # in a sandbox the child's number is of the sandbox's PID namespace: the sandbox itself is recorded
            child = int(app.text_output("stdout").split("child ")[1].split()[0]) if sandbox == "off" else 0
            pids = {{"worker": os.getpid(), "app": app.pid, "group": app.proc.pid, "child": child,
                     "xvfb": playtest.runtime.display().pid}}
            with open(os.path.join({str(record)!r}, sandbox + ".json"), "w") as out:
                json.dump(pids, out)
            time.sleep(600)
    """)
    log = tmp_path / "run.log"
    with open(log, "wb") as out:
        controller = subprocess.Popen([sys.executable, "-m", "pytest", "--playtest", "-p", "no:cacheprovider",
                                       "-q", "-n", "2"], cwd=pytester.path, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while len(list(record.glob("*.json"))) < 2 and time.monotonic() < deadline:
            assert controller.poll() is None, f"the run ended early:\n{log.read_text()}"
            assert not (tmp_path / "failures.txt").exists(), (tmp_path / "failures.txt").read_text()
            time.sleep(0.1)
        time.sleep(0.3)
        pids = [pid for path in record.glob("*.json") for pid in json.loads(path.read_text()).values() if pid]
        assert len(set(pids)) == 8 and all(pid_alive(pid) for pid in pids), (pids, log.read_text())
    finally:
        os.kill(controller.pid, signal.SIGKILL)
        controller.wait()
    assert wait_gone(pids, timeout=5) == [], pids
