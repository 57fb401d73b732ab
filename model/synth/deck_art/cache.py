"""The rasterised decks on disk: one folder per design and size, a PNG per card and a
``cards.json`` listing each card's file and index quads.

``cards.json`` is written last, and every file through a temporary name and a rename, so a
folder with one is complete; a design whose source file changed (size or time) is drawn again.
The folder lives under ``build/deck-art/`` (or HANDFOOT_DECK_ART) and is never committed.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from PIL import Image

from ..faces.standard import RANKS, SUITS
from . import corners, raster
from .sources import Source

log = logging.getLogger(__name__)

VERSION = 1  # bump when the rasters or the quads would come out differently
STANDARD_NAMES = tuple(r + s for r in RANKS for s in SUITS)
PROBE = "KS"  # the card whose height fixes a design's zoom


def root() -> Path:
    env = os.environ.get("HANDFOOT_DECK_ART")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[3] / "build" / "deck-art"


def folder(source: Source, height: int) -> Path:
    return root() / f"{source.name}-h{height}"


def _stamp(source: Source) -> dict:
    st = source.path.stat()
    return {"source": source.path.name, "size": st.st_size, "mtime": int(st.st_mtime)}


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _png(rgba: np.ndarray) -> bytes:
    import io

    buf = io.BytesIO()
    Image.fromarray(rgba, "RGBA").save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


def read_index(source: Source, height: int) -> dict | None:
    """The design's ``cards.json`` if it is complete and current, else None."""
    path = folder(source, height) / "cards.json"
    try:
        index = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if index.get("version") != VERSION or index.get("stamp") != _stamp(source):
        return None
    return index


def load_card(source: Source, height: int, entry: dict) -> np.ndarray:
    with Image.open(folder(source, height) / entry["file"]) as im:
        return np.asarray(im.convert("RGBA"))


def _label(rgba: np.ndarray) -> tuple[list | None, str | None]:
    """Both index quads of a card, or why none are given."""
    h, w = rgba.shape[:2]
    quads = corners.index_quads(rgba)
    why = "no index found" if quads is None else corners.plausible(quads, (w, h))
    if why:
        return None, why
    return [np.round(q, 1).tolist() for q in quads], None  # type: ignore[union-attr]


def _relabel(source: Source, height: int, index: dict) -> dict:
    """Find the indices again on the cached rasters (after the finder changed)."""
    for entry in index["cards"].values():
        entry["quads"], entry["rejected"] = _label(load_card(source, height, entry))
    index["labels"] = corners.VERSION
    _atomic_write(folder(source, height) / "cards.json", json.dumps(index, indent=1).encode())
    return index


def build(source: Source, height: int) -> dict:
    """Rasterise every card of ``source`` ``height`` px tall (all one width: the probe card's
    aspect), find both indices of each, and write the folder. Returns its ``cards.json``:
    each card's file, SVG element, and its two index quads or why it has none."""
    done = read_index(source, height)
    if done is None:
        # One process draws a design; another that wants it meanwhile waits, then reads it.
        out = folder(source, height)
        out.mkdir(parents=True, exist_ok=True)
        with open(out / ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            done = read_index(source, height) or _draw(source, height)
    if done.get("labels") != corners.VERSION:
        done = _relabel(source, height, done)
    return done


def _draw(source: Source, height: int) -> dict:
    started = time.perf_counter()
    out = folder(source, height)
    zoom = raster.zoom_for(source.path, source.element(PROBE), height)
    probe = raster.rasterise(source.path, source.element(PROBE), zoom, None)
    width = round(height * probe.shape[1] / probe.shape[0])
    wanted = [(name, source.element(name)) for name in STANDARD_NAMES]
    wanted += [(f"JOKER-{n}", e) for n, e in enumerate(source.joker_elements(), start=1)]
    cards: dict[str, dict] = {}
    missing: dict[str, str] = {}
    for name, element in wanted:
        if element == "joker" and any(n.startswith("JOKER-") for n in cards):
            continue  # a design with red and black jokers: "joker" is a part of them
        try:
            rgba = raster.rasterise(source.path, element, zoom, (width, height))
        except raster.ArtError as exc:
            missing[name] = str(exc)
            continue
        _atomic_write(out / f"{name}.png", _png(rgba))
        quads, why = _label(rgba)
        cards[name] = {"file": f"{name}.png", "element": element, "quads": quads, "rejected": why}
    index = {
        "version": VERSION,
        "labels": corners.VERSION,
        "design": source.name,
        "stamp": _stamp(source),
        "height": height,
        "width": width,
        "cards": cards,
        "missing": missing,
        "seconds": round(time.perf_counter() - started, 1),
    }
    _atomic_write(out / "cards.json", json.dumps(index, indent=1).encode())
    return index


def _build_one(args: tuple[Source, int]) -> tuple[str, dict | str]:
    source, height = args
    try:
        return source.name, build(source, height)
    except (raster.ArtError, OSError) as exc:
        return source.name, str(exc)


def build_all(sources: list[Source], height: int, jobs: int = 1) -> dict[str, dict | str]:
    """Build every design's folder (``jobs`` processes); a design that fails gives its reason."""
    todo = [(s, height) for s in sources]
    if jobs <= 1:
        return dict(map(_build_one, todo))
    with ProcessPoolExecutor(jobs) as pool:
        return dict(pool.map(_build_one, todo))
