"""The session-wide defaults every playtest starts from (data: read from the options by ``config.settings_from``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

from .files import ScreenshotMode
from .usage import TokenPrice

#: The arguments of the playtest marker and of ``run()``, in the order the marker's help lists them: the one list
#: of them. loop/spec.py checks each by its own function and refuses any other name; config.py writes the help.
PLAYTEST_ARGUMENTS = ("app", "strategy", "goal", "expect", "max_steps", "timeout", "policy", "seed", "size", "env",
                      "cwd", "record", "stop_when_met", "coverage", "oracles", "options", "sandbox")
#: What playtests do with golden runs (``--playtest-golden``; golden.py).
GoldenMode = Literal["check", "record", "update", "off"]
GOLDEN_MODES: tuple[GoldenMode, ...] = get_args(GoldenMode)
#: Whether an app under test runs in a bubblewrap sandbox (``--playtest-sandbox``, ``sandbox=``; runtime/sandbox.py).
SandboxMode = Literal["auto", "on", "off"]
SANDBOX_MODES: tuple[SandboxMode, ...] = get_args(SandboxMode)
#: Whether benchmark samples are also judged against their task's reference (``--playtest-benchmark-differential``).
DifferentialMode = Literal["on", "off"]
DIFFERENTIAL_MODES: tuple[DifferentialMode, ...] = get_args(DifferentialMode)
#: Whether a scenario case after one that did not pass is skipped or played from a fresh launch
#: (``--playtest-scenario-cases``, a scenario file's ``cases:``).
CaseMode = Literal["sequential", "independent"]
CASE_MODES: tuple[CaseMode, ...] = get_args(CaseMode)


@dataclass(frozen=True)
class Settings:
    """The session-wide defaults, from command line options and ini values."""

    size: tuple[int, int]
    display: str | None
    output: Path
    policy: str
    max_steps: int
    timeout: float
    screenshots: ScreenshotMode
    record: bool
    coverage: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)
    #: the sandbox mode asked for (None: each kind of playtest uses its own default)
    sandbox: str | None = None
    sandbox_limits: str | None = None
    #: what a million model tokens cost, for the estimate in the summary and the benchmark results
    token_price: TokenPrice | None = None
    #: what playtests do with golden runs (``golden.GOLDEN_MODES``)
    golden: GoldenMode = "check"
