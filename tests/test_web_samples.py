"""The web sample projects as JavaScript projects: their rules pass node's own test runner, and Tally's
committed JavaScript is exactly what esbuild makes of its TypeScript (so the page runs without a build)."""

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support import SAMPLES

ESBUILD = SAMPLES / "web_tally" / "node_modules" / ".bin" / "esbuild"


@pytest.mark.parametrize("app", ["web_dodge", "web_tally"])
def test_the_rules_pass_node_s_test_runner(app: str) -> None:
    done = subprocess.run(["node", "--test", "logic.test.js"], cwd=SAMPLES / app, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# fail 0" in done.stdout


def test_tally_s_javascript_is_the_build_of_its_typescript(tmp_path: Path) -> None:
    assert ESBUILD.exists(), "esbuild is not installed: run `make setup` (npm ci in sample_projects/web_tally)"
    for name in ("app.ts", "logic.ts"):
        shutil.copy(SAMPLES / "web_tally" / name, tmp_path / name)
    done = subprocess.run([str(ESBUILD), "app.ts", "logic.ts", "--outdir=.", "--log-level=warning"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    for name in ("app.js", "logic.js"):
        assert (tmp_path / name).read_text() == (SAMPLES / "web_tally" / name).read_text(), f"rebuild {name}"


def test_a_sample_copy_builds_in_the_sandbox_with_its_linked_packages(tmp_path: Path) -> None:
    """A sample's copy links the repo's node_modules; the box keeps the link's target readable even when it
    lies in a folder the box hides (here the repo is under /tmp), so the build finds esbuild."""
    from types import SimpleNamespace

    from pytest_playtest.benchmark.boxing import boxed, sample_sandbox
    from pytest_playtest.benchmark.splice import splice_repo
    from pytest_playtest.benchmark.web import tool_environment
    from pytest_playtest.runtime.app import scrubbed_environment
    from pytest_playtest.runtime.sandbox import unavailable

    if unavailable():
        pytest.skip(f"no sandbox here: {unavailable()}")
    repo = tmp_path / "web_tally"
    shutil.copytree(SAMPLES / "web_tally", repo, symlinks=True, ignore=shutil.ignore_patterns("playtests"))
    copy = splice_repo(repo, tmp_path / "copy", "app.ts", "render", "log.textContent = '';", language="typescript")
    box = sample_sandbox(SimpleNamespace(sandbox="on", sandbox_limits=None), copy)
    assert box is not None
    try:
        argv, env = boxed(["esbuild", "app.ts", "--outdir=out", "--log-level=warning"],
                          tool_environment(scrubbed_environment({}), copy), box)
        done = subprocess.run(argv, cwd=copy, env=env, capture_output=True, text=True, timeout=60)
    finally:
        box.close()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "log.textContent = \"\"" in (copy / "out" / "app.js").read_text()
