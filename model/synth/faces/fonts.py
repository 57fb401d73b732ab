"""Typeface names → font files from Debian's font packages, with fallbacks that never fail.

A style names its index typeface (``CardStyle.typeface``). When the file is missing (a machine
without fonts-dejavu-core/-extra, fonts-liberation2, fonts-freefont-ttf or fonts-urw-base35) the
text is drawn in the closest available typeface of the same kind, and finally in this package's
own vector glyphs. :func:`missing` lists what this machine lacks.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from . import glyphs
from .draw import scaled, tight

log = logging.getLogger(__name__)

FONT_DIRS = (Path("/usr/share/fonts"),)
# a typeface named by its file, as :mod:`.typefaces` finds them: "file:truetype/lato/Lato-Bold.ttf"
FILE_PREFIX = "file:"

# name → (path under a font directory, kind); the kind picks the fallbacks
TYPEFACES: dict[str, tuple[str, str]] = {
    "DejaVu Sans": ("truetype/dejavu/DejaVuSans.ttf", "sans"),
    "DejaVu Sans Bold": ("truetype/dejavu/DejaVuSans-Bold.ttf", "sans"),
    "DejaVu Sans Condensed Bold": ("truetype/dejavu/DejaVuSansCondensed-Bold.ttf", "sans"),
    "DejaVu Serif": ("truetype/dejavu/DejaVuSerif.ttf", "serif"),
    "DejaVu Serif Bold": ("truetype/dejavu/DejaVuSerif-Bold.ttf", "serif"),
    "DejaVu Serif Condensed Bold": ("truetype/dejavu/DejaVuSerifCondensed-Bold.ttf", "serif"),
    "Liberation Sans": ("truetype/liberation2/LiberationSans-Regular.ttf", "sans"),
    "Liberation Sans Bold": ("truetype/liberation2/LiberationSans-Bold.ttf", "sans"),
    "Liberation Serif": ("truetype/liberation2/LiberationSerif-Regular.ttf", "serif"),
    "Liberation Serif Bold": ("truetype/liberation2/LiberationSerif-Bold.ttf", "serif"),
    "Free Sans Bold": ("truetype/freefont/FreeSansBold.ttf", "sans"),
    "Free Serif Bold": ("truetype/freefont/FreeSerifBold.ttf", "serif"),
    "Free Serif Italic": ("truetype/freefont/FreeSerifItalic.ttf", "serif"),
    "Nimbus Sans Bold": ("opentype/urw-base35/NimbusSans-Bold.otf", "sans"),
    "Nimbus Sans Narrow Bold": ("opentype/urw-base35/NimbusSansNarrow-Bold.otf", "sans"),
    "Nimbus Roman Bold": ("opentype/urw-base35/NimbusRoman-Bold.otf", "serif"),
    "URW Bookman Demi": ("opentype/urw-base35/URWBookman-Demi.otf", "serif"),
    "URW Gothic Demi": ("opentype/urw-base35/URWGothic-Demi.otf", "sans"),
    "URW Gothic Book": ("opentype/urw-base35/URWGothic-Book.otf", "sans"),
    "C059 Bold": ("opentype/urw-base35/C059-Bold.otf", "serif"),
    "P052 Bold": ("opentype/urw-base35/P052-Bold.otf", "serif"),
    "Z003": ("opentype/urw-base35/Z003-MediumItalic.otf", "script"),
    # weights and monospaced faces only the varied designs print indices in (varied.py)
    "DejaVu Sans Condensed": ("truetype/dejavu/DejaVuSansCondensed.ttf", "sans"),
    "DejaVu Sans Mono Bold": ("truetype/dejavu/DejaVuSansMono-Bold.ttf", "sans"),
    "Liberation Mono Bold": ("truetype/liberation2/LiberationMono-Bold.ttf", "sans"),
    "Nimbus Mono PS Bold": ("opentype/urw-base35/NimbusMonoPS-Bold.otf", "serif"),
    "Free Mono Bold": ("truetype/freefont/FreeMonoBold.ttf", "serif"),
    "Free Serif": ("truetype/freefont/FreeSerif.ttf", "serif"),
    "Nimbus Sans": ("opentype/urw-base35/NimbusSans-Regular.otf", "sans"),
    "Nimbus Sans Narrow": ("opentype/urw-base35/NimbusSansNarrow-Regular.otf", "sans"),
    "Nimbus Roman": ("opentype/urw-base35/NimbusRoman-Regular.otf", "serif"),
    "C059 Roman": ("opentype/urw-base35/C059-Roman.otf", "serif"),
    "URW Bookman Light": ("opentype/urw-base35/URWBookman-Light.otf", "serif"),
}

_FALLBACKS = {
    "sans": ("DejaVu Sans Bold", "Liberation Sans Bold", "Free Sans Bold", "Nimbus Sans Bold"),
    "serif": ("DejaVu Serif Bold", "Liberation Serif Bold", "Free Serif Bold", "Nimbus Roman Bold"),
    "script": ("Free Serif Italic", "DejaVu Serif", "Liberation Serif"),
}


def _file(name: str, dirs: tuple[Path, ...] = FONT_DIRS) -> Path | None:
    if name.startswith(FILE_PREFIX):
        relative = name[len(FILE_PREFIX) :]
    else:
        entry = TYPEFACES.get(name)
        if entry is None:
            return None
        relative = entry[0]
    for d in dirs:
        p = d / relative
        if p.is_file():
            return p
    return None


def missing(dirs: tuple[Path, ...] = FONT_DIRS) -> list[str]:
    """The typefaces of :data:`TYPEFACES` whose font file this machine lacks."""
    return sorted(n for n in TYPEFACES if _file(n, dirs) is None)


@functools.lru_cache(maxsize=128)
def resolve(name: str, dirs: tuple[Path, ...] = FONT_DIRS) -> str:
    """The typeface actually used for ``name``: itself, a fallback of its kind, or a vector one.

    >>> resolve("Vector Serif")
    'Vector Serif'
    """
    if name in glyphs.VECTOR_TYPEFACES:
        return name
    if _file(name, dirs) is not None:
        return name
    kind = TYPEFACES.get(name, ("", "sans"))[1]
    for alt in (*_FALLBACKS.get(kind, ()), *_FALLBACKS["sans"]):
        if _file(alt, dirs) is not None:
            log.warning("typeface %r is not installed; using %r", name, alt)
            return alt
    log.warning("no font file for %r; using vector glyphs", name)
    return "Vector Serif" if kind == "serif" else "Vector Sans"


@functools.lru_cache(maxsize=256)
def _font(name: str, size: int) -> ImageFont.FreeTypeFont:
    path = _file(name)
    assert path is not None
    return ImageFont.truetype(str(path), size)


@functools.lru_cache(maxsize=128)
def _cap_ratio(name: str) -> float:
    """Ink height of the digit 8 per point of font size."""
    f = _font(name, 200)
    _, y0, _, y1 = f.getbbox("8H")
    return (y1 - y0) / 200


def _render(name: str, text: str, size: int) -> np.ndarray:
    f = _font(name, size)
    x0, y0, x1, y1 = f.getbbox(text)
    img = Image.new("L", (x1 - x0 + 8, y1 - y0 + 8))
    ImageDraw.Draw(img).text((4 - x0, 4 - y0), text, font=f, fill=255)
    return np.asarray(img)


@functools.lru_cache(maxsize=2048)
def text_mask(
    typeface: str,
    text: str,
    cap: int,
    x_scale: float = 1.0,
    tracking: float | None = None,
    weight: float = 1.0,
) -> np.ndarray:
    """A tight coverage mask of ``text`` whose capitals and digits are ``cap`` px tall.

    ``tracking`` (fraction of ``cap``) sets the gap between characters explicitly: the
    characters are drawn one by one, centred on a common line (index typefaces set "10" tight).
    ``weight`` only thickens the vector typefaces.
    """
    name = resolve(typeface)
    if name in glyphs.VECTOR_TYPEFACES:
        m = glyphs.glyph_mask(text, name, cap, weight, 0.12 if tracking is None else tracking)
        return _frozen(scaled(m, x_scale))
    size = max(4, round(cap / _cap_ratio(name)))
    if tracking is None or len(text) < 2:
        m = tight(_render(name, text, size))
    else:
        parts = [tight(_render(name, c, size)) for c in text]
        gap = round(tracking * cap)
        h = max(p.shape[0] for p in parts)
        w = sum(p.shape[1] for p in parts) + gap * (len(parts) - 1) + 2 * abs(gap)
        m = np.zeros((h, max(w, 1)), np.uint8)
        x = abs(gap)
        for p in parts:
            y = (h - p.shape[0]) // 2
            region = m[y : y + p.shape[0], x : x + p.shape[1]]
            np.maximum(region, p, out=region)
            x += p.shape[1] + gap
        m = tight(m)
    return _frozen(scaled(m, x_scale))


def _frozen(m: np.ndarray) -> np.ndarray:
    m = np.ascontiguousarray(m)
    m.setflags(write=False)
    return m


def line_mask(typeface: str, text: str, px: int) -> np.ndarray:
    """Running text at font size ``px`` (not cropped vertically, so lines share a baseline).

    Without any font file the words become grey bars of the right length ("greeked" text).
    """
    name = resolve(typeface)
    if name in glyphs.VECTOR_TYPEFACES:
        m = np.zeros((px + 2, max(1, int(len(text) * px * 0.5))), np.uint8)
        x = 0
        for word in text.split(" "):
            w = int(len(word) * px * 0.5)
            m[px // 3 : px - 1, x : x + w] = 150
            x += w + px // 2
        return m
    f = _font(name, px)
    x0, _, x1, _ = f.getbbox(text)
    asc, desc = f.getmetrics()
    img = Image.new("L", (max(1, x1 - x0 + 2), asc + desc))
    ImageDraw.Draw(img).text((1 - x0, 0), text, font=f, fill=255)
    return np.asarray(img)
