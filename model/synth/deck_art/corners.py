"""Find a rasterised card's two corner indices (rank and suit sign) from its ink.

In the card's top-left region, ink is what differs clearly from the paper. Its connected
blobs are grouped starting from the one nearest the corner (the rank), adding blobs that lie
close to the group and are no larger than the rank (a "10"'s second digit, the suit sign under
or beside it), never lines that run along the edge (borders) or large blobs (court pictures,
pips). The bottom-right index is found the same way on the card turned half a turn.
"""

from __future__ import annotations

import cv2
import numpy as np

REGION = (0.34, 0.5)  # share of the card's width and height searched from a corner
INK = 70.0  # distance from the paper's colour (0–441) that counts as ink
VERSION = 6  # bump when the boxes found would change
MARGIN = 2  # px of air around the ink in a label box, as the procedural faces have


def paper_colour(rgba: np.ndarray) -> np.ndarray:
    """The card stock's colour: the median of the brightest quarter of the opaque pixels of the
    top-left region (court pictures may fill most of it; the paper is the lightest thing)."""
    h, w = rgba.shape[:2]
    region = rgba[: int(h * REGION[1]), : int(w * REGION[0])]
    opaque = region[region[..., 3] > 250][:, :3]
    if len(opaque) == 0:
        opaque = rgba[rgba[..., 3] > 250][:, :3]
    light = opaque.astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)
    return np.median(opaque[light >= np.percentile(light, 75)], axis=0)


def ink_mask(rgba: np.ndarray, paper: np.ndarray) -> np.ndarray:
    diff = rgba[..., :3].astype(np.float32) - paper.astype(np.float32)
    far = np.sqrt((diff**2).sum(axis=2)) > INK
    return far & (rgba[..., 3] > 250)


def _gap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    """Distance between two boxes (x0, y0, x1, y1), 0 when they touch or overlap."""
    dx = max(a[0] - b[2], b[0] - a[2], 0)
    dy = max(a[1] - b[3], b[1] - a[3], 0)
    return float(np.hypot(dx, dy))


def find_top_left(rgba: np.ndarray) -> tuple[int, int, int, int] | None:
    """The box (x0, y0, x1, y1), ink only, of the index read upright at the top-left corner,
    or None when none is found."""
    h, w = rgba.shape[:2]
    rw, rh = int(w * REGION[0]), int(h * REGION[1])
    mask = ink_mask(rgba, paper_colour(rgba))[:rh, :rw].astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    edge = max(2, round(0.012 * w))
    blobs = []
    for x, y, bw, bh, area in stats[1:count]:
        if area < 0.00012 * w * h:
            continue  # specks
        if bw > 0.6 * rw or bh > 0.7 * rh:
            continue  # borders, frames, court pictures
        if x < edge or y < edge:
            continue  # lines along the card's edge
        if x + bw >= rw - 1 or y + bh >= rh - 1:
            continue  # running on beyond the region: a picture, not an index
        blobs.append((int(x), int(y), int(x + bw), int(y + bh)))
    tall = [b for b in blobs if b[3] - b[1] >= 0.03 * h]
    if not tall:
        return None
    rank = min(tall, key=lambda b: b[0] + b[1])
    rank_h = rank[3] - rank[1]
    # the rank's other parts: a "10"'s second digit, a letter drawn in pieces
    group = _grow(rank, blobs, lambda g, b: _beside(g, b, rank_h))
    # the suit sign: the nearest blob under the rank, or else beside it, no larger than it
    near = [
        b
        for b in blobs
        if b[3] - b[1] <= 1.2 * rank_h
        and b[2] - b[0] <= 1.4 * rank_h
        and _gap(group, b) <= 0.45 * rank_h
        and not _inside(b, group)
    ]
    under = [
        b for b in near if b[1] >= group[3] - 0.2 * rank_h and b[0] < group[2] and b[2] > group[0]
    ]
    beside = [b for b in near if b[0] >= (group[0] + group[2]) / 2]
    if under or beside:
        suit = min(under or beside, key=lambda b: _gap(group, b))
        suit = _grow(suit, blobs, lambda g, b: _gap(g, b) <= 0.08 * rank_h and _inside_grown(b, g))
        group = _union(group, suit)
    return group


