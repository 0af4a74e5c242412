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
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..actions import Action
from ..errors import PolicyError, RuleError
from ..policies import make_policy
from ..policies.base import Decision, Observation, Policy, PolicyContext
from ..rules import refused_on_desktop
from ..trajectory import Step
from ..verdict import Finding
from . import locate
from .check import Before, judge
from .expectations import parse_expectation
from .grammar import (
    Act,
    ClickText,
    DragText,
    EnsureLoggedIn,
    FocusField,
    Login,
    Move,
    Navigate,
    Reload,
    ScrollAt,
    StartGame,
    parse_step,
)
from .model import Case, CaseOutcome, CaseStatus, StepText

#: Seconds a label or an expected text may take to appear before the case fails (slow repaints, OCR).
APPEAR_WITHIN = 3.0
#: Seconds between two looks while waiting for it.
LOOK_AGAIN = 0.25
#: Actions the tester may take to perform one step outside the grammar, and to judge one expectation.
STEP_ACTIONS = 5
JUDGE_ACTIONS = 2
#: How much of the window's text a failed expectation quotes.
SHOWN_TEXT = 200
#: The words of the control that sends a login or registration form.
_SUBMIT_WORDS = {"login": ("login", "submit"), "register": ("register", "submit")}
_NO_MODEL = "a model performs such steps, and none is configured (--playtest-model)"


@dataclass
class CasePlan:
    """What one run performs (a Functionality's cases), and where the policy leaves its results."""

    cases: tuple[Case, ...]
    #: the policy for steps outside the grammar and free-form expectations ("llm" needs a model)
    tester: str = "llm"
    #: the credentials the login and registration moves type: "username", "password" and maybe "email"
    login: Mapping[str, str] | None = None
    #: the cases do not depend on each other: after one that did not pass, the rest start from a fresh launch
    independent: bool = False
    outcomes: list[CaseOutcome] = field(default_factory=list)
    #: the case each step of the run belonged to (step index → case number)
    step_cases: dict[int, int] = field(default_factory=dict)
    #: the index of the first case left for a fresh launch (independent cases after one that did not pass)
    resume_at: int | None = None


@dataclass
class _Delegate:
    """The tester at work on one step (``purpose`` "step") or one expectation ("judge")."""

    policy: Policy
    purpose: str
    budget: int
    used: int = 0


@dataclass
class _Repeat:
    """The clicks of a "click … N times" move after the first, at the point its label was found."""

    action: Action
    caption: str
    total: int
    done: int = 1


