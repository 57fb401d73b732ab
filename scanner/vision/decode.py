"""The locator's heads → index candidates (pure numpy and cv2).

Angles are degrees turned clockwise from upright in the frame (x right, y down), in [0, 360).
An index turned by ``angle`` reads along u = (cos a, sin a); "down" the index is
v = (-sin a, cos a). Positions are frame pixels with the origin at the frame's top-left corner.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from scanner.vision.contract import Contract

Point = tuple[float, float]
LOG_LIMIT = 8.0  # log sizes are clipped to ±LOG_LIMIT so a wild head cannot overflow exp()
MAX_CANDIDATES = 400  # four decks' worth of indices; more means the heat map is noise


@dataclass(frozen=True)
class IndexCandidate:
    """One corner index the locator marked, with the card it predicts around it."""

    x: float  # index centre, frame px
    y: float
    score: float  # the heat at the peak
    angle: float  # reading direction, degrees clockwise from upright
    index_h: float  # index height (along v) and width (along u), frame px
    index_w: float
    card_x: float  # the predicted card centre, frame px
    card_y: float
    card_w: float  # the card's width (along u) and height (along v), frame px
    card_h: float

    @property
    def axes(self) -> tuple[Point, Point]:
        """u (the reading direction) and v (down the index), unit vectors in the frame."""
        theta = math.radians(self.angle)
        return (math.cos(theta), math.sin(theta)), (-math.sin(theta), math.cos(theta))

    def index_quad(self) -> tuple[Point, Point, Point, Point]:
        """The index's outline in reading order: top-left, top-right, bottom-right, bottom-left."""
        return _rectangle((self.x, self.y), self.index_w, self.index_h, self.axes)

    def index_box(self) -> tuple[float, float, float, float]:
        """x0, y0, x1, y1 around the index's outline."""
        xs, ys = zip(*self.index_quad(), strict=True)
        return min(xs), min(ys), max(xs), max(ys)

    def card_polygon(self) -> tuple[Point, Point, Point, Point]:
        """The card's outline, turned like the index: its top-left, top-right, bottom-right and
        bottom-left as this index reads."""
        return _rectangle((self.card_x, self.card_y), self.card_w, self.card_h, self.axes)

    @property
    def card_short_side(self) -> float:
        return min(self.card_w, self.card_h)


def _rectangle(centre: Point, width: float, height: float, axes: tuple[Point, Point]):
    (ux, uy), (vx, vy) = axes
    cx, cy = centre
    return tuple(
        (
            cx + su * width / 2 * ux + sv * height / 2 * vx,
            cy + su * width / 2 * uy + sv * height / 2 * vy,
        )
        for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    )


def find_peaks(heat: np.ndarray, threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of the cells that are the largest in their 3×3 neighbourhood and above
    ``threshold``. Equal neighbours (a plateau) are all peaks; suppression sorts them out."""
    heat = np.ascontiguousarray(heat, np.float32)
    neighbourhood_max = cv2.dilate(heat, np.ones((3, 3), np.uint8), borderType=cv2.BORDER_REPLICATE)
    return np.nonzero((heat >= neighbourhood_max) & (heat > threshold))


def decode_heads(
    heads: np.ndarray,
    frame_size: tuple[int, int],
    contract: Contract,
    limit: int = MAX_CANDIDATES,
    threshold: float | None = None,
) -> tuple[IndexCandidate, ...]:
    """Index candidates from the locator's "heads" ([1, C, h, w] or [C, h, w]), best first,
    at most ``limit``, with more heat than ``threshold`` (default the contract's
    PEAK_THRESHOLD). Peaks whose centre falls in the padding outside the ``frame_size``
    (width, height) are dropped, and cells wholly in the padding before the limit is applied,
    so a plateau there cannot crowd out the frame's own marks."""
    if heads.ndim == 4:
        heads = heads[0]
    if heads.ndim != 3 or heads.shape[0] != contract.head_channels:
        raise ValueError(f"heads should be [{contract.head_channels}, h, w], not {heads.shape}")
    floor = contract.peak_threshold if threshold is None else threshold
    rows, cols = find_peaks(heads[contract.heat], floor)
    width, height = frame_size
    inside = (cols * contract.stride < width) & (rows * contract.stride < height)
    rows, cols = rows[inside], cols[inside]
    if len(rows) > limit:
        best = np.argsort(-heads[contract.heat, rows, cols], kind="stable")[:limit]
        rows, cols = rows[best], cols[best]
    at = heads[:, rows, cols].astype(np.float64)  # [C, n]
    stride = contract.stride
    # The spec calls offsets 0–1, but training teaches them on the 3×3 cells round a centre
    # and the heat peaks at the nearest cell, so −1…2 (mostly ±0.5) is what comes back.
    xs = (cols + np.clip(at[contract.offset_x], -1, 2)) * stride
    ys = (rows + np.clip(at[contract.offset_y], -1, 2)) * stride
    angles = np.degrees(np.arctan2(at[contract.sin], at[contract.cos])) % 360.0
    angles[angles >= 360.0] = 0.0  # -1e-17 % 360 rounds to 360
    index_h = np.exp(np.clip(at[contract.log_index_h], -LOG_LIMIT, LOG_LIMIT))
    index_w = np.exp(np.clip(at[contract.log_index_w], -LOG_LIMIT, LOG_LIMIT))
    card_w = index_h * np.exp(np.clip(at[contract.log_card_w], -LOG_LIMIT, LOG_LIMIT))
    card_h = index_h * np.exp(np.clip(at[contract.log_card_h], -LOG_LIMIT, LOG_LIMIT))
    theta = np.radians(angles)
    along, down = at[contract.card_u] * index_h, at[contract.card_v] * index_h
    card_x = xs + along * np.cos(theta) - down * np.sin(theta)
    card_y = ys + along * np.sin(theta) + down * np.cos(theta)
    candidates = [
        IndexCandidate(
            x=float(xs[n]),
            y=float(ys[n]),
            score=float(at[contract.heat, n]),
            angle=float(angles[n]),
            index_h=float(index_h[n]),
            index_w=float(index_w[n]),
            card_x=float(card_x[n]),
            card_y=float(card_y[n]),
            card_w=float(card_w[n]),
            card_h=float(card_h[n]),
        )
        for n in range(len(rows))
        if xs[n] < width and ys[n] < height
    ]
    return tuple(sorted(candidates, key=lambda candidate: -candidate.score))


def angle_gap(first: float, second: float) -> float:
    """How far apart two angles are, in degrees (0–180).

    >>> angle_gap(350, 10), angle_gap(90, 270)
    (20.0, 180.0)
    """
    return abs((first - second + 180.0) % 360.0 - 180.0)
