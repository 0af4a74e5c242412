"""Where a finding points in the app's code, for the findings whose place is not in their own evidence: an
expectation never met points at the code that produces the text it looks for (``source.producers``).

A crash's or an exception's place comes from its traceback, a freeze's from a stack dump of the frozen app
(``oracles.py``); a dead input's from the comparison the vocabulary scan found for it (``controls.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..expect import Expectation
from ..runtime.places import place
from ..source.producers import producer
from ..verdict import Location


class Locator:
    """The app's folder and the files its vocabulary scan read (its own modules, searched first)."""

    def __init__(self, root: Path, sources: Sequence[str] = ()) -> None:
        self.root = root
        self.sources = tuple(sources)

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