@dataclass(frozen=True)
class _Cannot:
    """Why a move cannot be done faithfully on this window; ``final``: looking again will not change it."""

    reason: str
    final: bool = False


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
        self.case_index = 0
        self.step_index = 0  # the step of the case at work; len(steps) means its Expectation
        self.moves: list[Move] | None = None  # the grammar moves of that step, when it has any
        self.move_index = 0
        self.looking_since: float | None = None
        self.delegate: _Delegate | None = None
        # the tokens of the tester's answers that became no step of their own: total, prompt, cached
        self.pending_tokens = self.pending_prompt_tokens = self.pending_cached_tokens = 0
        self.repeat: _Repeat | None = None
        self.before: Before | None = None
        #: the case that did not pass, which the next cases would depend on
        self.broken: int | None = None
        #: whether the current launch of the app got an input yet (a game that got none has just started)
        self.launch, self.acted = 1, False
        #: the field the scenario typed into last: "the text field" when the window has several
        self.last_field: locate.Point | None = None

    # -- the policy interface ---------------------------------------------------------------------------
    def decide(self, observation: Observation) -> Decision:
        if observation.launch != self.launch:
            self.launch, self.acted, self.last_field = observation.launch, False, None
        while self.case_index < len(self.plan.cases):
            if self.broken is not None:
                if self.plan.independent:
                    self.plan.resume_at = self.case_index
                    return self._spend(Decision(Action.finish("pass", f"case {self.broken} did not pass: the next "
                                                                      "cases start from a fresh launch"),
                                                note="scenario: fresh launch for the next cases"))
                self._end_case("skip", f"depends on case {self.broken}, which did not pass")
                continue
            number = self.case.number  # a check ends its case and still takes a step: the step is that case's
            decision = self._next(observation)
            if decision is not None:
                self.plan.step_cases[observation.step] = number
                return self._spend(decision)
        return self._spend(Decision(Action.finish("pass", "every case was performed"), note="scenario done"))

    def record(self, step: Step) -> None:
        if self.delegate is not None:
            self.delegate.policy.record(step)
        if step.action.kind not in ("wait", "finish"):
            self.acted = True
        if step.error and self.plan.step_cases.get(step.index) == self._current_number():
            self._end_case("error", f"{self._where()}: the action {step.action.label()} was refused: {step.error}")

    def close(self) -> None:
        if self.delegate is not None:
            self.delegate.policy.close()
            self.delegate = None

    # -- walking the plan -----------------------------------------------------------------------------------
    @property
    def case(self) -> Case:
        return self.plan.cases[self.case_index]

    def _current_number(self) -> int | None:
        return self.case.number if self.case_index < len(self.plan.cases) else None

    def _step(self) -> StepText | None:
        steps = self.case.steps
        return steps[self.step_index] if self.step_index < len(steps) else None

    def _where(self) -> str:
        step = self._step()
        if step is not None:
            return f'step {self.step_index + 1} (line {step.line}) "{step.text}"'
        expectation = f'expectation "{self.case.expectation}"'
        if not self.case.steps:
            return expectation
        last = self.case.steps[-1]
        return f'after step {len(self.case.steps)} (line {last.line}) "{last.text}", {expectation}'

    def _next(self, observation: Observation) -> Decision | None:
        """The next decision of the case at work; None when the case moved on (or ended) without one."""
        if self.delegate is not None:
            return self._delegated(observation)
        if self.step_index == 0 and self.moves is None and self.before is None:
            self.before = Before(observation.text() if self._needs_before() else "", observation.launch)
        if self.repeat is not None:
            return self._repeated()
        step = self._step()
        if step is None:
            return self._check(observation)
        if self.moves is None:
            self.moves = parse_step(step.text)
            self.move_index = 0
            if self.moves is None:
                self._hand_over(step.text, "step", STEP_ACTIONS)
                return None
        if self.move_index >= len(self.moves):
            self._next_step()
            return None
        return self._move(self.moves[self.move_index], observation)

    def _needs_before(self) -> bool:
        checks = parse_expectation(self.case.expectation)
        return checks.needs_before or checks.closes

    def _next_step(self) -> None:
        self.step_index += 1
        self.moves, self.move_index, self.looking_since = None, 0, None

    def _end_case(self, status: CaseStatus, reason: str = "", finding: Finding | None = None) -> None:
        if self.case_index >= len(self.plan.cases):
            return
        self.plan.outcomes.append(CaseOutcome(self.case, status, reason))
        if finding is not None:
            self.findings.append(finding)
        if status != "pass" and self.broken is None:
            self.broken = self.case.number
        self.case_index += 1
        self.step_index = 0
        self.moves, self.move_index, self.looking_since = None, 0, None
        self.repeat, self.before = None, None
        if self.delegate is not None:
            self.delegate.policy.close()
            self.delegate = None

    def _caption(self, text: str) -> str:
        return f"c{self.case.number} {text}"

    def _spend(self, decision: Decision) -> Decision:
        """The decision, carrying the tokens of the tester's answers that became no step of their own."""
        decision.tokens += self.pending_tokens
        decision.prompt_tokens += self.pending_prompt_tokens
        decision.cached_tokens += self.pending_cached_tokens
        self.pending_tokens = self.pending_prompt_tokens = self.pending_cached_tokens = 0
        return decision

    # -- grammar moves ----------------------------------------------------------------------------------------
    def _move(self, move: Move, observation: Observation) -> Decision | None:
        step = self._step()
        assert step is not None
        if isinstance(move, Act):
            self.move_index += 1
            return Decision(move.action, note=step.text, caption=self._caption(move.action.label()))
        if isinstance(move, ScrollAt):
            width, height = observation.size
            x, y = move.point or (width // 2, height // 2)
            self.move_index += 1
            return Decision(Action.scroll(x, y, move.direction, move.amount), note=step.text,
                            caption=self._caption(f"scroll {move.direction}"))
        if isinstance(move, DragText):
            return self._drag(move, observation)
        if isinstance(move, ClickText):
            return self._click(move, observation)
        if isinstance(move, FocusField):
            return self._focus(move, observation)
        return self._macro(move, observation)

    def _click(self, move: ClickText, observation: Observation) -> Decision | None:
        step = self._step()
        assert step is not None
        target = (locate.find_label(observation, move.label, field=False) if move.quoted
                  else locate.find_named(observation, move.label))
        if target is None:
            missing = f'no "{move.label}" on the window' + (f" ({move.context})" if move.context else "")
            return self._look_again(observation, missing, f'find "{move.label}"', required=move.required)
        self.looking_since = None
        self.move_index += 1
        action = {"click": Action.click, "double_click": Action.double_click,
                  "right_click": Action.right_click}[move.kind](*target)
        words = {"click": "click", "double_click": "double click", "right_click": "right click"}[move.kind]
        caption = self._caption(f'{words} "{move.label}"')
        if move.times > 1:
            self.repeat = _Repeat(action, caption, move.times)
            return Decision(action, note=step.text, caption=f"{caption} 1/{move.times}")
        return Decision(action, note=step.text, caption=caption)

    def _repeated(self) -> Decision:
        """The next click of a "click … N times": at the same point, each its own step so its effect is awaited."""
        repeat = self.repeat
        assert repeat is not None
        repeat.done += 1
        if repeat.done == repeat.total:
            self.repeat = None
        return Decision(repeat.action, note=self._step_text(), caption=f"{repeat.caption} {repeat.done}/{repeat.total}")

    def _focus(self, move: FocusField, observation: Observation) -> Decision | None:
        """A click on the field the step types into (see ``FocusField``)."""
        if move.label is None:
            target = locate.only_field(observation) or (
                self.last_field if self.last_field and locate.has_field(observation, self.last_field) else None)
        elif move.quoted:
            target = locate.find_label(observation, move.label, field=True)
        else:
            target = locate.find_named_field(observation, move.label) or locate.only_field(observation)
        name = "the text field" if move.label is None else f'the "{move.label}" field'
        if target is None:
            return self._look_again(observation, f"no {name} on the window", f"find {name}",
                                    required=move.quoted and move.label is not None)
        self.looking_since = None
        self.move_index += 1
        self.last_field = target
        return Decision(Action.click(*target), note=self._step_text(),
                        caption=self._caption(f'click "{move.label}"' if move.label else "click the text field"))

    def _step_text(self) -> str:
        step = self._step()
        return step.text if step is not None else ""

    def _drag(self, move: DragText, observation: Observation) -> Decision | None:
        """A left-button drag from one label to the other, once both are on the window."""
        source = locate.find_label(observation, move.source, field=False)
        target = locate.find_label(observation, move.target, field=False) if source is not None else None
        if source is None or target is None:
            label = move.source if source is None else move.target
            return self._look_again(observation, f'no "{label}" on the window', f'find "{label}"', required=True)
        self.looking_since = None
        self.move_index += 1
        return Decision(Action.drag(*source, *target), note=self._step_text(),
                        caption=self._caption(f'drag "{move.source}" to "{move.target}"'))

    def _macro(self, move: Move, observation: Observation) -> Decision | None:
        """A move worked out from the window: it becomes the moves it stands for (maybe none), or the step goes
        to the tester, saying why."""
        expanded = self._expand(move, observation)
        if isinstance(expanded, _Cannot):
            if expanded.final:
                self.looking_since = time.monotonic() - APPEAR_WITHIN
            return self._look_again(observation, expanded.reason, "look", required=False)
        assert self.moves is not None
        self.looking_since = None
        self.moves[self.move_index:self.move_index + 1] = expanded
        return None

    def _expand(self, move: Move, observation: Observation) -> list[Move] | _Cannot:
        """The moves ``move`` stands for on this window, or why it cannot be done faithfully."""
        if isinstance(move, Navigate):
            if locate.page_named(observation, move.target):
                return []
            if locate.find_named(observation, move.target) is None:
                return _Cannot(f'no control naming "{move.target}" on the window')
            return [ClickText(move.target, quoted=False, context=f"to go to {move.target}")]
        if isinstance(move, StartGame):
            found = locate.start_input(observation, move.restart, self.context.vocabulary)
            if found is not None:
                kind, what = found
                if kind == "press":
                    return [Act(Action.press(what))]
                return [ClickText(what, quoted=what not in ("start", "restart"), context="the game's own input")]
            if not move.restart and not self.acted:
                return []  # the game has just been launched: it is started
            return _Cannot(f"no {'restart' if move.restart else 'start'} input of the app on the window")
        if isinstance(move, Reload):
            return [Act(Action.press("f5"))] if observation.page is not None else _Cannot("a desktop window has no "
                                                                                          "reload", final=True)
        if isinstance(move, EnsureLoggedIn):
            if locate.find_named_field(observation, "password") is None:
                return []  # no login form: logged in already
            return self._expand(Login(), observation)
        assert isinstance(move, Login)
        return self._login(move, observation)

    def _login(self, move: Login, observation: Observation) -> list[Move] | _Cannot:
        """Fill the form's username, e-mail and password fields (the password twice when it asks to confirm it)
        with the scenario's credentials, then send it."""
        login = self.plan.login
        if not login or not login.get("username") or not login.get("password"):
            return _Cannot("no credentials to log in with (front matter login: {username: …, password: …}, or "
                           "ini playtest_scenario_login)", final=True)
        if locate.find_named_field(observation, "password") is None:
            return _Cannot("no password field on the window")
        moves: list[Move] = [FocusField("username", quoted=False), Act(Action.type_text(login["username"]))]
        if move.kind == "register" and locate.find_named_field(observation, "email") is not None:
            if not login.get("email"):
                return _Cannot("the registration form asks for an e-mail address, and the credentials have none",
                               final=True)
            moves += [FocusField("email", quoted=False), Act(Action.type_text(login["email"]))]
        moves += [FocusField("password", quoted=False), Act(Action.type_text(login["password"]))]
        if locate.find_named_field(observation, "confirm") is not None:
            moves += [FocusField("confirm", quoted=False), Act(Action.type_text(login["password"]))]
        submit = next((word for word in _SUBMIT_WORDS[move.kind] if locate.find_named(observation, word)), None)
        moves.append(ClickText(submit, quoted=False, context="to send the form") if submit
                     else Act(Action.press("enter")))
        return moves

    def _look_again(self, observation: Observation, missing: str, caption: str, *, required: bool) -> Decision | None:
        """Wait a moment and look again, until APPEAR_WITHIN has passed; then the case fails on a step of its
        own (``wait 0s``, marked with what was missing) when the author named it exactly (``required``), and
        otherwise the step goes to the tester: the window may be elsewhere than the author assumed."""
        now = time.monotonic()
        if self.looking_since is None:
            self.looking_since = now
        if now - self.looking_since < APPEAR_WITHIN:
            return Decision(Action.wait(LOOK_AGAIN), note=missing, caption=self._caption(f"{caption}…"))
        if not required:
            step = self._step()
            assert step is not None
            self._hand_over(step.text, "step", STEP_ACTIONS, why=missing)
            return None
        shown = " ".join(observation.text().split())[:SHOWN_TEXT]
        reason = f"{self._where()}: {missing} (the window shows: {shown or 'no text'})"
        number = self.case.number
        finding = Finding("expectation", f"case {number}, {reason}", step=observation.step)
        self._end_case("fail", reason, finding)
        return Decision(Action.wait(0), note=reason, caption=f"c{number} ✕ {caption}")

    # -- the expectation -------------------------------------------------------------------------------------
    def _check(self, observation: Observation) -> Decision | None:
        checks = parse_expectation(self.case.expectation)
        if checks.free_form:
            self._hand_over(self._judge_goal(), "judge", JUDGE_ACTIONS)
            return None
        if checks.rules and observation.page is None:
            # the collector refuses rules for an app that is a desktop one by its name; this is the app that
            # turned out to be one when it ran (a folder without index.html)
            self._end_case("error", f"{self._where()}: {refused_on_desktop(checks.rules[0])}")
            return None
        try:
            judgement = judge(checks, observation, self.before)
        except RuleError as exc:
            self._end_case("error", f"{self._where()}: {exc}")
            return None
        shown = ", ".join([*(f'"{t}"' for t in checks.texts), *(f"`{r}`" for r in checks.rules),
                           *(f'no "{t}"' for t in checks.gone), *(n.describe() for n in checks.numbers),
                           *(["the window closes"] if checks.closes else []), *(c.describe() for c in checks.confirms)])
        if judgement.failed is not None:
            return self._look_again(observation, judgement.failed, f"expect {shown}", required=True)
        waiting = self.looking_since is not None and time.monotonic() - self.looking_since >= APPEAR_WITHIN
        if judgement.unconfirmed and not waiting:
            if self.looking_since is None:
                self.looking_since = time.monotonic()
            return Decision(Action.wait(LOOK_AGAIN), note="; ".join(judgement.unconfirmed),
                            caption=self._caption(f"expect {shown}…"))
        if judgement.unconfirmed or checks.rest:
            open_ = [*(f"not seen: {u}" for u in judgement.unconfirmed),
                     *([f'the words "{checks.rest}" are free-form'] if checks.rest else [])]
            self._hand_over(self._judge_goal(), "judge", JUDGE_ACTIONS, why="; ".join(open_))
            return None
        number = self.case.number
        self._end_case("pass")
        return Decision(Action.wait(0), note=f"case {number}: {shown} seen", caption=f"c{number} ✓ {shown}")

    def _judge_goal(self) -> str:
        return ("Do not play. Judge one expectation of a test case from the screenshot: "
                f"\"{self.case.expectation}\". Call finish with verdict pass if the app shows that it holds, or "
                "verdict fail with what you see instead. Only if you cannot tell from this screen, take one "
                "action that reveals it.")

    # -- the tester ----------------------------------------------------------------------------------------------
    def _hand_over(self, goal: str, purpose: str, budget: int, *, why: str = "") -> None:
        """Give a step (or an expectation) to the tester; without one the case is skipped, naming it and why."""
        where = self._where()
        if self.plan.tester == "llm" and not self.context.options.get("model"):
            if purpose == "judge":
                what = (f"is not confirmed offline ({why}): a model judges it" if why
                        else "is free-form: it is judged by a model")
                self._end_case("skip", f"{where} {what}, and none is configured (--playtest-model)")
            else:
                what = f"cannot be performed as written here ({why})" if why else "is outside the step grammar"
                self._end_case("skip", f"{where} {what}: {_NO_MODEL}")
            return
        options = {key: value for key, value in self.context.options.items() if key != "scenario"}
        begun = (" Part of it may be done already (the grammar began it): look at the screen before acting."
                 if purpose == "step" and self.move_index > 0 else "")
        context = PolicyContext(strategy=self.context.strategy, goal=goal if purpose == "judge" else
                                f"Perform this step of a test case, then finish with verdict pass: \"{goal}\".{begun} "
                                "If the app has nothing that lets you do it, finish with verdict fail and say why.",
                                expectations=[], seed=self.context.seed, max_steps=budget,
                                timeout=self.context.timeout, window=self.context.window, options=options,
                                vocabulary=self.context.vocabulary)
        self.moves, self.move_index, self.looking_since, self.repeat = None, 0, None, None
        self.delegate = _Delegate(make_policy(self.plan.tester, context), purpose, budget)

    def _delegated(self, observation: Observation) -> Decision | None:
        delegate = self.delegate
        assert delegate is not None
        if delegate.used >= delegate.budget:
            return self._delegate_done(None, observation)
        decision = delegate.policy.decide(observation)
        if decision.action.kind == "finish":
            self.pending_tokens += decision.tokens
            self.pending_prompt_tokens += decision.prompt_tokens
            self.pending_cached_tokens += decision.cached_tokens
            return self._delegate_done(decision.action, observation)
        delegate.used += 1
        decision.caption = self._caption(f"tester: {decision.action.label()}")
        return decision

    def _delegate_done(self, finish: Action | None, observation: Observation) -> Decision | None:
        """The tester finished (``finish``) or ran out of actions (None); a verdict on the case is marked on a
        step of its own (``wait 0s``), as a text check is."""
        delegate = self.delegate
        assert delegate is not None
        delegate.policy.close()
        self.delegate = None
        where, number = self._where(), self.case.number
        if finish is None and delegate.purpose == "step":
            self.notes.append(f"case {number}, {where}: the tester used its {delegate.budget} actions without "
                              "saying it was done; the case goes on")
        if finish is None or (finish.verdict == "pass" and delegate.purpose == "step"):
            if delegate.purpose == "step":
                self._next_step()
            else:
                self._end_case("error", f"{where}: the tester gave no verdict within {delegate.budget} actions")
            return None
        if finish.verdict == "fail":
            reason = f"{where}: {finish.reason or 'the tester judged it wrong'}"
            self._end_case("fail", reason, Finding("judge", f"case {number}, {reason}", step=observation.step))
            return Decision(Action.wait(0), note=reason, caption=f"c{number} ✕ judged by the tester")
        self._end_case("pass", finish.reason)
        return Decision(Action.wait(0), note=finish.reason, caption=f"c{number} ✓ judged by the tester")
