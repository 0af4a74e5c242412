"""Dead controls: an input the app's code handles that never did anything, while the other inputs did.

A click on a widget has its own check (oracles: a widget that showed nothing in several states). This one is
for the inputs a widget check cannot see: keys the code compares against, and right clicks. Its evidence is
the whole run, so it is judged once, at the end: the input was tried often, on many different screens, and
neither the window changed nor (with coverage) new code ran after any of its tries but the first — while
other inputs did have effects in the same run. New code at the first try proves nothing: that is the
dispatch (an ``elif key == ...`` chain, a key-up branch) reaching the input's branch, dead or not.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..policies.vocabulary import Vocabulary
from ..trajectory import Step
from ..verdict import Finding


@dataclass
class ControlRecord:
    """How one input fared over the run."""

    tries: int = 0
    effects: int = 0
    screens: set[str] = field(default_factory=set)  # the distinct screens it was tried on
    steps: list[int] = field(default_factory=list)


@dataclass
class DeadControls:
    """Follows the app's own inputs (from its vocabulary) through the run; ``findings()`` at the end.

    ``min_tries`` and ``min_screens`` make the evidence: an input that only works in one state (a restart
    key on the game-over screen) is excused unless it was tried on that many different screens.
    """

    vocabulary: Vocabulary
    min_tries: int = 8
    min_screens: int = 5
    records: dict[str, ControlRecord] = field(default_factory=dict)
    other_effects: int = 0

    def observe(self, step: Step, *, animating: bool) -> None:
        """Count one step. On an animating app the window changes anyway, so a change is no evidence either
        way there: those steps are not counted."""
        if step.error or animating:
            return
        name = self._control(step)
        if name is None:
            self.other_effects += step.changed or bool(step.new_lines)
            return
        record = self.records.setdefault(name, ControlRecord())
        effective = step.changed or (record.tries > 0 and bool(step.new_lines))
        record.tries += 1
        record.effects += effective
        record.screens.add(step.before_hash)
        record.steps.append(step.index)

    def findings(self) -> list[Finding]:
        working = self.other_effects + sum(r.effects for r in self.records.values())
        found = []
        for name, record in self.records.items():
            if record.effects or record.tries < self.min_tries or len(record.screens) < self.min_screens:
                continue
            if working - record.effects < 3:  # nothing else worked either: no evidence against this one
                continue
            found.append(Finding(
                "unresponsive",
                f"{name} never had an effect: tried {record.tries} times on {len(record.screens)} different "
                "screens, no visible change and no new code ran after its first try, while other inputs worked",
                step=record.steps[-1],
                details="tried at steps " + ", ".join(map(str, record.steps)),
            ))
        return found

    def _control(self, step: Step) -> str | None:
        """The input's name when it is one of the app's own keys or its right click, else None."""
        action = step.action
        if action.kind in ("press", "hold") and action.key in self.vocabulary.safe_keys:
            return f"key {action.key}"
        if action.kind == "right_click" and "right" in self.vocabulary.buttons:
            return "right click"
        return None
