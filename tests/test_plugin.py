"""The plugin as pytest sees it: options, marker, skipping, importing without a display."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import no_display_env

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


def test_import_needs_no_display() -> None:
    result = subprocess.run([sys.executable, "-c", "import pytest_playtest, pytest_playtest.plugin; print('ok')"],
                            env=no_display_env(), capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_help_lists_options_without_display() -> None:
    result = subprocess.run([sys.executable, "-m", "pytest", "--help"], env=no_display_env(),
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    for option in ("--playtest", "--playtest-size", "--playtest-display", "--playtest-output",
                   "--playtest-policy", "--playtest-screenshots"):
        assert option in result.stdout


def test_playtests_are_skipped_without_the_flag(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.playtest(app="game.py")
        def test_marked():
            pass

        def test_fixture(playtest):
            pass

        def test_plain():
            pass
        """
    )
    result = pytester.runpytest("-rs")
    result.assert_outcomes(passed=1, skipped=2)
    result.stdout.fnmatch_lines(["*--playtest*"])


def test_marker_is_registered(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.playtest(*"])


def test_bad_option_value_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_x(): pass")
    result = pytester.runpytest("--playtest", "--playtest-size", "big")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--playtest-size*WIDTHxHEIGHT*"])


def test_ini_twin_enables_and_configures(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nplaytest = true\nplaytest_max_steps = 7\n")
    pytester.makepyfile(
        """
        def test_settings(playtest):
            assert playtest.runtime.settings.max_steps == 7
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)


def test_bad_marker_argument_names_it_and_others_run(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.playtest(app="x.py", max_step=3)
        def test_typo(playtest):
            playtest.run()

        def test_other():
            pass
        """
    )
    result = pytester.runpytest("--playtest")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*unknown playtest argument(s) max_step*"])
