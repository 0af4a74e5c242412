"""Suspect inputs tried again on purpose: a key that seems to do nothing while the app's other keys work is
pressed again until there is evidence either way, as a person who suspects a dead key does ("Left never does
anything; the others do"): in a game that moves by itself, during play; in a still app, on a screen where it was
not tried yet (a wall may stand in one place, not in all).

Without this a dead key loses energy with every fruitless try and is soon hardly pressed at all, short of the
tries and screens the dead-control rule (``loop/controls.py``) needs to tell it from chance.
"""

from __future__ import annotations

from .exploration import Candidate, Rank
from .notebook import Notebook
from .thresholds import SUSPECT_AFTER, SUSPECT_RATIO, SUSPECT_SHARE, SUSPECT_TRIES


class Suspects:
    """The skill that keeps a moving game's seemingly dead keys in play until they are judged."""

    def __init__(self, notebook: Notebook) -> None:
        self.notebook = notebook

    def pick(self, candidates: list[Candidate], state: str) -> Candidate | None:
        """A key of the app's own that has been tried a few times, works far less often than its siblings and
        was not yet tried enough to be judged (the least tried such key; in a still app, one not tried in this
        ``state`` yet); None when there is none, or on the free choices left to other inputs."""
        notebook = self.notebook
        stats = notebook.memory.stats
        keys = [c for c in candidates if c.kind == "press" and c.rank <= Rank.KEY and c.name in stats]
        working = [stats[c.name] for c in keys if stats[c.name].effects]
        if not working:
            return None
        rate = sum(s.effects for s in working) / sum(s.tries for s in working)
        suspects = [c for c in keys if SUSPECT_AFTER <= stats[c.name].tries < SUSPECT_TRIES
                    and stats[c.name].effects < SUSPECT_RATIO * rate * stats[c.name].tries
                    and (notebook.animating or state not in stats[c.name].tried_states)]
        if not suspects or notebook.rng.random() >= SUSPECT_SHARE:
            return None
        return min(suspects, key=lambda c: (stats[c.name].tries, c.name))
