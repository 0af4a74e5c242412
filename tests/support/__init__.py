"""Helpers shared by the plugin's own tests: paths, process checks, and (in the submodules) test doubles.

Helpers only: fixtures and hooks live in the conftest.py files, and no test module imports another. Test
modules import from here as ``tests.support`` (pyproject.toml's ``pythonpath`` puts the repository root on
``sys.path``). The submodules: ``openai_server``, a loopback OpenAI endpoint; ``frames``, frames and vision
stand-ins; ``benchmark``, a toy benchmark suite.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_playtest.loop.spec import RunResult

REPO = Path(__file__).resolve().parents[2]
APPS = REPO / "fixtures" / "apps"
SAMPLES = REPO / "sample_projects"

#: The ``play`` fixture: plays an app on the test display as ``playtest.run`` does (tests/conftest.py).
Play = Callable[..., "RunResult"]


def pid_alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def wait_gone(pids: list[int], timeout: float = 10.0) -> list[int]:
    """The pids still alive after waiting up to ``timeout`` seconds for all of them to go."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = [pid for pid in pids if pid_alive(pid)]
        if not alive:
            return []
        time.sleep(0.05)
    return [pid for pid in pids if pid_alive(pid)]


def no_display_env() -> dict[str, str]:
    """The test process's environment without ``DISPLAY``."""
    return {k: v for k, v in os.environ.items() if k != "DISPLAY"}
