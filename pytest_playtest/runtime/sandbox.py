"""A bubblewrap sandbox for the app under test: no network, a read-only system, its own PIDs, bounded.

The app's argv is wrapped as ``sh (joins a pids cgroup) → bwrap → prlimit → app``:

- ``bwrap`` gives it fresh network, PID, IPC and UTS namespaces, drops every capability (as root, an app
  that keeps them can remount ``/`` read-write), binds ``/`` read-only and hides the user's home, ``/tmp``,
  ``/run`` and shared memory under size-bounded tmpfs; the app's own folder (and paths a test allows) are
  bound writable, the Python installation and the display's socket read-only. Its HOME and TMPDIR are
  private tmpfs folders that vanish with the launch. ``--die-with-parent`` and the PID namespace mean
  nothing the app starts (a double-forked daemon included) outlives the sandbox.
- ``prlimit`` sets the address space, CPU seconds, file size and open files limits (a command, not a
  ``preexec_fn``: the harness has threads).
- The process count is bounded by a pids cgroup, because ``RLIMIT_NPROC`` is ignored for root; without a
  writable pids controller a non-root run falls back to ``RLIMIT_NPROC``.

Nothing here imports pytest or a GUI library.
"""

from __future__ import annotations

import functools
import itertools
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from ..errors import SandboxError, SandboxWarning
from ..settings import SANDBOX_MODES as SANDBOX_MODES  # the modes are a setting's values; spec.py reads them here
from ..settings import SandboxMode

#: Folders whose content the app never sees (each becomes an empty, size-bounded tmpfs).
HIDDEN = ("/root", "/home", "/tmp", "/run", "/var/tmp", "/dev/shm")
#: Files readable by root without capabilities that hold secrets: replaced by an empty file.
SECRET_FILES = ("/etc/shadow", "/etc/gshadow", "/etc/sudoers")
#: The app's private HOME inside the sandbox (on the tmpfs over /home).
SANDBOX_HOME = "/home/playtest"
#: Where pids cgroups are made (cgroup v1 pids controller, or a v2 hierarchy that offers pids).
CGROUP_ROOTS = (Path("/sys/fs/cgroup/pids"), Path("/sys/fs/cgroup"))
#: Joins the pids cgroup in $1, then runs the rest: the cgroup holds before the first fork of the app.
JOIN_CGROUP = 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"'

#: How many of the app's last output lines say which limit stopped it.
LAST_WORDS = 15

_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}


def parse_amount(raw: str | int) -> int:
    """``4G``, ``512M``, ``1024`` → a count (binary units)."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        value = raw
    else:
        match = re.fullmatch(r"\s*(\d+)\s*([kmgt]?)i?b?\s*", str(raw), re.I)
        if not match:
            raise ValueError(f"not an amount: {raw!r} (use e.g. 4G, 512M, 300)")
        value = int(match.group(1)) * _UNITS[match.group(2).lower()]
    if value <= 0:
        raise ValueError(f"must be positive, got {raw!r}")
    return value


@dataclass(frozen=True)
class Limits:
    """What the app may use; a limit that stops the app is named in its crash finding."""

    #: bytes of address space (RLIMIT_AS); pygame needs ≈400 MB, more with many malloc arenas
    address_space: int = 4 * 1024**3
    #: CPU seconds (RLIMIT_CPU): SIGXCPU at the limit, SIGKILL 5 s later
    cpu_seconds: int = 600
    #: bytes of one written file (RLIMIT_FSIZE), and of each private tmpfs (HOME, TMP)
    file_size: int = 1024**3
    #: open file descriptors (RLIMIT_NOFILE)
    open_files: int = 1024
    #: processes and threads of the whole sandbox (pids cgroup; RLIMIT_NPROC when not root)
    processes: int = 128

    @classmethod
    def parse(cls, raw: str | Mapping[str, str | int] | None, base: Limits | None = None) -> Limits:
        """``"address_space=4G,processes=64"`` or a mapping, over ``base``; a bad one raises ValueError."""
        base = base or cls()
        if not raw:
            return base
        if isinstance(raw, str):
            pairs = [part.split("=", 1) for part in raw.split(",") if part.strip()]
            if any(len(pair) != 2 for pair in pairs):
                raise ValueError(f"expected name=value pairs separated by commas, got {raw!r}")
            raw = {name.strip(): value.strip() for name, value in pairs}
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise ValueError(f"unknown limit(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        return replace(base, **{name: parse_amount(value) for name, value in raw.items()})

    def describe(self, name: str) -> str:
        value = getattr(self, name)
        return f"{name}={value}"


@dataclass(frozen=True)
class SandboxPolicy:
    """How one run's app is boxed: the mode, and what a test allows beyond the defaults."""

    mode: SandboxMode = "off"
    #: keep the host's network (and its loopback servers) reachable
    network: bool = False
    #: extra host paths the app may write (bound read-write at the same place)
    paths: tuple[str, ...] = ()
    limits: Limits = field(default_factory=Limits)


