"""A large frame located a strip at a time (pure numpy).

The locator's memory grows with the frame it reads (onnxruntime keeps every layer's output
of the largest input it has seen): about 275 MB for a 1280×960 frame, twice that for a frame
of four million pixels, which a phone's photo reaches, and more for the eight million a frame
of small indices is scaled up to (``scale.py``). A frame taller than a strip's worth of
pixels is read in horizontal strips that overlap by a margin above and below; each strip gives
the heads of its own rows, read with the frame around them, and the rows are laid back
together in the frame's grid.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

# A strip holds at most this many pixels, margins included: a 1280×960 frame (1280×1024
# padded) is read whole, as the models were measured.
STRIP_PIXELS = 1280 * 1024
# Rows of the frame around each strip, so its cells are read with their neighbourhood: on
# two busy frames of 2 and 3 million pixels the strips' heat differed from the whole frame's by
# at most 0.014 and marked the same indices (at 32 rows, by 0.18: a mark more and one less).
STRIP_MARGIN = 96


def _padded(height: int, multiple: int) -> int:
    return -(-height // multiple) * multiple


def strip_rows(height: int, width: int, multiple: int) -> list[tuple[int, int, int, int]]:
    """How a frame ``height`` × ``width`` is cut: (top, bottom) of the rows each strip gives,
    and (low, high) of the rows it reads, every bound a multiple of ``multiple`` or the
    frame's edge. One strip when the frame fits in STRIP_PIXELS. Every strip reads as many
    rows, padding included (the last one reaches further up), so onnxruntime sees one shape."""
    if height * width <= STRIP_PIXELS:
        return [(0, height, 0, height)]
    margin = -(-STRIP_MARGIN // multiple) * multiple
    core = (STRIP_PIXELS // width - 2 * margin) // multiple * multiple
    core = max(core, multiple)  # a frame too wide for the margins still goes a row at a time
    span = core + 2 * margin
    padded = _padded(height, multiple)
    strips = []
    for top in range(0, height, core):
        bottom = min(height, top + core)
        low = max(0, min(top - margin, padded - span))
        strips.append((top, bottom, low, min(height, low + span)))
    return strips


def heads_in_strips(
    frame: np.ndarray,
    locate: Callable[[np.ndarray], np.ndarray],
    multiple: int,
    stride: int,
) -> np.ndarray:
    """The heads [1, C, H', W'] ``locate`` gives for the whole ``frame`` [H, W, 3], read a
    strip at a time (see ``strip_rows``). ``locate`` takes a part of the frame and gives its
    heads on the grid of that part padded to ``multiple``; ``multiple`` is a multiple of
    ``stride``, so every strip's cells fall on the frame's own."""
    height, width = frame.shape[:2]
    strips = strip_rows(height, width, multiple)
    if len(strips) == 1:
        return locate(frame)
    # laid straight into one array: a list of strips joined at the end held the heads twice
    # (22 MB each for a frame of eight million pixels)
    out = None
    for top, bottom, low, high in strips:
        heads = locate(frame[low:high])
        # the last strip starts on a multiple, so its padding is the frame's own: keep it
        last = None if bottom == height else (bottom - low) // stride
        part = heads[:, :, (top - low) // stride : last]
        if out is None:
            cells = _padded(height, multiple) // stride
            out = np.empty((*part.shape[:2], cells, part.shape[3]), part.dtype)
        out[:, :, top // stride : top // stride + part.shape[2]] = part
    return out
