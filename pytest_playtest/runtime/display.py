"""The X display apps run on: one Xvfb per process (per xdist worker), started lazily, orphan-proof.

Xvfb is started through xvfbwrapper with a private environment (so ``os.environ["DISPLAY"]`` of the
test process is never touched) and under ``setpriv --pdeathsig KILL``, so it dies with the process
that started it even when that process is SIGKILLed. ``--playtest-display :N`` uses an existing
server instead.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..geometry import DEFAULT_SIZE

if TYPE_CHECKING:
    from .xinput import XInput



class DisplayError(RuntimeError):
    """The display could not be provided (Xvfb missing or failing, server unreachable)."""


def _pdeathsig_shim(folder: Path) -> Path:
    """A folder holding an ``Xvfb`` that execs the real one with PR_SET_PDEATHSIG=KILL.

    xvfbwrapper spawns ``Xvfb`` by name with the environment it is given, and offers no pre-exec
    hook; putting this folder first on that environment's PATH is how the death signal gets set.
    """
    real = shutil.which("Xvfb")
    setpriv = shutil.which("setpriv")
    if real is None:
        raise DisplayError(
            "Xvfb is not installed: install it (Debian: apt-get install xvfb) or pass "
            "--playtest-display :N to use a running X server"
        )
    shim = folder / "Xvfb"
    if setpriv is None:
        shim.write_text(f'#!/bin/sh\nexec "{real}" "$@"\n')
    else:
        shim.write_text(f'#!/bin/sh\nexec "{setpriv}" --pdeathsig KILL -- "{real}" "$@"\n')
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return folder


class Display:
    """An X display: a private Xvfb started on first use, or an existing server (``existing=":N"``)."""

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, existing: str | None = None) -> None:
        self.size = size
        self.existing = existing
        self._xvfb: Any = None
        self._workdir: tempfile.TemporaryDirectory[str] | None = None
        self._environ: dict[str, str] = {}
        self._xlib: Any = None
        self._input: XInput | None = None
        self._lock = threading.RLock()

    # -- life cycle ---------------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return bool(self._environ)

    @property
    def name(self) -> str:
        self.start()
        return self._environ["DISPLAY"]

    @property
    def pid(self) -> int | None:
        """The Xvfb process id, or None for an existing display."""
        return self._xvfb.proc.pid if self._xvfb is not None and self._xvfb.proc else None

    def start(self) -> None:
        """Start the server if needed; raises DisplayError with the cause."""
        with self._lock:
            if self.started:
                return
            if self.existing:
                self._environ = {"DISPLAY": self.existing}
                if os.environ.get("XAUTHORITY"):
                    self._environ["XAUTHORITY"] = os.environ["XAUTHORITY"]
                self.xlib()  # fail now, clearly, if the server is not there
                return
            try:
                from xvfbwrapper import Xvfb
            except OSError as exc:
                raise DisplayError(f"xvfbwrapper cannot run here: {exc}") from None
            self._workdir = tempfile.TemporaryDirectory(prefix="playtest-display-")
            shim_dir = _pdeathsig_shim(Path(self._workdir.name))
            environ = dict(os.environ)
            environ.pop("DISPLAY", None)
            environ["PATH"] = f"{shim_dir}{os.pathsep}{environ.get('PATH', '')}"
            width, height = self.size
            try:
                # -nolisten tcp: the server is reachable through its local socket only
                xvfb = Xvfb(width=width, height=height, colordepth=24, environ=environ,
                            extra_args=["-nolisten", "tcp", "-noreset"])
                xvfb.start()
            except (FileNotFoundError, RuntimeError, OSError) as exc:
                self._cleanup_workdir()
                raise DisplayError(f"could not start Xvfb: {exc}") from None
            self._xvfb = xvfb
            self._environ = {"DISPLAY": environ["DISPLAY"]}

    def stop(self) -> None:
        with self._lock:
            if self._xlib is not None:
                try:
                    self._xlib.close()
                except Exception:  # noqa: BLE001 - a dead server cannot refuse a close any better
                    pass
                self._xlib = None
            if self._xvfb is not None:
                self._xvfb.stop()
                self._xvfb = None
            self._environ = {}
            self._input = None
            self._cleanup_workdir()

    def _cleanup_workdir(self) -> None:
        if self._workdir is not None:
            self._workdir.cleanup()
            self._workdir = None

    # -- what clients of the display need -------------------------------------------------------
    def env(self) -> dict[str, str]:
        """The variables an X client needs to reach this display (DISPLAY, XAUTHORITY)."""
        self.start()
        return dict(self._environ)

    def xlib(self) -> Any:
        """A shared python-xlib connection to the display (opened on first use)."""
        with self._lock:
            if self._xlib is None:
                from Xlib import display as xdisplay
                from Xlib.error import DisplayError as XDisplayError

                name = self._environ.get("DISPLAY") or self.name
                try:
                    self._xlib = xdisplay.Display(name)
                except (XDisplayError, OSError, ConnectionError) as exc:
                    raise DisplayError(f"cannot connect to X display {name}: {exc}") from None
            return self._xlib

    def input(self) -> XInput:
        """Real input (XTest) on this display's connection."""
        with self._lock:
            if self._input is None:
                from .xinput import XInput

                self._input = XInput(self.xlib())
            return self._input
