"""Where a finding points in the app's code, for the findings whose place is not in their own evidence: an
expectation never met points at the code that produces the text it looks for (``source.producers``); a dead
input at the place the vocabulary scan found it compared, bound or handled by the function bound to it (with
coverage, whether that function ran); a dead widget at the command every widget runs. Before any of these, a
slip the code shows without running (``source.slips``: a dropped comparison, a function named and not called, a
listener for an event no element fires), when the app's code has exactly one.

A crash's or an exception's place comes from its traceback (``runtime/named.py``), a freeze's from stack dumps
of the frozen app (``oracles.py``) or the debugger's pauses of a frozen page (``web.py``).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from copy import copy
from pathlib import Path

from ..expect import Expectation
from ..runtime.places import place, relative_name
from ..source import Vocabulary
from ..source.producers import element_writer, producer
from ..source.registrations import WIDGET_CLICK
from ..source.slips import slips
from ..verdict import Location

#: what a dead input's place starts, as its detail names it
BOUND, BRANCH = "the function bound to it", "its branch"


class Locator:
    """The app's folder and what its vocabulary scan read: the files (its own modules, searched first) and where
    the code handles each input."""

    def __init__(self, root: Path, vocabulary: Vocabulary | None = None) -> None:
        self.root = root
        self.vocabulary = vocabulary
        self.sources = vocabulary.sources if vocabulary is not None else ()
        #: with coverage, the lines of the app's code the run reached, by file (relative to ``root``)
        self.reached: Mapping[str, frozenset[int]] | None = None
        self._slips: list[Location] | None = None

    def handled(self, *names: str) -> Location | None:
        """Where the code handles the inputs the run found dead (``key left``, ``right click``), as the scan
        found them compared, bound, or handled by a bound function; the other places in the detail.

        One input: the first place that is its own (a function bound to every arrow key is where all of them
        go wrong, the line binding one of them where that one does). Several (none of the keys worked): the
        place most of them share. A bound function that never ran comes last: the input never reached it."""
        if self.vocabulary is None or not names:
            return None
        places = self._ordered(self.vocabulary, names)
        if not places:
            return self.slip()
        slip = self.slip(also=f"where the code handles it: {_listed(places[:1])}")
        if slip is not None:
            return slip
        never_ran = [at for at in places if self._body_ran(*at) is False]
        places.sort(key=lambda at: at in never_ran)
        (file, line), others = places[0], places[1:]
        detail = "where the code handles it" + ("; also at " + _listed(others) if others else "")
        block = self._block_ran(file, line)
        if block is not None:
            detail += f"; {block[0]} {'ran' if block[1] else 'never ran'}"
        elif never_ran:
            detail += f"; {BOUND} at {_listed(never_ran)} never ran"
        return place(self.root / file, line, self.root, "handler", detail=detail)

    @staticmethod
    def _ordered(vocabulary: Vocabulary, names: Sequence[str]) -> list[tuple[str, int]]:
        """The places of the first input, those most to the point first (see ``handled``)."""
        places = vocabulary.handled_at(names[0])
        if len(names) > 1:
            sharing = [vocabulary.handled_at(name) for name in names]
            places.sort(key=lambda at: -sum(at in theirs for theirs in sharing))
        else:
            itself = vocabulary.handled_as(names[0])
            others = {at for handled in vocabulary.handled_inputs() if handled not in itself
                      for at in vocabulary.handled_at(handled)}
            places.sort(key=lambda at: at in others)
        return places

    def commanded(self) -> Location | None:
        """Where the code answers a click on a widget the run found dead: the function every widget's command
        runs, when they all run one (a keypad's buttons share their handler); None when they differ."""
        places = self.vocabulary.handled_at(WIDGET_CLICK) if self.vocabulary is not None else []
        if len(places) != 1:
            return self.slip()
        (file, line), = places
        slip = self.slip(also=f"the function every widget's command runs: {file}:{line}")
        if slip is not None:
            return slip
        return place(self.root / file, line, self.root, "handler",
                     detail="the function every widget's command runs")

    def _body_ran(self, file: str, line: int) -> bool | None:
        """Whether the function defined at this line ran its body in the run (None: no coverage, or no ``def``
        there)."""
        ran = self._block_ran(file, line)
        return ran[1] if ran is not None and ran[0] == BOUND else None

    def _block_ran(self, file: str, line: int) -> tuple[str, bool] | None:
        """What starts at this line (the function bound to an input, or a branch testing it) and whether its
        body ran in the run; None without coverage or when neither starts there."""
        if self.reached is None:
            return None
        try:
            tree = ast.parse((self.root / file).read_bytes())
        except (OSError, SyntaxError, ValueError):
            return None
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.If) and node.lineno == line:
                body = range(node.body[0].lineno, (node.body[-1].end_lineno or line) + 1)
                ran = any(number in body for number in self.reached.get(file, ()))
                return (BRANCH if isinstance(node, ast.If) else BOUND), ran
        return None

    def produced(self, expectation: Expectation) -> Location | None:
        """Where the text an expectation looks for is produced: a template that can make a match, else a line
        holding its longest literal word; for a DOM rule, the script line writing an element it names."""
        if expectation.kind == "rule" and expectation.pattern:
            return self.slip() or self._writer(expectation.pattern)
        if expectation.kind not in ("text", "final_text") or not expectation.pattern:
            return self.slip()
        found = producer(expectation.pattern, self.root, self.sources)
        if found is None:
            return self.slip()
        slip = self.slip(also=f"where its text is written: {relative_name(found.path, self.root)}:{found.line}")
        if slip is not None:
            return slip
        detail = "a text this code writes can match it" if found.matches else "this line holds its word"
        if self.reached is not None:  # with coverage: a producer that never ran was never reached
            ran = found.line in self.reached.get(relative_name(found.path, self.root), frozenset())
            detail += "; it ran" if ran else "; it never ran"
        return place(found.path, found.line, self.root, "producer", detail=detail)

    def _writer(self, rule: str) -> Location | None:
        """Where the page's scripts write an element a rule that never held names."""
        found = element_writer(rule, self.root, self.sources)
        if found is None:
            return None
        return place(found.path, found.line, self.root, "producer", detail="this code writes an element the rule reads")

    def slip(self, also: str = "") -> Location | None:
        """The one slip in the app's code as a Location (``also``: the place found otherwise, for its detail);
        None when the code has none or several."""
        if self._slips is None:
            self._slips = [place(found.path, found.line, self.root, "slip", detail=found.why)
                           for found in slips(self.root, self.sources)]
        if len(self._slips) != 1:
            return None
        location = copy(self._slips[0])
        location.detail += f"; {also}" if also else ""
        return location


def _listed(places: Sequence[tuple[str, int]]) -> str:
    return ", ".join(f"{file}:{line}" for file, line in places)
