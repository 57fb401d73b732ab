"""A large frame located a strip at a time (pure numpy).

The locator's memory grows with the frame it reads (onnxruntime keeps every layer's output
of the largest input it has seen): about 275 MB for a 1280×960 frame, twice that for a frame
of four million pixels, which a phone's photo reaches, and more for the eight million a frame
of small indices is scaled up to (``scale.py``). A frame taller than a strip's worth of
pixels is read in horizontal strips that overlap by a margin above and below; each strip gives
the heads of its own rows, read with the frame around them, and the rows are laid back
together in the frame's grid. A frame so wide that its strips would read more pixels than
parts about as wide as they are tall is cut into columns too (a twelve-megapixel still in
strips alone reads four times its pixels). The figures: model/experiments/large-frames.md.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

# Each chosen in model/experiments/large-frames.md:
# A strip holds at most this many pixels, margins included: a 1280×960 frame (1280×1024
# padded) is read whole, as the models were measured.
STRIP_PIXELS = 1280 * 1024
# Rows of the frame around each strip, so its cells are read with their neighbourhood: the
# strips then mark what the whole frame marks (32 rows did not).
STRIP_MARGIN = 96
# A column's width, margins included, where a frame is so wide that it is cut across too: about
# the side of a square of STRIP_PIXELS, so a part's margins are as small a share as may be.
COLUMN_PIXELS = 1152


def _padded(height: int, multiple: int) -> int:
    return -(-height // multiple) * multiple


def _cuts(length: int, core: int, margin: int, multiple: int) -> list[tuple[int, int, int, int]]:
    """Along one side of ``length`` px: (start, end) of the part each cut gives, ``core`` long
    but the last, and (low, high) of what it reads, ``margin`` further either way where the
    frame reaches; every cut reads as much (the last one reaches further back)."""
    span = core + 2 * margin
    padded = _padded(length, multiple)
    cuts = []
    for start in range(0, length, core):
        end = min(length, start + core)
        low = max(0, min(start - margin, padded - span))
        cuts.append((start, end, low, min(length, low + span)))
    return cuts


def _margin(multiple: int) -> int:
    return -(-STRIP_MARGIN // multiple) * multiple


def strip_rows(height: int, width: int, multiple: int) -> list[tuple[int, int, int, int]]:
    """How a frame (or a column of one) ``height`` × ``width`` is cut: (top, bottom) of the
    rows each strip gives, and (low, high) of the rows it reads, every bound a multiple of
    ``multiple`` or the frame's edge. One strip when the frame fits in STRIP_PIXELS. Every
    strip reads as many rows, padding included (the last one reaches further up), so
    onnxruntime sees one shape."""
    if height * width <= STRIP_PIXELS:
        return [(0, height, 0, height)]
    margin = _margin(multiple)
    core = (STRIP_PIXELS // width - 2 * margin) // multiple * multiple
    core = max(core, multiple)  # a frame too wide for the margins still goes a row at a time
    return _cuts(height, core, margin, multiple)


def strip_columns(height: int, width: int, multiple: int) -> list[tuple[int, int, int, int]]:
    """How a frame ``height`` × ``width`` is cut across, as ``strip_rows`` cuts it down: one
    column, the whole width, unless columns about COLUMN_PIXELS wide, each cut into strips,
    would have the locator read fewer pixels, margins included. A very wide frame's strips
    give few rows of their own for the margins they read: a twelve-megapixel still, 4608 px
    wide, 64 rows of every 256, so the locator would read it four times over, and in columns
    1.6 times."""
    whole = [(0, width, 0, width)]
    if height * width <= STRIP_PIXELS:
        return whole
    margin = _margin(multiple)
    core = COLUMN_PIXELS - 2 * margin
    count = -(-width // core)
    columns = _cuts(width, _padded(-(-width // count), multiple), margin, multiple)
    if _pixels_read(height, columns, multiple) < _pixels_read(height, whole, multiple):
        return columns
    return whole


def _pixels_read(height: int, columns: list[tuple[int, int, int, int]], multiple: int) -> int:
    """The pixels the locator reads in a frame ``height`` tall cut into ``columns``."""
    width = columns[0][3] - columns[0][2]
    rows = strip_rows(height, width, multiple)
    return len(columns) * width * sum(high - low for _, _, low, high in rows)


def heads_in_strips(
    frame: np.ndarray,
    locate: Callable[[np.ndarray], np.ndarray],
    multiple: int,
    stride: int,
) -> np.ndarray:
    """The heads [1, C, H', W'] ``locate`` gives for the whole ``frame`` [H, W, 3], read a
    strip at a time (see ``strip_rows``), and in columns where it is very wide
    (``strip_columns``). ``locate`` takes a part of the frame and gives its heads on the grid
    of that part padded to ``multiple``; ``multiple`` is a multiple of ``stride``, so every
    part's cells fall on the frame's own."""
    height, width = frame.shape[:2]
    columns = strip_columns(height, width, multiple)
    strips = strip_rows(height, columns[0][3] - columns[0][2], multiple)
    if len(strips) == 1 and len(columns) == 1:
        return locate(frame)
    # laid straight into one array: a list of parts joined at the end held the heads twice
    # (22 MB each for a frame of eight million pixels)
    out = None
    for top, bottom, low, high in strips:
        for left, right, start, end in columns:
            heads = locate(frame[low:high, start:end])
            # the last part starts on a multiple, so its padding is the frame's own: keep it
            last_row = None if bottom == height else (bottom - low) // stride
            last_column = None if right == width else (right - start) // stride
            part = heads[
                :, :, (top - low) // stride : last_row, (left - start) // stride : last_column
            ]
            if out is None:
                cells = (_padded(height, multiple) // stride, _padded(width, multiple) // stride)
                out = np.empty((*part.shape[:2], *cells), part.dtype)
            out[
                :,
                :,
                top // stride : top // stride + part.shape[2],
                left // stride : left // stride + part.shape[3],
            ] = part
    return out
