"""Training targets from a scene's labels: what the locator should mark in a frame, and the
upright crops the classifier should read. numpy and OpenCV only (shared with inference tests)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scanner.vision import contract as spec
from scanner.vision.preprocess import crop_to_frame

CLASS_INDEX = {name: i for i, name in enumerate(spec.CLASSES)}


@dataclass(frozen=True)
class IndexTruth:
    """One printed index as the labels give it, in frame px."""

    centre: np.ndarray  # (2,)
    angle: float  # degrees clockwise from upright
    height: float
    width: float
    card_centre: np.ndarray
    card_size: tuple[float, float]  # card width, height in frame px
    code: str
    visible: float  # fraction of the index seen


def index_truths(labels: dict) -> list[IndexTruth]:
    truths = []
    for card in labels["cards"]:
        corners = np.array(card["corners"], dtype=np.float64)
        card_w = float(np.linalg.norm(corners[1] - corners[0]))
        card_h = float(np.linalg.norm(corners[3] - corners[0]))
        for mark in card["indices"]:
            quad = np.array(mark["quad"], dtype=np.float64)
            truths.append(
                IndexTruth(
                    centre=quad.mean(axis=0),
                    angle=float(mark["orientation"]),
                    height=float(np.linalg.norm(quad[3] - quad[0])),
                    width=float(np.linalg.norm(quad[1] - quad[0])),
                    card_centre=corners.mean(axis=0),
                    card_size=(card_w, card_h),
                    code=card["code"],
                    visible=float(mark["visible_fraction"]),
                )
            )
    return truths


def axes(angle: float) -> tuple[np.ndarray, np.ndarray]:
    """The index's reading direction and its "down" direction in the frame (y grows down)."""
    a = np.radians(angle)
    along = np.array([np.cos(a), np.sin(a)])
    down = np.array([-np.sin(a), np.cos(a)])
    return along, down


PEAKS = ("round", "oval")  # the heat peak's shape round an index centre (see ``_peak``)


def locator_targets(
    truths: list[IndexTruth], width: int, height: int, peaks: str = "round"
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Heat (gaussian peaks at readable index centres, shaped as ``peaks`` says: see
    ``_peak``), regression targets, and two weights per cell: heat weight (0 where an index is
    partly hidden: neither right nor wrong to mark) and regression weight (1 at the cells
    around a readable centre)."""
    if peaks not in PEAKS:
        raise ValueError(f"peaks are one of {', '.join(PEAKS)}, not {peaks!r}")
    gw, gh = width // spec.STRIDE, height // spec.STRIDE
    heads = np.zeros((spec.HEAD_CHANNELS, gh, gw), np.float32)
    heat_weight = np.ones((gh, gw), np.float32)
    reg_weight = np.zeros((gh, gw), np.float32)
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    for truth in truths:
        cx, cy = truth.centre / spec.STRIDE
        if not (-2 <= cx < gw + 2 and -2 <= cy < gh + 2):
            continue
        if truth.visible < 0.9:
            if truth.visible > 0.3:  # partly hidden: do not teach either way
                r = max(1.0, truth.height / spec.STRIDE * 0.5)
                near = (xx - cx) ** 2 + (yy - cy) ** 2 <= r * r
                heat_weight[near] = 0.0
            continue
        # CenterNet's way: the peak is exactly 1 at the cell holding the centre (the focal
        # loss counts it as the positive) and the offset channels say where in the cell.
        ix, iy = int(np.floor(cx)), int(np.floor(cy))
        along, down = axes(truth.angle)
        peak = _peak(xx - ix, yy - iy, truth, along, down, oval=peaks == "oval")
        np.maximum(heads[spec.HEAT], peak, out=heads[spec.HEAT])
        offset = (truth.card_centre - truth.centre) / truth.height
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                x, y = ix + dx, iy + dy
                if not (0 <= x < gw and 0 <= y < gh):
                    continue
                heads[spec.COS, y, x] = along[0]
                heads[spec.SIN, y, x] = along[1]
                heads[spec.LOG_INDEX_H, y, x] = np.log(truth.height)
                heads[spec.LOG_INDEX_W, y, x] = np.log(truth.width)
                heads[spec.CARD_U, y, x] = offset @ along
                heads[spec.CARD_V, y, x] = offset @ down
                heads[spec.LOG_CARD_W, y, x] = np.log(truth.card_size[0] / truth.height)
                heads[spec.LOG_CARD_H, y, x] = np.log(truth.card_size[1] / truth.height)
                heads[spec.OFFSET_X, y, x] = cx - x
                heads[spec.OFFSET_Y, y, x] = cy - y
                reg_weight[y, x] = 1.0 if (dx, dy) == (0, 0) else 0.5
    # A partly hidden index lies one fan step from the readable one on top of it; its untaught
    # disc reached that index's own peak for 1.6 % of the readable indices of 300 training
    # scenes, so the locator was never taught to mark them where a cascade packs them closest.
    heat_weight[reg_weight > 0] = 1.0
    return heads, heat_weight, reg_weight


def _peak(
    dx: np.ndarray,
    dy: np.ndarray,
    truth: IndexTruth,
    along: np.ndarray,
    down: np.ndarray,
    *,
    oval: bool,
) -> np.ndarray:
    """The heat taught round an index centre, ``dx``, ``dy`` cells away. Round: as wide as the
    index is tall, what every shipped locator learnt. Oval: as wide and tall as the index,
    turned like it (TTFNet's elliptical peak), so a tight fan's indices, less than a width
    apart, are taught as two peaks where the round ones run into one; tried and not kept
    (model/experiments/tried-v29.md)."""
    sigma_down = max(0.7, truth.height / spec.STRIDE / 6)
    if not oval:
        return np.exp(-(dx**2 + dy**2) / (2 * sigma_down**2))
    sigma_along = max(0.7, truth.width / spec.STRIDE / 6)
    u = dx * along[0] + dy * along[1]
    v = dx * down[0] + dy * down[1]
    return np.exp(-(u**2 / (2 * sigma_along**2) + v**2 / (2 * sigma_down**2)))


WIDER = {"crop_scale": spec.WIDER_SCALE, "shift": (spec.WIDER_ALONG, spec.WIDER_DOWN)}


def upright_crop(
    frame: np.ndarray,
    centre: np.ndarray,
    angle: float,
    index_height: float,
    index_width: float = 0.0,
    **crop: object,
) -> np.ndarray:
    """The crop the classifier reads (see :func:`crop_to_frame`, which takes ``crop``: the
    wider classifier's is ``WIDER``), edge pixels repeated beyond the frame."""
    extent = spec.crop_extent(index_height, index_width)
    return cv2.warpAffine(
        frame,
        crop_to_frame(float(centre[0]), float(centre[1]), angle, extent, **crop),
        (spec.CROP_W, spec.CROP_H),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
