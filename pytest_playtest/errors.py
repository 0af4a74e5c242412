"""Every error and warning pytest-playtest raises for its user, under one base each.

``except PlaytestError`` catches anything the plugin raises on purpose; each class also keeps the built-in
base it always had (``ValueError`` for bad input, ``RuntimeError`` for what the machine cannot do,
``AssertionError`` for a wait that ran out), so existing ``except`` clauses keep working. The modules that
raise them import them from here; the ones a user can meet are exported from ``pytest_playtest``
(``pytest_playtest._INTERNAL_ERRORS`` names the others).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path


class PlaytestError(Exception):
    """Base of every error pytest-playtest raises on purpose."""


class PlaytestWarning(UserWarning):
    """Base of every warning pytest-playtest emits."""


# -- bad input: the message names the file, field, argument or step ----------------------------------------
class SpecError(PlaytestError, ValueError):
    """A marker or run() argument that is wrong; the message names the test and the argument."""


class ExpectationError(PlaytestError, ValueError):
    """An expectation written wrongly (unknown key, bad regex, wrong type)."""


class RuleError(PlaytestError, ValueError):
    """A rule that does not parse; the message names the rule and the clause."""


class ActionError(PlaytestError, ValueError):
    """An action that cannot be performed as asked (bad field, target outside the window)."""


class InputError(PlaytestError, ValueError):
    """A key that does not exist on the display's keyboard map."""


class ScenarioError(PlaytestError, ValueError):
    """A malformed scenario file or case; the message names the file and line."""

    def __init__(self, path: Path, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.problem = path, line, message


class OutputFolderError(PlaytestError, ValueError):
    """The output folder cannot be used: it is a file, or holds files this plugin did not create."""


class ShardError(PlaytestError, ValueError):
    """A ``--playtest-benchmark-shard`` value that is not ``I/N`` (or ``auto/N`` with the index set)."""


class MergeError(PlaytestError, ValueError):
    """Results that cannot be merged (unreadable, different suites or k, overlapping shards...)."""


class SpliceError(PlaytestError, ValueError):
    """The completion cannot be put in place: the symbol is missing, or the file itself does not parse."""


class RepairInputError(PlaytestError):
    """The command line names something unusable (no verdict, a source outside the project...)."""


# -- what the machine or a service cannot do: a run's status "error", never a "fail" -----------------------
class DisplayError(PlaytestError, RuntimeError):
    """The display could not be provided (Xvfb missing or failing, server unreachable)."""


class XvfbMissing(DisplayError):
    """Xvfb is not installed: starting it again would not help."""


class AppError(PlaytestError, RuntimeError):
    """The app could not be started or watched for reasons that are not its fault (bad path, no X)."""


class DomError(AppError):
    """A rule's selector the browser refuses (the message names the selector)."""


class DevToolsError(PlaytestError, RuntimeError):
    """The browser answered a command with an error, or the pipe closed."""


class DevToolsTimeout(DevToolsError):
    """The browser did not answer a command in time (its reply, if it ever comes, is dropped)."""


class SandboxError(PlaytestError, RuntimeError):
    """No sandbox can be made here (bwrap missing, namespaces refused); the message says why."""


class CoverageError(PlaytestError, RuntimeError):
    """The coverage data could not be read (no data file: the app was killed before it could save)."""


class PolicyError(PlaytestError, RuntimeError):
    """The policy cannot go on for reasons that are not the app's fault."""


class EndpointError(PlaytestError):
    """The model could not be asked (endpoint down, refused, gave up after retries): not the code's fault."""


# -- the low-level API's waits -------------------------------------------------------------------------------
class PlaytestTimeout(PlaytestError, AssertionError):
    """A wait of the low-level API ran out (no change, text not seen)."""


# -- warnings ---------------------------------------------------------------------------------------------------
class SandboxWarning(PlaytestWarning):
    """``sandbox="auto"`` found no sandbox on this host: apps run with process-group isolation only."""


class PlaytestReportWarning(PlaytestWarning):
    """A report artifact (storyboard, animation) could not be made; the verdict itself is unaffected."""


class PlaytestBenchmarkWarning(PlaytestWarning):
    """Something about a suite that does not stop the run but changes what its numbers mean."""


class PlaytestRepairWarning(PlaytestWarning):
    """A repair round could not ask the model; the sample keeps its original outcome."""


class PytestPlaytestDeprecationWarning(PlaytestWarning, DeprecationWarning):
    """A spelling the plugin still accepts but will drop: an option, ini name or import that was renamed or made
    internal. The message names the spelling to use instead."""
