"""A scenario step's grammar moves performed on the window, one decision each.

A label is looked up on the window when its move runs; a page to go to, a login or the game's start input are
worked out from what the window shows and become the moves they stand for. What is not on the window yet is
looked for again for a moment (``look_again``, which the expectation's check waits with too); then the case fails
when the author named it exactly, and otherwise the step goes to the tester: the window may be elsewhere than the
author assumed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..actions import Action
from ..policies.base import Decision, Observation, PolicyContext
from ..verdict import Finding
from . import locate
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
)
from .progress import Progress, Repeat
from .tester import Tester

#: Seconds a label or an expected text may take to appear before the case fails (slow repaints, OCR).
APPEAR_WITHIN = 3.0
#: Seconds between two looks while waiting for it.
LOOK_AGAIN = 0.25
#: How much of the window's text a failed expectation quotes.
SHOWN_TEXT = 200
#: The words of the control that sends a login or registration form.
_SUBMIT_WORDS = {"login": ("login", "submit"), "register": ("register", "submit")}


@dataclass(frozen=True)
class _Cannot:
    """Why a move cannot be done faithfully on this window; ``final``: looking again will not change it."""

    reason: str
    final: bool = False


class Moves:
    """Turns the grammar moves of the step at work into actions on the window."""

    def __init__(self, context: PolicyContext, progress: Progress, tester: Tester) -> None:
        self.context = context
        self.progress = progress
        self.tester = tester
        #: whether the current launch of the app got an input yet (a game that got none has just started)
        self.acted = False
        #: the field the scenario typed into last: "the text field" when the window has several
        self.last_field: locate.Point | None = None

    def new_launch(self) -> None:
        self.acted, self.last_field = False, None

    def perform(self, move: Move, observation: Observation) -> Decision | None:
        """The decision for ``move``; None when it became other moves (or none) without one."""
        progress = self.progress
        step = progress.step()
        assert step is not None
        if isinstance(move, Act):
            progress.move_index += 1
            return Decision(move.action, note=step.text, caption=progress.caption(move.action.label()))
        if isinstance(move, ScrollAt):
            width, height = observation.size
            x, y = move.point or (width // 2, height // 2)
            progress.move_index += 1
            return Decision(Action.scroll(x, y, move.direction, move.amount), note=step.text,
                            caption=progress.caption(f"scroll {move.direction}"))
        if isinstance(move, DragText):
            return self._drag(move, observation)
        if isinstance(move, ClickText):
            return self._click(move, observation)
        if isinstance(move, FocusField):
            return self._focus(move, observation)
        return self._macro(move, observation)

    def _click(self, move: ClickText, observation: Observation) -> Decision | None:
        progress = self.progress
        step = progress.step()
        assert step is not None
        target = (locate.find_label(observation, move.label, field=False) if move.quoted
                  else locate.find_named(observation, move.label))
        if target is None:
            missing = f'no "{move.label}" on the window' + (f" ({move.context})" if move.context else "")
            return self.look_again(observation, missing, f'find "{move.label}"', required=move.required)
        progress.looking_since = None
        progress.move_index += 1
        action = {"click": Action.click, "double_click": Action.double_click,
                  "right_click": Action.right_click}[move.kind](*target)
        words = {"click": "click", "double_click": "double click", "right_click": "right click"}[move.kind]
        caption = progress.caption(f'{words} "{move.label}"')
        if move.times > 1:
            progress.repeat = Repeat(action, caption, move.times)
            return Decision(action, note=step.text, caption=f"{caption} 1/{move.times}")
        return Decision(action, note=step.text, caption=caption)

    def repeated(self) -> Decision:
        """The next click of a "click … N times": at the same point, each its own step so its effect is awaited."""
        progress = self.progress
        repeat = progress.repeat
        assert repeat is not None
        repeat.done += 1
        if repeat.done == repeat.total:
            progress.repeat = None
        return Decision(repeat.action, note=progress.step_text(),
                        caption=f"{repeat.caption} {repeat.done}/{repeat.total}")

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
            return self.look_again(observation, f"no {name} on the window", f"find {name}",
                                   required=move.quoted and move.label is not None)
        self.progress.looking_since = None
        self.progress.move_index += 1
        self.last_field = target
        return Decision(Action.click(*target), note=self.progress.step_text(),
                        caption=self.progress.caption(f'click "{move.label}"' if move.label
                                                      else "click the text field"))

    def _drag(self, move: DragText, observation: Observation) -> Decision | None:
        """A left-button drag from one label to the other, once both are on the window."""
        source = locate.find_label(observation, move.source, field=False)
        target = locate.find_label(observation, move.target, field=False) if source is not None else None
        if source is None or target is None:
            label = move.source if source is None else move.target
            return self.look_again(observation, f'no "{label}" on the window', f'find "{label}"', required=True)
        self.progress.looking_since = None
        self.progress.move_index += 1
        return Decision(Action.drag(*source, *target), note=self.progress.step_text(),
                        caption=self.progress.caption(f'drag "{move.source}" to "{move.target}"'))

    def _macro(self, move: Move, observation: Observation) -> Decision | None:
        """A move worked out from the window: it becomes the moves it stands for (maybe none), or the step goes
        to the tester, saying why."""
        progress = self.progress
        expanded = self._expand(move, observation)
        if isinstance(expanded, _Cannot):
            if expanded.final:
                progress.looking_since = time.monotonic() - APPEAR_WITHIN
            return self.look_again(observation, expanded.reason, "look", required=False)
        assert progress.moves is not None
        progress.looking_since = None
        progress.moves[progress.move_index:progress.move_index + 1] = expanded
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
            return self._start(move, observation)
        if isinstance(move, Reload):
            return [Act(Action.press("f5"))] if observation.page is not None else _Cannot("a desktop window has no "
                                                                                          "reload", final=True)
        if isinstance(move, EnsureLoggedIn):
            if locate.find_named_field(observation, "password") is None:
                return []  # no login form: logged in already
            return self._expand(Login(), observation)
        assert isinstance(move, Login)
        return self._login(move, observation)

    def _start(self, move: StartGame, observation: Observation) -> list[Move] | _Cannot:
        """The game's own start (or restart) input, as the window or the app's vocabulary names it."""
        found = locate.start_input(observation, move.restart, self.context.vocabulary)
        if found is not None:
            kind, what = found
            if kind == "press":
                return [Act(Action.press(what))]
            return [ClickText(what, quoted=what not in ("start", "restart"), context="the game's own input")]
        if not move.restart and not self.acted:
            return []  # the game has just been launched: it is started
        return _Cannot(f"no {'restart' if move.restart else 'start'} input of the app on the window")

    def _login(self, move: Login, observation: Observation) -> list[Move] | _Cannot:
        """Fill the form's username, e-mail and password fields (the password twice when it asks to confirm it)
        with the scenario's credentials, then send it."""
        login = self.progress.plan.login
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

    def look_again(self, observation: Observation, missing: str, caption: str, *, required: bool) -> Decision | None:
        """Wait a moment and look again, until APPEAR_WITHIN has passed; then the case fails on a step of its
        own (``wait 0s``, marked with what was missing) when the author named it exactly (``required``), and
        otherwise the step goes to the tester: the window may be elsewhere than the author assumed."""
        progress = self.progress
        now = time.monotonic()
        if progress.looking_since is None:
            progress.looking_since = now
        if now - progress.looking_since < APPEAR_WITHIN:
            return Decision(Action.wait(LOOK_AGAIN), note=missing, caption=progress.caption(f"{caption}…"))
        if not required:
            step = progress.step()
            assert step is not None
            self.tester.hand_over(step.text, "step", why=missing)
            return None
        shown = " ".join(observation.text().split())[:SHOWN_TEXT]
        reason = f"{progress.where()}: {missing} (the window shows: {shown or 'no text'})"
        number = progress.case.number
        finding = Finding("expectation", f"case {number}, {reason}", step=observation.step)
        progress.end_case("fail", reason, finding)
        return Decision(Action.wait(0), note=reason, caption=f"c{number} ✕ {caption}")
