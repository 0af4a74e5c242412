"""The model a repair asks: the LLM tester's options and client (``ChatEndpoint``), without tools."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import EndpointError, PolicyError
from ..policies.llm import ChatEndpoint, LLMOptions, usage_tokens

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletionMessageParam


@dataclass(frozen=True)
class Answer:
    text: str
    tokens: int


class RepairModel:
    """Asks for one completion per call; the options are the LLM tester's (``LLMOptions``)."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.options = LLMOptions.from_options(options)
        self._chat = ChatEndpoint(self.options)
        self.endpoint = self._chat.endpoint

    def ask(self, messages: list[ChatCompletionMessageParam]) -> Answer:
        try:
            response = self._chat.complete(messages)
        except PolicyError as exc:
            raise EndpointError(str(exc)) from None
        text = (response.choices[0].message.content or "") if response.choices else ""
        return Answer(self._chat.redact(text), usage_tokens(response))

    def close(self) -> None:
        self._chat.close()
