"""The LLM tester: a vision-language model looks at each screenshot and answers with one action.

One Chat Completions request per step, through the ``openai`` client. What stays the same for a whole run
comes first, byte for byte, so that providers' prompt caches serve it: the one tool (``act``: an input, its
kind and that kind's fields, from the action schema) and the system message (the prompt for the strategy,
``goal`` for games or ``coverage`` for apps, then the task: goal, expectations, the inputs the app handles).
What changes comes last, in the user message: the step, the screenshot's size, the text on the screen (each
line once, bounded), the recent steps with a one-line summary of the older ones, and the screenshot as an
``image_url`` part, scaled to what the provider bills as ``image_tiles`` tiles (``request_size``).
Coordinates are pixels of the screenshot as sent and are rescaled to window coordinates here. A reply
without a usable tool call is first read with the text grammar (``click(x=.., y=..)``), else answered with
a correction and asked again, a bounded number of times.

Options (``PolicyContext.options``): ``model`` (required), ``base_url``, ``image_long_side``,
``image_tiles``, ``image_format``, ``tools``, ``prompts_dir``, ``history``, ``request_timeout``, ``max_attempts``,
``max_corrections``, ``retry_delay``, ``retry_delay_max``; see ``LLMOptions``. The API key comes from
``OPENAI_API_KEY`` only and is handed to the client, never kept in options, notes, errors or reprs.
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import urlsplit, urlunsplit

import numpy as np
import openai
from PIL import Image

from ..actions import (
    ACTION_KINDS,
    COORDINATE_FIELDS,
    FIELD_DEFAULTS,
    SCHEMA,
    Action,
    FieldSpec,
    from_call,
    kind_of,
    parse_text,
)
from ..errors import ActionError, PolicyError
from .base import Decision, Observation, Policy, PolicyContext
from .request_size import fit_tiles

if TYPE_CHECKING:
    from openai.types.chat import (
        ChatCompletion,
        ChatCompletionAssistantMessageParam,
        ChatCompletionMessage,
        ChatCompletionMessageParam,
        ChatCompletionMessageToolCallParam,
        ChatCompletionToolMessageParam,
        ChatCompletionToolParam,
        ChatCompletionUserMessageParam,
    )

    from ..trajectory import Step

#: Sent when OPENAI_API_KEY is unset: local servers ignore the key, but the client will not start without one.
PLACEHOLDER_API_KEY = "not-needed"
PROMPT_FILES = ("system_goal.md", "system_coverage.md", "user_step.md")
EXAMPLES_FILE = "examples.md"
#: Placeholders each template may use; the system prompt is filled once per run, the step prompt per step.
SYSTEM_PLACEHOLDERS = frozenset({"goal", "strategy", "max_steps", "inputs", "expectations"})
STEP_PLACEHOLDERS = SYSTEM_PLACEHOLDERS | {
    "step", "elapsed", "window_width", "window_height", "image_width", "image_height", "ocr_text", "history",
}
NO_ACTION = "the reply had no tool call and no action written in its text"
NOTE_LIMIT = 1000
#: Characters of screen text a step sends (each line once): the screenshot shows the rest.
OCR_LIMIT = 500
#: Inputs without a visible effect the summary of older steps names, most recent first.
SUMMARY_INPUTS = 6
#: Worth another try: request timeout, conflict, rate limit, and server-side failures (5xx).
RETRYABLE_STATUSES = frozenset({408, 409, 429})

_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
_LEADING_COMMENT = re.compile(r"\A\s*<!--.*?-->[ \t]*\n?", re.S)


# -- the tool the model calls: one input, its kind and that kind's fields, from the action schema -----------
ACT_TOOL = "act"


def _json_schema(spec: FieldSpec) -> dict[str, Any]:
    """One field as JSON Schema, with the bounds of ``Action.validate`` a sensible call can reach: of numbers
    and of the keys of a combination. A coordinate's bound is the screenshot, told with it; a string's length
    bound only stops a runaway reply, and a call past it is answered with a correction. Defaults are told
    once, in the tool's description."""
    schema: dict[str, Any] = {"description": spec.description} if spec.description else {}
    if spec.type == "keys":
        schema |= {"type": "array", "items": {"type": "string"}, "minItems": spec.low, "maxItems": spec.high}
    elif spec.choices:
        schema |= {"type": "string", "enum": list(spec.choices)}
    elif spec.type == "string" or spec.name in COORDINATE_FIELDS:
        schema |= {"type": spec.type}
    else:
        schema |= {"type": spec.type, "minimum": spec.low, "maximum": spec.high}
    return schema