@functools.cache
def unavailable() -> str | None:
    """Why no sandbox can be made in this process (None: it can); probed once, with a real bwrap run."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "bubblewrap is not installed (Debian: apt-get install bubblewrap)"
    if shutil.which("prlimit") is None:
        return "prlimit (util-linux) is not installed"
    probe = [bwrap, "--die-with-parent", "--unshare-net", "--unshare-pid", "--unshare-ipc", "--cap-drop", "ALL",
             "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--", "true"]
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"bwrap cannot run: {exc}"
    if done.returncode != 0:
        return f"bwrap cannot make a sandbox here: {done.stderr.strip() or f'exit code {done.returncode}'}"
    return None


def resolve(policy: SandboxPolicy) -> SandboxPolicy | None:
    """The policy to launch with, or None for no sandbox.

    ``auto`` without a sandbox on this host warns (once per process) and runs unboxed; ``on`` without
    one raises SandboxError, which makes the run an error rather than an unboxed run.
    """
    if policy.mode == "off":
        return None
    why = unavailable()
    if why is None:
        return policy
    if policy.mode == "on":
        raise SandboxError(f"sandbox=on but no sandbox can be made: {why}")
    _warn_once(why)
    return None


@functools.cache
def _warn_once(why: str) -> None:
    warnings.warn(SandboxWarning(f"sandbox=auto: apps run without a sandbox: {why}"), stacklevel=3)


_cgroup_numbers = itertools.count(1)


class PidsCgroup:
    """A pids cgroup bounding every process and thread of one launch (holds for root, unlike RLIMIT_NPROC)."""

    def __init__(self, path: Path, limit: int) -> None:
        self.path, self.limit = path, limit

    @classmethod
    def make(cls, limit: int) -> PidsCgroup | None:
        """A new cgroup under the first writable pids hierarchy; None when there is none."""
        name = f"playtest-{os.getpid()}-{next(_cgroup_numbers)}"
        for root in CGROUP_ROOTS:
            if not (root / "cgroup.procs").exists():
                continue
            if root == Path("/sys/fs/cgroup") and "pids" not in _read(root / "cgroup.controllers").split():
                continue
            _sweep(root)
            path = root / name
            try:
                path.mkdir()
                (path / "pids.max").write_text(str(limit))
            except OSError:
                _rmdir(path)
                continue
            return cls(path, limit)
        return None

    def refused(self) -> int:
        """How many forks the limit refused so far."""
        match = re.search(r"max (\d+)", _read(self.path / "pids.events"))
        return int(match.group(1)) if match else 0

    def pids(self) -> list[int]:
        return [int(pid) for pid in _read(self.path / "cgroup.procs").split()]

    def kill(self) -> None:
        for pid in self.pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def remove(self) -> None:
        self.kill()
        _rmdir(self.path)


def _sweep(root: Path) -> None:
    """Remove the empty cgroups of test processes that were killed before they could remove their own."""
    for stale in root.glob("playtest-*-*"):
        owner = stale.name.split("-")[1]
        if owner.isdigit() and not Path(f"/proc/{owner}").exists() and not _read(stale / "cgroup.procs").strip():
            try:
                stale.rmdir()
            except OSError:
                pass


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _rmdir(path: Path) -> None:
    for _ in range(100):
        try:
            path.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:  # busy: its last processes are still exiting
            time.sleep(0.01)


class Sandbox:
    """One boxed launch: the wrapped argv and environment, and what the box saw when the app ended."""

    def __init__(self, policy: SandboxPolicy, *, workdir: Path | None, display: str | None = None,
                 writable: Sequence[Path] = (), readable: Sequence[Path] = ()) -> None:
        self.policy = policy
        self.workdir = (workdir or Path.cwd()).resolve()
        self.display = display
        self.writable = [Path(p).resolve() for p in [*map(str, writable), *policy.paths]]
        #: extra paths the app reads, kept readable even inside a hidden folder (e.g. linked packages)
        self.readable = [Path(p).resolve() for p in readable]
        self.cgroup: PidsCgroup | None = None
        self.notes: list[str] = []
        self._refused_at_close: int | None = None

    # -- the command --------------------------------------------------------------------------------
    def wrap(self, argv: Sequence[str], env: Mapping[str, str]) -> tuple[list[str], dict[str, str]]:
        """The argv and environment that run ``argv`` inside the sandbox."""
        bwrap, prlimit = shutil.which("bwrap"), shutil.which("prlimit")
        if bwrap is None or prlimit is None:
            raise SandboxError(unavailable() or "bubblewrap is not installed")
        limits = self.policy.limits
        inner_env = dict(env)
        inner_env.update({"HOME": SANDBOX_HOME, "TMPDIR": "/tmp", "XDG_CACHE_HOME": f"{SANDBOX_HOME}/.cache",
                          "XDG_CONFIG_HOME": f"{SANDBOX_HOME}/.config", "MALLOC_ARENA_MAX": "2"})
        limited = [prlimit, f"--as={limits.address_space}", f"--cpu={limits.cpu_seconds}:{limits.cpu_seconds + 5}",
                   f"--fsize={limits.file_size}", f"--nofile={limits.open_files}"]
        self.cgroup = PidsCgroup.make(limits.processes)
        if self.cgroup is None:
            if os.geteuid() == 0:
                self.notes.append("sandbox: no writable pids cgroup, so the process count is not bounded "
                                  "(RLIMIT_NPROC does not hold for root)")
            else:
                limited.append(f"--nproc={limits.processes}")
        command = [bwrap, *self._bwrap_arguments(), "--", *limited, "--", *argv]
        if self.cgroup is not None:
            command = ["sh", "-c", JOIN_CGROUP, "sh", str(self.cgroup.path), *command]
        return command, inner_env

    def _bwrap_arguments(self) -> list[str]:
        limits = self.policy.limits
        args = ["--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                "--cap-drop", "ALL", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        if not self.policy.network:
            args.append("--unshare-net")
        for hidden in HIDDEN:
            if Path(hidden).is_dir():
                args += ["--size", str(limits.file_size), "--tmpfs", hidden]
        args += ["--dir", SANDBOX_HOME]
        for secret in SECRET_FILES:
            if Path(secret).exists():
                args += ["--ro-bind", "/dev/null", secret]
        for path in self._readable():
            args += ["--ro-bind", str(path), str(path)]
        for path in [self.workdir, *self.writable]:
            if path.exists():
                args += ["--bind", str(path), str(path)]
        return [*args, "--chdir", str(self.workdir)]

    def _readable(self) -> list[Path]:
        """What the app needs from the hidden folders, read-only: Python, the package, the display."""
        wanted = {Path(p).resolve() for p in (sys.base_prefix, sys.prefix, sys.exec_prefix) if p}
        wanted.add(Path(__file__).resolve().parents[2])  # the bootstrap of coverage runs from the package
        wanted.update(self.readable)
        wanted.update(Path(p).resolve() for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)
        socket = self._display_socket()
        if socket is not None:
            wanted.add(socket)
        if os.environ.get("XAUTHORITY"):
            wanted.add(Path(os.environ["XAUTHORITY"]).resolve())
        under_hidden = [p for p in wanted if p.exists() and any(p.is_relative_to(h) for h in HIDDEN)]
        # a folder already bound covers what lies inside it
        return sorted(p for p in under_hidden if not any(p != q and p.is_relative_to(q) for q in under_hidden))

    def _display_socket(self) -> Path | None:
        match = re.fullmatch(r":(\d+)(\.\d+)?", self.display or "")
        return Path(f"/tmp/.X11-unix/X{match.group(1)}") if match else None

    # -- after the app ended --------------------------------------------------------------------------
    def limit_hit(self, exit_code: int | None, output: str) -> str | None:
        """Which limit stopped the app, judged from its exit signal, its last words and the refused forks;
        None when none did."""
        limits = self.policy.limits
        last_words = "\n".join(output.splitlines()[-LAST_WORDS:])
        if exit_code == -signal.SIGXCPU or (exit_code == -signal.SIGKILL and "SIGXCPU" in last_words):
            return f"the sandbox's CPU limit ({limits.describe('cpu_seconds')} s) stopped it"
        if exit_code == -signal.SIGXFSZ or "File too large" in last_words:
            return f"the sandbox's file size limit ({limits.describe('file_size')} bytes) stopped it"
        if "MemoryError" in last_words or "Cannot allocate memory" in last_words:
            return f"the sandbox's address space limit ({limits.describe('address_space')} bytes) stopped it"
        if "Too many open files" in last_words:
            return f"the sandbox's open files limit ({limits.describe('open_files')}) stopped it"
        if self.refused() or "Resource temporarily unavailable" in last_words:
            return f"the sandbox's process limit ({limits.describe('processes')}) stopped it"
        return None

    def summary(self) -> str:
        """One line for the verdict: what the box allowed and refused."""
        refused = self.refused()
        parts = [f"network {'allowed' if self.policy.network else 'none'}",
                 f"writable: {', '.join(str(p) for p in [self.workdir, *self.writable])} + private HOME/TMP"]
        if refused:
            parts.append(f"{refused} process creations refused (processes={self.policy.limits.processes})")
        return "sandbox: " + "; ".join(parts)

    def refused(self) -> int:
        """How many process creations the process limit refused."""
        if self._refused_at_close is not None:
            return self._refused_at_close
        return self.cgroup.refused() if self.cgroup is not None else 0

    def close(self) -> None:
        """Kill whatever is left in the box and remove its cgroup."""
        if self.cgroup is not None and self._refused_at_close is None:
            self._refused_at_close = self.cgroup.refused()
            self.cgroup.remove()


def exit_code(code: int | None) -> int | None:
    """bwrap reports a child killed by signal N as exit code 128+N: give it back as -N, as Popen does."""
    if code is not None and 128 < code <= 128 + 64:
        return -(code - 128)
    return code


def sandboxed_pid(outer: int) -> int | None:
    """The host PID of the app inside a bwrap started as ``outer``: its first descendant that is not bwrap
    (nor the shell that joined the cgroup); None while it is not there yet."""
    children: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                head, rest = stat.read().rsplit(b")", 1)
        except OSError:
            continue
        pid = int(entry.name)
        names[pid] = head.split(b"(", 1)[1].decode(errors="replace")
        children.setdefault(int(rest.split()[1]), []).append(pid)
    queue = list(children.get(outer, []))
    while queue:
        pid = queue.pop(0)
        if names.get(pid) not in ("bwrap", "sh", "prlimit"):
            return pid
        queue.extend(children.get(pid, []))
    return None
