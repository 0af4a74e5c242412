"""The bubblewrap sandbox against real parts: a hostile app, real Xvfb, a real loopback server, /proc."""

from __future__ import annotations

import json
import os
import pwd
import socket
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# loaded here, not first inside a pytester session (which unloads it after, leaving two copies of its error classes)
import Xlib.display  # noqa: F401

from pytest_playtest.errors import SpecError
from pytest_playtest.files import STDOUT_FILE
from pytest_playtest.loop.spec import RunSpec
from pytest_playtest.runtime.app import App
from pytest_playtest.runtime.display import Display
from pytest_playtest.runtime.procfs import group_pids
from pytest_playtest.runtime.sandbox import Limits, Sandbox, SandboxPolicy, unavailable
from tests.support import APPS, REPO, wait_gone

HOSTILE = APPS / "hostile.py"

needs_sandbox = pytest.mark.skipif(unavailable() is not None, reason=f"no sandbox here: {unavailable()}")


class _Defaults:
    policy, max_steps, timeout, options = "heuristic", 5, 10.0, {}


def test_limits_parse_units_and_name_unknown_ones() -> None:
    limits = Limits.parse("address_space=2G, processes=64,cpu_seconds=30")
    assert (limits.address_space, limits.processes, limits.cpu_seconds) == (2 * 1024**3, 64, 30)
    assert limits.open_files == Limits().open_files
    with pytest.raises(ValueError, match="unknown limit.*memory"):
        Limits.parse("memory=1G")
    with pytest.raises(ValueError, match="not an amount"):
        Limits.parse("file_size=lots")


def test_sandbox_argument_forms() -> None:
    spec = RunSpec.from_kwargs({"app": "a.py"}, defaults=_Defaults(), where="t")
    assert spec.sandbox.mode == "off"  # hand-written playtests default to no sandbox
    spec = RunSpec.from_kwargs({"app": "a.py", "sandbox": True}, defaults=_Defaults(), where="t")
    assert spec.sandbox.mode == "on"
    spec = RunSpec.from_kwargs({"app": "a.py", "sandbox": {"network": True, "paths": ["/data"],
                                                            "limits": {"processes": 16}}},
                               defaults=_Defaults(), where="t")
    assert spec.sandbox == SandboxPolicy("on", True, ("/data",), Limits(processes=16))
    with pytest.raises(SpecError, match=r"t: playtest argument sandbox='maybe': .*auto, on, off"):
        RunSpec.from_kwargs({"app": "a.py", "sandbox": "maybe"}, defaults=_Defaults(), where="t")
    with pytest.raises(SpecError, match="unknown key.*net"):
        RunSpec.from_kwargs({"app": "a.py", "sandbox": {"net": True}}, defaults=_Defaults(), where="t")


