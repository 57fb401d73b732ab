"""Frames and crops as the two models take them (pure functions of numpy arrays).

Coordinates are frame pixels, x right, y down, as in the scene labels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol

import cv2
import numpy as np

from scanner.vision.contract import CROP_H, CROP_SCALE, CROP_W, Contract, crop_extent


class IndexPlace(Protocol):
    """Where an index lies: its centre, its reading angle and its height (frame px)."""

    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def angle(self) -> float: ...
    @property
    def index_h(self) -> float: ...
    @property
    def index_w(self) -> float: ...


def _scale_and_shift(contract: Contract) -> tuple[np.float32, np.float32]:
    """(pixel / 255 - MEAN) / STD as pixel × scale - shift, in float32."""
    return np.float32(1 / (255 * contract.std)), np.float32(contract.mean / contract.std)


def normalise(pixels: np.ndarray, contract: Contract) -> np.ndarray:
    """uint8 RGB [..., H, W, 3] → float32 [..., 3, H, W], (pixel / 255 - MEAN) / STD."""
    scale, shift = _scale_and_shift(contract)
    scaled = pixels.astype(np.float32) * scale
    scaled -= shift
    return np.moveaxis(scaled, -1, -3)


def padded_size(width: int, height: int, contract: Contract) -> tuple[int, int]:
    """The frame size rounded up to a multiple of LOCATOR_MULTIPLE.

    >>> padded_size(1280, 950, Contract.from_spec())
    (1280, 960)
    """
    multiple = contract.locator_multiple
    return -(-width // multiple) * multiple, -(-height // multiple) * multiple


def locator_input(frame: np.ndarray, contract: Contract) -> np.ndarray:
    """An RGB uint8 frame [H, W, 3] → the locator's "image" [1, 3, H', W'], normalised, then
    padded with zeros at the bottom and right to multiples of LOCATOR_MULTIPLE. Exactly
    ``normalise``'s numbers, written a colour plane at a time straight into the tensor (1.6
    against 4.5 ms for a 1280×960 frame)."""
    check_frame(frame)
    height, width = frame.shape[:2]
    padded_w, padded_h = padded_size(width, height, contract)
    tensor = np.empty((1, 3, padded_h, padded_w), np.float32)
    if (padded_h, padded_w) != (height, width):
        tensor.fill(0.0)
    scale, shift = _scale_and_shift(contract)
    for channel, plane in enumerate(cv2.split(frame)):
        into = tensor[0, channel, :height, :width]
        np.multiply(plane, scale, out=into, dtype=np.float32)
        into -= shift
    return tensor


def check_frame(frame: np.ndarray) -> None:
    if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError(f"a frame is uint8 [H, W, 3] RGB, not {frame.dtype} {frame.shape}")


def crop_to_frame(
    x: float,
    y: float,
    angle: float,
    extent: float,
    *,
    crop_w: int = CROP_W,
    crop_h: int = CROP_H,
    crop_scale: float = CROP_SCALE,
    shift: tuple[float, float] = (0.0, 0.0),
) -> np.ndarray:
    """The 2×3 affine map from crop px to frame px: the crop is ``crop_scale × extent`` tall,
    turned by ``angle`` so the index reads upright, its middle on (x, y) moved ``shift``
    extents along and down the index. Training and inference both cut their crops with this
    one map."""
    # In plain floats: a frame's crops ask for some 400 maps, and numpy's small arrays took
    # 11 µs a map against 1.3 (the same numbers, but for the last bit of some origins).
    turn = math.radians(angle)
    cos, sin = math.cos(turn), math.sin(turn)  # along (cos, sin), down (-sin, cos)
    scale = crop_scale * extent / crop_h  # frame px per crop px
    middle_x = x + (shift[0] * cos + shift[1] * -sin) * extent
    middle_y = y + (shift[0] * sin + shift[1] * cos) * extent
    along_x, along_y, down_x, down_y = cos * scale, sin * scale, -sin * scale, cos * scale
    half_w, half_h = crop_w / 2, crop_h / 2
    return np.array(
        [
            [along_x, down_x, middle_x - (along_x * half_w + down_x * half_h)],
            [along_y, down_y, middle_y - (along_y * half_w + down_y * half_h)],
        ]
    )


def crop_matrix(
    place: IndexPlace,
    contract: Contract,
    *,
    scale: float | None = None,
    shift: tuple[float, float] = (0.0, 0.0),
) -> np.ndarray:
    """The 2×3 affine map from crop pixels to frame pixels that turns the index at ``place``
    upright: the training crops' own map (``crop_to_frame``), with
    the sizes of the shipped models' contract, because the classifier only reads well what it
    saw in training. ``scale`` (default CROP_SCALE) and ``shift``: as ``crop_to_frame``'s."""
    return crop_to_frame(
        place.x,
        place.y,
        place.angle,
        crop_extent(place.index_h, place.index_w, contract.crop_fits_width),
        crop_w=contract.crop_w,
        crop_h=contract.crop_h,
        crop_scale=contract.crop_scale if scale is None else scale,
        shift=shift,
    )


