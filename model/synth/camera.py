"""A pinhole camera above the table: where a point of the table (in mm) lands in the frame.

The table is the plane z = 0, x to the right and y away from the viewer as seen in an upright
frame; the camera hangs ``height_mm`` above the point it looks at and may lean up to 25°.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Frame sizes: the Pi cameras' still and video modes, and phone photos.
PI_FRAME_SIZES = ((1280, 960), (1640, 1232), (1920, 1080), (2028, 1520), (2304, 1296))
PHONE_FRAME_SIZES = ((1600, 1200), (2016, 1512), (1512, 2016))
CARD_SHORT_MM = 63.5


@dataclass(frozen=True)
class Camera:
    width: int
    height: int
    homography: np.ndarray  # 3×3, table mm → frame px
    px_per_mm: float  # at the frame centre
    tilt_deg: float
    height_mm: float

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """Table points (N, 2) in mm → frame points (N, 2) in px."""
        return apply_homography(self.homography, points_mm)

    def visible_table(self, margin_px: float = 0.0) -> np.ndarray:
        """The frame's corners (grown by ``margin_px``) on the table, in mm: a quad."""
        m = margin_px
        corners = np.array(
            [
                [-m, -m],
                [self.width + m, -m],
                [self.width + m, self.height + m],
                [-m, self.height + m],
            ],
            dtype=np.float64,
        )
        return apply_homography(np.linalg.inv(self.homography), corners)


def apply_homography(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Map (N, 2) points through the 3×3 homography ``h``."""
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    mapped = points @ h[:, :2].T + h[:, 2]
    return mapped[:, :2] / mapped[:, 2:3]


def look_at_camera(
    width: int,
    height: int,
    px_per_mm: float,
    *,
    tilt_deg: float = 0.0,
    tilt_direction_deg: float = 0.0,
    roll_deg: float = 0.0,
    height_mm: float = 600.0,
    target_mm: tuple[float, float] = (0.0, 0.0),
) -> Camera:
    """A camera ``height_mm`` from ``target_mm`` (measured along its axis), leaning ``tilt_deg``
    from vertical towards ``tilt_direction_deg``, turned ``roll_deg`` about its axis, with a
    focal length that gives ``px_per_mm`` at the frame centre."""
    tilt, direction, roll = np.radians([tilt_deg, tilt_direction_deg, roll_deg])
    target = np.array([*target_mm, 0.0])
    # Where the camera sits: leaning away from the point it looks at.
    offset = np.array(
        [np.sin(tilt) * np.cos(direction), np.sin(tilt) * np.sin(direction), np.cos(tilt)]
    )
    centre = target + height_mm * offset
    forward = -offset
    # Frame "up" is table +y when the camera does not roll (y grows down in the frame).
    up_hint = np.array([0.0, 1.0, 0.0]) if abs(forward[1]) < 0.99 else np.array([1.0, 0.0, 0.0])
    right = np.cross(forward, up_hint)
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    right, down = (
        np.cos(roll) * right + np.sin(roll) * down,
        -np.sin(roll) * right + np.cos(roll) * down,
    )
    rotation = np.stack([right, down, forward])  # rows: camera axes in table coordinates
    focal = px_per_mm * height_mm
    intrinsics = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]])
    extrinsics = np.column_stack([rotation[:, 0], rotation[:, 1], -rotation @ centre])
    homography = intrinsics @ extrinsics
    homography /= homography[2, 2]
    return Camera(width, height, homography, px_per_mm, float(tilt_deg), height_mm)


def sample_camera(rng: np.random.Generator, size: tuple[int, int] | None = None) -> Camera:
    """A random overhead camera: frame size, scale (card short side 50–300 px, more often
    small), tilt up to 25°, any roll."""
    if size is None:
        choices = PI_FRAME_SIZES + PHONE_FRAME_SIZES
        weights = np.array([6, 2, 2, 1, 2, 1, 1, 1], dtype=float)
        width, height = choices[rng.choice(len(choices), p=weights / weights.sum())]
    else:
        width, height = size
    # Card short side in px, log-uniform, then scaled with the frame so big frames see as much.
    short_px = float(np.exp(rng.uniform(np.log(50), np.log(300))))
    tilt = float(rng.uniform(0, 25) if rng.random() < 0.8 else 0.0)
    return look_at_camera(
        width,
        height,
        short_px / CARD_SHORT_MM,
        tilt_deg=tilt,
        tilt_direction_deg=float(rng.uniform(0, 360)),
        roll_deg=float(rng.uniform(-8, 8) if rng.random() < 0.7 else rng.uniform(0, 360)),
        height_mm=float(rng.uniform(450, 900)),
    )
