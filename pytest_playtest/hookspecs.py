"""Hooks pytest-playtest offers to other plugins and conftest files."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from .policies.base import Policy, PolicyContext


@pytest.hookspec(firstresult=True)
def pytest_playtest_make_policy(name: str, context: PolicyContext, config: pytest.Config) -> Policy | None:
    """Return a Policy for ``name``, or None to leave it to other implementations.

    Called before each run; the built-in policies (heuristic, random, llm, replay) answer last, so a
    plugin can add new policy names or replace a built-in one. A scenario's Functionality is played by the
    ``scenario`` policy, which the scenarios plugin answers for.
    """


@pytest.hookspec
def pytest_playtest_metrics(metrics: dict[str, Any], config: pytest.Config) -> None:
    """Called in the controller once a benchmark run's Exec/Pass/Play@k results are computed.

    ``metrics`` is the results dict in the documented results-file schema.
    """
