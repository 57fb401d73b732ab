"""Rasterise one card of an installed SVG deck with librsvg's ``rsvg-convert``.

``rsvg-convert -i ID`` draws one element alone, where it lies on the document's page; the card
is then cut out where its pixels are opaque. The zoom that makes a design's cards ``height`` px
tall is measured once, on one of its cards.
"""

from __future__ import annotations

import functools
import io
import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

TOOL = "rsvg-convert"  # Debian package librsvg2-bin
TIMEOUT_S = 120


class ArtError(RuntimeError):
    """A card could not be rasterised (missing tool, missing element, empty drawing)."""


def tool() -> str | None:
    return shutil.which(TOOL)


def _render(path: Path, element: str, zoom: float, page: tuple[int, int, int, int] | None = None):
    """Element ``element`` alone at ``zoom``, on the whole page up to it, or on the part
    ``page`` = (left, top, width, height) of it in output px."""
    exe = tool()
    if exe is None:
        raise ArtError(f"{TOOL} is not installed (Debian package librsvg2-bin)")
    cmd = [exe, "-i", element, "-z", f"{zoom:.6f}", "-f", "png"]
    if page is not None:
        left, top, width, height = page
        cmd += [f"--left={-left}", f"--top={-top}"]
        cmd += [f"--page-width={width}", f"--page-height={height}"]
    cmd.append(str(path))
    try:
        done = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired as exc:
        raise ArtError(f"{TOOL} took over {TIMEOUT_S} s on {element} of {path.name}") from exc
    if done.returncode != 0 or not done.stdout:
        why = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no output"]
        raise ArtError(f"{element} of {path.name}: {why[0]}")
    with Image.open(io.BytesIO(done.stdout)) as im:
        return np.asarray(im.convert("RGBA"))


def _box(rgba: np.ndarray, element: str, path: Path) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(rgba[..., 3] > 8)
    if len(xs) == 0:
        raise ArtError(f"{element} of {path.name} draws nothing")
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def _cut(rgba: np.ndarray, element: str, path: Path) -> np.ndarray:
    x0, y0, x1, y1 = _box(rgba, element, path)
    return rgba[y0:y1, x0:x1]


def _card(path: Path, element: str, zoom: float, probe: float) -> np.ndarray:
    """The element cut out at ``zoom``: found on a small drawing at ``probe`` zoom first, so
    only its own part of the page is drawn large."""
    x0, y0, x1, y1 = _box(_render(path, element, probe), element, path)
    k = zoom / probe
    m = int(np.ceil(2 * k)) + 4  # the probe's rounding, and air
    page = (
        int(x0 * k) - m,
        int(y0 * k) - m,
        int((x1 - x0) * k) + 2 * m,
        int((y1 - y0) * k) + 2 * m,
    )
    return _cut(_render(path, element, zoom, page), element, path)


@functools.lru_cache(maxsize=64)
def zoom_for(path: Path, element: str, height: int) -> float:
    """The zoom at which ``element`` (a card) comes out ``height`` px tall."""
    rough = height / _cut(_render(path, element, 0.2), element, path).shape[0] * 0.2
    return height / _card(path, element, rough, rough * 80 / height).shape[0] * rough


def rasterise(path: Path, element: str, zoom: float, size: tuple[int, int] | None) -> np.ndarray:
    """Card ``element`` of the SVG at ``path``: straight RGBA, resized to ``size`` (w, h)."""
    card = _card(path, element, zoom, zoom * 80 / (size[1] if size else 350))
    if size is None:
        return card
    w, h = size
    if card.shape[1] != w or card.shape[0] != h:
        # premultiply so transparent corners do not bleed their colour into the edge
        rgb = card[..., :3].astype(np.float32) * (card[..., 3:] / 255.0)
        both = np.dstack([rgb, card[..., 3].astype(np.float32)])
        both = cv2.resize(both, (w, h), interpolation=cv2.INTER_AREA)
        a = both[..., 3:]
        rgb = np.where(a > 0, both[..., :3] * 255.0 / np.maximum(a, 1e-3), 0)
        card = np.dstack([rgb, a]).round().clip(0, 255).astype(np.uint8)
    return np.ascontiguousarray(card)
