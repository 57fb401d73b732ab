"""Drawing objects into the frame: each texture goes straight from its own pixels to the frame
through one homography (object px → table mm → frame px), warped only over its bounding box.

The id map records, for every frame pixel, which object is seen there (0: the table); labels
are read from it, so they agree with the picture by construction.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from model.synth.camera import Camera, apply_homography

SUBPIXEL_BITS = 4


@dataclass(frozen=True)
class Drawn:
    """Where an object landed: its outline in the frame and its pixel bounds (clipped)."""

    quad: np.ndarray  # (4, 2) frame px: the object's texture corners
    box: tuple[int, int, int, int] | None  # x0, y0, x1, y1 within the frame, or None if outside


def placement_matrix(
    texture_size: tuple[int, int], size_mm: tuple[float, float], centre, angle: float
) -> np.ndarray:
    """Object px → table mm: centred, flipped (texture y grows down, table y grows away) and
    turned ``angle`` degrees counter-clockwise."""
    w, h = texture_size
    sx, sy = size_mm[0] / w, size_mm[1] / h
    a = np.radians(angle)
    turn = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    scale = np.array([[sx, 0, -sx * w / 2], [0, -sy, sy * h / 2], [0, 0, 1]])
    move = np.array([[1, 0, centre[0]], [0, 1, centre[1]], [0, 0, 1]])
    return move @ turn @ scale


_MIPS: dict[tuple[int, float], tuple[np.ndarray, np.ndarray]] = {}
_MIPS_KEPT = 6000


def _shrunk(texture: np.ndarray, shrink: float) -> np.ndarray:
    """``texture`` reduced by ``shrink``, remembered: the same faces are drawn in every scene.
    The entry keeps the original alive, so its id cannot be reused by another array."""
    key = (id(texture), shrink)
    hit = _MIPS.get(key)
    if hit is not None:
        return hit[1]
    h, w = texture.shape[:2]
    small = cv2.resize(
        texture,
        (max(1, round(w * shrink)), max(1, round(h * shrink))),
        interpolation=cv2.INTER_AREA,
    )
    if len(_MIPS) >= _MIPS_KEPT:
        _MIPS.pop(next(iter(_MIPS)))
    _MIPS[key] = (texture, small)
    return small


def prepare_mips(texture: np.ndarray, levels: int = 3) -> None:
    """Shrink ``texture`` ahead of time to the sizes scenes will ask for."""
    for level in range(1, levels + 1):
        _shrunk(texture, 0.5**level)


def _mip(texture: np.ndarray, homography: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Shrink the texture first when the frame shows it much smaller (warping alone aliases)."""
    h, w = texture.shape[:2]
    corners = apply_homography(homography, np.array([[0, 0], [w, 0], [w, h], [0, h]]))
    factor = max(
        np.linalg.norm(corners[1] - corners[0]) / w, np.linalg.norm(corners[3] - corners[0]) / h
    )
    shrink = 1.0
    while factor / shrink < 0.5 and min(w, h) * shrink > 16:
        shrink *= 0.5
    if shrink == 1.0:
        return texture, homography
    small = _shrunk(texture, shrink)
    back = np.diag([w / small.shape[1], h / small.shape[0], 1.0])
    return small, homography @ back


class Canvas:
    """The frame being drawn (uint8 RGB plus an unused fourth channel) and its id map.

    Blending goes through ``cv2.blendLinear``, a single pass per object: a scene draws a few
    hundred objects, so this is where its time goes.
    """

    def __init__(self, background: np.ndarray) -> None:
        """``background``: (h, w, 4) uint8, taken over (not copied), or (h, w, 3). Four
        channels, like the textures, so blending needs no copies; the fourth is unused."""
        self.height, self.width = background.shape[:2]
        if background.shape[2] == 3:
            background = cv2.cvtColor(background, cv2.COLOR_RGB2RGBA)
        self.rgba = background
        self.ids = np.zeros((self.height, self.width), dtype=np.int32)

    @property
    def rgb(self) -> np.ndarray:
        return np.ascontiguousarray(self.rgba[..., :3])

    def bounds(self, quad: np.ndarray, grow: float = 0.0) -> tuple[int, int, int, int] | None:
        x0, y0 = np.floor(quad.min(axis=0) - grow).astype(int)
        x1, y1 = np.ceil(quad.max(axis=0) + grow).astype(int) + 1
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, self.width), min(y1, self.height)
        if x0 >= x1 or y0 >= y1:
            return None
        return int(x0), int(y0), int(x1), int(y1)

    def draw(
        self,
        rgba: np.ndarray,
        homography: np.ndarray,
        *,
        object_id: int,
        convex: bool,
        shadow: tuple[float, float, float] | None = None,
        glare: np.ndarray | None = None,
        glossy: float = 0.0,
    ) -> Drawn:
        """Warp ``rgba`` (object px → frame px by ``homography``) over the frame.

        ``shadow`` = (offset_x px, offset_y px, blur sigma px) darkens what lies below first.
        ``convex`` objects (cards) mark the id map with their exact quad; others with their alpha.
        ``glare`` is a frame-sized specular field, shown in proportion to ``glossy``.
        """
        h, w = rgba.shape[:2]
        quad = apply_homography(homography, np.array([[0, 0], [w, 0], [w, h], [0, h]]))
        grow = 0.0 if shadow is None else abs(shadow[0]) + abs(shadow[1]) + 3 * shadow[2]
        box = self.bounds(quad, grow)
        if box is None:
            return Drawn(quad, None)
        x0, y0, x1, y1 = box
        texture, local = _mip(rgba, homography)
        to_roi = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], dtype=np.float64) @ local
        size = (x1 - x0, y1 - y0)
        warped = cv2.warpPerspective(
            texture, to_roi, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT
        )
        alpha = warped[..., 3].astype(np.float32) * (1.0 / 255.0)
        roi = self.rgba[y0:y1, x0:x1]
        if shadow is not None:
            dark = _shadow(alpha, shadow)
            roi[...] = cv2.blendLinear(np.zeros_like(roi), roi, dark, 1.0 - dark)
        if glare is not None and glossy > 0:
            spot = glare[y0:y1, x0:x1] * np.float32(glossy)
            warped = cv2.blendLinear(np.full_like(warped, 255), warped, spot, 1.0 - spot)
        roi[...] = cv2.blendLinear(warped, roi, alpha, 1.0 - alpha)
        self._mark(object_id, quad, alpha, box, convex)
        return Drawn(quad, self.bounds(quad))

    def _mark(self, object_id, quad, alpha, box, convex) -> None:
        x0, y0, x1, y1 = box
        ids = self.ids[y0:y1, x0:x1]
        if convex:
            points = np.round((quad - [x0, y0]) * (1 << SUBPIXEL_BITS)).astype(np.int32)
            cv2.fillConvexPoly(ids, points, object_id, lineType=cv2.LINE_8, shift=SUBPIXEL_BITS)
        else:
            ids[alpha > 0.5] = object_id