def _fields() -> dict[str, dict[str, Any]]:
    """Every field of every kind once, by its Action name (so a drag starts at x, y like every point), with
    the first description given for it."""
    fields: dict[str, dict[str, Any]] = {}
    for kind_spec in SCHEMA.values():
        for spec in kind_spec.fields:
            if spec.name not in fields or (spec.description and "description" not in fields[spec.name]):
                fields[spec.name] = _json_schema(spec)
    return fields


def _grammar() -> str:
    """The kinds, each with its fields and what it does: ``press(key, times=1): press a key``."""
    def argument(spec: FieldSpec) -> str:
        return spec.name if spec.required else f"{spec.name}={FIELD_DEFAULTS[spec.name]}"

    return "\n".join(f"{kind}({', '.join(map(argument, spec.fields))}): {spec.description}"
                     for kind, spec in SCHEMA.items())


TOOLS: list[ChatCompletionToolParam] = [{
    "type": "function",
    "function": {
        "name": ACT_TOOL,
        "description": f"One input: kind, and its fields:\n{_grammar()}",
        "parameters": {"type": "object",
                       "properties": {"kind": {"type": "string", "enum": list(ACTION_KINDS)}, **_fields()},
                       "required": ["kind"]},
    },
}]
#: One tool per kind (``tools="kinds"``), for models and servers that expect ``click{x, y}``: the same fields
#: and descriptions, about 2.5 times the characters of ``act``.
KIND_TOOLS: list[ChatCompletionToolParam] = [{
    "type": "function",
    "function": {
        "name": kind,
        "description": kind_spec.description,
        "parameters": {"type": "object",
                       "properties": {spec.argument: _json_schema(spec) for spec in kind_spec.fields},
                       "required": [spec.argument for spec in kind_spec.fields if spec.required]},
    },
} for kind, kind_spec in SCHEMA.items()]
TOOL_SETS = {"act": TOOLS, "kinds": KIND_TOOLS}


# -- options ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class LLMOptions:
    """The LLM tester's settings, read from ``PolicyContext.options`` and checked once."""

    model: str
    #: may hold credentials (http://user:pass@host): shown through ``LLMPolicy.endpoint`` instead
    base_url: str | None = field(default=None, repr=False)
    image_long_side: int = 1024
    #: the screenshot is scaled to be billed as at most this many 512-px tiles (request_size): 2 sends a
    #: 1024x768 window as 682x512, 425 tokens instead of 765
    image_tiles: int = 2
    image_format: str = "png"
    #: the tools offered (TOOL_SETS): "act", one tool for every input, or "kinds", one tool per kind
    tools: str = "act"
    prompts_dir: Path | None = None
    #: recent steps listed one a line; the older ones are summed up in one
    history: int = 5
    request_timeout: float = 60.0
    max_attempts: int = 4
    max_corrections: int = 2
    #: First pause before an HTTP retry; it doubles on each retry, up to ``retry_delay_max``.
    retry_delay: float = 1.0
    retry_delay_max: float = 20.0

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> LLMOptions:
        """Read and check the options; a missing model or a bad value raises PolicyError naming the key."""
        model = options.get("model")
        if not isinstance(model, str) or not model.strip():
            raise PolicyError(
                "the llm policy needs a model name: pass --playtest-model NAME (ini playtest_model), "
                "or options={'model': NAME} to the playtest marker or playtest.run()"
            )
        image_format = str(options.get("image_format", cls.image_format)).lower()
        if image_format == "jpg":
            image_format = "jpeg"
        if image_format not in ("png", "jpeg"):
            raise PolicyError(f"llm option image_format must be 'png' or 'jpeg', not {image_format!r}")
        tools = str(options.get("tools", cls.tools))
        if tools not in TOOL_SETS:
            raise PolicyError(f"llm option tools must be {' or '.join(map(repr, TOOL_SETS))}, not {tools!r}")
        prompts_dir = options.get("prompts_dir")
        if prompts_dir is not None:
            prompts_dir = Path(prompts_dir)
            if not prompts_dir.is_dir():
                raise PolicyError(f"llm option prompts_dir: {prompts_dir} is not a folder")
        base_url = options.get("base_url") or os.environ.get("OPENAI_BASE_URL") or None
        return cls(
            model=model.strip(),
            base_url=base_url,
            image_long_side=_number(options, "image_long_side", cls.image_long_side, int, minimum=32),
            image_tiles=_number(options, "image_tiles", cls.image_tiles, int, minimum=1),
            image_format=image_format,
            tools=tools,
            prompts_dir=prompts_dir,
            history=_number(options, "history", cls.history, int, minimum=0),
            request_timeout=_number(options, "request_timeout", cls.request_timeout, float, minimum=0.01),
            max_attempts=_number(options, "max_attempts", cls.max_attempts, int, minimum=1),
            max_corrections=_number(options, "max_corrections", cls.max_corrections, int, minimum=0),
            retry_delay=_number(options, "retry_delay", cls.retry_delay, float, minimum=0),
            retry_delay_max=_number(options, "retry_delay_max", cls.retry_delay_max, float, minimum=0),
        )


