"""Policies decide the next action: heuristic (offline default), random, llm, replay — or a plugin's.

A plugin adds or replaces a policy by implementing the ``pytest_playtest_make_policy`` hook.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ..errors import PolicyError
from .base import Decision, Observation, Policy, PolicyContext

BUILTIN: dict[str, str] = {
    "heuristic": "pytest_playtest.policies.heuristic:HeuristicPolicy",
    "random": "pytest_playtest.policies.random:RandomPolicy",
    "llm": "pytest_playtest.policies.llm:LLMPolicy",
    "replay": "pytest_playtest.policies.replay:ReplayPolicy",
    # plays the cases of a scenario file; the scenario runner chooses it (it needs a CasePlan in options)
    "scenario": "pytest_playtest.scenarios.policy:ScenarioPolicy",
}

__all__ = ["BUILTIN", "Decision", "Observation", "Policy", "PolicyContext", "PolicyError", "make_policy"]


def make_policy(name: str, context: PolicyContext, config: Any = None) -> Policy:
    """The policy called ``name``: a plugin's first (hook), else a built-in one."""
    if config is not None:
        policy = config.hook.pytest_playtest_make_policy(name=name, context=context, config=config)
        if policy is not None:
            return policy
    if name not in BUILTIN:
        raise PolicyError(f"unknown policy {name!r}; built-in policies: {', '.join(BUILTIN)}")
    module_name, class_name = BUILTIN[name].split(":")
    return getattr(import_module(module_name), class_name)(context)
