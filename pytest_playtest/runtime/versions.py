"""The versions of what a playtest runs on, for the report header: Xvfb, Chromium and the OCR engine.

Cheap by design: nothing starts a display or a browser. Chromium answers ``--version`` in a few hundredths of a
second; Xvfb has no version option, so its version is the one the package manager installed it with (dpkg);
the OCR engine's come from the installed packages' metadata, without importing them. A tool that is missing
is ``not found``, one whose version cannot be told is ``version unknown``: never an error.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import subprocess

#: The longest a version query may take (a wedged binary must not hold up the session's start).
TIMEOUT = 2.0
#: A version number: digits and dots, at least one dot.
VERSION = re.compile(r"\d+(?:\.\d+)+")


def _output(argv: list[str]) -> str:
    """What a command printed on stdout (empty when it fails, times out or is missing)."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT, check=False,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout if done.returncode == 0 else ""


def _dpkg_version(path: str) -> str | None:
    """The upstream version of the Debian package that installed ``path`` (no epoch, no Debian revision)."""
    if shutil.which("dpkg-query") is None:
        return None
    owner = _output(["dpkg-query", "--search", os.path.realpath(path)])  # "xvfb: /usr/bin/Xvfb"
    package = owner.split(":", 1)[0].strip() if ": " in owner else ""
    if not package:
        return None
    version = _output(["dpkg-query", "--show", "--showformat=${Version}", package]).strip()  # 2:21.1.7-3+deb12u13
    upstream = version.split(":", 1)[-1].rsplit("-", 1)[0]
    return upstream or None


def xvfb() -> str:
    """``Xvfb 21.1.7``, ``Xvfb (version unknown)`` or ``Xvfb not found``."""
    path = shutil.which("Xvfb")
    if path is None:
        return "Xvfb not found"
    version = _dpkg_version(path)
    return f"Xvfb {version}" if version else "Xvfb (version unknown)"


def chromium() -> str:
    """``Chromium 156.0.8078.108`` (the browser's own name and version), or ``Chromium not found``."""
    from ..errors import AppError
    from .browser import chromium as find_chromium

    try:
        path = find_chromium()
    except AppError:
        return "Chromium not found"
    first = _output([path, "--version"]).strip().splitlines()[:1]  # "Chromium 156.0.8078.108 built on ..."
    found = VERSION.search(first[0]) if first else None
    return first[0][: found.end()] if found else "Chromium (version unknown)"


def package(name: str) -> str:
    """``rapidocr 3.10.0``, or ``rapidocr not found``: an installed package's version, not imported."""
    try:
        return f"{name} {importlib.metadata.version(name)}"
    except importlib.metadata.PackageNotFoundError:
        return f"{name} not found"


def header(version: str, display: str | None) -> str:
    """The report header's line: the plugin, the display (Xvfb, or the running one given), the browser and the
    OCR engine."""
    screen = f"--playtest-display {display}" if display else xvfb()
    return f"playtest: pytest-playtest {version}, {screen}, {chromium()}, {package('rapidocr')} " \
           f"({package('onnxruntime')})"
