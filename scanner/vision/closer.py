"""A closer look at the small marks the classifier calls "not an index" (pure numpy/OpenCV).

A small index (up to about 16 px high in the frame) is often marked in the right place but
measured wrongly: its reading angle off by 15–30°, its height by a third, so the crop the
classifier reads cuts the rank in half. The locator measures such an index better in the frame
scaled up twice, but locating a whole frame so costs four times a pass, and run over whole busy
frames it found as many patterns on the cloth as cards. So only a patch around each small mark
read "not an index" is scaled up; the patches are laid side by side, apart, in one mosaic the
locator reads in one pass, and each mark the locator finds there on the first one's index (near
its centre, reading about the same way) is read again.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from scanner.vision.cards import IndexReading
from scanner.vision.contract import Contract
from scanner.vision.decode import IndexCandidate, angle_gap
from scanner.vision.preprocess import normalise, padded_size

# Each chosen in model/experiments/closer.md:
ZOOM = 2.0  # how much larger the locator sees a patch
PATCH = 64  # the side of the square around a mark, frame px
GAP = 32  # blank mosaic px between patches, so no patch's marks lean on its neighbour's
LARGEST_INDEX = 16.0  # only marks up to this high (frame px) are looked at again
MOST_PATCHES = 64  # a frame's most, the hottest first: clutter costs at most about one pass
SAME_INDEX = 0.5  # a closer mark within this many index heights of the first …
SAME_WAY = 45.0  # … reading within this many degrees of it marks the same index


def worth_a_closer_look(
    readings: Sequence[IndexReading], not_an_index: str, most: int = MOST_PATCHES
) -> list[int]:
    """The numbers of the readings to look at again: small marks read ``not_an_index``, at
    most ``most`` of them, the hottest first."""
    small = [
        n
        for n, reading in enumerate(readings)
        if reading.code == not_an_index and reading.index.index_h <= LARGEST_INDEX
    ]
    return sorted(small, key=lambda n: -readings[n].index.score)[:most]


@dataclass(frozen=True)
class Mosaic:
    """Patches around marks, scaled up by ``zoom`` and laid in rows ``per_row`` wide, each
    ``gap`` px apart: ``tensor`` is the locator's input [1, 3, H, W] (H and W multiples of the
    contract's LOCATOR_MULTIPLE), ``origins`` each patch's top-left corner in the frame."""

    tensor: np.ndarray
    origins: tuple[tuple[float, float], ...]
    per_row: int
    patch: int
    zoom: float
    gap: int

    @property
    def tile(self) -> int:
        """The side of one scaled patch in the mosaic, px."""
        return round(self.patch * self.zoom)

    def tile_origin(self, n: int) -> tuple[int, int]:
        """Patch ``n``'s top-left corner in the mosaic."""
        step = self.tile + self.gap
        return (n % self.per_row) * step, (n // self.per_row) * step


def build_mosaic(
    frame: np.ndarray,
    places: Sequence[tuple[float, float]],
    contract: Contract,
    zoom: float = ZOOM,
    patch: int = PATCH,
    gap: int = GAP,
) -> Mosaic:
    """The patches ``patch`` px wide centred on ``places`` (x, y) of an RGB uint8 frame, each
    scaled by ``zoom`` (beyond the frame's edge its border pixels repeat), in one mosaic."""
    if not places:
        raise ValueError("a mosaic needs at least one place")
    tile = round(patch * zoom)
    per_row = math.ceil(math.sqrt(len(places)))
    rows = math.ceil(len(places) / per_row)
    width, height = padded_size(per_row * (tile + gap), rows * (tile + gap), contract)
    origins = tuple((x - patch / 2, y - patch / 2) for x, y in places)
    mosaic = Mosaic(np.zeros((1, 3, height, width), np.float32), origins, per_row, patch, zoom, gap)
    for n, (x0, y0) in enumerate(origins):
        scale = np.array([[zoom, 0, -zoom * x0], [0, zoom, -zoom * y0]], np.float64)
        pixels = cv2.warpAffine(
            frame, scale, (tile, tile), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        left, top = mosaic.tile_origin(n)
        mosaic.tensor[0, :, top : top + tile, left : left + tile] = normalise(pixels, contract)
    return mosaic


def marks_in_frame(
    mosaic: Mosaic, marks: Iterable[IndexCandidate]
) -> list[tuple[int, IndexCandidate]]:
    """Each mark the locator found inside a patch of ``mosaic``, as (the patch's number, the
    mark in frame px); marks in the gaps between patches are left out."""
    step, tile, shrink = mosaic.tile + mosaic.gap, mosaic.tile, 1.0 / mosaic.zoom
    found = []
    for mark in marks:
        column, row = int(mark.x // step), int(mark.y // step)
        n = row * mosaic.per_row + column
        if column >= mosaic.per_row or n >= len(mosaic.origins):
            continue
        left, top = mosaic.tile_origin(n)
        if not (left <= mark.x < left + tile and top <= mark.y < top + tile):
            continue
        x0, y0 = mosaic.origins[n]
        found.append(
            (
                n,
                replace(
                    mark,
                    x=x0 + (mark.x - left) * shrink,
                    y=y0 + (mark.y - top) * shrink,
                    index_h=mark.index_h * shrink,
                    index_w=mark.index_w * shrink,
                    card_x=x0 + (mark.card_x - left) * shrink,
                    card_y=y0 + (mark.card_y - top) * shrink,
                    card_w=mark.card_w * shrink,
                    card_h=mark.card_h * shrink,
                ),
            )
        )
    return found


def same_index(first: IndexCandidate, closer: IndexCandidate) -> bool:
    """Whether ``closer`` marks the index ``first`` marks: near its centre, reading about the
    same way (the angles the locator gives a small index differ by up to 30°)."""
    distance = math.hypot(closer.x - first.x, closer.y - first.y)
    return (
        distance < SAME_INDEX * max(first.index_h, closer.index_h)
        and angle_gap(closer.angle, first.angle) < SAME_WAY
    )


def closer_marks(
    places: Sequence[IndexCandidate], found: Iterable[tuple[int, IndexCandidate]]
) -> dict[int, IndexCandidate]:
    """For each of ``places`` (by number) the hottest mark found in its patch on its index."""
    best: dict[int, IndexCandidate] = {}
    for n, mark in found:
        if same_index(places[n], mark) and (n not in best or mark.score > best[n].score):
            best[n] = mark
    return best
