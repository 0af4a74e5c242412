"""Unit conversions for the converter. Pure Python, no Tk."""

from __future__ import annotations

UNITS = {
    "Length": ["m", "km", "mi", "ft"],
    "Mass": ["g", "kg", "lb", "oz"],
    "Temperature": ["C", "F", "K"],
}
# size of one unit in the category's base unit (metre, gram)
FACTORS = {
    "m": 1.0, "km": 1000.0, "mi": 1609.344, "ft": 0.3048,
    "g": 1.0, "kg": 1000.0, "lb": 453.59237, "oz": 28.349523125,
}
# what a category shows when it is picked: value, from, to
DEFAULTS = {
    "Length": ("10", "km", "mi"),
    "Mass": ("1", "kg", "lb"),
    "Temperature": ("100", "C", "F"),
}


def to_celsius(value: float, unit: str) -> float:
    if unit == "F":
        return (value - 32) * 5 / 9
    if unit == "K":
        return value - 273.15
    return value


def from_celsius(celsius: float, unit: str) -> float:
    if unit == "F":
        return celsius * 9 / 5 + 32
    if unit == "K":
        return celsius + 273.15
    return celsius


def convert(category: str, value: float, src: str, dst: str) -> float:
    if category == "Temperature":
        return from_celsius(to_celsius(value, src), dst)
    return value * FACTORS[src] / FACTORS[dst]


def format_number(value: float) -> str:
    """At most 4 decimals, no trailing zeros: 6.2137, 212, -40, 0.0001."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text