Box = tuple[int, int, int, int]


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _inside(b: Box, g: Box) -> bool:
    return b[0] >= g[0] and b[1] >= g[1] and b[2] <= g[2] and b[3] <= g[3]


def _inside_grown(b: Box, g: Box) -> bool:
    """``b`` no larger than ``g`` grown by half: a piece of the same sign."""
    gw, gh = g[2] - g[0], g[3] - g[1]
    return b[2] - b[0] <= 1.5 * gw and b[3] - b[1] <= 1.5 * gh


def _beside(g: Box, b: Box, rank_h: int) -> bool:
    """``b`` is another piece of the rank ``g``: a glyph standing on its line, as tall (a
    "10"'s second digit; not a large suit sign printed beside a court's letter)."""
    level = abs(b[1] - g[1]) <= 0.12 * rank_h and abs(b[3] - g[3]) <= 0.12 * rank_h
    narrow = b[2] - b[0] <= 0.9 * rank_h
    return level and narrow and _gap(g, b) <= 0.25 * rank_h


def _grow(seed: Box, blobs: list[Box], joins) -> Box:
    group, changed = seed, True
    while changed:
        changed = False
        for b in blobs:
            if not _inside(b, group) and joins(group, b):
                group, changed = _union(group, b), True
    return group


def index_quads(rgba: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Both corner indices as quads in reading order (top-left, top-right, bottom-right,
    bottom-left as the index is read), with ``MARGIN`` px of air: the top-left index's first,
    then the bottom-right one's, turned. None when either is missing."""
    h, w = rgba.shape[:2]
    upside_down = np.ascontiguousarray(rgba[::-1, ::-1])
    top = find_top_left(rgba)
    turned = find_top_left(upside_down)
    pair_ok = (
        top is not None
        and turned is not None
        and plausible(_quads(top, turned, w, h), (w, h)) is None
    )
    if not pair_ok:
        # One corner's ink runs into a pip or a picture: most decks print the second index
        # as the first turned, so take the box found at one corner for both when the ink
        # inside it is the same at the other.
        ink = ink_mask(rgba, paper_colour(rgba))
        ink_turned = ink[::-1, ::-1]
        for box in (top, turned):
            if box is not None and _same_ink(ink, ink_turned, box):
                top, turned = box, box
                break
        else:
            return None
    return _quads(top, turned, w, h)  # type: ignore[arg-type]


def _same_ink(a: np.ndarray, b: np.ndarray, box: Box) -> bool:
    """The ink inside ``box`` is the same (IoU at least 0.8) on masks ``a`` and ``b``."""
    x0, y0, x1, y1 = box
    pa, pb = a[y0:y1, x0:x1], b[y0:y1, x0:x1]
    union = np.count_nonzero(pa | pb)
    return union > 0 and np.count_nonzero(pa & pb) / union >= 0.8


def _quads(top: Box, turned: Box, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    quads = []
    for box, orientation in ((top, 0), (turned, 180)):
        x0, y0, x1, y1 = box
        if orientation == 180:
            x0, y0, x1, y1 = w - x1, h - y1, w - x0, h - y0
        x0, y0 = max(x0 - MARGIN, 0), max(y0 - MARGIN, 0)
        x1, y1 = min(x1 + MARGIN, w), min(y1 + MARGIN, h)
        quad = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        if orientation == 180:
            quad = quad[2:] + quad[:2]
        quads.append(np.array(quad, np.float32))
    return quads[0], quads[1]


def plausible(quads: tuple[np.ndarray, np.ndarray], size: tuple[int, int]) -> str | None:
    """Why two found indices do not look like a card's pair of indices, or None if they do:
    each a sensible size, and the two alike (the second is the first turned)."""
    w, h = size
    dims = [np.ptp(q, axis=0) for q in quads]
    for qw, qh in dims:
        if not (0.06 * h <= qh <= 0.44 * h and 0.03 * w <= qw <= 0.3 * w):
            return f"an index {qw:.0f}×{qh:.0f} px on a {w}×{h} card"
    (aw, ah), (bw, bh) = dims
    if abs(aw - bw) > 0.25 * max(aw, bw) + 3 or abs(ah - bh) > 0.2 * max(ah, bh) + 3:
        return f"corners differ: {aw:.0f}×{ah:.0f} and {bw:.0f}×{bh:.0f} px"
    return None
