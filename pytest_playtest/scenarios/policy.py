"""The scenario policy: it performs one Functionality's cases in order and checks each case's Expectation.

It runs inside the ordinary playthrough, so the generic oracles (crash, exception, freeze, unresponsive)
watch every step. Per case: each step's grammar moves become actions (a label is looked up on the window
when its step runs; a login, a page to go to or the game's start input are worked out from what the window
shows), a step outside the grammar is handed to the tester policy (a model) with the step as its goal, and
the Expectation is checked on the window afterwards (``check.judge``): what it cannot confirm, and its words
no check covers, are judged by the tester. A check is one ``wait 0s`` step captioned with the expectation, so
the storyboard shows it, and a failed one is a Finding on that step. What it cannot do offline it skips,
with the reason naming the step; it never passes a case it did not check.

A case that follows one that did not pass is not performed on the state that case left: it is skipped
("depends on case N"), or, when the cases are independent, the run ends so that the rest start from a fresh
launch (``CasePlan.resume_at``).

The policy walks the plan and checks each Expectation; where it is in the plan is ``progress``, the grammar moves
are performed by ``moves`` and what goes to the tester by ``tester``.
"""

from __future__ import annotations

import time

from ..actions import Action
from ..errors import PolicyError, RuleError
from ..policies.base import Decision, Observation, Policy, PolicyContext
from ..rules import refused_on_desktop
from ..trajectory import Step
from .check import Before, judge
from .expectations import parse_expectation
from .grammar import parse_step
from .moves import APPEAR_WITHIN, LOOK_AGAIN, Moves
from .progress import CasePlan, Progress
from .tester import Tester


class ScenarioPolicy(Policy):
    """Performs a CasePlan (``context.options["scenario"]``); see the module docstring."""

    name = "scenario"
    scripted = True

    def __init__(self, context: PolicyContext) -> None:
        super().__init__(context)
        plan = context.options.get("scenario")
        if not isinstance(plan, CasePlan):
            raise PolicyError("the scenario policy plays scenario files (*.playtest.md, TestCases_*.md); "
                              "it is not chosen with policy=")
        self.plan = plan
        self.progress = Progress(plan, self.findings)
        self.tester = Tester(context, self.progress, self.notes)
        self.moves = Moves(context, self.progress, self.tester)
        #: the app's launch the last observation came from (a new one has had no input yet)
        self.launch = 1

    # -- the policy interface ---------------------------------------------------------------------------
    def decide(self, observation: Observation) -> Decision:
        if observation.launch != self.launch:
            self.launch = observation.launch
            self.moves.new_launch()
        progress = self.progress
        while not progress.done:
            if progress.broken is not None:
                if self.plan.independent:
                    self.plan.resume_at = progress.case_index
                    return self.tester.spend(Decision(Action.finish("pass", f"case {progress.broken} did not pass: "
                                                                            "the next cases start from a fresh launch"),
                                                      note="scenario: fresh launch for the next cases"))
                progress.end_case("skip", f"depends on case {progress.broken}, which did not pass")
                continue
            number = progress.case.number  # a check ends its case and still takes a step: the step is that case's
            decision = self._next(observation)
            if decision is not None:
                self.plan.step_cases[observation.step] = number
                return self.tester.spend(decision)
        return self.tester.spend(Decision(Action.finish("pass", "every case was performed"), note="scenario done"))

    def record(self, step: Step) -> None:
        self.tester.record(step)
        if step.action.kind not in ("wait", "finish"):
            self.moves.acted = True
        if step.error and self.plan.step_cases.get(step.index) == self.progress.current_number():
            self.progress.end_case("error", f"{self.progress.where()}: the action {step.action.label()} was refused: "
                                            f"{step.error}")

    def close(self) -> None:
        self.progress.close_delegate()

    # -- the case at work -----------------------------------------------------------------------------------
    def _next(self, observation: Observation) -> Decision | None:
        """The next decision of the case at work; None when the case moved on (or ended) without one."""
        progress = self.progress
        if self.tester.at_work:
            return self.tester.decide(observation)
        if progress.step_index == 0 and progress.moves is None and progress.before is None:
            progress.before = Before(observation.text() if self._needs_before() else "", observation.launch)
        if progress.repeat is not None:
            return self.moves.repeated()
        step = progress.step()
        if step is None:
            return self._check(observation)
        if progress.moves is None:
            progress.moves = parse_step(step.text)
            progress.move_index = 0
            if progress.moves is None:
                self.tester.hand_over(step.text, "step")
                return None
        if progress.move_index >= len(progress.moves):
            progress.next_step()
            return None
        return self.moves.perform(progress.moves[progress.move_index], observation)

    def _needs_before(self) -> bool:
        checks = parse_expectation(self.progress.case.expectation)
        return checks.needs_before or checks.closes

    # -- the expectation -------------------------------------------------------------------------------------
    def _check(self, observation: Observation) -> Decision | None:
        progress = self.progress
        checks = parse_expectation(progress.case.expectation)
        if checks.free_form:
            self.tester.hand_over(self._judge_goal(), "judge")
            return None
        if checks.rules and observation.page is None:
            # the collector refuses rules for an app that is a desktop one by its name; this is the app that
            # turned out to be one when it ran (a folder without index.html)
            progress.end_case("error", f"{progress.where()}: {refused_on_desktop(checks.rules[0])}")
            return None
        try:
            judgement = judge(checks, observation, progress.before)
        except RuleError as exc:
            progress.end_case("error", f"{progress.where()}: {exc}")
            return None
        shown = ", ".join([*(f'"{t}"' for t in checks.texts), *(f"`{r}`" for r in checks.rules),
                           *(f'no "{t}"' for t in checks.gone), *(n.describe() for n in checks.numbers),
                           *(["the window closes"] if checks.closes else []), *(c.describe() for c in checks.confirms)])
        if judgement.failed is not None:
            return self.moves.look_again(observation, judgement.failed, f"expect {shown}", required=True)
        waiting = progress.looking_since is not None and time.monotonic() - progress.looking_since >= APPEAR_WITHIN
        if judgement.unconfirmed and not waiting:
            if progress.looking_since is None:
                progress.looking_since = time.monotonic()
            return Decision(Action.wait(LOOK_AGAIN), note="; ".join(judgement.unconfirmed),
                            caption=progress.caption(f"expect {shown}…"))
        if judgement.unconfirmed or checks.rest:
            open_ = [*(f"not seen: {u}" for u in judgement.unconfirmed),
                     *([f'the words "{checks.rest}" are free-form'] if checks.rest else [])]
            self.tester.hand_over(self._judge_goal(), "judge", why="; ".join(open_))
            return None
        number = progress.case.number
        progress.end_case("pass")
        return Decision(Action.wait(0), note=f"case {number}: {shown} seen", caption=f"c{number} ✓ {shown}")

    def _judge_goal(self) -> str:
        return ("Do not play. Judge one expectation of a test case from the screenshot: "
                f"\"{self.progress.case.expectation}\". Call finish with verdict pass if the app shows that it holds, "
                "or verdict fail with what you see instead. Only if you cannot tell from this screen, take one "
                "action that reveals it.")
