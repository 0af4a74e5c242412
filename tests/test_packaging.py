"""The package's metadata: the version written once, the license shipped with it."""

from __future__ import annotations

import importlib.metadata
import tomllib

import pytest_playtest
from tests.support import REPO


def test_the_version_is_written_once_and_installed_as_written() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "pytest_playtest.__version__"}
    # a stale install (the version changed without `make setup`) shows here
    assert importlib.metadata.version("pytest-playtest") == pytest_playtest.__version__


def test_the_license_is_an_spdx_expression_shipped_with_its_file() -> None:
    metadata = importlib.metadata.metadata("pytest-playtest")
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]
    assert "Copyright (c) 2026 the pytest-playtest authors" in (REPO / "LICENSE").read_text()
