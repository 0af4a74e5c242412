"""Scratch folders that name the process they belong to.

A run removes its scratch folders itself; a run that was killed (SIGKILL, a CI job cancelled) cannot. Each folder
holds its owner's process id, so the next run that makes a folder of the same kind removes the ones whose owner
is gone. A folder without an owner file (made by something else with a similar name) is never touched.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

#: the file in a scratch folder that holds its owner's process id
OWNER_FILE = ".playtest-owner"


def scratch_dir(prefix: str) -> Path:
    """A new folder under the system's temporary directory named ``prefix`` + a random part, owned by this
    process; first removes the folders of that prefix whose owner has died."""
    remove_orphans(prefix)
    path = Path(tempfile.mkdtemp(prefix=prefix))
    (path / OWNER_FILE).write_text(str(os.getpid()))
    return path


def remove_orphans(prefix: str) -> list[Path]:
    """Remove the scratch folders of ``prefix`` whose owner process is gone; the folders removed."""
    removed = []
    for folder in Path(tempfile.gettempdir()).glob(f"{prefix}*"):
        owner = _owner(folder)
        if owner is not None and not _alive(owner):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _owner(folder: Path) -> int | None:
    try:
        return int((folder / OWNER_FILE).read_text())
    except (OSError, ValueError):
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's live process
    return True
