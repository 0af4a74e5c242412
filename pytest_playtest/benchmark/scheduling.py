"""Under pytest-xdist, the stages of one benchmark sample run on one worker, in order.

A later stage needs its sample's earlier ones (the repository copy, their verdicts): on another worker it
would run them again. The stage items carry an ``xdist_group`` mark for ``--dist loadgroup``, but with
pytest 9.2 and pytest-xdist 3.8 that mark no longer groups anything (xdist puts the group in ``_nodeid``,
which pytest 9.2 no longer reads: pytest-dev/pytest-xdist#1386), and ``-n`` alone (``--dist load``) sends
tests in batches that may cut a sample between two workers. With ``--playtest``, both modes therefore
schedule in units of work (xdist's ``loadgroup`` scheduler): a sample's stage items are one unit, recognised
by their node ids (``<suite file>::<task id>[s<N>]::<stage>``, as the controller only sees node ids); any
other test is a unit of its own (or of its ``xdist_group``, where xdist still marks it in the node id).
"""

from __future__ import annotations

import re

from xdist.scheduler import LoadGroupScheduling

from .metrics import STAGES

#: A stage item's node id: the sample's node id, then the stage.
STAGE_NODEID = re.compile(rf"(?P<sample>.+\[s\d+\])::(?:{'|'.join(STAGES)})")


class SampleScheduling(LoadGroupScheduling):
    """xdist's ``loadgroup`` scheduling where each benchmark sample's stages are one unit of work."""

    def _split_scope(self, nodeid: str) -> str:
        match = STAGE_NODEID.fullmatch(nodeid)
        return match.group("sample") if match else super()._split_scope(nodeid)
