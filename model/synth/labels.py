"""The labels of a rendered scene, as the JSON documented in ``scene.schema.json``."""

from __future__ import annotations

import numpy as np

from model.synth.camera import Camera, apply_homography
from model.synth.compose import visible_fraction

SCHEMA_ID = "handfoot-scene/1"
INDEX_VISIBLE = 0.9  # an index counts as readable when at least this share of it shows


def _points(quad: np.ndarray) -> list[list[float]]:
    return [[round(float(x), 2), round(float(y), 2)] for x, y in quad]


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
    corners = apply_homography(homography, np.array([[0, 0], [w, 0], [w, h], [0, h]]))
    indices = []
    for mark in face.indices:
        quad = apply_homography(homography, mark.quad)
        seen = visible_fraction(ids, object_id, quad)
        indices.append(
            {
                "quad": _points(quad),
                "box": [round(float(v), 2) for v in (*quad.min(axis=0), *quad.max(axis=0))],
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
        "visible_fraction": round(visible_fraction(ids, object_id, corners), 4),
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
