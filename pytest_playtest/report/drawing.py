"""Drawing helpers shared by the storyboard and the animation: fonts, colours, key symbols, badges."""

from __future__ import annotations

from functools import cache

from PIL import ImageDraw, ImageFont

from ..actions import Action

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
Point = tuple[float, float]

BACKGROUND = (24, 26, 31)
TILE_BACKGROUND = (40, 43, 50)
TILE_BORDER = (90, 96, 108)
FINDING_RED = (230, 40, 46)
TEXT = (232, 234, 238)
MUTED = (150, 156, 168)
MARKER = (255, 212, 0)
MARKER_OUTLINE = (0, 0, 0)
CHANGE_OUTLINE = (0, 200, 255)
STATUS_COLOURS = {"pass": (46, 160, 67), "fail": FINDING_RED, "error": (230, 140, 20)}


@cache
def get_font(size: int, bold: bool = False) -> Font:
    # DejaVu has the arrows and key symbols; Pillow looks it up in the system font folders by name.
    try:
        return ImageFont.truetype("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", size)
    except OSError:
        return ImageFont.load_default(size)


@cache
def _has_glyph(font: Font, char: str) -> bool:
    # a missing glyph renders as the font's "not defined" box, the same as a noncharacter does
    missing, mask = font.getmask("\uffff"), font.getmask(char)
    return mask.size != missing.size or bytes(mask) != bytes(missing)


def _symbol(font: Font, *candidates: str) -> str:
    """The first candidate symbol the font can draw, or '' so the plain key name stands alone."""
    return next((c for c in candidates if _has_glyph(font, c)), "")


_KEY_SYMBOLS: dict[str, tuple[str, ...]] = {
    "space": ("⎵", "␣"),
    "right": ("→",),
    "left": ("←",),
    "up": ("↑",),
    "down": ("↓",),
    "enter": ("⏎", "↵"),
    "return": ("⏎", "↵"),
    "tab": ("⇥",),
    "backspace": ("⌫",),
    "delete": ("⌦",),
    "shift": ("⇧",),
    "escape": ("⎋",),
    "esc": ("⎋",),
}


def _key_text(font: Font, key: str) -> str:
    symbol = _symbol(font, *_KEY_SYMBOLS.get(key.lower(), ()))
    return f"{symbol} {key}" if symbol else key


def badge_text(font: Font, action: Action) -> str | None:
    """The text drawn on a tile for actions that have no point on the screen."""
    match action.kind:
        case "press":
            return _key_text(font, action.key or "") + (f" ×{action.times}" if action.times > 1 else "")
        case "hotkey":
            return "+".join(action.keys)
        case "hold":
            return f"hold {_key_text(font, action.key or '')} {action.seconds:g}s"
        case "type_text":
            symbol = _symbol(font, "⌨")
            return f"{symbol} {action.text!r}".strip()
        case "wait":
            return f"wait {action.seconds:g}s"
        case "finish":
            return f"finish: {action.verdict}"
        case _:
            return None


def fit_text(draw: ImageDraw.ImageDraw, text: str, font: Font, width: float) -> str:
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"
