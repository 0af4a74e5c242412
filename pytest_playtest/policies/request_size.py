"""What one Chat Completions request costs in prompt tokens, estimated without a tokenizer.

Text (messages, tool calls, and the tool schemas as compact JSON) is counted at ``CHARS_PER_TOKEN``
characters a token, plus ``MESSAGE_TOKENS`` for each message's role markers: a tokenizer would need its
vocabulary downloaded at run time. Images follow OpenAI's published formula for high-detail images
(GPT-4o, GPT-4.1): the image is scaled to fit ``FIT_SIDE`` x ``FIT_SIDE``, then so that its shortest side
is at most ``SHORT_SIDE``, and costs ``IMAGE_BASE_TOKENS`` plus ``TILE_TOKENS`` for each ``TILE``-pixel
square tile it covers. A 1024x768 screenshot is 2x2 tiles (765 tokens); 682x512 is 2x1 tiles (425).
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

CHARS_PER_TOKEN = 4
#: Role markers and separators around each message (OpenAI's cookbook counts 3).
MESSAGE_TOKENS = 3
TILE = 512
TILE_TOKENS = 170
IMAGE_BASE_TOKENS = 85
FIT_SIDE = 2048
SHORT_SIDE = 768


def text_tokens(characters: int) -> int:
    return math.ceil(characters / CHARS_PER_TOKEN)


def billed_size(width: int, height: int) -> tuple[int, int]:
    """The size the provider bills an image at: fitted into FIT_SIDE squared, shortest side at most SHORT_SIDE."""
    scale = min(1.0, FIT_SIDE / max(width, height), SHORT_SIDE / min(width, height))
    return max(1, round(width * scale)), max(1, round(height * scale))


def tiles(width: int, height: int) -> int:
    """How many TILE-pixel tiles the provider bills an image of this size for."""
    billed_width, billed_height = billed_size(width, height)
    return math.ceil(billed_width / TILE) * math.ceil(billed_height / TILE)


def image_tokens(width: int, height: int) -> int:
    return IMAGE_BASE_TOKENS + TILE_TOKENS * tiles(width, height)


def fit_tiles(width: int, height: int, max_tiles: int) -> tuple[int, int]:
    """The largest size of the same shape, no larger than ``width`` x ``height``, billed as at most
    ``max_tiles`` tiles: the best grid of at most that many tiles the image can be scaled into."""
    best = 0.0
    for columns in range(1, max_tiles + 1):
        rows = max_tiles // columns
        best = max(best, min(columns * TILE / width, rows * TILE / height))
    scale = min(1.0, best)
    return max(1, math.floor(width * scale)), max(1, math.floor(height * scale))


@dataclass(frozen=True)
class RequestSize:
    """One request's prompt, in estimated tokens by part."""

    text: int
    tools: int
    image: int
    tiles: int
    #: the tokens of the part that stays the same across a run's steps: the tools and the system messages
    prefix: int

    @property
    def total(self) -> int:
        return self.text + self.tools + self.image

    def to_dict(self) -> dict[str, int]:
        return {"text": self.text, "tools": self.tools, "image": self.image, "tiles": self.tiles,
                "prefix": self.prefix, "total": self.total}


def measure(body: Mapping[str, Any]) -> RequestSize:
    """The estimated prompt tokens of a Chat Completions request body (as JSON data)."""
    tools = text_tokens(len(_compact(body.get("tools") or [])))
    messages: Sequence[Mapping[str, Any]] = body.get("messages") or []
    text = image = tile_count = prefix = 0
    leading = True
    for message in messages:
        characters, sizes = _message_parts(message)
        message_text = MESSAGE_TOKENS + text_tokens(characters)
        text += message_text
        image += sum(image_tokens(*size) for size in sizes)
        tile_count += sum(tiles(*size) for size in sizes)
        leading = leading and message.get("role") == "system"
        if leading:
            prefix += message_text
    return RequestSize(text=text, tools=tools, image=image, tiles=tile_count, prefix=tools + prefix)


def shared_prefix(body: Mapping[str, Any], earlier: Mapping[str, Any]) -> int:
    """The estimated tokens at the head of ``body`` identical to the head of ``earlier``: the tools (when the
    same) and the leading messages both requests have byte for byte. What a server that caches prompt
    prefixes at message boundaries can reuse."""
    if _compact(body.get("tools") or []) != _compact(earlier.get("tools") or []):
        return 0
    shared = text_tokens(len(_compact(body.get("tools") or [])))
    for message, before in zip(body.get("messages") or [], earlier.get("messages") or [], strict=False):
        if _compact(message) != _compact(before):
            break
        characters, sizes = _message_parts(message)
        shared += MESSAGE_TOKENS + text_tokens(characters) + sum(image_tokens(*size) for size in sizes)
    return shared


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _message_parts(message: Mapping[str, Any]) -> tuple[int, list[tuple[int, int]]]:
    """A message's text characters (content, tool calls) and the sizes of its images."""
    content = message.get("content")
    characters = 0
    sizes: list[tuple[int, int]] = []
    if isinstance(content, str):
        characters += len(content)
    elif isinstance(content, list):
        for part in content:
            if part.get("type") == "text":
                characters += len(part.get("text", ""))
            elif part.get("type") == "image_url":
                sizes.append(data_url_size(part["image_url"]["url"]))
    if message.get("tool_calls"):
        characters += len(_compact(message["tool_calls"]))
    return characters, sizes


def data_url_size(url: str) -> tuple[int, int]:
    """The pixel size of an image sent as a ``data:`` URL; ValueError when it holds no readable image."""
    try:
        encoded = url.split(",", 1)[1]
        with Image.open(io.BytesIO(base64.b64decode(encoded))) as image:
            return image.size
    except (IndexError, binascii.Error, OSError) as exc:
        raise ValueError(f"not an image data URL: {url[:40]!r}…") from exc
