"""The scenario policy: it performs one Functionality's cases in order and checks each case's Expectation.

It runs inside the ordinary playthrough, so the generic oracles (crash, exception, freeze, unresponsive)
watch every step. Per case: each step's grammar moves become actions (a label is looked up on the window
when its step runs), a step outside the grammar is handed to the tester policy (a model) with the step as
its goal, and the Expectation is checked on the window afterwards: quoted texts on its OCR text (a web page's
DOM text), backtick rules on the page's DOM facts, a free-form one by the tester. A check is one ``wait 0s``
step captioned with the expectation, so the storyboard shows it, and a failed one is a Finding on that step.
What it cannot do offline it skips, with the reason naming the step; it never passes a case it did not check.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .. import rules
from ..actions import Action
from ..geometry import Box
from ..policies import make_policy
from ..policies.base import Decision, Observation, Policy, PolicyContext, PolicyError
from ..rules import WEB_ONLY, RuleError
from ..trajectory import Step
from ..verdict import Finding
from .grammar import (
    Act,
    Checks,
    ClickText,
    DragText,
    FocusField,
    Move,
    ScrollAt,
    parse_expectation,
    parse_step,
    squash,
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


@dataclass
class CasePlan:
    """What one run performs (a Functionality's cases), and where the policy leaves its results."""

    cases: tuple[Case, ...]
    #: the policy for steps outside the grammar and free-form expectations ("llm" needs a model)
    tester: str = "llm"
    outcomes: list[CaseOutcome] = field(default_factory=list)
    #: the case each step of the run belonged to (step index → case number)
    step_cases: dict[int, int] = field(default_factory=dict)


@dataclass
class _Delegate:
    """The tester at work on one step (``purpose`` "step") or one expectation ("judge")."""

    policy: Policy
    purpose: str
    budget: int
    used: int = 0


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

    # -- the policy interface ---------------------------------------------------------------------------
    def decide(self, observation: Observation) -> Decision:
        while self.case_index < len(self.plan.cases):
            number = self.case.number  # a check ends its case and still takes a step: the step is that case's
            decision = self._next(observation)
            if decision is not None:
                self.plan.step_cases[observation.step] = number
                return self._spend(decision)
        return self._spend(Decision(Action.finish("pass", "every case was performed"), note="scenario done"))

    def record(self, step: Step) -> None:
        if self.delegate is not None:
            self.delegate.policy.record(step)
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

    def _next_step(self) -> None:
        self.step_index += 1
        self.moves, self.move_index, self.looking_since = None, 0, None

    def _end_case(self, status: CaseStatus, reason: str = "", finding: Finding | None = None) -> None:
        if self.case_index >= len(self.plan.cases):
            return
        self.plan.outcomes.append(CaseOutcome(self.case, status, reason))
        if finding is not None:
            self.findings.append(finding)
        self.case_index += 1
        self.step_index = 0
        self.moves, self.move_index, self.looking_since = None, 0, None
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
        target = _find_label(observation, move.label, field=isinstance(move, FocusField))
        if target is None:
            return self._look_again(observation, f'no "{move.label}" on the window', f'find "{move.label}"')
        self.looking_since = None
        self.move_index += 1
        kind = move.kind if isinstance(move, ClickText) else "click"
        action = {"click": Action.click, "double_click": Action.double_click,
                  "right_click": Action.right_click}[kind](*target)
        words = {"click": "click", "double_click": "double click", "right_click": "right click"}[kind]
        return Decision(action, note=step.text, caption=self._caption(f'{words} "{move.label}"'))

    def _drag(self, move: DragText, observation: Observation) -> Decision:
        """A left-button drag from one label to the other, once both are on the window."""
        step = self._step()
        assert step is not None
        source = _find_label(observation, move.source, field=False)
        target = _find_label(observation, move.target, field=False) if source is not None else None
        if source is None or target is None:
            label = move.source if source is None else move.target
            return self._look_again(observation, f'no "{label}" on the window', f'find "{label}"')
        self.looking_since = None
        self.move_index += 1
        return Decision(Action.drag(*source, *target), note=step.text,
                        caption=self._caption(f'drag "{move.source}" to "{move.target}"'))

    def _look_again(self, observation: Observation, missing: str, caption: str) -> Decision:
        """Wait a moment and look again, until APPEAR_WITHIN has passed: then the case fails, on a step of its
        own (``wait 0s``, marked with what was missing)."""
        now = time.monotonic()
        if self.looking_since is None:
            self.looking_since = now
        if now - self.looking_since < APPEAR_WITHIN:
            return Decision(Action.wait(LOOK_AGAIN), note=missing, caption=self._caption(f"{caption}…"))
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
            self._end_case("error", f"{self._where()}: the rule `{checks.rules[0]}` reads a web page's DOM, but "
                                    f"this app is a desktop window ({WEB_ONLY})")
            return None
        try:
            unmet = _unmet(checks, observation)
        except RuleError as exc:
            self._end_case("error", f"{self._where()}: {exc}")
            return None
        shown = ", ".join([*(f'"{t}"' for t in checks.texts), *(f"`{r}`" for r in checks.rules)])
        if unmet:
            return self._look_again(observation, unmet, f"expect {shown}")
        number = self.case.number
        self._end_case("pass")
        return Decision(Action.wait(0), note=f"case {number}: {shown} seen", caption=f"c{number} ✓ {shown}")

    def _judge_goal(self) -> str:
        return ("Do not play. Judge one expectation of a test case from the screenshot: "
                f"\"{self.case.expectation}\". Call finish with verdict pass if the app shows that it holds, or "
                "verdict fail with what you see instead. Only if you cannot tell from this screen, take one "
                "action that reveals it.")

    # -- the tester ----------------------------------------------------------------------------------------------
    def _hand_over(self, goal: str, purpose: str, budget: int) -> None:
        """Give a step (or an expectation) to the tester; without one the case is skipped, naming it."""
        where = self._where()
        if self.plan.tester == "llm" and not self.context.options.get("model"):
            what = ("is free-form: it is judged by a model" if purpose == "judge"
                    else "is outside the step grammar: a model performs such steps")
            self._end_case("skip", f"{where} {what}, and none is configured (--playtest-model)")
            return
        options = {key: value for key, value in self.context.options.items() if key != "scenario"}
        context = PolicyContext(strategy=self.context.strategy, goal=goal if purpose == "judge" else
                                f"Perform this step of a test case, then finish with verdict pass: \"{goal}\". "
                                "If the app has nothing that lets you do it, finish with verdict fail and say why.",
                                expectations=[], seed=self.context.seed, max_steps=budget,
                                timeout=self.context.timeout, window=self.context.window, options=options,
                                vocabulary=self.context.vocabulary)
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


def _unmet(checks: Checks, observation: Observation) -> str | None:
    """What of the expectation does not hold now (the first missing text, else the first false rule), or None.

    Texts are looked for on the window's text (OCR, or the DOM's text on a web page), rules are judged on the
    page's DOM facts; raises RuleError for a rule that does not parse or a selector the browser refuses."""
    lines = [squash(line) for line in observation.text().splitlines()]
    missing = [text for text in checks.texts if not any(squash(text) in line for line in lines)]
    if missing:
        return f'expected "{missing[0]}" on the window, it is not there'
    if not checks.rules or observation.page is None:
        return None
    parsed = [rules.parse(source) for source in checks.rules]
    facts = observation.page.facts(list(dict.fromkeys(query for rule in parsed for query in rule.queries)))
    if facts is None:
        return "the page did not answer a DOM read"
    for rule in parsed:
        if not rule.holds(facts):
            return f"the rule `{rule.source}` does not hold ({rule.explain(facts)})"
    return None


def _find_label(observation: Observation, label: str, *, field: bool) -> tuple[int, int] | None:
    """Where to click for ``label``: a button or field showing it, else its text (for a field: the entry
    beside or below the text)."""
    wanted = squash(label)
    widgets = observation.widgets()
    labelled = [w for w in widgets if w.kind in ("button", "field") and squash(w.text) == wanted]
    if labelled and (not field or labelled[0].kind == "field"):
        return labelled[0].center
    boxes = [b for b in observation.text_boxes() if wanted in squash(b.text)]
    if not boxes:
        return None
    best = min(boxes, key=lambda b: (squash(b.text) != wanted, len(b.text)))
    box = _part_of(best.box, best.text, label)
    if not field:
        return box.center
    fields = [w.box for w in widgets if w.kind == "field" and not w.box.contains(*box.center)]
    beside = [f for f in fields if f.x >= box.right - 2 and f.y < box.bottom and f.bottom > box.y]
    below = [f for f in fields if f.y >= box.bottom - 2 and f.x < box.right + 40 and f.right > box.x - 40]
    for candidates in (beside, below):
        if candidates:
            return min(candidates, key=lambda f: abs(f.x - box.x) + abs(f.y - box.y)).center
    return box.center  # a placeholder inside its own field, or a field the detector missed: click the text


def _part_of(box: Box, text: str, label: str) -> Box:
    """The part of a line's box that holds ``label`` (by character position: screen fonts are near even)."""
    start = text.lower().find(label.lower())
    if start < 0 or len(text) <= len(label):
        return box
    per_char = box.w / max(len(text), 1)
    return Box(box.x + round(start * per_char), box.y, max(1, round(len(label) * per_char)), box.h)
