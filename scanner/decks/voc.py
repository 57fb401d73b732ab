"""Photos labelled with boxes (Pascal VOC) and the names their boxes carry: what teaching a
deck from labelled photos reads, and what measuring on them reads too (``model/evaluate``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from scanner.vision.contract import SPECIAL_CLASSES, STANDARD_CLASSES

# a rank written out, as ``shared/data/real-photos`` names its boxes
RANK_WORDS = {
    "ace": "A", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
    "eight": "8", "nine": "9", "ten": "10", "jack": "J", "queen": "Q", "king": "K",
}  # fmt: skip
SUITS = {"H": "R", "D": "R", "S": "B", "C": "B"}
CARDS = frozenset(STANDARD_CLASSES) | frozenset(SPECIAL_CLASSES)
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")


def photo_files(folder: Path) -> list[tuple[Path, Path]]:
    """(image, VOC label) pairs anywhere under ``folder``."""
    pairs = []
    for label in sorted(folder.rglob("*.xml")):
        image = next(
            (p for p in label.parent.glob(label.stem + ".*") if p.suffix.lower() in IMAGE_SUFFIXES),
            None,
        )
        if image is not None:
            pairs.append((image, label))
    return pairs


def voc_boxes(label: Path) -> list[tuple[str, float, float, float, float]]:
    """A Pascal VOC file's objects: (name as written, x0, y0, x1, y1). Raises
    ``xml.etree.ElementTree.ParseError``, AttributeError or ValueError for a file that is not
    one."""
    boxes = []
    for obj in ET.parse(label).getroot().iter("object"):
        box = obj.find("bndbox")
        corners = [float(box.find(k).text) for k in ("xmin", "ymin", "xmax", "ymax")]
        boxes.append((obj.findtext("name", "").strip(), *corners))
    return boxes


def card_of(token: str) -> tuple[str, str | None]:
    """``token`` in RULES.md notation, the suit letter optional, as the rank the classifier
    names and its colour ("R", "B"; None where the token gives none or the card has none).
    Raises ValueError for a token that is no card.

    >>> card_of("10H"), card_of("ks"), card_of("Q"), card_of("LADY"), card_of("JK")
    (('10', 'R'), ('K', 'B'), ('Q', None), ('LADY', None), ('JK', None))
    """
    text = token.strip().upper()
    if text in CARDS:
        return (text[:-1], text[-1]) if text in STANDARD_CLASSES and text != "JK" else (text, None)
    if text[-1:] in SUITS and text[:-1] + SUITS[text[-1]] in STANDARD_CLASSES:
        return text[:-1], SUITS[text[-1]]
    if text + "R" in STANDARD_CLASSES:
        return text, None
    raise ValueError(
        f"{token!r} is no card: give a rank with or without its suit (10H, KS, QR, 7), "
        "JK, or a special card (1–12, LORD, LADY, VILLAIN, JESTER, JOKER)"
    )
