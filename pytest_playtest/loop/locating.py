"""Where a finding points in the app's code, for the findings whose place is not in their own evidence: an
expectation never met points at the code that produces the text it looks for (``source.producers``); a dead
input at the place the vocabulary scan found it compared or bound.

A crash's or an exception's place comes from its traceback, a freeze's from a stack dump of the frozen app
(``oracles.py``).
"""

from __future__ import annotations

from pathlib import Path

from ..expect import Expectation
from ..runtime.places import place
from ..source import Vocabulary
from ..source.producers import producer
from ..verdict import Location


class Locator:
    """The app's folder and what its vocabulary scan read: the files (its own modules, searched first) and where
    the code handles each input."""

    def __init__(self, root: Path, vocabulary: Vocabulary | None = None) -> None:
        self.root = root
        self.vocabulary = vocabulary
        self.sources = vocabulary.sources if vocabulary is not None else ()

    def handled(self, name: str) -> Location | None:
        """Where the code handles an input the run found dead (``key left``, ``right click``): the first place
        the vocabulary scan found it compared or bound; the others in the detail."""
        places = self.vocabulary.handled_at(name) if self.vocabulary is not None else []
        if not places:
            return None
        (file, line), others = places[0], places[1:]
        detail = "where the code handles it" + (
            "; also at " + ", ".join(f"{f}:{n}" for f, n in others) if others else "")
        return place(self.root / file, line, self.root, "handler", detail=detail)

    def produced(self, expectation: Expectation) -> Location | None:
        """Where the text an expectation looks for is produced: a template that can make a match, else a line
        holding its longest literal word."""
        if expectation.kind not in ("text", "final_text") or not expectation.pattern:
            return None
        found = producer(expectation.pattern, self.root, self.sources)
        if found is None:
            return None
        detail = "a text this code writes can match it" if found.matches else "this line holds its word"
        return place(found.path, found.line, self.root, "producer", detail=detail)