def _number(options: Mapping[str, Any], key: str, default: Any, kind: type, *, minimum: float) -> Any:
    raw = options.get(key)
    if raw is None:
        return default
    try:
        value = kind(raw)
    except (TypeError, ValueError):
        raise PolicyError(f"llm option {key} must be a number, not {raw!r}") from None
    if value < minimum:
        raise PolicyError(f"llm option {key} must be at least {minimum:g}, not {raw!r}")
    return value


# -- prompts ------------------------------------------------------------------------------------------------
def read_prompt(name: str, prompts_dir: Path | None = None) -> str:
    """A prompt file: the user's copy in ``prompts_dir`` if there is one, else the packaged one.

    The leading ``<!-- ... -->`` comment (where each file documents its placeholders) is stripped.
    """
    user_file = prompts_dir / name if prompts_dir is not None else None
    if user_file is not None and user_file.is_file():
        text = user_file.read_text(encoding="utf-8")
    else:
        text = resources.files("pytest_playtest").joinpath("prompts", name).read_text(encoding="utf-8")
    return _LEADING_COMMENT.sub("", text, count=1).strip()


def fill(template: str, values: Mapping[str, Any], source: str) -> str:
    """Replace each ``{name}`` with its value, in one pass (values are never expanded themselves)."""
    unknown = sorted({name for name in _PLACEHOLDER.findall(template) if name not in values})
    if unknown:
        raise PolicyError(
            f"prompt {source}: unknown placeholder(s) {', '.join('{' + n + '}' for n in unknown)}; "
            f"this file may use {', '.join('{' + n + '}' for n in sorted(values))}"
        )
    return _PLACEHOLDER.sub(lambda match: str(values[match.group(1)]), template)


