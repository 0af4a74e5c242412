"""Coverage of the app under test, harness side: the launch wrapper, the live stream, the final report.

A covered app runs through :mod:`.coverage_boot` (branch coverage, source limited to the app's
folder). While it runs, :class:`CoverageStream` reads the lines it reaches from a pipe, so the
playtest loop can tell whether an input reached new code (compare :meth:`CoverageStream.total_lines`
before and after it). After teardown, :func:`report` reads the saved data file.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import CoverageError
from ..verdict import CoverageReport, FileCoverage

#: The bootstrap, run by path so the package is not imported into the app's process.
BOOT = Path(__file__).with_name("coverage_boot.py")

#: Interpreter flags without an argument that may come before the script (``python -u app.py``).
_PLAIN_FLAGS = frozenset("bBdEIOPqRsSuvx")
#: A line longer than this on the pipe is not the bootstrap's: it is dropped.
_MAX_LINE = 8 << 20


__all__ = ["CoverageReport", "CoverageSetup", "CoverageStream", "FileCoverage", "coverage_argv", "report"]


@dataclass(frozen=True)
class CoverageSetup:
    """How to measure an app: where the data goes and which folder counts as the app's code.

    ``source`` defaults to the script's folder (the working directory for ``python -m``); a relative
    one is taken from the app's working directory, a relative ``data_file`` from ours. A covered app
    gets ``grace`` seconds (at least) at teardown to save its data before its group is killed;
    ``stream=False`` measures without the live stream.
    """

    data_file: Path
    source: Path | None = None
    grace: float = 2.0
    stream: bool = True


# -- launching ----------------------------------------------------------------------------------------
def _split_python_argv(argv: Sequence[str]) -> tuple[list[str], bool, str, list[str]] | None:
    """(interpreter flags, is a module, script or module, its args) of ``python [flags] script|-m mod``."""
    flags: list[str] = []
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg == "-m":
            return (flags, True, argv[i + 1], list(argv[i + 2:])) if i + 1 < len(argv) else None
        if arg.startswith("-m") and len(arg) > 2:
            return flags, True, arg[2:], list(argv[i + 1:])
        if arg in ("-X", "-W"):
            if i + 1 >= len(argv):
                return None
            flags += [arg, argv[i + 1]]
            i += 2
            continue
        if arg.startswith(("-X", "-W")) or (arg.startswith("-") and len(arg) > 1 and set(arg[1:]) <= _PLAIN_FLAGS):
            flags.append(arg)
            i += 1
            continue
        if arg.startswith("-"):
            return None  # -c code, - (stdin), --help, ...: nothing to cover as a file
        return flags, False, arg, list(argv[i + 1:])
    return None


def is_covered_python(argv: Sequence[str]) -> bool:
    """Whether ``argv`` runs a Python script or module with this interpreter (the one that has coverage)."""
    if not argv or os.path.abspath(argv[0]) != os.path.abspath(sys.executable):
        return False
    return _split_python_argv(argv) is not None


def default_source(argv: Sequence[str], cwd: Path | None = None) -> Path | None:
    """The folder that counts as the app's code: the script's folder, or the working directory for ``-m``."""
    if not is_covered_python(argv):
        return None
    split = _split_python_argv(argv)
    assert split is not None
    base = cwd or Path.cwd()
    if split[1]:
        return base.resolve()
    script = Path(split[2])
    return (script if script.is_absolute() else base / script).resolve().parent


def coverage_argv(argv: Sequence[str], source_dir: str | Path, data_file: str | Path,
                  fd: int | None) -> list[str] | None:
    """``argv`` wrapped to run under the coverage bootstrap; None when it is not a Python app we can cover.

    Covered: ``[sys.executable, *flags, script.py | -m module, *args]`` (as ``runtime.app.app_argv`` makes
    them). Anything else (another program, another interpreter, ``python -c``) gives None.
    """
    if not is_covered_python(argv):
        return None
    split = _split_python_argv(argv)
    assert split is not None
    flags, as_module, target, args = split
    wrapped = [str(argv[0]), *flags, str(BOOT), "--source", str(source_dir), "--data", str(data_file)]
    if fd is not None:
        wrapped += ["--fd", str(fd)]
    return [*wrapped, "-m" if as_module else "--", target, *args]


# -- the live stream ---------------------------------------------------------------------------------
class CoverageStream:
    """Reads the lines and arcs the app reaches, as it reaches them, from the bootstrap's pipe.

    The counters only grow: sample :meth:`total_lines` before an input and pass it to
    :meth:`new_lines_since` (or :meth:`wait_for_new`) after, to learn whether the input reached code
    that had never run. Paths are relative to the source folder.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._lines: dict[str, set[int]] = {}
        self._arcs: dict[str, set[tuple[int, int]]] = {}
        self._total_lines = 0
        self._total_arcs = 0
        self._changed = threading.Condition()
        self._closed = False
        self._thread: threading.Thread | None = None
        #: Monotonic time of the last update that brought a new line (0.0: none yet).
        self.last_change = 0.0
        #: Records that were not the bootstrap's (the app can write to the pipe too).
        self.rejected = 0

    def start(self) -> CoverageStream:
        self._thread = threading.Thread(target=self._read, daemon=True, name=f"playtest-coverage-{self._fd}")
        self._thread.start()
        return self

    def _read(self) -> None:
        buffer = b""
        try:
            while chunk := os.read(self._fd, 1 << 16):
                buffer += chunk
                *records, buffer = buffer.split(b"\n")
                if len(buffer) > _MAX_LINE:
                    buffer = b""
                    self.rejected += 1
                if records:
                    self._take(records)
        except OSError:
            pass
        finally:
            os.close(self._fd)
            with self._changed:
                self._closed = True
                self._changed.notify_all()

    def _take(self, records: list[bytes]) -> None:
        now = time.monotonic()
        with self._changed:
            before = self._total_lines + self._total_arcs
            for raw in records:
                try:
                    record = json.loads(raw)
                    name = record["f"]
                    lines = {int(n) for n in record["l"]}
                    arcs = {(int(a), int(b)) for a, b in record["a"]}
                    if not isinstance(name, str):
                        raise TypeError(name)
                except (ValueError, TypeError, KeyError):
                    self.rejected += 1
                    continue
                known_lines = self._lines.setdefault(name, set())
                known_arcs = self._arcs.setdefault(name, set())
                self._total_lines += len(lines - known_lines)
                self._total_arcs += len(arcs - known_arcs)
                known_lines |= lines
                known_arcs |= arcs
            if self._total_lines + self._total_arcs != before:
                self.last_change = now
                self._changed.notify_all()

    # -- what the loop asks --------------------------------------------------------------------------
    def total_lines(self) -> int:
        """Distinct lines reached so far (all files); only grows."""
        with self._changed:
            return self._total_lines

    def total_arcs(self) -> int:
        """Distinct arcs (line-to-line transitions, branches among them) taken so far; only grows."""
        with self._changed:
            return self._total_arcs

    def new_lines_since(self, mark: int) -> int:
        """Lines first reached after ``total_lines()`` was ``mark``."""
        return self.total_lines() - mark

    def wait_for_new(self, timeout: float, since: int | None = None) -> int:
        """Wait up to ``timeout`` s for lines beyond ``since`` (default: now); how many came (0: none)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            mark = self._total_lines if since is None else since
            while self._total_lines <= mark and not self._closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._changed.wait(left)
            return max(0, self._total_lines - mark)

    def reached_since(self, before: dict[str, frozenset[int]]) -> tuple[str, ...]:
        """The lines reached since ``before`` (a ``lines()`` snapshot), as ``file:line``, in file and line order."""
        now = self.lines()
        return tuple(f"{name}:{line}" for name in sorted(now)
                     for line in sorted(now[name] - before.get(name, frozenset())))

    def lines(self) -> dict[str, frozenset[int]]:
        with self._changed:
            return {name: frozenset(lines) for name, lines in self._lines.items()}

    def arcs(self) -> dict[str, frozenset[tuple[int, int]]]:
        with self._changed:
            return {name: frozenset(arcs) for name, arcs in self._arcs.items()}

    @property
    def closed(self) -> bool:
        """The app's end of the pipe is closed (it exited): nothing more will come."""
        with self._changed:
            return self._closed

    def join(self, timeout: float = 2.0) -> None:
        """Wait for the reader to see the end of the stream (after the app is gone)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def save(self, data_file: str | Path, source_dir: str | Path) -> None:
        """Write what was streamed as a coverage data file (for an app killed before it saved its own)."""
        from coverage import CoverageData

        root = Path(source_dir).resolve()
        data = CoverageData(basename=str(data_file))
        data.erase()  # whatever is there is not the app's (it was killed before it could save)
        data.add_arcs({str(root / name): set(arcs) for name, arcs in self.arcs().items()})
        data.write()


# -- the report ---------------------------------------------------------------------------------------
def report(data_file: str | Path, source_dir: str | Path) -> CoverageReport:
    """Lines and branches hit/total of the measured files under ``source_dir``, from a saved data file.

    Raises CoverageError when there is no data file. Files that cannot be analysed any more (deleted,
    not Python) are left out.
    """
    from coverage import Coverage
    from coverage.exceptions import CoverageException

    path = Path(data_file)
    if not path.is_file():
        raise CoverageError(f"no coverage data file at {path}")
    cov = Coverage(data_file=str(path), config_file=False)
    try:
        cov.load()
        data = cov.get_data()
        measured = sorted(data.measured_files())
        has_arcs = data.has_arcs()
    except CoverageException as exc:
        raise CoverageError(f"cannot read coverage data {path}: {exc}") from None
    root = os.path.realpath(source_dir)
    files: dict[str, FileCoverage] = {}
    for measured_file in measured:
        relative = os.path.relpath(measured_file, root)
        if relative.startswith(".."):
            continue
        try:
            _, statements, _, missing, _ = cov.analysis2(measured_file)
            stats = cov.branch_stats(measured_file) if has_arcs else {}
        except (CoverageException, OSError, SyntaxError):
            continue
        files[relative] = FileCoverage(
            lines_hit=len(statements) - len(missing), lines_total=len(statements),
            branches_hit=sum(taken for _, taken in stats.values()),
            branches_total=sum(total for total, _ in stats.values()))
    return CoverageReport(files)


def combined_report(data_files: Sequence[Path], source_dir: str | Path) -> CoverageReport:
    """The report of several runs of one app (its launches): their data files combined first."""
    existing = [Path(f) for f in data_files if Path(f).is_file()]
    if len(existing) <= 1:
        return report(existing[0] if existing else Path(data_files[0]), source_dir)
    from coverage import CoverageData
    from coverage.exceptions import CoverageException

    combined_file = existing[0].with_name(existing[0].stem + "-combined.data")
    combined = CoverageData(basename=str(combined_file))
    try:
        for path in existing:
            part = CoverageData(basename=str(path))
            part.read()
            combined.update(part)
        combined.write()
    except CoverageException as exc:
        raise CoverageError(f"cannot combine coverage data {existing}: {exc}") from None
    return report(combined_file, source_dir)
