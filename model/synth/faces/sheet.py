"""Contact sheets of every style: ``python -m model.synth.faces.sheet [out_dir]``.

Writes ``faces-standard.png`` and ``faces-special.png``: each style's cards scaled down in rows
(held-out styles labelled "test"), then backs and non-playing cards.
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from . import fonts
from .nonplaying import KINDS
from .render import CARD_NAMES, render_back, render_face, render_nonplaying
from .styles import SPECIAL_STYLES, STANDARD_STYLES

_BG = (214, 220, 214)


def _thumb(rgba: np.ndarray, scale: float, boxes=()) -> np.ndarray:
    h, w = rgba.shape[:2]
    a = rgba[..., 3:4].astype(np.float32) / 255
    rgb = rgba[..., :3] * a + np.array(_BG, np.float32) * (1 - a)
    size = (round(w * scale), round(h * scale))
    out = cv2.resize(rgb.astype(np.uint8), size, interpolation=cv2.INTER_AREA)
    for q in boxes:
        cv2.polylines(out, [np.round(q * scale).astype(np.int32)], True, (0, 170, 60), 1)
    return out


def _row_label(text: str, width: int, height: int) -> np.ndarray:
    tile = np.full((height, width, 3), _BG, np.uint8)
    for k, part in enumerate(text.split("\n")):
        m = fonts.line_mask("DejaVu Sans", part, 11)
        m = m[:, : width - 4]
        tile[6 + k * 15 : 6 + k * 15 + m.shape[0], 4 : 4 + m.shape[1]] = np.minimum(
            tile[6 + k * 15 : 6 + k * 15 + m.shape[0], 4 : 4 + m.shape[1]],
            (255 - m[..., None]).astype(np.uint8),
        )
    return tile


def _grid(rows: list[tuple[str, list[np.ndarray]]], cell: tuple[int, int], label_w: int):
    cw, ch = cell
    cols = max(len(t) for _, t in rows)
    out = np.full((len(rows) * ch + 4, label_w + cols * cw + 4, 3), _BG, np.uint8)
    for r, (label, tiles) in enumerate(rows):
        y = 2 + r * ch
        out[y : y + ch, :label_w] = _row_label(label, label_w, ch)
        for c, t in enumerate(tiles):
            x = label_w + c * cw
            out[y + 2 : y + 2 + t.shape[0], x + 2 : x + 2 + t.shape[1]] = t
    return out


def _label(style) -> str:
    jumbo = " jumbo" if style.jumbo else ""
    return f"{style.name}\n{style.split}{jumbo}\n{style.typeface}"


def standard_sheet(scale: float = 0.24) -> np.ndarray:
    rows = []
    for st in STANDARD_STYLES:
        names = CARD_NAMES["standard"]
        tiles = [_thumb(render_face(st, n).rgba, scale) for n in names]
        half = (len(tiles) + 1) // 2
        rows.append((_label(st), tiles[:half]))
        rows.append(("", tiles[half:]))
    extras = []
    for st in STANDARD_STYLES[:9]:
        extras.append(_thumb(render_back(st, len(extras) % 6).rgba, scale))
    for st in STANDARD_STYLES[:8]:
        for kind in KINDS["standard"]:
            extras.append(_thumb(render_nonplaying(st, kind, len(extras) % 2).rgba, scale))
    rows.append(("backs, ads,\nscore cards", extras[:27]))
    rows.append(("", extras[27:]))
    return _grid(rows, (round(250 * scale) + 4, round(350 * scale) + 4), 150)


def special_sheet(scale: float = 0.3) -> np.ndarray:
    rows = []
    for st in SPECIAL_STYLES:
        tiles = [_thumb(render_face(st, n).rgba, scale) for n in CARD_NAMES["special"]]
        rows.append((_label(st), tiles))
    extras = []
    for st in SPECIAL_STYLES:
        extras.append(_thumb(render_back(st, 0).rgba, scale))
        extras.append(_thumb(render_back(st, 3).rgba, scale))
    rows.append(("backs", extras))
    extras = []
    for st in SPECIAL_STYLES[:5]:
        for kind in KINDS["special"]:
            extras.append(_thumb(render_nonplaying(st, kind).rgba, scale))
    rows.append(("rules, hints,\npromos", extras))
    return _grid(rows, (round(250 * scale) + 4, round(350 * scale) + 4), 150)


def save(img: np.ndarray, path: Path) -> None:
    # a 96-colour palette keeps the sheets small enough to keep in the repository
    Image.fromarray(img).quantize(96, dither=Image.Dither.NONE).save(path, optimize=True)


def main(argv: list[str] | None = None) -> int:
    out = Path((argv or sys.argv[1:] or ["model/docs"])[0])
    out.mkdir(parents=True, exist_ok=True)
    save(standard_sheet(), out / "faces-standard.png")
    save(special_sheet(), out / "faces-special.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
