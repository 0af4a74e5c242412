"""Policies decide the next action: heuristic (offline default), random, llm, replay — or a plugin's.

Under pytest every policy is made through the ``pytest_playtest_make_policy`` hook: a plugin adds a name or
replaces a built-in one, and the built-ins answer last (``plugin.py``), as pytest-xdist's built-in schedulers
answer its own hook. The glue hands that hook to the pipeline as a ``PolicyFactory``; without one (a policy a
policy delegates to, a run outside pytest) the built-ins are asked directly.
"""

from __future__ import annotations

from importlib import import_module

from ..errors import PolicyError
from .base import Decision, Observation, Policy, PolicyContext, PolicyFactory

BUILTIN: dict[str, str] = {
    "heuristic": "pytest_playtest.policies.heuristic:HeuristicPolicy",
    "random": "pytest_playtest.policies.random:RandomPolicy",
    "llm": "pytest_playtest.policies.llm:LLMPolicy",
    "replay": "pytest_playtest.policies.replay:ReplayPolicy",
}

__all__ = ["BUILTIN", "Decision", "Observation", "Policy", "PolicyContext", "PolicyError", "PolicyFactory",
           "builtin_policy", "make_policy"]


def builtin_policy(name: str, context: PolicyContext) -> Policy | None:
    """The built-in policy called ``name`` (None: no built-in has that name)."""
    if name not in BUILTIN:
        return None
    module_name, class_name = BUILTIN[name].split(":")
    policy: Policy = getattr(import_module(module_name), class_name)(context)
    return policy


def make_policy(name: str, context: PolicyContext, factory: PolicyFactory | None = None) -> Policy:
    """The policy called ``name``: the factory's (else the built-in's), else a PolicyError naming the known ones."""
    policy = (factory or builtin_policy)(name, context)
    if policy is None:
        raise PolicyError(f"unknown policy {name!r}; built-in policies: {', '.join(BUILTIN)}")
    return policy
