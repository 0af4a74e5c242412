"""Game boards: a board of rows x cols cells read into a matrix (the LAP idea: screen -> state)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..geometry import Box
from .ocr import Ocr
from .pixels import colour_distance, dedupe, dominant_colour, inner_ink, rectangles, rgb, tight_to_ink
from .thresholds import (
    BACKGROUND_DISTANCE,
    BOARD_ASPECT,
    BOARD_MIN_SHARE,
    CELL_INSET,
    CELL_SIZE,
    CELL_SIZE_STEP,
    INK_DISTANCE,
    LATTICE_SHARE,
    LATTICE_SLACK,
    MIN_CONTENT_FRACTION,
    MIN_INK_FRACTION,
    MIN_INK_PIXELS,
    OCCUPIED_CELLS,
    OCCUPIED_SHARE,
    RECTANGLE_FILL,
    SAME_BOARD_IOU,
)


@dataclass
class Grid:
    """A board read as a matrix: ``cells[row][col]`` is the cell's text or colour label, "" when empty."""

    rows: int
    cols: int
    cells: list[list[str]]
    box: Box

    def cell_box(self, row: int, col: int) -> Box:
        """Where cell ``cells[row][col]`` is on screen (0-based), to click or drag it."""
        x0 = self.box.x + round(col * self.box.w / self.cols)
        x1 = self.box.x + round((col + 1) * self.box.w / self.cols)
        y0 = self.box.y + round(row * self.box.h / self.rows)
        y1 = self.box.y + round((row + 1) * self.box.h / self.rows)
        return Box(x0, y0, x1 - x0, y1 - y0)

    def as_text(self) -> str:
        """The non-empty cells as ``r1c1=2, r1c4=2, ...`` (1-based, row by row), compact for prompts."""
        return ", ".join(
            f"r{r + 1}c{c + 1}={value}"
            for r, row in enumerate(self.cells)
            for c, value in enumerate(row)
            if value
        )


def _board_background(frame: np.ndarray, grid: Grid) -> tuple[int, int, int]:
    """The colour between cells: sampled along the grid lines and the board's edge."""
    samples = []
    for r in range(grid.rows + 1):
        y = min(grid.box.y + round(r * grid.box.h / grid.rows), grid.box.bottom - 1)
        samples.append(frame[y, grid.box.x : grid.box.right])
    for c in range(grid.cols + 1):
        x = min(grid.box.x + round(c * grid.box.w / grid.cols), grid.box.right - 1)
        samples.append(frame[grid.box.y : grid.box.bottom, x])
    return dominant_colour(np.concatenate(samples))