def upright_crops(
    frame: np.ndarray, places: Sequence[IndexPlace], contract: Contract
) -> np.ndarray:
    """Upright crops around each index as the classifier reads them: uint8 [N, CROP_H, CROP_W,
    3]. Beyond the frame's edge the edge pixels repeat, as in training."""
    matrices = [crop_matrix(place, contract) for place in places]
    return warped(frame, matrices, (contract.crop_w, contract.crop_h))


def wider_crops(frame: np.ndarray, places: Sequence[IndexPlace], contract: Contract) -> np.ndarray:
    """The crops the wider classifier reads (``contract.py``): as the classifier's, but
    WIDER_SCALE index extents tall, moved WIDER_ALONG along and WIDER_DOWN down the index."""
    shift = (contract.wider_along, contract.wider_down)
    matrices = [
        crop_matrix(place, contract, scale=contract.wider_scale, shift=shift) for place in places
    ]
    return warped(frame, matrices, (contract.crop_w, contract.crop_h))


def context_matrix(place: IndexPlace, contract: Contract) -> np.ndarray:
    """The 2×3 affine map from context-crop pixels to frame pixels: a square VERIFY_SCALE index
    extents wide, turned like the index, its middle moved VERIFY_SHIFT extents along and down
    the index, so it holds the index, the paper around it and the card's corner."""
    side = contract.verify_side
    return crop_to_frame(
        place.x,
        place.y,
        place.angle,
        crop_extent(place.index_h, place.index_w, contract.crop_fits_width),
        crop_w=side,
        crop_h=side,
        crop_scale=contract.verify_scale,
        shift=(contract.verify_shift, contract.verify_shift),
    )


def context_crops(
    frame: np.ndarray, places: Sequence[IndexPlace], contract: Contract
) -> np.ndarray:
    """Square crops of each index with its surroundings, as the verifier reads them: uint8 [N,
    VERIFY_SIDE, VERIFY_SIDE, 3], edge pixels repeated beyond the frame."""
    return warped(
        frame, [context_matrix(place, contract) for place in places], (contract.verify_side,) * 2
    )


def warped(frame: np.ndarray, matrices: Sequence[np.ndarray], size: tuple[int, int]) -> np.ndarray:
    check_frame(frame)
    width, height = size
    crops = np.empty((len(matrices), height, width, 3), np.uint8)
    for n, matrix in enumerate(matrices):
        crops[n] = cv2.warpAffine(
            frame,
            matrix,
            (width, height),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
    return crops


def index_crops(frame: np.ndarray, places: Sequence[IndexPlace], contract: Contract) -> np.ndarray:
    """:func:`upright_crops`, normalised like the locator's input: float32 [N, 3, CROP_H,
    CROP_W]."""
    return normalise(upright_crops(frame, places, contract), contract)
