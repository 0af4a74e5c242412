"""Widget candidates: rectangles that stand out (buttons, fields), labelled by the OCR text inside them, and
closed shapes (sprites, icons)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from ..geometry import Box
from .ocr import TextBox
from .pixels import colour_distance, dedupe, dominant_colour, inner_ink, nested, reading_order, rectangles
from .thresholds import (
    BEVEL,
    CENTRE_MIN,
    CENTRE_PARTS,
    FIELD_MIN_ASPECT,
    FIELD_MIN_BRIGHTNESS,
    FOUND_BOX_SLACK,
    GLYPH_INSIDE,
    GLYPH_REACH,
    INK_DISTANCE,
    LABEL_INSIDE,
    MAX_MARK_FRACTION,
    MAX_SHAPE_FRACTION,
    MAX_WIDGET_FRACTION,
    MAX_WIDGET_H,
    MIN_INK_FRACTION,
    MIN_INK_PIXELS,
    MIN_WIDGET_H,
    MIN_WIDGET_W,
    RECTANGLE_FILL,
    SAME_RECT_IOU,
    SHAPE_MIN_FILL,
    SHAPE_TAKEN,
)


@dataclass(frozen=True)
class Widget:
    """Something that looks interactive: ``kind`` is "button", "field", "text", "shape" or (from a web page's
    DOM) "choice", a list to choose one of its ``options`` from."""

    box: Box
    kind: str
    text: str = ""
    options: tuple[str, ...] = ()
    #: whether the app takes clicks there, when it can tell (a web page's canvas no script listens to: False)
    handles: bool = True

    @property
    def center(self) -> tuple[int, int]:
        """Where to click it."""
        return self.box.center

    def surely_hit_by(self, x: float, y: float) -> bool:
        """Whether a click at ``(x, y)`` lands on the control itself: a box found on the screen reaches a
        few pixels beyond the control's face (a Tk button's starts 2 px before it), so its rim is not
        counted."""
        return self.box.expand(-FOUND_BOX_SLACK).contains(x, y)

    def encloses(self, box: Box) -> bool:
        """Whether a changed region ``box`` lies on this control alone (its found box's rim included)."""
        outer = self.box.expand(FOUND_BOX_SLACK)
        return box.union(outer) == outer

    def marked_at_centre(self, frame: np.ndarray) -> bool:
        """Whether its middle carries ink (a caption or an icon), as a button's does. A bar or panel boxed
        as one (a menu bar, whose items sit at its left end) is empty there: a click in its middle lands on
        nothing."""
        box = self.box.expand(-BEVEL)
        half = max(box.w // CENTRE_PARTS, CENTRE_MIN)
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
    return max(MIN_INK_PIXELS, MIN_INK_FRACTION * ink.size) <= ink.sum() <= MAX_MARK_FRACTION * ink.size


def detect_widgets(frame: np.ndarray, texts: list[TextBox]) -> list[Widget]:
    """Candidates to interact with in an RGB frame whose OCR is ``texts``, in reading order.

    Rectangles that stand out (filled buttons, bordered entry fields) come from edge contours within
    size limits; a text box inside one labels it, a text box inside none is a "text" widget. Closed
    non-rectangular outlines (sprites, icons, round buttons) are "shape" widgets.
    """
    height, width = frame.shape[:2]
    max_area = MAX_WIDGET_FRACTION * width * height

    rects: list[Box] = []
    shapes: list[Box] = []
    for box, fill in rectangles(frame):
        if not (
            MIN_WIDGET_W <= box.w
            and MIN_WIDGET_H <= box.h <= MAX_WIDGET_H
            and box.area <= max_area
        ):
            continue
        # A glyph of big text has an outline too: it lies within a bigger text box. (A button is bigger
        # than its label's box, however tightly the label fills it.)
        if any(box.area < t.box.area and t.box.expand(GLYPH_REACH).intersection(box).area >= GLYPH_INSIDE * box.area
               for t in texts):
            continue
        if fill >= RECTANGLE_FILL:
            rects.append(box)
        elif fill >= SHAPE_MIN_FILL and box.area <= MAX_SHAPE_FRACTION * width * height:
            shapes.append(box)
    rects = dedupe(rects, iou=SAME_RECT_IOU)
    # A text box labels the smallest rectangle holding it: a button's face rather than its border.
    labels: dict[Box, list[TextBox]] = {}
    for text in texts:
        holders = [r for r in rects if r.intersection(text.box).area >= LABEL_INSIDE * text.box.area]
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
        if all(shape.intersection(other).area < SHAPE_TAKEN * shape.area for other in taken):
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
    bright = face.size > 0 and np.median(face.reshape(-1, 3), axis=0).min() >= FIELD_MIN_BRIGHTNESS
    left_aligned = all(t.box.x - rect.x < (rect.right - t.box.right) / 2 for t in label)
    if bright and rect.w >= FIELD_MIN_ASPECT * rect.h and left_aligned:
        return "field"
    return "button" if label or _has_mark(face) else "shape"
