"""Dead controls: an input the app's code handles that never did anything.

A click on a widget has its own check (oracles: a widget that showed nothing in several states). This one is
for the inputs a widget check cannot see: keys the code compares against, right clicks, and clicks on a
drawn UI (a canvas or game surface, where no widget frames what to click). Its evidence is the whole run,
so it is judged once, at the end:

* one input that was tried often, on many different screens, and never had an effect — while other inputs
  did. New code at the first try proves nothing: that is the dispatch (an ``elif key == ...`` chain, a
  key-up branch) reaching the input's branch, dead or not (coverage is reported per launch: each launch has a
  first try). A movement key whose opposite worked is judged once it was also tried where that opposite had
  just moved the app: the way back is open there, while elsewhere a wall may stand. On an app that moves by
  itself, one key whose effects were no more than chance while the app's other keys clearly beat it (a
  paddle's Down that never moves it while Up does) — not in a typing game, where a letter matters only while
  it is shown; in an app that plays sound, where a key may only mute it, only a movement key whose opposite
  worked (a ship's Left while Right moves it: a mute key has no opposite). Where the app's own motion is too
  busy to measure chance by (falling blocks, meteors), one key is still dead when it hardly ever did anything
  while every other key visibly did, far more often, and Left or Right is dead when it set nothing going
  along the row where the other kept sliding a thing (like with like: its tries where the way back was open,
  given as the other slid it most surely, pressed or held, against the other's where the thing had room); keys
  the code handles at the very same places (``K_UP or K_w``) are one action, judged together too. A letter the
  code binds only in upper case is also pressed as a player presses it, without Shift
  (``Vocabulary.unshifted``): judged so on an app that moves by itself, never on a still one, where Shift+G may
  be meant;
* a whole kind of input the app handles that never had an effect at all, however often and wherever it was
  tried: none of its keys (a game whose keyboard focus is never taken, a typing game that ignores every
  letter: there only letters typed while the screen showed them count), or none of its clicks on a drawn UI
  (a cannon that never fires; in a real-time game played with its keys, only when the keys did not work
  either). Then nothing else may have worked, so the evidence is more tries over more of the keys or places;
  and a click that changed the window right where it landed while the app stood still (before it was seen
  moving by itself: a clock that starts on the first click) has worked.

An effect is judged by the loop: on a still app, a visible change (or new code after the first try); on an
app that moves by itself, what its next frames changed beyond its own motion (vision.motion). There a change
right where a click landed is the click's own doing when it came there more often than the app's own motion
changes such a spot (a board's tile revealed under the pointer while only a clock ticks): clicks that do so
work, however rarely they find a tile left to reveal. A step the loop could not judge (the app stood still
meanwhile: its game was over; its own motion would have hidden an effect) is not counted. A still app that plays
sound is not judged: its inputs may answer with sound alone (a music player's pause and volume keys), and the
tester hears nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..geometry import Box
from ..keys import DIRECTION, OPPOSITE, SPELLING_OF, VECTOR, along
from ..policies.thresholds import STRAY_EFFECTS, SUSPECT_RATIO
from ..source import Vocabulary
from ..trajectory import Step
from ..verdict import Finding, Location
from .spec import OracleSettings
from .thresholds import (
    CONTINUITY,
    KIND_KEYS,
    LOCAL_EFFECTS,
    LOCAL_REACH,
    OTHERS_WORKED,
    PLACE_GRID,
    RARE_EFFECTS,
    SIDEWAYS,
)

#: where the code handles an input, by its name (``key left``, ``right click``)
Locate = Callable[..., Location | None]


@dataclass
class ControlRecord:
    """How one input fared over the run."""

    tries: int = 0
    effects: int = 0
    screens: set[str] = field(default_factory=set)  # the distinct screens it was tried on
    places: set[tuple[int, int]] = field(default_factory=set)  # where a pointer input landed
    steps: list[int] = field(default_factory=list)
    reached: set[str] = field(default_factory=set)  # the states (frame hashes) its effects led to
    way_back: int = 0  # tries where its opposite key had just led (a movement key)
    way_back_effects: int = 0  # ...of which had an effect
    launches: set[int] = field(default_factory=set)  # the launches of the app it was tried in
    #: a pointer input's judged tries: where it landed and the window's size then (x, y, width, height)
    targets: list[tuple[int, int, int, int]] = field(default_factory=list)
    local: int = 0  # effects that changed the window right where it landed


NO_RECORD = ControlRecord()


@dataclass(frozen=True)
class Sideways:
    """One step given to an app moving by itself, as the sideways rule sees it: the sideways key it gave (None:
    a wait, another input) and how (pressed or held), and, by way (left, right), where things that stood still
    set off so right after."""

    launch: int
    index: int
    name: str | None
    how: str
    started: dict[str, list[Box]]
    width: int  # the window's

    @property
    def way(self) -> str | None:
        return DIRECTION[self.name.removeprefix("key ")] if self.name else None


@dataclass
class DeadControls:
    """Follows the app's own inputs (from its vocabulary) through the run; ``findings()`` at the end.

    The evidence each rule needs is in ``settings`` (``OracleSettings``, tunable with ``oracles=``):
    ``dead_tries`` and ``dead_screens`` for one input on a still app (an input that only works in one state, a
    restart key on the game-over screen, is excused unless it was tried on that many different screens);
    ``kind_tries`` (each key tried, all of them that many times; on a moving app counted while it moved) or
    ``kind_places`` for a whole kind of input; the chance level's ``chance_beats``, ``max_chance`` and
    ``chance_margin`` and the ``dead_separation`` of one key from its siblings on an app that moves by itself.
    """

    vocabulary: Vocabulary
    settings: OracleSettings = field(default_factory=OracleSettings)
    #: the inputs' records on a still app (an effect is a visible change) and on one that moves by itself (an
    #: effect is a change beyond its own motion)
    still: dict[str, ControlRecord] = field(default_factory=dict)
    moving: dict[str, ControlRecord] = field(default_factory=dict)
    other_effects: int = 0
    #: beats the loop watched an app that moves by itself without any input: how often its own motion looks
    #: like an effect (a letter spawning, a ghost turning) is the chance an input's "effect" is none
    baseline: ControlRecord = field(default_factory=ControlRecord)
    #: where those beats' own changes that looked like an effect were
    own_changes: list[Box] = field(default_factory=list)
    #: the steps given to the app moving by itself, in order, as what they set going sideways
    sideways: list[Sideways] = field(default_factory=list)

    def observe(self, step: Step, *, judged: bool, moving: bool, handled: bool = True,
                set_going: dict[tuple[int, int], list[Box]] | None = None) -> None:
        """Count one step whose effect could be ``judged`` (on an app ``moving`` by itself, by what its next
        frames changed beyond its own motion; a step during which it did not move tells nothing). A click where
        the app takes none (not ``handled``: a web page's bare background, a canvas no script listens to for
        clicks) is no evidence about its clicks. ``set_going``: on an app moving by itself, the things that stood
        still and started going one way right after the step, by way (None: not seen), evidence of its own about
        a sideways key however busy the app's motion."""
        if step.error or (step.action.kind == "click" and not handled):
            return
        if self.vocabulary.types_characters and step.action.kind in ("press", "hold") and not step.aimed:
            return  # a character key matters only while its character is shown: judged on the tries aimed so
        if _along_heading(step):
            return  # a snake refuses the key it heads by and the key back: no evidence either way
        name = self._control(step)
        if set_going is not None:
            self._count_going(name, step, set_going)
        if not judged:
            return
        if name is None:
            self.other_effects += step.changed or bool(step.new_lines)
            return
        record = (self.moving if moving else self.still).setdefault(name, ControlRecord())
        # new code is reported per launch: the dispatch reaches the input's branch anew after a relaunch
        effective = step.changed or (step.launch in record.launches and bool(step.new_lines))
        record.launches.add(step.launch)
        record.tries += 1
        record.effects += effective
        record.screens.add(step.before_hash)
        back = step.before_hash in self._opposite(name).reached
        record.way_back += back
        record.way_back_effects += back and effective
        if effective:
            record.reached.add(step.after_hash)
        if step.action.target is not None:
            x, y = step.action.target
            record.places.add((x // PLACE_GRID, y // PLACE_GRID))
            record.targets.append((x, y, *step.window))
            record.local += effective and _holds(step.changed_box, x, y)
        record.steps.append(step.index)

    def _count_going(self, name: str | None, step: Step, set_going: dict[tuple[int, int], list[Box]]) -> None:
        """A step's sideways record: the sideways key it gave, if any, and where things set off either way."""
        key = step.action.key or ""
        sideways = name is not None and step.action.kind in ("press", "hold") and DIRECTION.get(key) in SIDEWAYS
        self.sideways.append(Sideways(step.launch, step.index, name if sideways else None, step.action.kind,
                                      {way: set_going.get(VECTOR[way], []) for way in SIDEWAYS}, step.window[0]))

    def observe_baseline(self, effect: bool, where: Box | None = None) -> None:
        """One beat watched without input on an app that moves by itself: did its motion look like an effect,
        and ``where``?"""
        self.baseline.tries += 1
        self.baseline.effects += effect
        if effect and where is not None:
            self.own_changes.append(where)

    def findings(self, locate: Locate = lambda *names: None) -> list[Finding]:
        """The dead controls of the run, each pointing where ``locate`` says the code handles its input."""
        return (self._single(locate) or self._single_moving(locate) or self._never_set_going(locate)
                or self._single_moving(locate, busy=True) or self._whole_kind(locate))

    def _dead(self, record: ControlRecord, *, moving: bool) -> bool:
        """Whether an input's effects are no more than chance: none on a still app (that plays no sound); on an
        app that moves by itself, no more than its own motion makes look like effects as often (``baseline``),
        once measured."""
        if not moving and self.vocabulary.sound:
            return False
        if not record.effects:
            return True
        chance = self._chance() if moving and not self._works_locally(record) else None
        if chance is None:
            return False
        expected = record.tries * chance
        spread = math.sqrt(record.tries * chance * (1 - chance))
        return record.effects <= expected + self.settings.chance_margin * spread + CONTINUITY

    def _chance(self) -> float | None:
        """How often the app's own motion looks like an effect, at the high end of what the beats watched without
        input say (one standard error above the estimate: a few dozen beats may have caught its own changes less
        often than they come); None before ``chance_beats`` were watched, or when it changes so much by itself
        that an input's effect cannot be told (over ``max_chance``)."""
        base = self.baseline
        if base.tries < self.settings.chance_beats:
            return None
        chance = (base.effects + CONTINUITY) / (base.tries + 2 * CONTINUITY)
        high = chance + math.sqrt(chance * (1 - chance) / base.tries)
        return high if high <= self.settings.max_chance else None

    def _works_locally(self, record: ControlRecord) -> bool:
        """Whether a pointer input changed the window right where it landed more often than the app's own motion
        changes such spots: per try, the share of watched beats whose own change held that spot, or at least
        the share of the window those changes covered (wherever they come); ``LOCAL_EFFECTS`` such effects or
        more, ``chance_margin`` standard deviations over that expectation."""
        beats = self.baseline.tries
        if record.local < LOCAL_EFFECTS or not beats:
            return False
        expected = 0.0
        for x, y, width, height in record.targets:
            held = sum(_holds((b.x, b.y, b.w, b.h), x, y) for b in self.own_changes)
            covered = sum(b.area for b in self.own_changes) / max(width * height, 1)
            expected += max(held, covered) / beats
        return record.local > expected + self.settings.chance_margin * math.sqrt(expected)

    def _single(self, locate: Locate) -> list[Finding]:
        working = self.other_effects + sum(r.effects for r in (*self.still.values(), *self.moving.values()))
        found = []
        for name, record in self.still.items():
            if (not (self._dead(record, moving=False) or self._blocked_way_back(name, record))
                    or record.tries < self.settings.dead_tries or len(record.screens) < self.settings.dead_screens):
                continue
            if working - record.effects < OTHERS_WORKED:  # nothing else worked either: the whole kind is judged
                continue
            if name.removeprefix("key ") in self.vocabulary.unshifted:  # an editor's Shift+G may be on purpose
                continue
            if self._acts_only_sometimes(name):
                continue
            if self._opposite(name).effects and record.way_back < self.settings.way_back_tries:
                continue
            if record.effects:
                what = (f"{self._named(name)} never worked where its opposite had just moved the app "
                        f"({record.way_back} tries) and changed the window {record.effects} of {record.tries} times on "
                        f"{len(record.screens)} different screens, far less often than the app's other keys")
            else:
                what = (f"{self._named(name)} never had an effect: tried {record.tries} times on {len(record.screens)} "
                        "different screens, no visible change and no new code ran after its first try, while other "
                        "inputs worked")
            found.append(Finding(
                "unresponsive",
                what,
                step=record.steps[-1],
                details="tried at steps " + ", ".join(map(str, record.steps)),
                location=locate(name),
            ))
        return found

    def _blocked_way_back(self, name: str, record: ControlRecord) -> bool:
        """A movement key of a still app that never worked where its opposite had just moved the app (the way back
        is surely open there), and worked far less often than the app's other keys elsewhere (a stray change, a
        focus ring drawn at its first press, is no working key): two proportions, ``dead_separation`` standard
        errors apart, and its own at most ``RARE_EFFECTS``."""
        if record.way_back < self.settings.way_back_tries or record.way_back_effects:
            return False
        others = _pooled(r for other, r in self.still.items() if other != name and other.startswith("key "))
        return (bool(others.tries) and record.effects <= RARE_EFFECTS * record.tries
                and _trails(record, others, self.settings.dead_separation))

    def _acts_only_sometimes(self, name: str) -> bool:
        """Whether an input is a key that acts only in some runs or states: one that starts the game anew (only
        where a game is over or not begun), one the code handles only when the app is started with an option. Its
        tries elsewhere say nothing; it is judged with the app's other keys as a whole only."""
        key = name.removeprefix("key ")
        vocabulary = self.vocabulary
        return name.startswith("key ") and (key in vocabulary.restart_keys or key in vocabulary.option_keys)

    def _named(self, name: str) -> str:
        """An input's name in a finding; a letter the code binds only in upper case, or a movement key the code's
        other keys imply, says so."""
        key = name.removeprefix("key ")
        if key in self.vocabulary.unshifted:
            return f"{name} (as a player presses it: the code binds only {key.upper()!r}, which takes Shift)"
        if key in self.vocabulary.implied:
            way = DIRECTION[key]
            spelled = [other for other in self.vocabulary.keys if DIRECTION.get(other) == way and other != key]
            return (f"{name} (as a player presses it: the code handles the other {SPELLING_OF[key]} and moves {way} "
                    f"with {', '.join(spelled)})")
        return name

    def _opposite(self, name: str) -> ControlRecord:
        """On a still app, the records of the movement keys that undo this one, pooled (any spelling of the
        opposite direction: D undoes Left as Right does); empty for other inputs."""
        key = name.removeprefix("key ") if name.startswith("key ") else ""
        opposite = OPPOSITE.get(key)
        if opposite is None:
            return NO_RECORD
        way = DIRECTION[opposite]
        undoing = [record for other, record in self.still.items()
                   if other.startswith("key ") and DIRECTION.get(other.removeprefix("key ")) == way]
        return _pooled(undoing) if undoing else NO_RECORD

    def _single_moving(self, locate: Locate, *, busy: bool = False) -> list[Finding]:
        """On an app that moves by itself, one input no better than chance while its siblings beat it: a key
        among the app's other keys, a mouse button among its other buttons. In an app that plays sound only a
        movement key whose opposite worked is judged: a key that only mutes has no opposite. ``busy``: judged
        where the app's own motion is too busy to measure chance by (after what sideways keys set going, which
        tells more there), by how far it trails its siblings (``_rare_beside``)."""
        if self.vocabulary.types_characters or (busy and not self._busy()):
            return []
        found = []
        for kind in ("key ", " click"):
            siblings = {name: r for name, r in self.moving.items() if kind in name}
            judged = [name for name in siblings if not self.vocabulary.sound or self._opposite_moved(name, siblings)]
            found += self._one_of_kind(siblings, judged, locate, busy=busy)
        return found

    def _opposite_moved(self, name: str, siblings: dict[str, ControlRecord]) -> bool:
        """Whether ``name`` is a movement key whose opposite (the same spelling: Right for Left, D for A) was
        tried and beat chance on the app moving by itself."""
        opposite = OPPOSITE.get(name.removeprefix("key ")) if name.startswith("key ") else None
        record = siblings.get(f"key {opposite}") if opposite else None
        return record is not None and record.tries >= self.settings.dead_tries and not self._dead(record, moving=True)

    def _one_of_kind(self, siblings: dict[str, ControlRecord], judged: list[str], locate: Locate, *,
                     busy: bool) -> list[Finding]:
        """Of inputs of one kind (keys; mouse buttons), each ``judged`` that was no better than chance while the
        others beat it, clearly; then each group of keys the code handles at the very same places (``K_UP or
        K_w``: one action under two names), judged as one, when none of its keys was judged dead alone."""
        found: list[Finding] = []
        for names in [(name,) for name in judged] + self._aliases(list(siblings), judged):
            if len(names) > 1 and found:
                break
            if any(self._acts_only_sometimes(name) or self._worked_still(name) for name in names):
                continue
            record = _pooled(siblings[name] for name in names)
            others = _pooled(r for other, r in siblings.items() if other not in names)
            if (record.tries < self.settings.kind_tries or others.effects < self.settings.dead_tries
                    or self._dead(others, moving=True)
                    or not (self._rare_beside(record, others) if busy else self._dead(record, moving=True))
                    or not _trails(record, others, self.settings.dead_separation)):
                continue
            kind = "keys" if names[0].startswith("key ") else "mouse buttons"
            named = self._named(names[0]) + (f" (and {', '.join(names[1:])}, handled with it)" * (len(names) > 1))
            found.append(self._kind_finding(
                f"{named} never had an effect while the app's other {kind} did ({others.effects} of "
                f"{others.tries} tries): tried {record.tries} times", record, locate(*names)))
        return found

    def _aliases(self, names: list[str], judged: list[str]) -> list[tuple[str, ...]]:
        """The keys among ``names`` that the code handles at the very same places, by group (two or more) with one
        ``judged`` at least: a player presses either for the same action, and each alone may have been tried too
        seldom to judge."""
        groups: dict[tuple[tuple[str, int], ...], list[str]] = {}
        for name in names:
            places = tuple(self.vocabulary.handled_at(name))
            if name.startswith("key ") and places:
                groups.setdefault(places, []).append(name)
        return [tuple(group) for group in groups.values() if len(group) > 1 and set(group) & set(judged)]

    def _busy(self) -> bool:
        """Whether the app's own motion, watched long enough, looks like an effect too often to measure chance by."""
        return self.baseline.tries >= self.settings.chance_beats and self._chance() is None

    def _rare_beside(self, record: ControlRecord, others: ControlRecord) -> bool:
        """On a busy field, whether an input's effects came, a stray one forgiven, less often than
        ``SUSPECT_RATIO`` of its siblings' rate (the share the tester suspects a key by) and no more often than the
        app changed so by itself: a person still sees that every other key visibly does something and this one
        hardly ever does (falling blocks that land and spawn change the field in half the beats)."""
        base = self.baseline
        return (record.effects - STRAY_EFFECTS < SUSPECT_RATIO * others.effects / others.tries * record.tries
                and record.effects / record.tries <= base.effects / base.tries)

    def _never_set_going(self, locate: Locate) -> list[Finding]:
        """On an app that moves by itself, a sideways key that (almost) never set anything going its way along
        the row where the key of the other way (the same spelling: Right for Left) kept setting a thing going:
        "Right slides the ship along the bottom, Left never does". This holds however busy the app's own motion
        (a field of meteors hides any key's other effects, and sets something going somewhere now and then by
        itself), and when the ship, slid one way only, is pinned at the edge and the working key too stops
        moving it. Left and Right only: a game's two sides mirror each other, while up and down seldom do (Up
        jumps or rotates a piece, Down drops it or does nothing off a ladder). The key is judged on its tries
        where the way back was open: the last thing set going along the row had gone the other way (a ship slid
        right has room on its left, while one its own key pinned at the edge has none), and against the other
        key's tries of the same kind, pressed or held, as the other key slid the thing most surely: a game that
        polls its keys each frame may miss a tap, and Right tapped where Left was held is no evidence. A key
        whose other effects are seen to beat chance is left out too."""
        found, settings = [], self.settings
        for name in dict.fromkeys(step.name for step in self.sideways if step.name):
            key = name.removeprefix("key ")
            way, back = DIRECTION[key], OPPOSITE[key]
            theirs_tries = [step for step in self.sideways if step.name == f"key {back}"]
            alone = [step.started[DIRECTION[back]] for step in self.sideways if step.way != DIRECTION[back]]
            row = _busiest_row([step.started[DIRECTION[back]] for step in theirs_tries])
            if (row is None or len(theirs_tries) < settings.dead_tries or len(alone) < settings.chance_beats
                    or self._acts_only_sometimes(name) or self._beats_chance(name)):
                continue
            roomy = self._with_room(f"key {back}", row)
            how = self._surest(roomy, row)
            tries = self._tried_way_back(name, row)
            mine = _slides([step for step in tries if step.how == how], row)
            theirs = _slides([step for step in roomy if step.how == how], row)
            by_itself = _along_row(alone, row)  # (a row of invaders marching sideways by itself is no ship)
            if (len(tries) < settings.kind_tries or mine.tries < settings.dead_tries
                    or _slides(tries, row).effects > RARE_EFFECTS * len(tries)
                    or theirs.effects < settings.dead_tries or not _trails(mine, theirs, settings.dead_separation)
                    or not _trails(by_itself, theirs, settings.dead_separation)):
                continue
            found.append(Finding(
                "unresponsive",
                f"{self._named(name)} set nothing going {way} along the row where key {back} set a thing going "
                f"{DIRECTION[back]} (y {row}): {mine.effects} of {mine.tries} tries ({how}) did where the way back "
                f"was open, while key {back} did so {theirs.effects} of {theirs.tries} times",
                step=tries[-1].index, details="tried at steps " + ", ".join(str(step.index) for step in tries),
                location=locate(name)))
        return found

    def _surest(self, tries: list[Sideways], row: int) -> str | None:
        """How (pressed or held) a sideways key set a thing going its way along ``row`` most often, of the ways it
        did so ``dead_tries`` times or more (else the way it did so most often); None without tries."""
        def evidence(how: str) -> tuple[bool, float, int]:
            done = _slides([step for step in tries if step.how == how], row)
            return done.effects >= self.settings.dead_tries, done.effects / done.tries, done.effects
        return max(sorted({step.how for step in tries}), key=evidence, default=None)

    def _with_room(self, name: str, row: int) -> list[Sideways]:
        """A sideways key's tries made where, as far as the last thing set going along ``row`` in the same launch
        showed, it stood farther than its own width from the window's edge on the key's side (nothing seen set
        going yet: where it started)."""
        way = DIRECTION[name.removeprefix("key ")]
        last: dict[int, Box] = {}
        tries = []
        for step in self.sideways:
            box = last.get(step.launch)
            if step.name == name and (box is None or _room(box, way, step.width)):
                tries.append(step)
            went = [box for boxes in step.started.values() for box in boxes if _spans([box], row)]
            if went:
                last[step.launch] = went[0]
        return tries

    def _tried_way_back(self, name: str, row: int) -> list[Sideways]:
        """A sideways key's tries made where, in the same launch, the last thing set going along ``row`` (one way
        only) had gone the other way."""
        way = DIRECTION[name.removeprefix("key ")]
        last: dict[int, str] = {}
        tries = []
        for step in self.sideways:
            if step.name == name and last.get(step.launch, way) != way:
                tries.append(step)
            went = [other for other, boxes in step.started.items() if _spans(boxes, row)]
            if len(went) == 1:
                last[step.launch] = went[0]
        return tries

    def _beats_chance(self, name: str) -> bool:
        """Whether an input's effects on the app moving by itself were seen to come more often than chance (its
        own motion rare enough to tell, the input tried often enough)."""
        record = self.moving.get(name)
        if record is None or record.tries < self.settings.dead_tries or self._chance() is None:
            return False
        return not self._dead(record, moving=True)

    def _whole_kind(self, locate: Locate) -> list[Finding]:
        """The app's keys, or its clicks on a drawn UI, none of which ever worked: on a still app never a
        visible change; on an app that moves by itself no more changes than chance. An app seen moving by
        itself is judged on its moving part alone: before it was seen so (a game whose letters appear slowly
        looks still at first), a change after an input may have been its own."""
        found = []
        records = self.moving or self.still
        moving = bool(self.moving)
        keys = self.vocabulary.safe_keys
        every_key = _pooled(r for name, r in records.items() if name.startswith("key "))
        # (a typing game's letters are judged on those shown: not every letter need be)
        tried_all = self.vocabulary.types_characters or all(
            f"key {name}" in self.still or f"key {name}" in self.moving for name in keys)
        if (len(keys) >= KIND_KEYS and tried_all and every_key.tries >= self.settings.kind_tries
                and self._dead(every_key, moving=moving)):
            found.append(self._kind_finding(f"none of the app's keys ({', '.join(keys)}) had an effect: tried "
                                            f"{every_key.tries} times", every_key,
                                            locate(*(f"key {key}" for key in keys))))
        # a real-time game played with its keys may ignore clicks on its field (they start a menu's game, or
        # nothing): there clicks are judged only when the keys did nothing either
        keys_play = moving and every_key.tries > 0 and not self._dead(every_key, moving=moving)
        clicks = records.get("left click")
        if (clicks is not None and not keys_play and not self._worked_still("left click")
                and clicks.tries >= self.settings.kind_tries
                and len(clicks.places) >= self.settings.kind_places and self._dead(clicks, moving=moving)):
            found.append(self._kind_finding(f"clicks had no effect: tried {clicks.tries} times at "
                                            f"{len(clicks.places)} places", clicks, locate("left click")))
        return found

    def _worked_still(self, name: str) -> bool:
        """Whether a pointer input changed the window right where it landed while the app stood still (before a
        clock it started ticked): it worked, whatever came after (a board whose first click opened most of it
        leaves little for later clicks to do)."""
        return self.still.get(name, NO_RECORD).local > 0

    def _kind_finding(self, what: str, record: ControlRecord, location: Location | None) -> Finding:
        if record.effects:
            base = self.baseline
            why = (f"changes beyond the app's own motion followed them {record.effects} times, no more often than "
                   f"it changed so by itself ({base.effects} of {base.tries} beats watched without input)")
        else:
            why = "no visible change beyond what the app does by itself and no new code after the first try"
        return Finding("unresponsive", f"{what}; {why}", step=max(record.steps),
                       details="tried at steps " + ", ".join(map(str, sorted(record.steps))), location=location)

    def _control(self, step: Step) -> str | None:
        """The input's name when it is one of the app's own keys, its right click, or a click on a drawn UI
        (the code handles clicks but labels no control), else None."""
        action = step.action
        if action.kind in ("press", "hold") and action.key in self.vocabulary.safe_keys:
            return f"key {action.key}"
        if action.kind == "right_click" and "right" in self.vocabulary.buttons:
            return "right click"
        if action.kind == "click" and "left" in self.vocabulary.buttons and not self.vocabulary.texts:
            return "left click"
        return None


def _along_heading(step: Step) -> bool:
    """Whether the step pressed a movement key along the way a course-keeping avatar went, or back."""
    return step.action.kind in ("press", "hold") and along(step.action.key or "", step.heading)


def _trails(record: ControlRecord, others: ControlRecord, separation: float) -> bool:
    """Whether ``record``'s effects come clearly less often than ``others``' (two proportions, ``separation``
    standard errors apart)."""
    pooled = (record.effects + others.effects) / (record.tries + others.tries)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / record.tries + 1 / others.tries))
    gap = others.effects / others.tries - record.effects / record.tries
    return gap > 0 and gap >= separation * spread


