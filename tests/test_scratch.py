"""Scratch folders a killed run left behind are removed by the next run that makes one of the same kind."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from pytest_playtest.runtime.scratch import OWNER_FILE, scratch_dir


@pytest.fixture
def temp_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def _folder(root: Path, name: str, owner: str | None) -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "xvfb.log").write_text("")
    if owner is not None:
        (folder / OWNER_FILE).write_text(owner)
    return folder


def test_a_folder_whose_owner_died_is_removed_and_the_others_stay(temp_root: Path) -> None:
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True)
    orphan = _folder(temp_root, "playtest-display-orphan", gone.stdout.strip())
    live = _folder(temp_root, "playtest-display-live", str(os.getppid()))
    foreign = _folder(temp_root, "playtest-display-foreign", None)
    other_kind = _folder(temp_root, "playtest-chromium-orphan", gone.stdout.strip())
    made = scratch_dir("playtest-display-")
    assert not orphan.exists()
    assert live.exists() and foreign.exists() and other_kind.exists()
    assert made.parent == temp_root and made.name.startswith("playtest-display-")
    assert (made / OWNER_FILE).read_text() == str(os.getpid())
