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
    small = cv2.resize(
        texture,
        (max(1, round(w * shrink)), max(1, round(h * shrink))),
        interpolation=cv2.INTER_AREA,
    )
    back = np.diag([w / small.shape[1], h / small.shape[0], 1.0])
    return small, homography @ back


class Canvas:
    """The frame being drawn (float32 RGB, 0–255) and its id map."""

    def __init__(self, background: np.ndarray) -> None:
        self.rgb = background.astype(np.float32)
        self.height, self.width = background.shape[:2]
        self.ids = np.zeros((self.height, self.width), dtype=np.int32)

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

        ``shadow`` = (offset_x px, offset_y px, blur sigma px) darkens the table first.
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
        alpha = warped[..., 3:4].astype(np.float32) / 255.0
        roi = self.rgb[y0:y1, x0:x1]
        if shadow is not None:
            self._shadow(roi, alpha, shadow)
        colour = warped[..., :3].astype(np.float32)
        if glare is not None and glossy > 0:
            spot = glare[y0:y1, x0:x1, None] * glossy
            colour += spot * (255.0 - colour)
        roi *= 1.0 - alpha
        roi += colour * alpha
        self._mark(object_id, quad, alpha[..., 0], box, convex)
        return Drawn(quad, self.bounds(quad))

    @staticmethod
    def _shadow(roi: np.ndarray, alpha: np.ndarray, shadow: tuple[float, float, float]) -> None:
        dx, dy, sigma = shadow
        shift = np.array([[1, 0, dx], [0, 1, dy]], dtype=np.float32)
        cast = cv2.warpAffine(alpha[..., 0], shift, (roi.shape[1], roi.shape[0]))
        if sigma > 0.3:
            cast = cv2.GaussianBlur(cast, (0, 0), sigma)
        roi *= 1.0 - 0.45 * cast[..., None]

    def _mark(self, object_id, quad, alpha, box, convex) -> None:
        x0, y0, x1, y1 = box
        ids = self.ids[y0:y1, x0:x1]
        if convex:
            points = np.round((quad - [x0, y0]) * (1 << SUBPIXEL_BITS)).astype(np.int32)
            cv2.fillConvexPoly(ids, points, object_id, lineType=cv2.LINE_8, shift=SUBPIXEL_BITS)
        else:
            ids[alpha > 0.5] = object_id


def visible_fraction(ids: np.ndarray, object_id: int, quad: np.ndarray) -> float:
    """The share of ``quad``'s pixels (in frame px, counting those outside the frame) where the
    frame shows ``object_id``. The quad is rasterised exactly as :meth:`Canvas.draw` marks it,
    so an object in full view gives exactly 1."""
    height, width = ids.shape
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
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


def camera_matrix(camera: Camera, placement: np.ndarray) -> np.ndarray:
    return camera.homography @ placement
