"""One Functionality, played: its run arguments checked, one run of the app through the pipeline, its cases'
outcomes settled with what the generic oracles saw."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..loop.spec import Defaults, RunResult, RunSpec
from ..verdict import Finding, Verdict
from .model import CaseOutcome, Functionality, ScenarioFile
from .progress import CasePlan

if TYPE_CHECKING:
    from ..pipeline import Runtime

#: The scenario policy's own finding kinds; every other kind comes from the generic oracles.
POLICY_KINDS = frozenset({"expectation", "judge"})
#: Steps a run may take per case (grammar actions, looks while a text appears, the tester's actions).
STEPS_PER_CASE = 60


@dataclass
class FunctionalityResult:
    """The runs of one Functionality (one; more when independent cases start again from a fresh launch) and
    its cases' outcomes."""

    verdicts: list[Verdict]
    outcomes: list[CaseOutcome]


def scenario_spec(scenario: ScenarioFile, defaults: Defaults, *, where: str, plan: CasePlan | None = None) -> RunSpec:
    """The run of one Functionality: the front matter's arguments over the session defaults.

    Raises ``loop.spec.SpecError`` for a bad argument (the collector reports it as a malformed file).
    """
    arguments = dict(scenario.arguments)
    app = arguments.get("app")
    if isinstance(app, str) and app.endswith(".py") and not Path(app).is_absolute():
        arguments["app"] = str((scenario.path.parent / app).resolve())
    cases = len(plan.cases) if plan else 1
    arguments.update(policy="scenario", strategy=arguments.get("strategy", "goal"),
                     max_steps=STEPS_PER_CASE * max(cases, 1), options={"scenario": plan} if plan else {})
    return RunSpec.from_kwargs(arguments, defaults=defaults, where=where)


def play_functionality(runtime: Runtime, scenario: ScenarioFile, functionality: Functionality, *, artifacts: Path,
                       where: str, login: Mapping[str, str] | None = None,
                       independent: bool = False) -> FunctionalityResult:
    """Run the app and perform the Functionality's cases in order; never raises for the app's faults.

    Sequential cases share one run. Independent ones too, until a case does not pass: the cases after it are
    played in a run of their own, from a fresh launch (its artifacts beside the first run's, ``…-case-N``).
    """
    result = FunctionalityResult([], [])
    remaining = functionality.cases
    while remaining:
        plan = CasePlan(remaining, tester=scenario.tester, login=login, independent=independent)
        spec = scenario_spec(scenario, runtime.settings, where=where, plan=plan)
        folder = artifacts.with_name(f"{artifacts.name}-case-{remaining[0].number}") if result.verdicts else artifacts
        run = runtime.play(spec, artifacts=folder, default_cwd=scenario.path.parent)
        result.verdicts.append(run.verdict)
        outcomes = settle(plan, run)
        first_bad = next((i for i, o in enumerate(outcomes) if o.status != "pass"), len(outcomes))
        if not independent or run.verdict.status == "error" or first_bad + 1 >= len(outcomes):
            result.outcomes.extend(outcomes)
            break
        result.outcomes.extend(outcomes[:first_bad + 1])
        remaining = remaining[first_bad + 1:]
    return result


def settle(plan: CasePlan, result: RunResult) -> list[CaseOutcome]:
    """Every case's outcome: as the policy left it, failed by the oracles' findings on its steps, and the
    cases the run never reached: the first not performed (saying why the run ended), the ones after it
    depending on it (or on an earlier case that did not pass)."""
    verdict = result.verdict
    outcomes = {outcome.case.number: outcome for outcome in plan.outcomes}
    for finding in verdict.findings:
        if finding.kind in POLICY_KINDS:
            continue
        number = _case_of(plan, finding)
        outcome = outcomes.get(number) if number is not None else None
        if outcome is not None and outcome.status in ("pass", "skip"):
            outcome.status, outcome.reason = "fail", _describe(finding)
    ended = _why_ended(verdict)
    broken: int | None = None
    for case in plan.cases:
        outcome = outcomes.get(case.number)
        if outcome is None:
            if verdict.status == "error":
                outcome = CaseOutcome(case, "error", f"not performed: {ended}")
            elif broken is not None:
                outcome = CaseOutcome(case, "skip", f"depends on case {broken}, which did not pass")
            else:
                outcome = CaseOutcome(case, "fail", f"not performed: {ended}")
            outcomes[case.number] = outcome
        if outcome.status != "pass" and broken is None:
            broken = case.number
    return [outcomes[case.number] for case in plan.cases]


def _case_of(plan: CasePlan, finding: Finding) -> int | None:
    """The case a finding's step belonged to; a finding without a step (end of run) belongs to the last."""
    if finding.step is not None:
        owners = [case for step, case in plan.step_cases.items() if step <= finding.step]
        if owners:
            return owners[-1]
    return plan.outcomes[-1].case.number if finding.step is None and plan.outcomes else None


def _describe(finding: Finding) -> str:
    where = f"step {finding.step}" if finding.step is not None else "the end of the run"
    return f"[{finding.kind}] at {where}: {finding.message}"


def _why_ended(verdict: Verdict) -> str:
    if verdict.status == "error":
        return f"harness error: {verdict.error}"
    oracle = [f for f in verdict.findings if f.kind not in POLICY_KINDS]
    if oracle:
        return "the run ended after " + _describe(oracle[0])
    return f"the run's bounds ran out after {verdict.steps} step(s) / {verdict.duration:.0f}s"
