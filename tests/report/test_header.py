"""The report header: the versions in use under pytest's own, with --playtest only, starting nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import pytest_playtest
from pytest_playtest.runtime import browser, versions


def fake_binary(folder: Path, name: str, script: str) -> Path:
    """An executable ``name`` in ``folder`` running the shell ``script``."""
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(f"#!/bin/sh\n{script}\n")
    path.chmod(0o755)
    return path


def test_collecting_with_playtest_prints_the_versions_and_starts_no_xvfb(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    started = pytester.path / "xvfb-started"
    fake_binary(pytester.path / "bin", "Xvfb", f"touch {started}\nexit 1")
    monkeypatch.setenv("PATH", f"{pytester.path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    pytester.makepyfile("def test_x():\n    pass\n")
    result = pytester.runpytest("--playtest", "--co", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines([f"playtest: pytest-playtest {pytest_playtest.__version__}, Xvfb (version unknown), "
                                 "*, rapidocr * (onnxruntime *)"])
    assert result.ret == 0 and not started.exists()


def test_a_running_display_is_named_in_place_of_xvfb(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_x():\n    pass\n")
    result = pytester.runpytest("--playtest", "--playtest-display", ":97", "--co", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(["playtest: pytest-playtest *, --playtest-display :97, *"])
    assert "Xvfb" not in result.stdout.str()


def test_without_playtest_there_is_no_header(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_x():\n    pass\n")
    result = pytester.runpytest("--co", "-p", "no:cacheprovider")
    assert result.ret == 0 and "playtest:" not in result.stdout.str()


def test_a_missing_tool_or_package_is_not_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(versions.shutil, "which", lambda name: None)  # browser.chromium looks with it too
    assert versions.xvfb() == "Xvfb not found"
    assert versions.chromium() == "Chromium not found"
    assert versions.package("no-such-package-at-all") == "no-such-package-at-all not found"
    assert versions.header("9.9", None) == ("playtest: pytest-playtest 9.9, Xvfb not found, Chromium not found, "
                                            f"{versions.package('rapidocr')} ({versions.package('onnxruntime')})")


def test_chromiums_own_words_name_it_and_an_answer_without_a_version_is_unknown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    talking = fake_binary(tmp_path, "chrome", "echo 'Google Chrome 131.0.6778.85 unknown'")
    monkeypatch.setattr(browser, "chromium", lambda: str(talking))
    assert versions.chromium() == "Google Chrome 131.0.6778.85"
    for script in ("echo 'no version here'", "exit 3"):
        monkeypatch.setattr(browser, "chromium", lambda script=script: str(fake_binary(tmp_path, "odd", script)))
        assert versions.chromium() == "Chromium (version unknown)"


def test_a_binary_that_does_not_answer_in_time_is_unknown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hung = fake_binary(tmp_path, "chromium", "exec sleep 5")
    monkeypatch.setattr(browser, "chromium", lambda: str(hung))
    monkeypatch.setattr(versions, "TIMEOUT", 0.2)
    assert versions.chromium() == "Chromium (version unknown)"