def _shadow(alpha: np.ndarray, shadow: tuple[float, float, float]) -> np.ndarray:
    """How much each pixel darkens under an object lifted off the table: its outline moved
    away from the light and softened."""
    dx, dy, sigma = shadow
    shift = np.array([[1, 0, dx], [0, 1, dy]], dtype=np.float32)
    cast = cv2.warpAffine(alpha, shift, (alpha.shape[1], alpha.shape[0]))
    if sigma > 0.3:  # a box blur of the same spread: as soft, and much cheaper
        size = 2 * round(sigma * 1.7) + 1
        cast = cv2.blur(cast, (size, size))
    return cast * np.float32(0.45)


def visible_fraction(ids: np.ndarray, object_id: int, quad: np.ndarray) -> float:
    """The share of ``quad``'s pixels (in frame px, counting those outside the frame) where the
    frame shows ``object_id``. The quad is rasterised exactly as :meth:`Canvas.draw` marks it,
    so an object in full view gives exactly 1."""
    height, width = ids.shape
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    if x1 <= 0 or y1 <= 0 or x0 >= width or y0 >= height:
        return 0.0
    if (x1 - x0) > FAR_BEYOND * width or (y1 - y0) > FAR_BEYOND * height:
        return _far_beyond_fraction(ids, object_id, quad)
    inside = np.zeros((y1 - y0, x1 - x0), dtype=np.uint8)
    points = np.round((quad - [x0, y0]) * (1 << SUBPIXEL_BITS)).astype(np.int32)
    cv2.fillConvexPoly(inside, points, 1, lineType=cv2.LINE_8, shift=SUBPIXEL_BITS)
    total = np.count_nonzero(inside)
    if total == 0:
        return 0.0
    fx0, fy0 = max(x0, 0), max(y0, 0)
    fx1, fy1 = min(x1, width), min(y1, height)
    if fx0 >= fx1 or fy0 >= fy1:
        return 0.0
    frame_part = inside[fy0 - y0 : fy1 - y0, fx0 - x0 : fx1 - x0]
    seen = np.count_nonzero((ids[fy0:fy1, fx0:fx1] == object_id) & (frame_part == 1))
    return float(seen / total)


# A quad reaching this many frame widths or heights beyond the frame (a card the camera sees
# nearly edge-on, stretched towards its horizon) is not rasterised whole: one seed's card spanned
# 160,000 × 260,000 px, 39 GB as a mask.
FAR_BEYOND = 8


def _far_beyond_fraction(ids: np.ndarray, object_id: int, quad: np.ndarray) -> float:
    """:func:`visible_fraction` for a huge quad: its area measured, not counted, and only its
    part inside the frame rasterised."""
    x, y = np.asarray(quad, np.float64).T
    area = 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)))
    if area <= 0:
        return 0.0
    inside = np.zeros(ids.shape, dtype=np.uint8)
    points = np.round(quad * (1 << SUBPIXEL_BITS)).astype(np.int32)
    cv2.fillConvexPoly(inside, points, 1, lineType=cv2.LINE_8, shift=SUBPIXEL_BITS)
    return float(np.count_nonzero((ids == object_id) & (inside == 1)) / area)


def camera_matrix(camera: Camera, placement: np.ndarray) -> np.ndarray:
    return camera.homography @ placement
