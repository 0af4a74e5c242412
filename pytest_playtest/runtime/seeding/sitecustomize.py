"""Seeds the app's randomness before its code runs, and arms the stack dumps of a freeze.

Python imports this file as ``sitecustomize`` at start-up, from the folder the harness puts first on the
app's PYTHONPATH (``runtime/app.py``). It runs inside the untrusted app's process, so it uses the standard
library only. ``random`` is seeded from PLAYTEST_SEED at once, ``numpy.random`` when the app imports it; when
PLAYTEST_STACKS names a file, ``faulthandler`` dumps every thread's stack there on the signal
PLAYTEST_STACK_SIGNAL (``runtime/stacks.py``: where a frozen app is stuck). Then the folder leaves ``sys.path``
and a ``sitecustomize`` of the app's own interpreter, if any, runs as it would have.
"""

from __future__ import annotations

import faulthandler
import importlib
import importlib.util
import os
import random
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

SEED = int(os.environ.get("PLAYTEST_SEED", "0"))
HERE = os.path.dirname(os.path.abspath(__file__))
#: the first line of the dump file once the dumps are armed (runtime/stacks.py's ARMED)
ARMED = "playtest: stack dumps armed"


class SeedNumpy:
    """Seeds ``numpy.random`` once it is first imported (importing numpy here would cost every app)."""

    def find_spec(self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None,
                  ) -> ModuleSpec | None:
        if name != "numpy.random":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        loader: Any = spec.loader if spec is not None else None
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            module.seed(SEED % 2**32)

        loader.exec_module = exec_module
        return spec


def _chain() -> None:
    """Leave sys.path as the app would see it and run the sitecustomize this one stands in front of."""
    sys.path[:] = [entry for entry in sys.path if os.path.abspath(entry or os.curdir) != HERE]
    ours = sys.modules.pop(__name__)
    try:
        importlib.import_module(__name__)
    except ImportError:
        sys.modules[__name__] = ours  # the import system takes the module back out of sys.modules


def _arm_stack_dumps() -> None:
    """Dump every thread's stack to PLAYTEST_STACKS on PLAYTEST_STACK_SIGNAL (faulthandler writes from its C
    handler, whatever the Python code is doing). The variables leave the environment: a child process of the
    app must not arm itself on the same file."""
    path, number = os.environ.pop("PLAYTEST_STACKS", ""), os.environ.pop("PLAYTEST_STACK_SIGNAL", "")
    if not path or not number.isdigit():
        return
    try:
        stream = open(path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 (open for the process's life)
        faulthandler.register(int(number), file=stream, all_threads=True, chain=False)
        stream.write(ARMED + "\n")
    except (OSError, ValueError, RuntimeError):
        return


random.seed(SEED)
sys.meta_path.insert(0, SeedNumpy())
_arm_stack_dumps()
_chain()