def _find_board(frame: np.ndarray, rows: int, cols: int) -> Box | None:
    """The largest rectangle shaped like a ``rows`` x ``cols`` board that holds cell-sized things in at
    least a quarter of its cells (tiles, gems, cell outlines)."""
    height, width = frame.shape[:2]
    outlines = rectangles(frame)
    wanted_aspect = cols / rows
    candidates = [
        box
        for box, fill in outlines
        if fill >= RECTANGLE_FILL
        and box.area >= BOARD_MIN_SHARE * width * height
        and BOARD_ASPECT[0] <= (box.w / box.h) / wanted_aspect <= BOARD_ASPECT[1]
    ]
    for board in sorted(dedupe(candidates, iou=SAME_BOARD_IOU), key=lambda b: b.area, reverse=True):
        cell_w, cell_h = board.w / cols, board.h / rows
        occupied = set()
        for box, _ in outlines:
            if (
                CELL_SIZE[0] * cell_w <= box.w <= CELL_SIZE[1] * cell_w
                and CELL_SIZE[0] * cell_h <= box.h <= CELL_SIZE[1] * cell_h
                and board.contains(*box.center)
            ):
                cx, cy = box.center
                occupied.add((int((cy - board.y) // cell_h), int((cx - board.x) // cell_w)))
        if len(occupied) >= max(OCCUPIED_CELLS, rows * cols * OCCUPIED_SHARE):
            return board
    return _board_from_cells([box for box, fill in outlines if fill >= RECTANGLE_FILL], rows, cols)


def _board_from_cells(boxes: list[Box], rows: int, cols: int) -> Box | None:
    """A board whose own outline is not a closed shape (it fills the window to its edges), found from its
    cells instead: ``rows`` x ``cols`` same-sized rectangles on a regular lattice (2048's tile slots)."""
    groups: dict[tuple[int, int], list[Box]] = {}
    for box in boxes:
        groups.setdefault((round(box.w / CELL_SIZE_STEP), round(box.h / CELL_SIZE_STEP)), []).append(box)
    for members in sorted(groups.values(), key=len, reverse=True):
        if len(members) < rows * cols * LATTICE_SHARE:
            break
        cell_w, cell_h = members[0].w, members[0].h
        xs = _cluster([b.center[0] for b in members], cell_w * LATTICE_SLACK)
        ys = _cluster([b.center[1] for b in members], cell_h * LATTICE_SLACK)
        if len(xs) != cols or len(ys) != rows:
            continue
        pitch_x = (xs[-1] - xs[0]) / (cols - 1) if cols > 1 else cell_w
        pitch_y = (ys[-1] - ys[0]) / (rows - 1) if rows > 1 else cell_h
        return Box(round(xs[0] - pitch_x / 2), round(ys[0] - pitch_y / 2), round(pitch_x * cols),
                   round(pitch_y * rows))
    return None


def _cluster(values: list[float], within: float) -> list[float]:
    """Sorted values merged where neighbours are closer than ``within``: the mean of each run."""
    runs: list[list[float]] = []
    for value in sorted(values):
        if runs and value - runs[-1][-1] < within:
            runs[-1].append(value)
        else:
            runs.append([value])
    return [sum(run) / len(run) for run in runs]


def read_grid(frame: np.ndarray, rows: int, cols: int, box: Box | None = None, *, ocr: Ocr | None = None) -> Grid:
    """Read a board of ``rows`` x ``cols`` cells into a matrix (the LAP idea: screen -> state).

    ``box`` defaults to the largest board-shaped outline holding cell-sized things, else the whole
    frame. With an ``ocr`` each cell is its OCR text (tile numbers, letters); otherwise it is the
    ``"#rrggbb"`` of the cell's dominant colour among pixels unlike the board's background (the colour
    between cells). An empty cell is ""; a cell with something on it that does not read as text with
    the OCR's ``min_score`` confidence (an icon, a mine) is "?".
    """
    if rows < 1 or cols < 1:
        raise ValueError("a grid needs at least one row and one column")
    frame = rgb(frame)
    height, width = frame.shape[:2]
    board = (box or _find_board(frame, rows, cols) or Box(0, 0, width, height)).clip(width, height)
    grid = Grid(rows, cols, [["" for _ in range(cols)] for _ in range(rows)], board)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    faces = {cell: _cell_face(frame, grid.cell_box(*cell)) for cell in cells}
    crops = {cell: face for cell, face in faces.items() if face.size}
    if ocr is not None:
        _read_cells(ocr, grid, crops)
    else:
        background = _board_background(frame, grid)
        for (r, c), crop in crops.items():
            pixels = crop.reshape(-1, 3)
            content = pixels[colour_distance(crop, background).ravel() > BACKGROUND_DISTANCE]
            if len(content) >= MIN_CONTENT_FRACTION * len(pixels):
                grid.cells[r][c] = "#{:02x}{:02x}{:02x}".format(*dominant_colour(content))
    return grid


def _cell_face(frame: np.ndarray, cell: Box) -> np.ndarray:
    """The cell without its outer 8 %, where grid lines and neighbours' borders live."""
    inset = cell.expand(-max(1, round(min(cell.w, cell.h) * CELL_INSET)))
    return frame[inset.y : inset.bottom, inset.x : inset.right]

def _read_cells(ocr: Ocr, grid: Grid, crops: dict[tuple[int, int], np.ndarray]) -> None:
    # Each cell's ink, cut out tightly with a margin of its own fill, is one text line for the
    # recogniser: no detection pass, and all cells go through the model in one batch.
    lines: dict[tuple[int, int], np.ndarray] = {}
    for cell, crop in crops.items():
        fill = dominant_colour(crop.reshape(-1, 3))
        ink = inner_ink(colour_distance(crop, fill) > INK_DISTANCE)
        if ink.sum() < max(MIN_INK_PIXELS, MIN_INK_FRACTION * ink.size):
            continue
        lines[cell] = tight_to_ink(crop, ink, fill)
    for (r, c), (text, score) in zip(lines, ocr.recognise_cached(list(lines.values())), strict=True):
        grid.cells[r][c] = text.strip() if score >= ocr.min_score else "?"
