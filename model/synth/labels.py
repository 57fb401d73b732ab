"""The labels of a rendered scene, as the JSON documented in ``scene.schema.json``."""

from __future__ import annotations

import numpy as np

from model.synth.camera import Camera, apply_homography
from model.synth.compose import visible_fraction

SCHEMA_ID = "handfoot-scene/1"
INDEX_VISIBLE = 0.9  # an index counts as readable when at least this share of it shows


def _points(quad: np.ndarray) -> list[list[float]]:
    return np.round(quad.astype(np.float64), 2).tolist()


def reading_angle(quad: np.ndarray) -> float:
    """Degrees the index is turned clockwise in the frame from upright (0 = reads normally)."""
    dx, dy = quad[1] - quad[0]
    return round(float(np.degrees(np.arctan2(dy, dx))), 1) % 360.0


def card_label(
    ids: np.ndarray,
    object_id: int,
    face,
    homography: np.ndarray,
    card_id: int,
    group: int,
    name: str,
    *,
    deck: str,
) -> dict:
    h, w = face.rgba.shape[:2]
    outline = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
    points = apply_homography(homography, np.vstack([outline, *(m.quad for m in face.indices)]))
    corners = points[:4]
    card_seen = visible_fraction(ids, object_id, corners)
    indices = []
    for number, mark in enumerate(face.indices, start=1):
        quad = points[4 * number : 4 * number + 4]
        # A card seen whole shows its indices whole, and a card not seen shows none of them.
        seen = card_seen if card_seen in (0.0, 1.0) else visible_fraction(ids, object_id, quad)
        indices.append(
            {
                "quad": _points(quad),
                "box": np.round(np.concatenate([quad.min(axis=0), quad.max(axis=0)]), 2).tolist(),
                "corner": "top-left" if mark.orientation == 0 else "bottom-right",
                "orientation": reading_angle(quad),
                "visible_fraction": round(seen, 4),
                "visible": bool(seen >= INDEX_VISIBLE),
            }
        )
    return {
        "id": card_id,
        "code": face.code,
        "name": name,
        "deck": deck,
        "style": face.style,
        "corners": _points(corners),
        "visible_fraction": round(card_seen, 4),
        "indices": indices,
        "group": group,
    }


def object_label(
    kind: str, quad: np.ndarray, object_id: int, convex: bool, ids: np.ndarray
) -> dict:
    label = {"kind": kind, "polygon": _points(quad)}
    if convex:
        label["visible_fraction"] = round(visible_fraction(ids, object_id, quad), 4)
    return label


def camera_label(camera: Camera) -> dict:
    return {
        "px_per_mm": round(camera.px_per_mm, 4),
        "tilt_deg": round(camera.tilt_deg, 2),
        "height_mm": round(camera.height_mm, 1),
        "homography": [[round(float(v), 8) for v in row] for row in camera.homography],
    }
