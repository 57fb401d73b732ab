"""Every index typeface this machine's font packages offer, split once into training and held-out
families.

The named designs print their indices in about thirty typefaces; printed decks use many more, and
the special deck's printing is not known at all. ``make model`` installs a few dozen of Debian's
font packages (condensed, bold, serif, slab, rounded, monospaced); this module finds every font
file under the font directories that draws all the characters an index needs, in upper and mixed
case, and splits them by family: a family is held out for test scenes when a stable hash of its
name says so (``HELD_OUT_EVERY``), or when it is a held-out named design's family. A family is
never on both sides, so a held-out typeface is one no training scene drew in any weight.

A discovered typeface is named ``file:`` and its path under the font directory
(``file:truetype/lato/Lato-Bold.ttf``); :mod:`.fonts` draws it like a named one.
"""

from __future__ import annotations

import functools
import logging
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import ImageFont

from .fonts import FILE_PREFIX, FONT_DIRS, TYPEFACES

log = logging.getLogger(__name__)

# what an index prints: ranks of both decks, the special words spelled, abbreviated and in mixed
# case ("Lord", "Lo"), the joker's word
CHARACTERS = "0123456789AJQKLORDYVINESTadeiklnorsty"
# typefaces held out with the named held-out designs (styles.py, varied.py), as "family style"
HELD_OUT_NAMED = ("URW Gothic", "P052", "DejaVu Serif Condensed", "FreeSans")
# the families the named training designs print in (fonts.TYPEFACES): training, in every weight
NAMED_TRAINING = (
    "DejaVu Sans", "DejaVu Sans Mono", "DejaVu Serif", "Liberation Sans", "Liberation Serif",
    "Liberation Mono", "FreeSerif", "FreeMono", "Nimbus Sans", "Nimbus Sans Narrow", "Nimbus Roman",
    "Nimbus Mono PS", "URW Bookman", "C059", "Z003",
)  # fmt: skip
HELD_OUT_EVERY = 4  # one kin of families in four, by the hash of its first word
# indices are not printed slanted, hairline-thin or as symbols; a typeface whose family or style
# name has one of these is left out
SKIPPED_WORDS = (
    "italic", "oblique", "slanted", "math", "symbol", "dingbat", "icon", "emoji", "thin",
    "hairline", "extralight", "extra light", "ultralight", "ultra light", "keyboard",
)  # fmt: skip
# pictures at the letters' places: URW's dingbats and symbols draw "every character", distinctly
SKIPPED_FAMILIES = ("D050000L", "Standard Symbols PS")


@dataclass(frozen=True)
class Typeface:
    name: str  # "file:" and the path under its font directory
    family: str
    style: str
    split: str  # "train" or "test"


def _split_of(family: str, style: str) -> str:
    if any(f"{family} {style}".startswith(held) for held in HELD_OUT_NAMED):
        return "test"
    # kin fall on one side: "Go" and "Go Mono", "PT Sans" and "PT Serif", "Liberation Sans Narrow"
    kin = family.split()[0].lower()
    if kin in {named.split()[0].lower() for named in NAMED_TRAINING}:
        return "train"
    return "test" if zlib.crc32(kin.encode()) % HELD_OUT_EVERY == 0 else "train"


def _draws_all(font: ImageFont.FreeTypeFont) -> bool:
    """Whether every character of :data:`CHARACTERS` is drawn, and not as the font's box for a
    missing character (compared with one no Latin font has)."""
    missing = np.asarray(font.getmask("\U000f0000"))
    seen = set()
    for ch in CHARACTERS:
        mask = font.getmask(ch)
        if mask.getbbox() is None:
            return False
        pixels = np.asarray(mask)
        if pixels.shape == missing.shape and np.array_equal(pixels, missing):
            return False
        seen.add(pixels.tobytes())
    # a font that draws every character alike (a barcode, a placeholder) has few distinct ones
    return len(seen) > len(CHARACTERS) * 0.8


def _typeface(path: Path, root: Path) -> Typeface | None:
    try:
        font = ImageFont.truetype(str(path), 48)
        family, style = font.getname()
    except OSError:
        return None
    family, style = family or path.stem, style or ""
    words = f"{family} {style}".lower()
    if family in SKIPPED_FAMILIES or any(w in words for w in SKIPPED_WORDS):
        return None
    if not _draws_all(font):
        return None
    return Typeface(
        FILE_PREFIX + path.relative_to(root).as_posix(), family, style, _split_of(family, style)
    )


@functools.cache
def discovered(dirs: tuple[Path, ...] = FONT_DIRS) -> tuple[Typeface, ...]:
    """Every usable typeface under ``dirs``, sorted by name (the same list wherever the same
    packages are installed). Fonts the named designs print in are left to them."""
    named = {entry[0] for entry in TYPEFACES.values()}
    found: dict[str, Typeface] = {}
    for root in dirs:
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.suffix.lower() not in (".ttf", ".otf") or not path.is_file():
                continue
            relative = path.relative_to(root).as_posix()
            if relative in named:
                continue
            face = _typeface(path, root)
            if face is not None:
                found.setdefault(face.name, face)
    faces = tuple(sorted(found.values(), key=lambda f: f.name))
    if not faces:
        log.warning("no font packages beyond the named typefaces: `make model` installs them")
    return faces


def for_split(split: str) -> tuple[Typeface, ...]:
    """The discovered typefaces a scene of ``split`` may print indices in."""
    return tuple(f for f in discovered() if f.split == split)
