"""Fixtures for the report tests: the frames and Steps of a fake run (tests/support/frames.py's Runs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.frames import Runs


@pytest.fixture
def runs(tmp_path: Path) -> Runs:
    return Runs(tmp_path / "run")
