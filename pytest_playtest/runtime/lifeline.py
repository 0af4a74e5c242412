"""A test process that outlives the process that started it ends itself: an xdist worker whose controller was
SIGKILLed would otherwise go on for half a minute with its apps and Xvfb.

A thread polls the parent PID (``PR_SET_PDEATHSIG`` is tied to the parent's *thread*, which need not live as
long as the controller). Killing this process is enough: its apps' watchdogs, their sandboxes
(``--die-with-parent``) and its Xvfb (``setpriv --pdeathsig``) all follow it.
"""

from __future__ import annotations

import os
import signal
import threading
import time

#: How often the parent is looked for (seconds); everything is gone well within 5 s of the parent's death.
POLL = 0.2


def end_with_parent(poll: float = POLL) -> threading.Thread:
    """Start watching the current parent; this process is SIGKILLed as soon as it is gone."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(poll)
        os.kill(os.getpid(), signal.SIGKILL)

    thread = threading.Thread(target=watch, daemon=True, name="playtest-lifeline")
    thread.start()
    return thread
