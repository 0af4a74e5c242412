"""The storyboard: one image of a run, a tile per step, the action drawn on it, findings in red.

The storyboard follows AUI-Gym's run "dashboard": instead of every full screenshot it tiles the region each
action touched, so a failing step is visible at a glance on one image of at most 1920x1080.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageOps

from ..actions import POINTER_KINDS, Action
from ..files import frame_path
from ..trajectory import Step
from ..verdict import FINDING_KINDS, Finding, Verdict
from .drawing import (
    BACKGROUND,
    CHANGE_OUTLINE,
    FINDING_RED,
    MARKER,
    MARKER_OUTLINE,
    MUTED,
    STATUS_COLOURS,
    TEXT,
    TILE_BACKGROUND,
    TILE_BORDER,
    Point,
    badge_text,
    fit_text,
    get_font,
)

# -- the storyboard ----------------------------------------------------------------------------------------
MARGIN = 12
GAP = 10
HEADER_HEIGHT = 40
#: Space around a tile's picture and caption: a thin grey border, or all red when the step has a finding.
TILE_PAD = 5
CAPTION_HEIGHT = 40
FOOTER_LINE_HEIGHT = 20
MAX_FOOTER_LINES = 4
MIN_TILE_WIDTH = 200
MAX_TILE_WIDTH = 560
#: A pointer tile shows this many times its own width of the window around the target: enough context
#: to recognise the widget, close enough to read it.
CROP_CONTEXT = 1.6
#: Room kept around both ends of a drag inside its crop, in window pixels.
DRAG_MARGIN = 40


@dataclass(frozen=True)
class _Grid:
    cols: int
    rows: int
    image_width: int
    image_height: int

    @property
    def cell_width(self) -> int:
        return self.image_width + 2 * TILE_PAD

    @property
    def cell_height(self) -> int:
        return self.image_height + CAPTION_HEIGHT + 2 * TILE_PAD

    @property
    def width(self) -> int:
        return 2 * MARGIN + self.cols * self.cell_width + (self.cols - 1) * GAP

    @property
    def height(self) -> int:
        return self.rows * self.cell_height + (self.rows - 1) * GAP


def _best_grid(count: int, aspect: float, width: int, height: int) -> _Grid:
    """The grid with the largest tiles for ``count`` pictures of ``aspect`` (height/width) in the area."""
    best: _Grid | None = None
    for cols in range(1, count + 1):
        rows = math.ceil(count / cols)
        by_width = (width - 2 * MARGIN - (cols - 1) * GAP) / cols - 2 * TILE_PAD
        by_height = ((height - (rows - 1) * GAP) / rows - 2 * TILE_PAD - CAPTION_HEIGHT) / aspect
        image_width = max(1, math.floor(min(by_width, by_height, MAX_TILE_WIDTH)))
        if best is None or image_width > best.image_width:
            best = _Grid(cols, rows, image_width, max(1, round(image_width * aspect)))
        if cols >= count:
            break
    assert best is not None
    return best


def _tile_capacity(step_count: int, aspect: float, width: int, height: int) -> int:
    """How many tiles fit while each stays at least MIN_TILE_WIDTH wide (at least one)."""
    low, high = 1, max(1, step_count)
    while low < high:  # image width never grows with the tile count, so bisect
        middle = (low + high + 1) // 2
        if _best_grid(middle, aspect, width, height).image_width >= MIN_TILE_WIDTH:
            low = middle
        else:
            high = middle - 1
    return low


def sample_steps(steps: Sequence[Step], capacity: int, keep: set[int]) -> list[Step]:
    """At most ``capacity`` steps, in order: the first, the last, those whose index is in ``keep``, then
    others spread evenly over the run. If the kept steps alone are too many, they are thinned evenly."""
    if len(steps) <= capacity:
        return list(steps)
    ends = {0, len(steps) - 1}
    wanted = sorted({position for position, step in enumerate(steps) if step.index in keep} - ends)
    room = max(0, capacity - len(ends))
    if len(wanted) > room:
        chosen = ends | set(_spread(wanted, room))
    else:
        others = [p for p in range(len(steps)) if p not in ends and p not in set(wanted)]
        chosen = ends | set(wanted) | set(_spread(others, room - len(wanted)))
    return [steps[p] for p in sorted(chosen)][:capacity]


def _spread(items: list[int], count: int) -> list[int]:
    if count <= 0:
        return []
    return [items[math.floor((i + 0.5) * len(items) / count)] for i in range(count)]


def _step_frame(frames_dir: Path, step: Step) -> Path | None:
    for candidate in (frame_path(frames_dir, step.index), Path(step.screenshot) if step.screenshot else None):
        if candidate is not None and candidate.exists():
            return candidate
    return None


def build_storyboard(
    steps: Sequence[Step],
    frames_dir: Path,
    findings: Sequence[Finding],
    out: Path,
    *,
    max_size: tuple[int, int] = (1920, 1080),
    verdict: Verdict | None = None,
) -> Path:
    """Draw one image of a run into ``out`` (PNG, at most ``max_size``) and return its path.

    A tile per step, in order (evenly sampled when there are too many, always keeping the first, the last and
    every step with a finding): the window after the step, cropped around a pointer action's target or
    whole for keys and waits, with the action drawn on it and ``step N · label`` below. Steps with findings
    (their ``Step.findings`` kinds or a Finding pointing at them) get a red frame and the kinds in red. A
    header gives the verdict (when passed) and the counts; findings no tile shows are listed at the bottom.
    A run without steps shows its initial frame.
    """
    frames_dir = Path(frames_dir)
    max_width, max_height = max_size
    kinds_by_step: dict[int, list[str]] = {step.index: list(step.findings) for step in steps}
    for finding in findings:
        if finding.step is not None and finding.step in kinds_by_step:
            kinds_by_step[finding.step].append(finding.kind)
    references = {f.step: Path(f.reference) for f in findings if f.reference and Path(f.reference).exists()}

    first_frame = next((f for f in (_step_frame(frames_dir, s) for s in steps) if f), None)
    first_frame = first_frame or (frame_path(frames_dir, 0) if frame_path(frames_dir, 0).exists() else None)
    aspect = _aspect(first_frame, steps)

    footer_findings = [f for f in findings if f.step is None or f.step not in kinds_by_step]
    footer_lines = min(len(footer_findings), MAX_FOOTER_LINES)
    footer_height = footer_lines * FOOTER_LINE_HEIGHT + GAP if footer_lines else 0
    fixed_height = 2 * MARGIN + HEADER_HEIGHT + GAP + footer_height
    grid_height = max(1, max_height - fixed_height)

    capacity = _tile_capacity(len(steps), aspect, max_width, grid_height)
    shown = sample_steps(steps, capacity, keep={i for i, kinds in kinds_by_step.items() if kinds})
    grid = _best_grid(max(1, len(shown)), aspect, max_width, grid_height)

    width = min(max_width, max(grid.width, 800))
    height = min(max_height, fixed_height + grid.height)
    canvas = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(canvas)
    _draw_header(draw, width, len(steps), len(shown), findings, verdict)

    top = MARGIN + HEADER_HEIGHT + GAP
    left = (width - grid.width) // 2 + MARGIN
    if not steps:
        _draw_tile(canvas, grid, (left, top), None, first_frame, [])
    for position, step in enumerate(shown):
        row, col = divmod(position, grid.cols)
        origin = (left + col * (grid.cell_width + GAP), top + row * (grid.cell_height + GAP))
        _draw_tile(canvas, grid, origin, step, _step_frame(frames_dir, step), kinds_by_step[step.index],
                   reference=references.get(step.index))

    footer_top = top + grid.height + GAP
    font = get_font(13)
    for line_number, finding in enumerate(footer_findings[:footer_lines]):
        where = "end of run" if finding.step is None else f"step {finding.step}"
        text = f"[{finding.kind}] {where}: {finding.message}"
        if line_number == MAX_FOOTER_LINES - 1 and len(footer_findings) > MAX_FOOTER_LINES:
            text = f"… and {len(footer_findings) - line_number} more finding(s); see verdict.json"
        y = footer_top + line_number * FOOTER_LINE_HEIGHT
        draw.text((MARGIN, y), fit_text(draw, text, font, width - 2 * MARGIN), fill=FINDING_RED, font=font)

    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    canvas.save(out, optimize=True)
    return out


def _aspect(frame: Path | None, steps: Sequence[Step]) -> float:
    if frame is not None:
        with Image.open(frame) as image:
            return image.height / image.width
    window = next((s.window for s in steps if s.window[0] and s.window[1]), None)
    return window[1] / window[0] if window else 0.75


def _draw_header(
    draw: ImageDraw.ImageDraw,
    width: int,
    step_count: int,
    shown_count: int,
    findings: Sequence[Finding],
    verdict: Verdict | None,
) -> None:
    x = MARGIN
    if verdict is not None:
        pill_font = get_font(18, bold=True)
        label = verdict.status.upper()
        pill_width = draw.textlength(label, font=pill_font) + 20
        pill = (x, MARGIN, x + pill_width, MARGIN + HEADER_HEIGHT - 8)
        draw.rounded_rectangle(pill, radius=6, fill=STATUS_COLOURS[verdict.status])
        draw.text((x + 10, MARGIN + 5), label, fill=TEXT, font=pill_font)
        x = round(x + pill_width + 12)
    kinds = [k for k in FINDING_KINDS if any(f.kind == k for f in findings)]
    counts = f"{len(findings)} finding(s)" + (f": {', '.join(kinds)}" if kinds else "")
    parts = [f"{step_count} step(s)", counts]
    if shown_count < step_count:
        parts.append(f"showing {shown_count} of {step_count} steps")
    if verdict is not None:
        if verdict.policy:
            parts.append(f"policy {verdict.policy}")
        if verdict.tokens:
            parts.append(f"{verdict.tokens} tokens")
        if verdict.duration:
            parts.append(f"{verdict.duration:.1f}s")
        if verdict.coverage is not None:
            parts.append(f"coverage {verdict.coverage.describe()}")
        if verdict.error:
            parts.append(f"error: {verdict.error}")
    font = get_font(16)
    text = fit_text(draw, " · ".join(parts), font, width - x - MARGIN)
    draw.text((x, MARGIN + 7), text, fill=TEXT, font=font)


def _draw_tile(
    canvas: Image.Image,
    grid: _Grid,
    origin: tuple[int, int],
    step: Step | None,
    frame: Path | None,
    finding_kinds: list[str],
    *,
    reference: Path | None = None,
) -> None:
    """A step's tile; ``step`` None is the initial frame of a run that took no step. With a ``reference`` (the
    golden run's picture of a step that diverged from it), the two pictures side by side."""
    x, y = origin
    draw = ImageDraw.Draw(canvas)
    cell = (x, y, x + grid.cell_width - 1, y + grid.cell_height - 1)
    if finding_kinds:
        draw.rectangle(cell, fill=FINDING_RED)
    else:
        draw.rectangle(cell, fill=BACKGROUND, outline=TILE_BORDER)
    inner = (x + TILE_PAD, y + TILE_PAD)
    draw.rectangle(
        (*inner, inner[0] + grid.image_width - 1, inner[1] + grid.image_height + CAPTION_HEIGHT - 1),
        fill=TILE_BACKGROUND,
    )
    size = (grid.image_width, grid.image_height)
    picture = _side_by_side(reference, frame, size) if reference else _tile_picture(step, frame, size)
    canvas.paste(picture, inner)

    font = get_font(13)
    text_x, text_y = inner[0] + 6, inner[1] + grid.image_height + 4
    room = grid.image_width - 12
    first_line = f"step {step.index} · {step.caption or step.action.label()}" if step else "start (no steps taken)"
    draw.text((text_x, text_y), fit_text(draw, first_line, font, room), fill=TEXT, font=font)
    if step is not None:
        second_line = ("✕ " + ", ".join(dict.fromkeys(finding_kinds))) if finding_kinds else step.effect
        colour = FINDING_RED if finding_kinds else MUTED
        draw.text((text_x, text_y + 18), fit_text(draw, second_line, font, room), fill=colour, font=font)