# -- the screenshot -----------------------------------------------------------------------------------------
def encode_frame(frame: np.ndarray, long_side: int, image_format: str,
                 tiles: int | None = None) -> tuple[str, tuple[int, int]]:
    """The frame as a ``data:`` URL, downscaled so its long side is at most ``long_side`` and, given
    ``tiles``, so that the provider bills it as at most that many tiles; and its size.

    Frames are RGB (or RGBA, or grey) uint8 arrays as the screen module hands them out.
    """
    pixels = np.ascontiguousarray(frame[..., :3] if frame.ndim == 3 else frame, dtype=np.uint8)
    image = Image.fromarray(pixels)
    width, height = image.size
    scale = long_side / max(width, height)
    size = (max(1, round(width * scale)), max(1, round(height * scale))) if scale < 1 else (width, height)
    if tiles is not None:
        size = fit_tiles(*size, tiles)
    if size != image.size:
        image = image.resize(size, Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    if image_format == "jpeg":
        image.convert("RGB").save(buffer, format="JPEG", quality=85)
    else:
        image.save(buffer, format="PNG")
    encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f"data:image/{image_format};base64,{encoded}", image.size


# -- the endpoint --------------------------------------------------------------------------------------------
class ChatEndpoint:
    """The Chat Completions client the LLM tester and the repair loop share: one place for the key, the
    endpoint, the bounded retries and the error messages (which never show the key)."""

    def __init__(self, options: LLMOptions) -> None:
        self.options = options
        # the client would read OPENAI_API_KEY itself, but it refuses to start without a key
        self._client = openai.OpenAI(
            api_key=os.environ.get("OPENAI_API_KEY") or PLACEHOLDER_API_KEY,
            base_url=options.base_url,
            timeout=options.request_timeout,
            max_retries=0,  # retried here, with our own bounded backoff and error messages
        )
        self.endpoint = _without_userinfo(str(self._client.base_url))

    def close(self) -> None:
        self._client.close()

    def complete(self, messages: list[ChatCompletionMessageParam],
                 tools: list[ChatCompletionToolParam] | None = None) -> ChatCompletion:
        """One completion, retried with exponential backoff on timeouts, connection errors, 429 and 5xx."""
        delay = self.options.retry_delay
        failure = ""
        offered: dict[str, Any] = {"tools": tools} if tools else {}
        for attempt in range(1, self.options.max_attempts + 1):
            pause = delay
            try:
                return self._client.chat.completions.create(
                    model=self.options.model, messages=messages, **offered)
            except openai.APIStatusError as exc:
                failure = self._describe_status(exc)
                if exc.status_code not in RETRYABLE_STATUSES and exc.status_code < 500:
                    raise PolicyError(failure) from None
                pause = max(pause, _retry_after(exc))
            except openai.APITimeoutError:
                failure = (f"the model endpoint {self.endpoint} did not answer within "
                           f"{self.options.request_timeout:g} s")
            except openai.APIConnectionError as exc:
                failure = f"cannot reach the model endpoint {self.endpoint}: {_connection_cause(exc)}"
            except openai.OpenAIError as exc:
                raise PolicyError(self.redact(f"the model endpoint {self.endpoint} failed: {exc}")) from None
            if attempt < self.options.max_attempts:
                time.sleep(min(pause, self.options.retry_delay_max))
                delay *= 2
        raise PolicyError(f"{failure} (gave up after {self.options.max_attempts} attempts)")

    def _describe_status(self, exc: openai.APIStatusError) -> str:
        body = exc.body
        detail = body.get("message") if isinstance(body, dict) else body
        text = f"the model endpoint {self.endpoint} answered HTTP {exc.status_code}"
        if detail:
            text += f": {str(detail)[:300]}"
        return self.redact(text)

    def redact(self, text: str) -> str:
        """Endpoints sometimes echo the key they refused; it must not reach reports or logs."""
        key = self._client.api_key
        if key and key != PLACEHOLDER_API_KEY:
            text = text.replace(key, "***")
        return text


# -- the policy ---------------------------------------------------------------------------------------------
class _Unusable(Exception):
    """One reply (or one tool call in it) that cannot become an action; the message says why."""


class LLMPolicy(Policy):
    """Asks a vision-language model for every action, through the Chat Completions API."""

    name = "llm"
    judges_goal = True

    def __init__(self, context: PolicyContext) -> None:
        super().__init__(context)
        self.options = LLMOptions.from_options(context.options)
        self.tokens = 0
        self.prompt_tokens = 0
        self.cached_tokens = 0
        system_file = f"system_{context.strategy}.md"
        if system_file not in PROMPT_FILES:
            raise PolicyError(f"the llm policy has no prompt for strategy {context.strategy!r}; "
                              "expected 'goal' or 'coverage'")
        self._run_values = {"goal": self._goal(), "strategy": context.strategy, "max_steps": context.max_steps,
                            "inputs": self._inputs(), "expectations": self._expectations()}
        self._system_prompt = fill(read_prompt(system_file, self.options.prompts_dir), self._run_values,
                                   system_file)
        examples_file = self.options.prompts_dir / EXAMPLES_FILE if self.options.prompts_dir else None
        if examples_file is not None and examples_file.is_file():
            examples = read_prompt(EXAMPLES_FILE, self.options.prompts_dir)
            self._system_prompt += "\n\n" + examples
        self._step_template = read_prompt("user_step.md", self.options.prompts_dir)
        fill(self._step_template, dict.fromkeys(STEP_PLACEHOLDERS, ""), "user_step.md")  # fail early on typos
        self._chat = ChatEndpoint(self.options)
        self.endpoint = self._chat.endpoint

    def __repr__(self) -> str:
        return (f"LLMPolicy(model={self.options.model!r}, endpoint={self.endpoint!r}, "
                f"strategy={self.context.strategy!r})")

    # -- one step -------------------------------------------------------------------------------------
    def decide(self, observation: Observation) -> Decision:
        image_url, (image_width, image_height) = encode_frame(
            observation.frame, self.options.image_long_side, self.options.image_format, self.options.image_tiles)
        window_width, window_height = observation.size
        messages: list[ChatCompletionMessageParam] = [
            {"role": "system", "content": self._system_prompt},
            {"role": "user", "content": [
                {"type": "text", "text": self._step_text(observation, (image_width, image_height))},
                {"type": "image_url", "image_url": {"url": image_url}},
            ]},
        ]
        spent = Usage()
        problems: list[str] = []
        attempts = 1 + self.options.max_corrections
        for _ in range(attempts):
            response = self._chat.complete(messages, tools=TOOL_SETS[self.options.tools])
            usage = Usage.of(response)
            spent += usage
            self.tokens += usage.tokens
            self.prompt_tokens += usage.prompt
            self.cached_tokens += usage.cached
            if not response.choices:
                raise PolicyError(f"the model endpoint {self.endpoint} returned a reply without choices")
            message = response.choices[0].message
            action, call_problems, from_text = _read_action(message, (image_width, image_height))
            if action is not None:
                action = action.scaled(window_width / image_width, window_height / image_height)
                return Decision(action=action, tokens=spent.tokens, prompt_tokens=spent.prompt,
                                cached_tokens=spent.cached, note=self._note(message, problems, from_text))
            problem = call_problems[-1][1] if call_problems else NO_ACTION
            problems.append(problem)
            messages.extend(self._correction(message, call_problems, problem))
        raise PolicyError(f"the model gave no usable action after {attempts} attempts: {problems[-1]}")

    def close(self) -> None:
        self._chat.close()

    # -- building the request ---------------------------------------------------------------------------
    def _goal(self) -> str:
        if self.context.goal.strip():
            return self.context.goal.strip()
        return "none given: explore the app and check that it behaves correctly"

    def _inputs(self) -> str:
        """The inputs the app's source handles, as the prompt lists them (read with ast before the run)."""
        vocabulary = self.context.vocabulary
        if vocabulary is None or vocabulary.is_empty:
            return "The inputs the app handles are not known: find its controls on the screen."
        return (f"The app's own code was read before the run. {vocabulary.describe()} Prefer these inputs: "
                "keys it does not list do nothing in this app.")

    def _expectations(self) -> str:
        return "\n".join(f"- {item.describe()}" for item in self.context.expectations) or "(none)"

    def _step_text(self, observation: Observation, image_size: tuple[int, int]) -> str:
        ocr_text = screen_text(observation.text())
        values = {
            **self._run_values,
            "step": observation.step,
            "elapsed": f"{observation.elapsed:.0f}",
            "window_width": observation.size[0],
            "window_height": observation.size[1],
            "image_width": image_size[0],
            "image_height": image_size[1],
            "ocr_text": ocr_text or "(no text found)",
            "history": self._history(observation.history),
        }
        return fill(self._step_template, values, "user_step.md")

    def _history(self, steps: list[Step]) -> str:
        """The last ``history`` steps one a line, after one line that sums up the steps before them."""
        listed = len(steps) - self.options.history
        older, recent = steps[:max(listed, 0)], steps[max(listed, 0):]
        lines = [summary(older)] if older else []
        for step in recent:
            line = f"{step.index}. {step.action.label()} → {step.effect}"
            if step.findings:
                line += f" (harness noticed: {'; '.join(step.findings)})"
            lines.append(line)
        return "\n".join(lines) or "(none yet)"

    # -- reading the reply -----------------------------------------------------------------------------
    def _correction(self, message: ChatCompletionMessage, call_problems: list[tuple[str, str]],
                    problem: str) -> list[ChatCompletionMessageParam]:
        """The model's reply, an answer to each of its tool calls, and a request to try again."""
        echo: ChatCompletionAssistantMessageParam = {"role": "assistant", "content": message.content or ""}
        answers: list[ChatCompletionToolMessageParam] = []
        if message.tool_calls:
            by_id = dict(call_problems)
            # a reply's tool call, dumped, has the shape of the request's tool-call parameter
            echo["tool_calls"] = [cast("ChatCompletionMessageToolCallParam", call.model_dump(exclude_none=True))
                                  for call in message.tool_calls]
            answers = [{"role": "tool", "tool_call_id": call.id,
                        "content": f"Not performed: {by_id.get(call.id, problem)}"}
                       for call in message.tool_calls]
        retry: ChatCompletionUserMessageParam = {"role": "user", "content": (
            f"Your reply gave no usable action: {problem}. Look at the screenshot again and answer with "
            "exactly one tool call. Coordinates are pixels of the screenshot.")}
        return [echo, *answers, retry]

    def _note(self, message: ChatCompletionMessage, problems: list[str], from_text: bool) -> str:
        note = (message.content or "").strip()
        if len(note) > NOTE_LIMIT:
            note = note[:NOTE_LIMIT] + " …"
        extras = []
        if from_text:
            extras.append("action read from the reply text")
        if problems:
            extras.append(f"after {len(problems)} correction(s): {'; '.join(problems)}")
        if extras:
            note = f"{note} [{'; '.join(extras)}]".strip()
        return self._chat.redact(note)


def _read_action(message: ChatCompletionMessage, image_size: tuple[int, int]
                 ) -> tuple[Action | None, list[tuple[str, str]], bool]:
    """The first usable action of a reply (tool calls first, then its text); else the problems.

    Returns (action, [(tool call id, problem), ...], whether the action came from the text).
    """
    call_problems: list[tuple[str, str]] = []
    for call in message.tool_calls or []:
        try:
            return _action_from_call(call, image_size), [], False
        except _Unusable as exc:
            call_problems.append((call.id, str(exc)))
    try:
        text_action = _action_from_text(message.content or "", image_size)
        if text_action is not None:
            return text_action, [], True
    except _Unusable as exc:
        call_problems.append(("", str(exc)))
    return None, call_problems, False


def _action_from_text(text: str, image_size: tuple[int, int]) -> Action | None:
    try:
        action = parse_text(text)
    except ActionError as exc:
        raise _Unusable(f"invalid action in the reply text: {exc}") from None
    if action is not None:
        _check_inside(action, image_size)
    return action


def _action_from_call(call: Any, image_size: tuple[int, int]) -> Action:
    """The action of one tool call: ``act{kind, ...}``, or a call named after the kind itself (models often
    name the input they mean: ``click{x, y}``)."""
    function = getattr(call, "function", None)
    name = str(getattr(function, "name", None) or getattr(getattr(call, "custom", None), "name", "?"))
    if function is None or (name != ACT_TOOL and kind_of(name) is None):
        raise _Unusable(f"there is no tool named {name!r}; the tools are {ACT_TOOL} and the kinds "
                        f"{', '.join(ACTION_KINDS)}")
    try:
        arguments = json.loads(function.arguments or "{}")
    except json.JSONDecodeError as exc:
        raise _Unusable(f"the arguments of {name} are not valid JSON ({exc.msg}): "
                        f"{function.arguments[:200]!r}") from None
    if not isinstance(arguments, dict):
        raise _Unusable(f"the arguments of {name} must be a JSON object, got {function.arguments[:200]!r}")
    if name == ACT_TOOL:
        kind = arguments.pop("kind", None)
        if not isinstance(kind, str):
            raise _Unusable(f"{ACT_TOOL} needs a kind, one of {', '.join(ACTION_KINDS)}")
        name = kind
    try:
        action = from_call(name, arguments)
    except ActionError as exc:
        raise _Unusable(f"invalid {name} call: {exc}") from None
    _check_inside(action, image_size)
    return action


def _check_inside(action: Action, image_size: tuple[int, int]) -> None:
    width, height = image_size
    points = [action.target] if action.target else []
    if action.x2 is not None and action.y2 is not None:  # a drag's end
        points.append((action.x2, action.y2))
    for x, y in points:
        if not (0 <= x < width and 0 <= y < height):
            raise _Unusable(f"{action.kind} at ({x}, {y}) is outside the screenshot, which is "
                            f"{width}x{height} pixels")


@dataclass(frozen=True)
class Usage:
    """The tokens of one or more replies as the endpoint reported them: prompt (``cached`` of them served from
    its prompt cache) and completion."""

    prompt: int = 0
    completion: int = 0
    cached: int = 0

    @property
    def tokens(self) -> int:
        return self.prompt + self.completion

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.prompt + other.prompt, self.completion + other.completion, self.cached + other.cached)

    @classmethod
    def of(cls, response: ChatCompletion) -> Usage:
        usage = response.usage
        if usage is None:  # some local servers leave usage out
            return cls()
        details = usage.prompt_tokens_details
        return cls(usage.prompt_tokens or 0, usage.completion_tokens or 0,
                   (details.cached_tokens or 0) if details is not None else 0)


