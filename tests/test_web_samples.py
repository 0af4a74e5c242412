"""The web sample projects as JavaScript projects: their rules pass node's own test runner, and Tally's
committed JavaScript is exactly what esbuild makes of its TypeScript (so the page runs without a build)."""

import shutil
import subprocess
from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parents[1] / "sample_projects"
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
