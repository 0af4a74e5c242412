"""Widget candidates: rectangles that stand out (buttons, fields), labelled by the OCR text inside them, and
closed shapes (sprites, icons)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from ..geometry import Box
from .ocr import TextBox
from .pixels import (
    INK_DISTANCE,
    MIN_INK_FRACTION,
    RECTANGLE_FILL,
    colour_distance,
    dedupe,
    dominant_colour,
    inner_ink,
    nested,
    reading_order,
    rectangles,
)

_MIN_WIDGET_W, _MIN_WIDGET_H = 16, 12
_MAX_WIDGET_H = 160
#: A widget bigger than this fraction of the frame is a panel, board or window, not a control.
_MAX_WIDGET_FRACTION = 0.2
#: Sprites and icons are small; a big irregular outline is scenery (the ground, a cloud, a backdrop).
_MAX_SHAPE_FRACTION = 0.05
#: An outline filling less of its bounding box is a line or a jagged fragment (sparks, cracks), not an object.
_SHAPE_MIN_FILL = 0.5
#: A "field" is a wide, near-white box (entry, spin box, text area) whose text, if any, hugs its left edge.
_FIELD_MIN_ASPECT = 2.5
_FIELD_MIN_BRIGHTNESS = 235
#: A rectangle whose face is inked beyond this share holds a picture, not a symbol.
_MAX_MARK_FRACTION = 0.4
#: How far a box found on the screen may reach beyond the control it frames.
_FOUND_BOX_SLACK = 3


@dataclass(frozen=True)
class Widget:
    """Something that looks interactive: ``kind`` is "button", "field", "text", "shape" or (from a web page's
    DOM) "choice", a list to choose one of its ``options`` from."""

    box: Box
    kind: str
    text: str = ""
    options: tuple[str, ...] = ()

    @property
    def center(self) -> tuple[int, int]:
        """Where to click it."""
        return self.box.center

    def surely_hit_by(self, x: float, y: float) -> bool:
        """Whether a click at ``(x, y)`` lands on the control itself: a box found on the screen reaches a
        few pixels beyond the control's face (a Tk button's starts 2 px before it), so its rim is not
        counted."""
        return self.box.expand(-_FOUND_BOX_SLACK).contains(x, y)

    def encloses(self, box: Box) -> bool:
        """Whether a changed region ``box`` lies on this control alone (its found box's rim included)."""
        outer = self.box.expand(_FOUND_BOX_SLACK)
        return box.union(outer) == outer

    def marked_at_centre(self, frame: np.ndarray) -> bool:
        """Whether its middle carries ink (a caption or an icon), as a button's does. A bar or panel boxed
        as one (a menu bar, whose items sit at its left end) is empty there: a click in its middle lands on
        nothing."""
        box = self.box.expand(-4)
        half = max(box.w // 6, 8)
        centre = box.x + box.w // 2
        crop = frame[box.y : box.bottom, max(centre - half, 0) : centre + half]
        if not crop.size:
            return False
        return bool((colour_distance(crop, dominant_colour(crop.reshape(-1, 3))) > INK_DISTANCE).any())


def _has_mark(face: np.ndarray) -> bool:
    """Whether a rectangle's face carries a mark of its own (a symbol or icon the OCR could not read, like
    "=" or "▶"): ink off its fill that does not touch its edge (a bevel or border does) and leaves most of
    the face empty. A plain rectangle (an empty tile, a panel) has none."""
    if face.size == 0:
        return False
    ink = inner_ink(colour_distance(face, dominant_colour(face.reshape(-1, 3))) > INK_DISTANCE)
    return max(4, MIN_INK_FRACTION * ink.size) <= ink.sum() <= _MAX_MARK_FRACTION * ink.size


def detect_widgets(frame: np.ndarray, texts: list[TextBox]) -> list[Widget]:
    """Candidates to interact with in an RGB frame whose OCR is ``texts``, in reading order.

    Rectangles that stand out (filled buttons, bordered entry fields) come from edge contours within
    size limits; a text box inside one labels it, a text box inside none is a "text" widget. Closed
    non-rectangular outlines (sprites, icons, round buttons) are "shape" widgets.
    """
    height, width = frame.shape[:2]
    max_area = _MAX_WIDGET_FRACTION * width * height

    rects: list[Box] = []
    shapes: list[Box] = []
    for box, fill in rectangles(frame):
        if not (
            _MIN_WIDGET_W <= box.w
            and _MIN_WIDGET_H <= box.h <= _MAX_WIDGET_H
            and box.area <= max_area
        ):
            continue
        # A glyph of big text has an outline too: it lies within a bigger text box. (A button is bigger
        # than its label's box, however tightly the label fills it.)
        if any(box.area < t.box.area and t.box.expand(4).intersection(box).area >= 0.9 * box.area
               for t in texts):
            continue
        if fill >= RECTANGLE_FILL:
            rects.append(box)
        elif fill >= _SHAPE_MIN_FILL and box.area <= _MAX_SHAPE_FRACTION * width * height:
            shapes.append(box)
    rects = dedupe(rects, iou=0.7)
    # A text box labels the smallest rectangle holding it: a button's face rather than its border.
    labels: dict[Box, list[TextBox]] = {}
    for text in texts:
        holders = [r for r in rects if r.intersection(text.box).area >= 0.6 * text.box.area]
        if holders:
            labels.setdefault(min(holders, key=lambda r: r.area), []).append(text)
    found: list[Widget] = []
    for rect in rects:
        # An unlabelled outline around or inside a labelled one is that widget's border or bevel.
        if rect not in labels and any(nested(rect, other) for other in labels):
            continue
        label = reading_order(labels.get(rect, []), lambda t: t.box)
        found += [Widget(box, _rect_kind(frame, box, part), " ".join(t.text for t in part))
                  for box, part in _split_stack(rect, label)]
    labelled = {id(t) for group in labels.values() for t in group}
    found += [Widget(t.box, "text", t.text) for t in texts if id(t) not in labelled]
    taken = [w.box for w in found]
    for shape in dedupe(shapes):
        if all(shape.intersection(other).area < 0.5 * shape.area for other in taken):
            found.append(Widget(shape, "shape"))
            taken.append(shape)
    return reading_order(found, lambda w: w.box)


def _split_stack(rect: Box, label: list[TextBox]) -> list[tuple[Box, list[TextBox]]]:
    """A rectangle holding the same caption on several lines is a column of equal buttons whose borders
    touch (a list's "Down" or "Delete" per row), not one button: one box per line, as tall as its caption's
    box, so a click lands on a caption rather than between two buttons."""
    captions = {t.text for t in label}
    lines = sorted(label, key=lambda t: t.box.y)
    # (OCR boxes are padded: neighbours' boxes may overlap a little, their centres are a line apart)
    stacked = all(b.box.center[1] - a.box.center[1] >= a.box.h / 2 for a, b in itertools.pairwise(lines))
    if len(lines) < 2 or len(captions) > 1 or not stacked:
        return [(rect, label)]
    return [(Box(rect.x, t.box.y, rect.w, t.box.h).intersection(rect), [t]) for t in lines]


def _rect_kind(frame: np.ndarray, rect: Box, label: list[TextBox]) -> str:
    face = frame[rect.y + 2 : rect.bottom - 2, rect.x + 2 : rect.right - 2]
    bright = face.size > 0 and np.median(face.reshape(-1, 3), axis=0).min() >= _FIELD_MIN_BRIGHTNESS
    left_aligned = all(t.box.x - rect.x < (rect.right - t.box.right) / 2 for t in label)
    if bright and rect.w >= _FIELD_MIN_ASPECT * rect.h and left_aligned:
        return "field"
    return "button" if label or _has_mark(face) else "shape"
