"""The tester policy (a model) at work inside a scenario: a step outside the grammar, or an expectation no offline
check settles, is handed to it with a goal of its own and a few actions to spend.

A step it finishes with pass goes on to the next step; a verdict on an expectation settles the case, marked on a
step of its own (``wait 0s``) as a text check is. Without a model configured the case is skipped, saying why.
The tokens of its answers that became no step of their own are carried by the scenario's next decision.
"""

from __future__ import annotations

from ..actions import Action
from ..policies import make_policy
from ..policies.base import Decision, Observation, PolicyContext
from ..trajectory import Step
from ..verdict import Finding
from .progress import Delegate, Progress

#: Actions the tester may take to perform one step outside the grammar, and to judge one expectation.
STEP_ACTIONS = 5
JUDGE_ACTIONS = 2
_NO_MODEL = "a model performs such steps, and none is configured (--playtest-model)"


class Tester:
    """Hands steps and expectations of the case at work to the tester policy, and settles what it answers."""

    def __init__(self, context: PolicyContext, progress: Progress, notes: list[str]) -> None:
        self.context = context
        self.progress = progress
        self.notes = notes  # the scenario policy's remarks for the verdict
        # the tokens of the tester's answers that became no step of their own: total, prompt, cached
        self.pending_tokens = self.pending_prompt_tokens = self.pending_cached_tokens = 0

    @property
    def at_work(self) -> bool:
        return self.progress.delegate is not None

    def hand_over(self, goal: str, purpose: str, *, why: str = "") -> None:
        """Give a step ("step") or an expectation ("judge") to the tester; without one the case is skipped,
        naming it and why."""
        progress = self.progress
        if progress.plan.tester == "llm" and not self.context.options.get("model"):
            self._skip(purpose, why)
            return
        budget = STEP_ACTIONS if purpose == "step" else JUDGE_ACTIONS
        context = self._context(goal, purpose, budget)
        progress.moves, progress.move_index, progress.looking_since, progress.repeat = None, 0, None, None
        progress.delegate = Delegate(make_policy(progress.plan.tester, context), purpose, budget)

    def _skip(self, purpose: str, why: str) -> None:
        where = self.progress.where()
        if purpose == "judge":
            what = (f"is not confirmed offline ({why}): a model judges it" if why
                    else "is free-form: it is judged by a model")
            self.progress.end_case("skip", f"{where} {what}, and none is configured (--playtest-model)")
        else:
            what = f"cannot be performed as written here ({why})" if why else "is outside the step grammar"
            self.progress.end_case("skip", f"{where} {what}: {_NO_MODEL}")

    def _context(self, goal: str, purpose: str, budget: int) -> PolicyContext:
        """The tester's own run context: the scenario's, with the step or the expectation as its goal."""
        own = self.context
        options = {key: value for key, value in own.options.items() if key != "scenario"}
        begun = (" Part of it may be done already (the grammar began it): look at the screen before acting."
                 if purpose == "step" and self.progress.move_index > 0 else "")
        return PolicyContext(strategy=own.strategy, goal=goal if purpose == "judge" else
                             f"Perform this step of a test case, then finish with verdict pass: \"{goal}\".{begun} "
                             "If the app has nothing that lets you do it, finish with verdict fail and say why.",
                             expectations=[], seed=own.seed, max_steps=budget, timeout=own.timeout,
                             window=own.window, options=options, vocabulary=own.vocabulary)

    def decide(self, observation: Observation) -> Decision | None:
        """The tester's next action on the case; None when it is done and the case moved on without a step."""
        delegate = self.progress.delegate
        assert delegate is not None
        if delegate.used >= delegate.budget:
            return self._finished(None, observation)
        decision = delegate.policy.decide(observation)
        if decision.action.kind == "finish":
            self.pending_tokens += decision.tokens
            self.pending_prompt_tokens += decision.prompt_tokens
            self.pending_cached_tokens += decision.cached_tokens
            return self._finished(decision.action, observation)
        delegate.used += 1
        decision.caption = self.progress.caption(f"tester: {decision.action.label()}")
        return decision

    def record(self, step: Step) -> None:
        if self.progress.delegate is not None:
            self.progress.delegate.policy.record(step)

    def _finished(self, finish: Action | None, observation: Observation) -> Decision | None:
        """The tester finished (``finish``) or ran out of actions (None); a verdict on the case is marked on a
        step of its own (``wait 0s``), as a text check is."""
        progress = self.progress
        delegate = progress.delegate
        assert delegate is not None
        progress.close_delegate()
        where, number = progress.where(), progress.case.number
        if finish is None and delegate.purpose == "step":
            self.notes.append(f"case {number}, {where}: the tester used its {delegate.budget} actions without "
                              "saying it was done; the case goes on")
        if finish is None or (finish.verdict == "pass" and delegate.purpose == "step"):
            if delegate.purpose == "step":
                progress.next_step()
            else:
                progress.end_case("error", f"{where}: the tester gave no verdict within {delegate.budget} actions")
            return None
        if finish.verdict == "fail":
            reason = f"{where}: {finish.reason or 'the tester judged it wrong'}"
            progress.end_case("fail", reason, Finding("judge", f"case {number}, {reason}", step=observation.step))
            return Decision(Action.wait(0), note=reason, caption=f"c{number} ✕ judged by the tester")
        progress.end_case("pass", finish.reason)
        return Decision(Action.wait(0), note=finish.reason, caption=f"c{number} ✓ judged by the tester")

    def spend(self, decision: Decision) -> Decision:
        """The decision, carrying the tokens of the tester's answers that became no step of their own."""
        decision.tokens += self.pending_tokens
        decision.prompt_tokens += self.pending_prompt_tokens
        decision.cached_tokens += self.pending_cached_tokens
        self.pending_tokens = self.pending_prompt_tokens = self.pending_cached_tokens = 0
        return decision