def usage_tokens(response: ChatCompletion) -> int:
    return Usage.of(response).tokens


def screen_text(text: str) -> str:
    """The text on the screen for a step: each line once, its spaces collapsed, at most OCR_LIMIT characters
    (the screenshot carries the rest)."""
    lines = dict.fromkeys(" ".join(line.split()) for line in text.splitlines())
    lines.pop("", None)
    shown = "\n".join(lines)
    if len(shown) > OCR_LIMIT:
        cut = shown.rfind("\n", 0, OCR_LIMIT)
        cut = cut if cut > 0 else OCR_LIMIT
        shown = f"{shown[:cut]}\n…({len(shown) - cut} more characters: see the screenshot)"
    return shown


def summary(steps: list[Step]) -> str:
    """One line for older steps: how many changed the window, which inputs changed nothing (most recent first,
    repeats counted), and what the harness noticed."""
    changed = sum(1 for step in steps if step.changed)
    idle: dict[str, int] = {}
    for step in reversed(steps):
        if not step.changed:
            label = step.action.label()
            idle[label] = idle.get(label, 0) + 1
    line = f"steps {steps[0].index}-{steps[-1].index}: {changed} of {len(steps)} changed the window"
    if idle:
        named = [f"{label} ×{count}" if count > 1 else label for label, count in list(idle.items())[:SUMMARY_INPUTS]]
        more = len(idle) - SUMMARY_INPUTS
        line += f"; no visible change from {', '.join(named)}" + (f" and {more} more" if more > 0 else "")
    noticed = dict.fromkeys(finding for step in steps for finding in step.findings)
    if noticed:
        line += f"; harness noticed: {', '.join(noticed)}"
    return line


def _retry_after(exc: openai.APIStatusError) -> float:
    try:
        return float(exc.response.headers.get("retry-after", 0))
    except ValueError:  # an HTTP date instead of seconds: fall back to our own backoff
        return 0.0


def _connection_cause(exc: BaseException) -> str:
    """The innermost reason of a connection error: 'connection refused', 'name or service not known'..."""
    reason = str(exc)
    cause = exc.__cause__ or exc.__context__
    while cause is not None:
        if isinstance(cause, OSError) and cause.strerror:
            return cause.strerror.lower()
        if str(cause):
            reason = str(cause)
        cause = cause.__cause__ or cause.__context__
    return reason


def _without_userinfo(url: str) -> str:
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))
