"""The locator read four times, the frame turned a quarter at a time (pure numpy).

Indices lie at every angle on a table, so the frame turned by a quarter is a frame the locator
was trained on. Each turn sees the small and crowded indices a little differently; the mean of
the four sets of heads, each turned back into the frame's own grid, marks more of them and
fewer patterns on the cloth than any one (model/experiments/turns.md).

The locator's input is padded to a multiple of 32 on both sides, so a turned tensor's cells
fall exactly on the frame's own cells. Pixel ``i`` of a row of ``n`` lands on pixel
``n - 1 - i`` when the row is reversed: a centre ``o`` cells into its cell comes back
``1 - o - 1/stride`` into the mirrored one.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from scanner.vision.contract import Contract

QUARTER_TURNS = (0, 1, 2, 3)  # np.rot90's k: quarter turns anticlockwise as the array shows
_ROTATE = {1: cv2.ROTATE_90_COUNTERCLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_CLOCKWISE}
# ``--turns``: four read best, two or one faster (model/experiments/turns.md)
TURN_CHOICES = {1: (0,), 2: (0, 2), 4: QUARTER_TURNS}


def turned(tensor: np.ndarray, k: int) -> np.ndarray:
    """The locator's input [1, 3, H, W] turned by ``k`` quarter turns (np.rot90's sense), laid
    out afresh (``tensor`` itself for a whole turn). OpenCV turns each plane in cache-sized
    blocks, straight into the turned array: copying np.rot90's view of a 1280×960 frame took
    twice as long (5.6 against 2.7 ms a quarter turn)."""
    k %= 4
    if k == 0:
        return tensor
    planes = np.ascontiguousarray(tensor).reshape(-1, *tensor.shape[2:])
    height, width = planes.shape[1:]
    size = (height, width) if k == 2 else (width, height)
    out = np.empty((len(planes), *size), tensor.dtype)
    for plane, into in zip(planes, out, strict=True):
        cv2.rotate(plane, _ROTATE[k], dst=into)
    return out.reshape(*tensor.shape[:2], *size)


def turned_back(heads: np.ndarray, k: int, contract: Contract) -> np.ndarray:
    """The heads [1, C, h, w] the locator gave for ``turned(tensor, k)``, in the grid and the
    directions of the unturned frame: cells turned back, the reading direction (cos, sin) and
    the sub-cell offsets turned with them. Sizes and the card's place relative to its index
    are the same whichever way the frame lies."""
    k %= 4
    if k == 0:
        return heads
    back = np.rot90(heads, -k, axes=(2, 3)).copy()
    cos, sin = back[:, contract.cos].copy(), back[:, contract.sin].copy()
    dx, dy = back[:, contract.offset_x].copy(), back[:, contract.offset_y].copy()
    mirrored = 1.0 - 1.0 / contract.stride  # o cells into a cell ↔ mirrored - o in the reversed one
    if k == 1:  # frame x = W - 1 - turned y, frame y = turned x
        back[:, contract.cos], back[:, contract.sin] = -sin, cos
        back[:, contract.offset_x], back[:, contract.offset_y] = mirrored - dy, dx
    elif k == 2:
        back[:, contract.cos], back[:, contract.sin] = -cos, -sin
        back[:, contract.offset_x], back[:, contract.offset_y] = mirrored - dx, mirrored - dy
    else:  # frame x = turned y, frame y = H - 1 - turned x
        back[:, contract.cos], back[:, contract.sin] = sin, -cos
        back[:, contract.offset_x], back[:, contract.offset_y] = dy, mirrored - dx
    return back


def mean_heads(
    tensor: np.ndarray,
    locate: Callable[[np.ndarray], np.ndarray],
    contract: Contract,
    turns: tuple[int, ...] = QUARTER_TURNS,
) -> np.ndarray:
    """The mean of the heads ``locate`` gives for ``tensor`` turned by each of ``turns``, each
    turned back first, summed in the order of ``turns``.

    The turns are read grouped by shape (upright ones first, then the sideways ones): an
    onnxruntime session lays out its buffers afresh for each new input shape, and taking the
    four turns of a 1280×960 frame in turn cost 114 ms against 100 ms grouped."""
    if not turns:
        raise ValueError("at least one turn is needed")
    heads = {}
    for k in sorted(set(turns), key=lambda k: (k % 2, turns.index(k))):
        heads[k] = turned_back(locate(turned(tensor, k)), k, contract)
    total = heads[turns[0]].copy()
    for k in turns[1:]:
        total += heads[k]
    return total / len(turns)
