"""Fixtures for the LLM tester's tests: a loopback OpenAI server, policies pointed at it, observations."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from pytest_playtest.expect import Expectation
from pytest_playtest.policies.base import Observation, PolicyContext
from pytest_playtest.policies.llm import LLMPolicy
from pytest_playtest.source import Vocabulary
from pytest_playtest.trajectory import Step
from tests.support.frames import FixedText, split_frame
from tests.support.openai_server import OpenAIServer

#: Everything the openai client or its HTTP layer reads from the environment: a developer's real settings
#: must neither leak into these tests nor send their requests anywhere but the loopback server.
CLIENT_ENVIRONMENT = (
    "OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID", "OPENAI_ADMIN_KEY",
    "OPENAI_CUSTOM_HEADERS", "OPENAI_WEBHOOK_SECRET",
    "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy",
)


@pytest.fixture(autouse=True)
def _clean_client_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in CLIENT_ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def openai_server() -> Iterator[OpenAIServer]:
    server = OpenAIServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def closed_port_url() -> str:
    """A base URL on 127.0.0.1 where nothing listens (the port was free a moment ago)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


@pytest.fixture
def make_observation() -> Callable[..., Observation]:
    def make(width: int = 640, height: int = 480, *, text: str = "Score: 0", history: list[Step] | None = None,
             step: int = 0, frame: np.ndarray | None = None) -> Observation:
        pixels = split_frame(width, height) if frame is None else frame
        return Observation(step=step, frame=pixels, frame_hash=f"frame-{step}", elapsed=1.5,
                           history=list(history or []), vision=FixedText(text))

    return make


@pytest.fixture
def make_policy(openai_server: OpenAIServer) -> Iterator[Callable[..., LLMPolicy]]:
    """Builds LLM policies talking to the loopback server (tiny retry delays); closes them afterwards."""
    made: list[LLMPolicy] = []

    def make(strategy: str = "goal", goal: str = "Eat one pellet; the score must go up.",
             expectations: list[Expectation] | None = None, vocabulary: Vocabulary | None = None,
             **options: Any) -> LLMPolicy:
        settings: dict[str, Any] = {"model": "tester-model", "base_url": openai_server.url,
                                    "retry_delay": 0.01, "retry_delay_max": 0.05}
        settings.update(options)
        context = PolicyContext(strategy=strategy, goal=goal, expectations=list(expectations or []), seed=1,
                                max_steps=30, timeout=60.0, window=(640, 480), options=settings,
                                vocabulary=vocabulary)
        policy = LLMPolicy(context)
        made.append(policy)
        return policy

    yield make
    for policy in made:
        policy.close()