class _Server:
    """A TCP server on 127.0.0.1 that counts the connections it accepts."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            conn.close()


@pytest.fixture
def hostile_setup(tmp_path: Path) -> Iterator[dict[str, object]]:
    """The hostile app's folder, its targets outside it, a secret in the user's home and a loopback server."""
    token = uuid.uuid4().hex[:12]
    secret = Path(pwd.getpwuid(os.getuid()).pw_dir) / f".playtest-secret-{token}"  # the user's real home
    secret.write_text(f"SECRET-{token}\n")
    folder = tmp_path / "app"
    folder.mkdir()
    (folder / "hostile.py").write_text(HOSTILE.read_text())
    server = _Server()
    try:
        # beside the project under test: read-only in the box (a path under /tmp would land in its private tmpfs)
        yield {"token": token, "secret": secret, "folder": folder, "outside": REPO / f".hostile-{token}.txt",
               "server": server}
    finally:
        server.sock.close()
        secret.unlink()
        (REPO / f".hostile-{token}.txt").unlink(missing_ok=True)
        for pid in _daemons(token):  # only when the sandbox failed: never leave the daemon running
            os.kill(pid, 9)


def _daemons(token: str) -> list[int]:
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                cmdline = Path(entry.path, "cmdline").read_bytes()
            except OSError:
                continue
            if f"hostile-daemon-{token}".encode() in cmdline:
                found.append(int(entry.name))
    return found


def _hostile_argv(setup: dict[str, object]) -> list[str]:
    server = setup["server"]
    assert isinstance(server, _Server)
    return [sys.executable, str(Path(str(setup["folder"])) / "hostile.py"), "--outside", str(setup["outside"]),
            "--secret", str(setup["secret"]), "--port", str(server.port), "--token", str(setup["token"])]


@pytest.mark.gui
@needs_sandbox
def test_hostile_app_harms_nothing_and_leaves_nothing_in_the_sandbox(
        pytester: pytest.Pytester, hostile_setup: dict[str, object]) -> None:
    report = pytester.path / "report.json"
    pytester.makepyfile(f"""
        import json

        def test_hostile(playtest):
            verdict = playtest.run(app={_hostile_argv(hostile_setup)!r}, cwd={str(hostile_setup["folder"])!r},
                                   sandbox="on", max_steps=3, timeout=20)
            with open({str(report)!r}, "w") as out:
                json.dump(verdict.to_dict(), out)
    """)
    result = pytester.runpytest("--playtest", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    verdict = json.loads(report.read_text())
    said = Path(verdict["artifacts"], STDOUT_FILE).read_text()
    print(said)  # what it tried, shown with -s
    server = hostile_setup["server"]
    assert isinstance(server, _Server)
    # it tried everything, and what it says about each attempt shows the box held
    for attempt in ("write outside its folder", "read a file in the user's home", "connect to a local server",
                    "reserve 6 GiB", "spawn 200 processes"):
        assert f"HOSTILE {attempt}: blocked" in said, said
    assert "HOSTILE daemon: done" in said
    # and nothing was harmed
    assert not Path(str(hostile_setup["outside"])).exists()
    assert f"SECRET-{hostile_setup['token']}" not in said
    assert server.accepted == 0
    assert verdict["status"] == "pass", verdict
    assert any("process creations refused (processes=128)" in note for note in verdict["notes"]), verdict["notes"]
    # nothing is left: the daemon died with the sandbox, the forks too, and no cgroup remains
    assert _daemons(str(hostile_setup["token"])) == []
    assert not list(Path("/sys/fs/cgroup/pids").glob(f"playtest-{os.getpid()}-*"))


@pytest.mark.gui
@needs_sandbox
def test_a_limit_that_kills_the_app_is_named_in_the_crash(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(hog="import tkinter as tk\nroot = tk.Tk()\nroot.update()\nblock = bytearray(3 << 30)\n")
    pytester.makepyfile(f"""
        def test_hog(playtest):
            verdict = playtest.run(app="hog.py", sandbox={{"limits": {{"address_space": "1G"}}}}, max_steps=2)
            crash = verdict.first("crash")
            assert crash is not None, verdict.summary()
            assert "address space limit (address_space={1 << 30} bytes)" in crash.message, crash.message
            assert "MemoryError" in crash.message
    """)
    pytester.runpytest("--playtest", "-p", "no:cacheprovider").assert_outcomes(passed=1)


def _settles_to_zero(read: Callable[[], int | None], *, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while read() != 0:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.gui
@needs_sandbox
def test_sandboxed_tk_app_gets_input_and_teardown_signals_the_app_first(tmp_path: Path) -> None:
    """A Tk app in the box: its window is found, its unread X input is seen, SIGTERM reaches the app itself."""
    app_file = tmp_path / "term.py"
    app_file.write_text(
        "import signal, sys, time, tkinter as tk\n"
        "root = tk.Tk(); root.geometry('200x100+0+0'); tk.Label(root, text='hi').pack()\n"
        "def bye(*_):\n    print('clean shutdown', flush=True); sys.exit(0)\n"
        "signal.signal(signal.SIGTERM, bye)\n"
        "root.update()\nprint('up', flush=True)\n"
        "while True:\n    time.sleep(0.05)\n    if 'stop' in open('mode').read(): time.sleep(3600)\n    root.update()\n"
    )
    (tmp_path / "mode").write_text("run")
    display = Display((400, 300))
    display.start()
    policy = SandboxPolicy("on")
    box = Sandbox(policy, workdir=tmp_path, display=display.env()["DISPLAY"])
    app = App([sys.executable, str(app_file)], display, cwd=tmp_path, sandbox=box).start()
    try:
        assert app.wait_for_window(timeout=15), app.text_output()
        assert app.pid != app.proc.pid  # the app itself, not bwrap
        # the app reads its queue every 50 ms: its window's first events may still be waiting
        assert _settles_to_zero(app.unread_display_input, timeout=3)
        (tmp_path / "mode").write_text("stop")
        time.sleep(0.3)
        for x in range(10):  # events the stuck app never reads
            display.input().move(20 + x, 20 + x)
        time.sleep(0.3)
        assert (app.unread_display_input() or 0) > 0
        (tmp_path / "mode").write_text("run")
        group = group_pids(app.proc.pid)
        time.sleep(0.1)
    finally:
        code = app.terminate(grace=5)
        display.stop()
    # signalled as a group, bwrap would have died first and the app been SIGKILLed without its handler
    assert "clean shutdown" in app.text_output("stdout") or code == 0, (code, app.text_output())
    assert wait_gone(group, timeout=5) == []
