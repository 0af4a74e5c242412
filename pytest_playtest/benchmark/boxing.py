"""The sandbox of a benchmark sample: the model's code runs boxed unless the session says otherwise.

Samples default to ``auto`` (hand-written playtests to ``off``): ``--playtest-sandbox`` / ini
``playtest_sandbox`` changes that, ``--playtest-sandbox-limits`` the limits. The exec and pass stages box
their own commands here; the play stage passes the same mode to the run spec.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import SandboxError
from ..runtime.sandbox import Limits, Sandbox, SandboxPolicy, resolve
from .splice import NODE_MODULES

#: A benchmark sample is untrusted code: boxed when the host allows it.
SAMPLE_DEFAULT = "auto"


def sample_mode(settings: Any) -> str:
    """The sandbox mode of a sample: the session's, else ``auto``."""
    return str(getattr(settings, "sandbox", None) or SAMPLE_DEFAULT)


def sample_sandbox(settings: Any, repo: Path, display: str | None = None) -> Sandbox | None:
    """A box for one command of a sample in ``repo`` (None: no sandbox); SandboxError when ``on`` cannot box.

    The repo's linked ``node_modules`` (see ``splice_repo``) stays readable in the box wherever it lies.
    """
    policy = resolve(SandboxPolicy(mode=sample_mode(settings),  # type: ignore[arg-type]
                                   limits=Limits.parse(getattr(settings, "sandbox_limits", None))))
    linked = repo / NODE_MODULES
    readable = [linked.resolve()] if linked.is_symlink() else []
    return None if policy is None else Sandbox(policy, workdir=repo, display=display, readable=readable)


def boxed(argv: Sequence[str], env: Mapping[str, str], box: Sandbox | None) -> tuple[list[str], dict[str, str]]:
    """``argv`` and ``env`` to run, inside ``box`` when there is one."""
    return box.wrap(argv, env) if box is not None else (list(argv), dict(env))


__all__ = ["SAMPLE_DEFAULT", "SandboxError", "boxed", "sample_mode", "sample_sandbox"]
