"""Suspect inputs tried again on purpose: a key that seems to do nothing while the app's other keys work is
pressed again until there is evidence either way, as a person who suspects a dead key does ("Left never does
anything; the others do"): in a game that moves by itself, during play; in a still app, on a screen where it was
not tried yet (a wall may stand in one place, not in all), and a movement key right after a key of the opposite
direction moved the app (the way back is surely open there: "Right moved the token, so Left must move it back").

Without this a dead key loses energy with every fruitless try and is soon hardly pressed at all, short of the
tries and screens the dead-control rule (``loop/controls.py``) needs to tell it from chance.
"""

from __future__ import annotations

from ..keys import DIRECTION, OPPOSITE, along
from .exploration import Candidate, InputStats, Rank
from .notebook import Notebook
from .skill import Choice
from .thresholds import STRAY_EFFECTS, SUSPECT_AFTER, SUSPECT_RATIO, SUSPECT_SHARE, SUSPECT_SHARE_STILL, SUSPECT_TRIES


class Suspects:
    """The skill that keeps a moving game's seemingly dead keys in play until they are judged."""

    def __init__(self, notebook: Notebook) -> None:
        self.notebook = notebook

    def pick(self, candidates: list[Candidate], state: str, *, heading: str = "") -> Choice | None:
        """A key of the app's own (pressed or held: one key) that has been tried a few times, works far less often
        than its siblings and was not yet tried enough to be judged (the least tried such key; in a still app,
        one not tried in this ``state`` yet, or one whose opposite just moved the app); in a still app a
        movement key's opposite is pressed first. While a course-keeping avatar goes one way (``heading``: a snake),
        a movement key along that way or back is not pressed: such a game refuses it by design. None when there is
        none, or on the free choices left to other inputs."""
        notebook = self.notebook
        keys = {c.actions[0].key: c for c in candidates
                if c.kind == "press" and c.rank <= Rank.KEY and c.actions[0].key is not None}
        tried = {key: self._tried(key) for key in keys}
        tried = {key: stats for key, stats in tried.items() if stats.tries}
        working = [stats for stats in tried.values() if stats.effects]
        if not working:
            return None
        rate = sum(s.effects for s in working) / sum(s.tries for s in working)
        suspects = [key for key, stats in tried.items() if SUSPECT_AFTER <= stats.tries < SUSPECT_TRIES
                    and stats.effects - STRAY_EFFECTS < SUSPECT_RATIO * rate * stats.tries
                    and (notebook.animating or state not in stats.tried_states or self._came_back(key))
                    and not along(key, heading)]
        back = [key for key in suspects if not notebook.animating and self._came_back(key)]
        if back:  # its opposite just moved the app, on the way there: pressed now, not left to chance
            return Choice(keys[back[0]], "a key that seems dead while the others work, where its opposite just moved")
        share = SUSPECT_SHARE if notebook.animating else SUSPECT_SHARE_STILL
        if not suspects or notebook.rng.random() >= share:
            return None
        suspect = min(suspects, key=lambda key: (tried[key].tries, key))
        there = None if notebook.animating else self._way_there(suspect, keys, tried, state)
        if there is not None:
            return Choice(there, f"the opposite of {suspect}, which seems dead while the others work, first")
        return Choice(keys[suspect], "a key that seems dead while the others work, tried again")

    def _came_back(self, key: str) -> bool:
        """The last attempt was a key of the direction opposite to ``key`` and it changed the app."""
        log = self.notebook.memory.log
        way = _undoing(key)
        return bool(log) and way is not None and log[-1].effect and DIRECTION.get(
            log[-1].name.partition(":")[2]) == way

    @staticmethod
    def _way_there(key: str, keys: dict[str, Candidate], tried: dict[str, InputStats],
                   state: str) -> Candidate | None:
        """The offered key of the direction opposite to ``key`` that worked most often and was not tried in this
        ``state`` yet (where it did nothing the app stands at its edge: ``key`` is tried there as it is), if any."""
        way = _undoing(key)
        opposite = [other for other in keys if way is not None and DIRECTION.get(other) == way
                    and other in tried and tried[other].effects and state not in tried[other].tried_states]
        return keys[max(opposite, key=lambda other: (tried[other].effects, other))] if opposite else None

    def _tried(self, key: str) -> InputStats:
        """A key's tries, pressed and held, as one."""
        pooled = InputStats()
        for name in (f"key:{key}", f"hold:{key}"):
            stats = self.notebook.memory.stats.get(name)
            if stats is not None:
                pooled.tries += stats.tries
                pooled.effects += stats.effects
                pooled.tried_states |= stats.tried_states
        return pooled


def _undoing(key: str) -> str | None:
    """The direction that undoes a movement key's move (None for other keys)."""
    opposite = OPPOSITE.get(key)
    return DIRECTION.get(opposite) if opposite is not None else None
