"""What a model's tokens cost: a price per million tokens set by the user, and the arithmetic.

``--playtest-token-price`` (ini ``playtest_token_price``) reads ``input=2.5,cached=1.25,output=10`` (US
dollars per million prompt, cached prompt and completion tokens) or a single number for all three; a
missing ``cached`` costs as ``input``, a missing ``output`` as ``input``.
"""

from __future__ import annotations

from dataclasses import dataclass

PRICE_KINDS = ("input", "cached", "output")


@dataclass(frozen=True)
class TokenPrice:
    """US dollars per million tokens: prompt tokens not served from a cache, cached ones, completion ones."""

    input: float
    cached: float
    output: float

    @classmethod
    def parse(cls, text: str) -> TokenPrice:
        """``2.5`` or ``input=2.5,cached=1.25,output=10``; ValueError naming the bad entry."""
        text = str(text).strip()
        if "=" not in text:
            price = _price("price", text)
            return cls(price, price, price)
        prices: dict[str, float] = {}
        for entry in filter(None, (part.strip() for part in text.split(","))):
            key, _, value = entry.partition("=")
            key = key.strip()
            if key not in PRICE_KINDS:
                raise ValueError(f"unknown price {key!r} in {entry!r}; expected {', '.join(PRICE_KINDS)}")
            prices[key] = _price(key, value)
        if "input" not in prices:
            raise ValueError(f"no input price in {text!r}: give input=DOLLARS (per million tokens)")
        return cls(prices["input"], prices.get("cached", prices["input"]), prices.get("output", prices["input"]))

    def cost(self, prompt: int, cached: int, completion: int) -> float:
        """Dollars for ``prompt`` tokens (``cached`` of them served from the cache) and ``completion`` tokens."""
        fresh = max(prompt - cached, 0)
        return (fresh * self.input + min(cached, prompt) * self.cached + completion * self.output) / 1e6

    def describe(self) -> str:
        return f"input ${self.input:g}, cached ${self.cached:g}, output ${self.output:g} per million tokens"


def _price(name: str, raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number of dollars per million tokens, not {raw.strip()!r}") from None
    if not value >= 0:
        raise ValueError(f"{name} must be at least 0, not {raw.strip()!r}")
    return value
