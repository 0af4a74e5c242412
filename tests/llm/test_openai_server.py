"""The loopback server the LLM tests rely on: wire format, script order, recording, loopback binding."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import openai
import pytest

from tests.support.openai_server import Failure, OpenAIServer, Reply


def chat(server: OpenAIServer, **extra) -> openai.types.chat.ChatCompletion:
    with openai.OpenAI(api_key="k", base_url=server.url, max_retries=0, timeout=5) as client:
        return client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}], **extra)


def test_binds_loopback_only(openai_server):
    host, port = openai_server.address
    assert host == "127.0.0.1"
    assert port > 0
    assert openai_server.url == f"http://127.0.0.1:{port}/v1"


def test_script_is_consumed_in_order_then_the_default_repeats(openai_server):
    openai_server.add(("click", {"x": 1, "y": 2}), "just text", Reply(content="both", prompt_tokens=7,
                                                                      completion_tokens=3,
                                                                      tool_calls=[("wait", {"seconds": 1})]))
    first, second, third, fourth, fifth = (chat(openai_server) for _ in range(5))

    (call,) = first.choices[0].message.tool_calls
    assert (call.type, call.function.name, json.loads(call.function.arguments)) == ("function", "click",
                                                                                    {"x": 1, "y": 2})
    assert first.choices[0].finish_reason == "tool_calls"
    assert second.choices[0].message.content == "just text"
    assert second.choices[0].message.tool_calls is None
    assert second.choices[0].finish_reason == "stop"
    assert third.choices[0].message.content == "both"
    assert (third.usage.prompt_tokens, third.usage.completion_tokens, third.usage.total_tokens) == (7, 3, 10)
    for default in (fourth, fifth):
        assert default.choices[0].message.tool_calls[0].function.name == "finish"
        assert default.usage.total_tokens == 120


def test_failures_use_the_openai_error_format(openai_server):
    openai_server.add(Failure(429, "Rate limit reached", retry_after=2))

    with pytest.raises(openai.RateLimitError) as failure:
        chat(openai_server)

    assert failure.value.status_code == 429
    assert failure.value.body["message"] == "Rate limit reached"
    assert failure.value.body["type"] == "rate_limit_exceeded"
    assert failure.value.response.headers["retry-after"] == "2"


def test_records_bodies_and_headers(openai_server):
    chat(openai_server, tools=[{"type": "function", "function": {"name": "wait"}}])

    (received,) = openai_server.requests
    assert received.path == "/v1/chat/completions"
    assert received.headers["authorization"] == "Bearer k"
    assert received.body["model"] == "m"
    assert received.body["tools"][0]["function"]["name"] == "wait"


def test_callable_entries_see_the_request(openai_server):
    openai_server.add(lambda request: f"you asked {request['model']}")
    assert chat(openai_server).choices[0].message.content == "you asked m"


def test_unknown_paths_are_404(openai_server):
    request = urllib.request.Request(openai_server.url + "/embeddings", data=b"{}", method="POST")
    with pytest.raises(urllib.error.HTTPError) as failure:
        urllib.request.urlopen(request, timeout=5)
    assert failure.value.code == 404
    assert json.loads(failure.value.read())["error"]["message"] == "no route /v1/embeddings"


def test_stops_cleanly():
    server = OpenAIServer().start()
    url = server.url
    server.stop()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(urllib.request.Request(url + "/chat/completions", data=b"{}"), timeout=2)
