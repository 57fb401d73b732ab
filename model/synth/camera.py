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


def _frame_size(rng: np.random.Generator, size: tuple[int, int] | None) -> tuple[int, int]:
    if size is not None:
        return size
    choices = PI_FRAME_SIZES + PHONE_FRAME_SIZES
    weights = np.array([6, 2, 2, 1, 2, 1, 1, 1], dtype=float)
    return choices[rng.choice(len(choices), p=weights / weights.sum())]


def sample_camera(rng: np.random.Generator, size: tuple[int, int] | None = None) -> Camera:
    """A random overhead camera: frame size, scale (card short side 50–300 px, more often
    small), tilt up to 25°, any roll."""
    width, height = _frame_size(rng, size)
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


def stand_camera(
    rng: np.random.Generator,
    size: tuple[int, int] | None,
    points_mm: np.ndarray,
    *,
    margin: float = 0.05,
) -> Camera:
    """A camera on a stand above a tidy layout: frame sizes as :func:`sample_camera`'s, leaning
    at most 8°, turned mostly so the player's cards read upright, and placed so that every
    table point of ``points_mm`` (N, 2) lands inside the frame, ``margin`` (a share of each
    side) from its border. The stand's height gives a card short side of 1/15 to 1/6 of the
    frame's long side unless the layout needs the camera further away; a small layout sits
    somewhere near the frame's middle."""
    width, height = _frame_size(rng, size)
    frame = np.array([width, height], dtype=np.float64)
    roll = rng.normal(0, 3) + (0.0 if rng.random() < 0.75 else rng.choice([90.0, 180.0, 270.0]))
    pose = {
        "tilt_deg": float(rng.uniform(0, 8) if rng.random() < 0.7 else 0.0),
        "tilt_direction_deg": float(rng.uniform(0, 360)),
        "roll_deg": float(roll),
        "height_mm": float(rng.uniform(450, 900)),
    }
    # A card's short side is 1/15 to 1/6 of the frame's long side, as at 50–90 cm above the
    # table, at most 320 px.
    share = float(np.exp(rng.uniform(np.log(1 / 15), np.log(1 / 6))))
    px_per_mm = min(share * max(width, height), 320.0) / CARD_SHORT_MM
    where = rng.uniform(-0.35, 0.35, 2)  # where the layout sits in the room it leaves
    points = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
    target = (points.min(axis=0) + points.max(axis=0)) / 2
    room = frame * (1 - 2 * margin)
    for _ in range(40):
        camera = look_at_camera(width, height, px_per_mm, target_mm=tuple(target), **pose)
        seen = camera.project(points)
        lo, hi = seen.min(axis=0), seen.max(axis=0)
        fit = float(np.min(room / (hi - lo)))
        if fit < 1:  # too big: further away, then centre again
            px_per_mm *= fit * 0.98
            continue
        wanted = frame / 2 + where * (room - (hi - lo))
        # The camera moves with its target: a table point moves in the frame as the target
        # moves the other way, so this lands the layout's middle where it is wanted.
        inverse = np.linalg.inv(camera.homography)
        middle, goal = apply_homography(inverse, np.array([(lo + hi) / 2, wanted]))
        moved = look_at_camera(
            width, height, px_per_mm, target_mm=tuple(target + middle - goal), **pose
        )
        seen = moved.project(points)
        if (seen >= frame * margin - 0.5).all() and (seen <= frame * (1 - margin) + 0.5).all():
            return moved
        target = target + middle - goal
        px_per_mm *= 0.98
    raise ValueError("no camera on a stand shows this layout")  # not reached in practice
