"""Rasterise the installed printed decks into the cache and report them; ``--sheet`` draws a
contact sheet of every design's cards with the index quads found on them (green, or the card
crossed out in red where none were found).

    python -m model.synth.deck_art [--jobs 2] [--sheet sheet.png] [--all] [--cards AH,10S,KD]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from ..types import FACE_HEIGHT
from . import cache, raster
from .sources import DESIGNS, HELD_OUT, LEFT_OUT, installed

TILE_H = 120


def _tile(rgba: np.ndarray, quads: list | None) -> np.ndarray:
    a = rgba[..., 3:] / 255.0
    rgb = (rgba[..., :3] * a + (1 - a) * 96).astype(np.uint8).copy()
    h, w = rgb.shape[:2]
    if quads is None:
        cv2.line(rgb, (0, 0), (w, h), (220, 0, 0), 4)
        cv2.line(rgb, (w, 0), (0, h), (220, 0, 0), 4)
    for q in quads or ():
        cv2.polylines(rgb, [np.round(np.array(q)).astype(np.int32)], True, (0, 190, 0), 2)
    return cv2.resize(rgb, (round(TILE_H * w / h), TILE_H), interpolation=cv2.INTER_AREA)


def sheet(results: dict[str, dict | str], cards: list[str], path: Path) -> None:
    rows = []
    for name, index in results.items():
        if isinstance(index, str):
            continue
        source = next(s for s in installed() if s.name == name)
        names = cards or [*cache.STANDARD_NAMES, *sorted(k for k in index["cards"] if "JOKER" in k)]
        tiles = []
        for card in names:
            entry = index["cards"].get(card)
            if entry is not None:
                tiles.append(_tile(cache.load_card(source, FACE_HEIGHT, entry), entry["quads"]))
        if not tiles:
            continue
        width = max(t.shape[1] for t in tiles) + 2
        tiles = [
            np.pad(t, ((0, 0), (0, width - t.shape[1]), (0, 0)), constant_values=40) for t in tiles
        ]
        per = 14 if not cards else len(tiles)
        tiles += [np.full_like(tiles[0], 40)] * (-len(tiles) % per)
        block = np.vstack([np.hstack(tiles[i : i + per]) for i in range(0, len(tiles), per)])
        note = "held out" if name in HELD_OUT else ("used" if name in DESIGNS else "not used")
        bad = sum(e["quads"] is None for e in index["cards"].values())
        title = np.full((20, block.shape[1], 3), 255, np.uint8)
        cv2.putText(
            title,
            f"{name}: {note}, {bad} without index",
            (4, 15),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.45,
            (0, 0, 0),
            1,
            cv2.LINE_AA,
        )
        rows.append(np.vstack([title, block]))
    if not rows:
        raise SystemExit("nothing to draw: no printed deck rasterised")
    width = max(r.shape[1] for r in rows)
    rows = [np.pad(r, ((0, 4), (0, width - r.shape[1]), (0, 0)), constant_values=255) for r in rows]
    cv2.imwrite(str(path), np.vstack(rows)[..., ::-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m model.synth.deck_art", description=__doc__)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--all", action="store_true", help="every installed design, used or not")
    parser.add_argument("--sheet", type=Path, help="write a contact sheet (PNG)")
    parser.add_argument("--cards", default="", help="only these cards on the sheet: AH,10S,…")
    args = parser.parse_args(argv)
    if raster.tool() is None:
        print("rsvg-convert is missing: apt-get install librsvg2-bin", file=sys.stderr)
        return 1
    sources = [s for s in installed() if args.all or s.name in DESIGNS]
    if not sources:
        print(
            "no printed deck installed: apt-get install kdegames-card-data-kf5 gnome-cards-data",
            file=sys.stderr,
        )
        return 1
    results = cache.build_all(sources, FACE_HEIGHT, args.jobs)
    for name, index in results.items():
        if isinstance(index, str):
            print(f"{name}: failed: {index}")
            continue
        bad = {k: e["rejected"] for k, e in index["cards"].items() if e["quads"] is None}
        use = (
            "held out"
            if name in HELD_OUT
            else "used"
            if name in DESIGNS
            else (f"not used ({LEFT_OUT.get(name, 'indices not found')})")
        )
        print(
            f"{name}: {len(index['cards']) - len(bad)} cards with indices, "
            f"{len(bad)} without {sorted(bad)[:6]}; {index['seconds']} s; {use}"
        )
    if args.sheet:
        sheet(results, [c for c in args.cards.split(",") if c], args.sheet)
        print(f"wrote {args.sheet}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
