"""What every policy receives and returns.

A policy is asked once per step: ``decide(observation) -> Decision``. It never touches the app or the
display itself; the session performs the action, measures its effect and reports it back through
``record(step)``. A policy raises PolicyError when its own infrastructure fails (an endpoint that stays
down): the run then ends with status "error", never "fail".
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..geometry import Box

if TYPE_CHECKING:
    import numpy as np

    from ..actions import Action
    from ..expect import Expectation
    from ..rules import Fact, Query
    from ..source import Vocabulary
    from ..trajectory import Step
    from ..verdict import Finding
    from ..vision import TextBox, Vision, Widget
    from ..vision.motion import Mover


@dataclass
class PolicyContext:
    """Everything fixed for one run, handed to the policy once before the first step."""

    strategy: str
    goal: str
    expectations: list[Expectation]
    seed: int
    max_steps: int
    timeout: float
    window: tuple[int, int]
    options: dict[str, Any] = field(default_factory=dict)
    artifacts: Path | None = None
    #: the inputs the app's source handles (None: not read, e.g. not a Python app)
    vocabulary: Vocabulary | None = None
    #: whether each Step reports ``new_lines`` (the app runs under coverage)
    coverage: bool = False
    #: seconds a step of a real-time game lasts (the loop's beat): how long to hold a movement key
    beat: float = 0.0

    def rng(self) -> random.Random:
        return random.Random(self.seed)


class PolicyFactory(Protocol):
    """What makes the policy called ``name`` for a run (None: it knows no such name). The glue hands the pipeline
    one (under pytest: the ``pytest_playtest_make_policy`` hook); ``policies.make_policy`` asks it."""

    def __call__(self, name: str, context: PolicyContext) -> Policy | None: ...


class PageView(Protocol):
    """A web app's page as its DOM tells it (exact where OCR and widget detection guess)."""

    def text(self) -> str: ...

    def widgets(self) -> list[Widget]: ...

    def address(self) -> str:
        """The page's title, address path and first heading, one per line ("" when the page does not answer)."""
        ...

    def facts(self, queries: Sequence[Query]) -> Mapping[Query, Fact] | None:
        """What the page says now about each query (rules.Fact), as ``expect.rule`` reads it; None when the page
        does not answer in time. Raises rules.RuleError for a selector the browser refuses."""
        ...


@dataclass
class Observation:
    """The window as the policy sees it before one step. OCR and widget detection run on demand only."""

    step: int
    frame: np.ndarray
    frame_hash: str
    elapsed: float
    history: list[Step]
    vision: Vision
    #: the newest text the background OCR has read (may lag a few frames; "" when nothing reads)
    seen_text: str = ""
    #: the steps done when the frame ``seen_text`` was read from was taken: inputs after that are not in it
    text_read_at: int = 0
    #: which launch of the app this is (the app is launched again after it exits normally)
    launch: int = 1
    #: a web app's page: its DOM text and clickable elements replace OCR and widget detection
    page: PageView | None = None
    #: in an app that moves by itself, the things that moved between its last two frames: where and how fast
    movers: Sequence[Mover] = ()
    #: in an app that moves by itself and has stopped (a pause, a game over): when, in seconds into the run
    #: (its next frame was due then and never came); None while it moves
    stopped_at: float | None = None
    #: whether the app was seen to move by itself (a real-time game: what an input does depends on when)
    moving: bool = False
    #: what the app handles now: ``PolicyContext.vocabulary`` and the inputs its screen named since (a help
    #: line's "Right click: flag")
    vocabulary: Vocabulary | None = None

    @property
    def size(self) -> tuple[int, int]:
        return int(self.frame.shape[1]), int(self.frame.shape[0])

    def text_boxes(self) -> list[TextBox]:
        return self.vision.read(self.frame, key=self.frame_hash)

    def text(self) -> str:
        if self.page is not None:
            return self.page.text()
        return self.vision.text(self.frame, key=self.frame_hash)

    def widgets(self) -> list[Widget]:
        """What looks interactive; on a web page the DOM's clickable elements, plus what vision finds drawn
        on its canvases (a game's buttons are pixels)."""
        if self.page is None:
            return self.vision.widgets(self.frame, key=self.frame_hash)
        elements = self.page.widgets()
        canvases = [w.box for w in elements if w.kind == "shape"]
        others = [w.box for w in elements if w.kind != "shape"]
        drawn = [w for w in self.vision.widgets(self.frame, key=self.frame_hash)
                 if any(c.contains(*w.center) for c in canvases) and not any(o.contains(*w.center) for o in others)]
        things = [thing for canvas in elements if canvas.kind == "shape" and canvas.handles
                  for thing in self._things_on(canvas.box)]
        return [*elements, *drawn, *things]

    def _things_on(self, canvas: Box) -> list[Widget]:
        """The things drawn on a canvas that takes clicks that a person would click: compact things of a colour
        rare on it (a target, a gem, a ball; ``vision.targets``), where they are in this frame."""
        from ..vision.targets import find_targets  # (here: the xdist controller imports this module, loads no vision)
        from ..vision.widgets import Widget

        visible = canvas.intersection(Box(0, 0, *self.size))
        if not visible.area:
            return []
        crop = self.frame[visible.y : visible.bottom, visible.x : visible.right]
        return [Widget(Box(visible.x + t.box.x, visible.y + t.box.y, t.box.w, t.box.h), "shape")
                for t in find_targets(crop)]


@dataclass
class Decision:
    """A policy's answer for one step: the action, the tokens it cost, and why (for the trajectory)."""

    action: Action
    #: prompt + completion tokens the answer cost, as the endpoint reported them
    tokens: int = 0
    #: of ``tokens``, the prompt's, and of those the ones the endpoint served from its prompt cache
    prompt_tokens: int = 0
    cached_tokens: int = 0
    note: str = ""
    #: what the step is for, in the words of the test (a scenario's step), shown on its storyboard tile
    caption: str = ""
    #: the input answers something the screen showed right then (a character shown in a typing game): an input
    #: that matters only at such moments is judged on these tries
    aimed: bool = False
    #: the way the avatar was going by itself when the input was given ("left", "up"...), when it keeps the
    #: course its inputs set (a snake): such a game refuses a movement key along that way or back, so those
    #: tries say nothing of the key; "" when no such course is known
    heading: str = ""


class Policy:
    """Base class of policies; subclasses implement ``decide``."""

    name = "base"
    #: whether the policy itself tells when a goal is reached (it ends the run with ``finish``): a goal run
    #: it leaves unfinished at its bounds is then a ``timeout``
    judges_goal = False
    #: remarks for the verdict (e.g. where a replay diverged from its recording)
    notes: list[str]
    #: faults the policy itself found (a scenario's expectations that did not hold); they join the verdict
    findings: list[Finding]
    #: the policy's inputs are a script (a scenario's steps): the loop inserts no inputs of its own between them,
    #: and performs them at the script's own pace (no beat, no watching without input between them)
    scripted = False

    def __init__(self, context: PolicyContext) -> None:
        self.context = context
        self.notes = []
        self.findings = []

    def decide(self, observation: Observation) -> Decision:
        raise NotImplementedError

    def record(self, step: Step) -> None:
        """Told what the last action did (the session fills ``step`` after acting)."""

    def close(self) -> None:
        """Release what the policy holds (HTTP clients, files)."""
