"""Replay a recorded run: the same actions, no model, the oracles and expectations checked afresh.

A recorded LLM playthrough becomes a free, deterministic regression test. Where the app now reacts
differently from the recording (a visible change where there was none, or the reverse), the replay
notes the step; the verdict's notes list those divergences.

On an app that moves by itself, what an input does depends on when it comes: there each input waits until as
long after the replay's first step as it came after the recording's (a still app is replayed at its own pace).
"""

from __future__ import annotations

import time
from pathlib import Path

from ..actions import Action
from ..errors import PolicyError
from ..trajectory import Step, Trajectory
from .base import Decision, Observation, Policy, PolicyContext


class ReplayPolicy(Policy):
    name = "replay"
    #: the recording is performed as it was made: no input of the loop's own (a suspect control clicked
    #: again) may come in between and put the replay out of step with it
    scripted = True

    def __init__(self, context: PolicyContext) -> None:
        super().__init__(context)
        source = context.options.get("replay")
        if not source:
            raise PolicyError("the replay policy needs a recording: --playtest-replay DIR or options={'replay': DIR}")
        try:
            self.recording = Trajectory.read(Path(source))
        except (OSError, ValueError) as exc:
            raise PolicyError(f"cannot replay: {exc}") from None
        self.notes: list[str] = []
        self._first: float | None = None  # when the replay's first step began, in seconds into the run

    def decide(self, observation: Observation) -> Decision:
        index = observation.step - 1
        if index >= len(self.recording.steps):
            return Decision(Action.finish("pass", "end of the recording"), note="replay finished")
        recorded = self.recording.steps[index]
        if self._first is None:
            self._first = observation.elapsed
        elif observation.moving:
            time.sleep(max(recorded.started - self.recording.steps[0].started - observation.elapsed + self._first, 0))
        return Decision(recorded.action, note=f"replay of recorded step {recorded.index}")

    def record(self, step: Step) -> None:
        recorded = self.recording.steps[step.index - 1]
        if recorded.changed != step.changed:
            self.notes.append(f"step {step.index} ({step.action.label()}): the recording saw "
                              f"{recorded.effect}, the replay saw {step.effect}")
