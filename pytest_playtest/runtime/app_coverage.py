"""One launch of an app under coverage: its argv wrapped in the bootstrap (:mod:`.coverage_boot`), the lines it
reaches streamed while it runs, and the report of its own files after it exited.

Only a Python app of this interpreter can be measured; for any other, coverage is refused, saying why.
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

from ..errors import AppError, CoverageError
from .coverage import CoverageReport, CoverageSetup, CoverageStream, coverage_argv, default_source, report


class AppCoverage:
    """How one launch is measured (``setup``), what it measures (``source``) and what it reached so far."""

    def __init__(self, setup: CoverageSetup | None) -> None:
        #: How to measure coverage (None: not asked).
        self.setup = setup
        self.source: Path | None = None
        #: Why coverage was asked for but not measured (not a Python app of this interpreter).
        self.refused: str | None = None
        #: The lines the app reaches, live (None unless covered).
        self.stream: CoverageStream | None = None

    @property
    def covered(self) -> bool:
        """Whether the app was launched under coverage."""
        return self.source is not None

    def wrap(self, setup: CoverageSetup, argv: list[str],
             cwd: Path | None) -> tuple[list[str] | None, int | None, int | None]:
        """``argv`` wrapped in the coverage bootstrap (None: refused), and the (read, write) fds of the pipe its
        lines stream through (None: not streamed)."""
        source = default_source(argv, cwd)
        if source is None:
            self.refused = f"not a Python app of {sys.executable}: {shlex.join(argv)}"
            return None, None, None
        if setup.source is not None:
            source = (cwd or Path.cwd()) / setup.source  # an absolute source stays as it is
        self.source = source.resolve()
        data_file = Path(setup.data_file).absolute()
        try:
            data_file.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise AppError(f"cannot write coverage data to {data_file}: {exc}") from None
        read_fd, write_fd = os.pipe() if setup.stream else (None, None)
        wrapped = coverage_argv(argv, self.source, data_file, write_fd)
        assert wrapped is not None
        return wrapped, read_fd, write_fd

    def follow(self, read_fd: int) -> None:
        """Read the lines the app reaches from the pipe's read end as they stream in."""
        self.stream = CoverageStream(read_fd).start()

    def report(self) -> CoverageReport | None:
        """Lines and branches hit/total of the app's own files, once it exited; None when not measured.

        When the app could not save its data (it ignored SIGTERM and was killed), the report is
        made from what it streamed (files it never ran are then missing from it).
        """
        if not self.covered or self.setup is None or self.source is None:
            return None
        data_file = Path(self.setup.data_file).absolute()
        try:
            measured = report(data_file, self.source)
        except CoverageError:
            measured = None
        if (measured is None or not measured.files) and self.stream is not None and self.stream.total_lines():
            self.stream.save(data_file, self.source)
            try:
                measured = report(data_file, self.source)
            except CoverageError:
                return None
        return measured
