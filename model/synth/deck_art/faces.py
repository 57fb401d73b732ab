"""Printed deck designs as card styles: a :class:`CardStyle` per design in ``DESIGNS`` that is
installed, and its faces from the rasterised cache, with the index quads found on them.

A card a design lacks (no joker, or a card whose indices were not found) is borrowed from the
next design of the same split that has it, resized to this design's width: the scene still
labels it exactly, from the donor's quads.
"""

from __future__ import annotations

import functools
import logging
import threading

import cv2
import numpy as np

from ..faces.draw import seed_of
from ..types import FACE_HEIGHT, CardStyle, Face, IndexMark
from . import cache, raster
from .sources import DESIGNS, HELD_OUT, PACKAGES, Source, installed

log = logging.getLogger(__name__)

TYPEFACE = "printed deck"  # the CardStyle.typeface of every art style
PREFIX = "art-"
JOKERS = ("JK", "JK2")
_lock = threading.Lock()
_warned: set[str] = set()


def _warn_once(key: str, message: str) -> None:
    with _lock:
        if key in _warned:
            return
        _warned.add(key)
    log.warning(message)


def is_art(style: CardStyle) -> bool:
    return style.typeface == TYPEFACE


def _style(name: str, width: int) -> CardStyle:
    split = "test" if name in HELD_OUT else "train"
    glossy = 0.3 + 0.5 * (seed_of(name) % 100) / 100  # printed decks: matte to glossy
    return CardStyle(PREFIX + name, "standard", split, TYPEFACE, False, round(glossy, 2), width)


# Every design in DESIGNS, installed or not: names are known (for --styles) without the files.
ALL_ART_STYLES: tuple[CardStyle, ...] = tuple(_style(n, w) for n, w in DESIGNS.items())
_BY_NAME = {s.name: s for s in ALL_ART_STYLES}


def art_style(name: str) -> CardStyle | None:
    """The art style called ``name`` ("art-gnome-anglo"), or None if there is none."""
    return _BY_NAME.get(name)


@functools.cache
def _sources() -> dict[str, Source]:
    return {PREFIX + s.name: s for s in installed() if s.name in DESIGNS}


def available() -> tuple[CardStyle, ...]:
    """The art styles the renderer can draw here: designs installed, and the rasteriser too.
    Says once, in the log, when there are none."""
    if raster.tool() is None:
        _warn_once(
            "tool",
            "printed deck designs unused: rsvg-convert is missing (apt-get install "
            "librsvg2-bin); scenes draw procedural faces only",
        )
        return ()
    found = tuple(s for s in ALL_ART_STYLES if s.name in _sources())
    if not found:
        _warn_once(
            "packages",
            "printed deck designs unused: none installed (apt-get install "
            f"{' '.join(PACKAGES)}); scenes draw procedural faces only",
        )
    return found


def available_for(split: str) -> tuple[CardStyle, ...]:
    return tuple(s for s in available() if s.split == split)


@functools.lru_cache(maxsize=64)
def _index(style: CardStyle) -> dict:
    source = _sources()[style.name]
    return cache.build(source, FACE_HEIGHT)


def _usable(style: CardStyle, card: str) -> dict | None:
    entry = _index(style)["cards"].get(card)
    return entry if entry is not None and entry["quads"] is not None else None


def _own_jokers(style: CardStyle) -> list[str]:
    cards = _index(style)["cards"]
    return sorted(n for n, e in cards.items() if n.startswith("JOKER-") and e["quads"])


def _entry(style: CardStyle, name: str) -> tuple[CardStyle, dict] | None:
    """The design and cache entry that draw card ``name`` of ``style``: its own, or a
    donor's (the next design of its split, in DESIGNS order, that has it)."""
    pool = [s for s in available() if s.split == style.split]
    start = pool.index(style) if style in pool else 0
    for donor in pool[start:] + pool[:start]:
        if name in JOKERS:
            jokers = _own_jokers(donor)
            if jokers:
                return donor, _index(donor)["cards"][jokers[JOKERS.index(name) % len(jokers)]]
            continue
        entry = _usable(donor, name)
        if entry is not None:
            return donor, entry
    return None


def _fit(rgba: np.ndarray, quads: list, width: int) -> tuple[np.ndarray, list]:
    """A donor's card resized to ``width`` (same height), its quads scaled with it."""
    if rgba.shape[1] == width:
        return rgba, quads
    sx = width / rgba.shape[1]
    fitted = cv2.resize(rgba, (width, rgba.shape[0]), interpolation=cv2.INTER_AREA)
    return fitted, [[[x * sx, y] for x, y in q] for q in quads]


def _paper(rgba: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The paper's colour just around an index: the median of a ring outside its quad."""
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
    h, w = rgba.shape[:2]
    pad = 4
    ring = rgba[max(y0 - pad, 0) : min(y1 + pad, h), max(x0 - pad, 0) : min(x1 + pad, w)]
    inner = np.ones(ring.shape[:2], bool)
    inner[pad : pad + (y1 - y0), pad : pad + (x1 - x0)] = False
    pixels = ring[inner & (ring[..., 3] == 255)][:, :3]
    return np.median(pixels, axis=0) if len(pixels) else np.array([245, 245, 245])


@functools.lru_cache(maxsize=1024)  # a training run's 16 designs, 54 cards each
def art_face(style: CardStyle, name: str, *, glyphs: bool = True) -> Face:
    """Card ``name`` ("KH", "10S", "JK2") of an art style. ``glyphs=False`` paints both
    indices over with the paper's colour around them (the pixels outside the quads unchanged)."""
    from ..faces.render import code_of

    found = _entry(style, name)
    if found is None:
        raise ValueError(f"no installed printed deck draws {name!r}")
    donor, entry = found
    rgba = cache.load_card(_sources()[donor.name], FACE_HEIGHT, entry)
    rgba, quads = _fit(rgba, entry["quads"], style.width)
    rgba = rgba.copy()
    marks = tuple(
        IndexMark(np.array(q, np.float32), orientation)
        for q, orientation in zip(quads, (0, 180), strict=True)
    )
    if not glyphs:
        for mark in marks:
            x0, y0 = np.floor(mark.quad.min(axis=0)).astype(int)
            x1, y1 = np.ceil(mark.quad.max(axis=0)).astype(int)
            patch = rgba[y0:y1, x0:x1]
            patch[..., :3] = np.where(
                patch[..., 3:] == 255, _paper(rgba, mark.quad), patch[..., :3]
            )
    rgba.setflags(write=False)
    return Face(rgba, marks, code_of(name), style.name)


def forget() -> None:
    """Look for the installed decks again (after the packages or the cache changed)."""
    from ..faces.render import render_face

    _sources.cache_clear()
    _index.cache_clear()
    art_face.cache_clear()
    render_face.cache_clear()
    with _lock:
        _warned.clear()