def _tile_picture(step: Step | None, frame: Path | None, size: tuple[int, int]) -> Image.Image:
    picture = Image.new("RGB", size, TILE_BACKGROUND)
    if frame is None:
        draw = ImageDraw.Draw(picture)
        draw.text((size[0] // 2, size[1] // 2), "no screenshot", fill=MUTED, font=get_font(14), anchor="mm")
        return picture
    with Image.open(frame) as opened:
        window = opened.convert("RGB")
    points = _action_points(step, window.size) if step else []
    box = _crop_box(points, window.size, size) if points else (0, 0, window.width, window.height)
    region = ImageOps.contain(window.crop(box), size)
    offset = ((size[0] - region.width) // 2, (size[1] - region.height) // 2)
    picture.paste(region, offset)
    scale = region.width / (box[2] - box[0])

    def to_tile(point: Point) -> Point:
        return (offset[0] + (point[0] - box[0]) * scale, offset[1] + (point[1] - box[1]) * scale)

    if step is not None:
        draw = ImageDraw.Draw(picture)
        change = _change_box(step, window.size)
        if change:
            (left, top), (right, bottom) = to_tile(change[:2]), to_tile(change[2:])
            draw.rectangle((left, top, right, bottom), outline=CHANGE_OUTLINE, width=2)
        _draw_action(draw, step.action, [to_tile(p) for p in points], size)
    return picture


def _side_by_side(reference: Path, frame: Path | None, size: tuple[int, int]) -> Image.Image:
    """The golden run's picture (left) and this run's (right), each whole, labelled."""
    picture = Image.new("RGB", size, TILE_BACKGROUND)
    half = (size[0] // 2 - 2, size[1] - 18)
    draw = ImageDraw.Draw(picture)
    font = get_font(12)
    for column, (path, caption) in enumerate(((reference, "golden run"), (frame, "this run"))):
        left = column * (size[0] // 2 + 2)
        draw.text((left + 4, 2), caption, fill=MUTED, font=font)
        if path is None:
            continue
        with Image.open(path) as opened:
            region = ImageOps.contain(opened.convert("RGB"), half)
        picture.paste(region, (left + (half[0] - region.width) // 2, 18 + (half[1] - region.height) // 2))
    return picture


def _change_box(step: Step, frame_size: tuple[int, int]) -> tuple[float, float, float, float] | None:
    """Corners of what changed after the step, in frame pixels; None when nothing or nearly all changed."""
    if not step.changed or step.changed_box is None or step.changed_fraction > 0.9:
        return None
    x, y, w, h = step.changed_box
    sx = frame_size[0] / step.window[0] if step.window[0] else 1.0
    sy = frame_size[1] / step.window[1] if step.window[1] else 1.0
    return (x * sx, y * sy, (x + w) * sx, (y + h) * sy)


def _action_points(step: Step, frame_size: tuple[int, int]) -> list[Point]:
    """Where a pointer action landed (and a drag ended), in frame pixels."""
    action = step.action
    if action.kind not in POINTER_KINDS or action.target is None:
        return []
    # action coordinates are window pixels; the frame may be scaled from them
    sx = frame_size[0] / step.window[0] if step.window[0] else 1.0
    sy = frame_size[1] / step.window[1] if step.window[1] else 1.0
    points = [(action.target[0] * sx, action.target[1] * sy)]
    if action.kind == "drag" and action.x2 is not None and action.y2 is not None:
        points.append((action.x2 * sx, action.y2 * sy))
    return points


def _crop_box(
    points: list[Point], frame_size: tuple[int, int], tile_size: tuple[int, int]
) -> tuple[int, int, int, int]:
    """A window region around ``points`` with the tile's aspect, CROP_CONTEXT times the tile's width."""
    frame_width, frame_height = frame_size
    aspect = tile_size[1] / tile_size[0]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    needed_width = max(xs) - min(xs) + (2 * DRAG_MARGIN if len(points) > 1 else 0)
    needed_height = max(ys) - min(ys) + (2 * DRAG_MARGIN if len(points) > 1 else 0)
    width = max(tile_size[0] * CROP_CONTEXT, needed_width, needed_height / aspect)
    width = min(width, frame_width, frame_height / aspect)
    height = min(width * aspect, frame_height)
    centre_x, centre_y = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    left = min(max(0.0, centre_x - width / 2), frame_width - width)
    top = min(max(0.0, centre_y - height / 2), frame_height - height)
    return (round(left), round(top), round(left + width), round(top + height))


_DIRECTIONS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
_POINTER_BADGES = {"right_click": "right click", "double_click": "double click"}


def _draw_action(
    draw: ImageDraw.ImageDraw, action: Action, points: list[Point], size: tuple[int, int]
) -> None:
    """A marker where a pointer action landed (an arrow for a drag), a badge for keys and waits.

    Yellow over a black outline stays visible on light and dark windows alike.
    """
    if not points:
        text = badge_text(get_font(16, bold=True), action)
        if text:
            _badge(draw, text, size)
        return
    x, y = points[0]
    radius = max(8, min(size) // 18)
    if action.kind == "drag" and len(points) > 1:
        _arrow(draw, points[0], points[1], radius)
    else:
        arm = radius * 1.6
        for colour, width in ((MARKER_OUTLINE, 5), (MARKER, 2)):
            draw.line((x - arm, y, x + arm, y), fill=colour, width=width)
            draw.line((x, y - arm, x, y + arm), fill=colour, width=width)
    for ring in [radius, radius * 0.55] if action.kind == "double_click" else [radius]:
        draw.ellipse((x - ring, y - ring, x + ring, y + ring), outline=MARKER_OUTLINE, width=5)
        draw.ellipse((x - ring, y - ring, x + ring, y + ring), outline=MARKER, width=2)
    # the badge goes to the other half of the picture, so it never hides the marker
    marker_low = y > size[1] / 2
    if action.kind == "scroll":
        dx, dy = (radius * d for d in _DIRECTIONS[action.direction or "down"])
        _arrow(draw, (x + dx, y + dy), (x + 3 * dx, y + 3 * dy), radius)
        _badge(draw, f"scroll {action.direction}", size, at_top=marker_low)
    elif action.kind in _POINTER_BADGES:
        _badge(draw, _POINTER_BADGES[action.kind], size, at_top=marker_low)


def _arrow(draw: ImageDraw.ImageDraw, start: Point, end: Point, head_length: float) -> None:
    angle = math.atan2(end[1] - start[1], end[0] - start[0])
    head = [
        end,
        (end[0] - head_length * math.cos(angle - 0.45), end[1] - head_length * math.sin(angle - 0.45)),
        (end[0] - head_length * math.cos(angle + 0.45), end[1] - head_length * math.sin(angle + 0.45)),
    ]
    draw.line((start, end), fill=MARKER_OUTLINE, width=6)
    draw.polygon(head, fill=MARKER, outline=MARKER_OUTLINE)
    draw.line((start, end), fill=MARKER, width=3)


def _badge(draw: ImageDraw.ImageDraw, text: str, size: tuple[int, int], *, at_top: bool = False) -> None:
    """A label centred at the bottom (or top) of the picture: keys, waits, the kind of click."""
    font = get_font(16, bold=True)
    text = fit_text(draw, text, font, size[0] - 24)
    text_width = draw.textlength(text, font=font)
    left = (size[0] - text_width) / 2 - 8
    bottom = 8 + 26 if at_top else size[1] - 8
    draw.rounded_rectangle((left, bottom - 26, left + text_width + 16, bottom), radius=6, fill=(16, 16, 16),
                           outline=MARKER, width=1)
    draw.text((left + 8, bottom - 13), text, fill=MARKER, font=font, anchor="lm")