def _busiest_row(tries: list[list[Box]]) -> int | None:
    """The row (y) that the things of the most tries span (each try's things counted once); None when no try set
    anything going."""
    rows = {box.center[1] for boxes in tries for box in boxes}
    return max(sorted(rows), key=lambda row: sum(_spans(boxes, row) for boxes in tries), default=None)


def _along_row(tries: list[list[Box]], row: int) -> ControlRecord:
    """Of these tries (where each set things going), those that set a thing going along ``row``."""
    return ControlRecord(tries=len(tries), effects=sum(_spans(boxes, row) for boxes in tries))


def _slides(tries: list[Sideways], row: int) -> ControlRecord:
    """Of a sideways key's tries, those that set a thing going its way along ``row``."""
    return _along_row([step.started[step.way or ""] for step in tries], row)


def _room(box: Box, way: str, width: int) -> bool:
    """Whether a thing stands farther than its own width from the window's edge on side ``way``."""
    return box.x > box.w if way == "left" else width - box.right > box.w


def _spans(boxes: list[Box], row: int) -> bool:
    return any(box.y <= row < box.bottom for box in boxes)


def _pooled(records: Iterable[ControlRecord]) -> ControlRecord:
    """Several inputs (or one input's still and moving parts) counted as one."""
    pooled = ControlRecord()
    for record in records:
        pooled.tries += record.tries
        pooled.effects += record.effects
        pooled.screens |= record.screens
        pooled.places |= record.places
        pooled.steps += record.steps
        pooled.reached |= record.reached
        pooled.targets += record.targets
        pooled.local += record.local
    return pooled


def _holds(box: tuple[int, int, int, int] | None, x: int, y: int) -> bool:
    """Whether a change's box holds a point (``LOCAL_REACH`` pixels around it count: a tile's changed pixels
    may stop short of its middle)."""
    if box is None:
        return False
    left, top, width, height = box
    return (left - LOCAL_REACH <= x <= left + width + LOCAL_REACH
            and top - LOCAL_REACH <= y <= top + height + LOCAL_REACH)
