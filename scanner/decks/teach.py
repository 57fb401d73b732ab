"""Teaching a deck: the index crops of a table's own cards, each with its code, from a photo
of the deck laid out (``layouts.py``) or from photos labelled with boxes (Pascal VOC).

The recogniser reads each photo as it would any frame; every index it marks on a card (the
two corners of a card nothing lies on) is cut as the classifier reads it and given the code
the card's place, or its box, says. So a card the networks misread, or do not read at all
where the locator marks its index, is taught as what it is: that is what a profile is for.
Every other mark in the photos (on the table, in a card's picture) is taught as no card's
index, so the profile learns the table's phantoms too.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from scanner.decks.layouts import Placed, layout_codes, placed_codes
from scanner.decks.voc import RANK_WORDS, card_of, photo_files, voc_boxes
from scanner.vision.cards import CardReading, IndexReading
from scanner.vision.contract import SPECIAL_CLASSES
from scanner.vision.preprocess import upright_crops
from scanner.vision.profile import Taught
from scanner.vision.recogniser import Recogniser

# a mark read "not an index" is taught as its card's where it lies this far, in the card's
# short sides, from one of the card's corners (an index lies in a corner; court art does not)
CORNER_REACH = 0.35
# marks read as no card, at least this sure of being an index, that lie on no card read stand
# for a card of their own in the layout: a card the classifier cannot read at all
UNREAD_HEAT = 0.5
NONE = "none"  # the classifier's class "not an index" (the contract's)


class TeachingError(ValueError):
    """A photo or label that cannot teach a deck, said in plain words."""


@dataclass(frozen=True)
class Lesson:
    """What photos taught: the crops with their codes ("none" for the marks that are no
    card's index), which of the layout's cards were found and which not, and how many cards
    were read that no place or box takes."""

    taught: tuple[Taught, ...]
    found: tuple[str, ...]
    missing: tuple[str, ...]
    extra: int
    photos: int

    @property
    def cards(self) -> int:
        """Crops taught as a card's index."""
        return sum(t.code != NONE for t in self.taught)

    def as_json(self) -> dict:
        return {
            "photos": self.photos,
            "crops": self.cards,
            "not_cards": len(self.taught) - self.cards,
            "found": list(self.found),
            "missing": list(self.missing),
            "extra": self.extra,
        }


def from_layout(
    recogniser: Recogniser, frames: Iterable[np.ndarray], layout: str, deck: str | None = None
) -> Lesson:
    """The lesson of photos of ``layout`` laid out (each photo the whole layout, or part of it
    in order); ``deck``: the deck the rules play, where known."""
    places = layout_codes(layout)
    taught: list[Taught] = []
    phantoms: list[tuple[float, Taught]] = []
    found: set[str] = set()
    extra = photos = 0
    for frame in frames:
        photos += 1
        reading = recogniser.read(frame, deck or _deck_of(layout), melds=False)
        frame = as_read(frame, reading)
        cards = _cards_and_unread(reading.cards, reading.indices, recogniser.contract)
        codes = placed_codes([placed for placed, _ in cards], layout)
        on_cards = set()
        for (_, marks), code in zip(cards, codes, strict=True):
            on_cards.update(id(m) for m in marks)
            if code is None:
                extra += 1
                continue
            found.add(code)
            crops = upright_crops(frame, [m.index for m in marks], recogniser.contract)
            taught.extend(Taught(code, crop) for crop in crops)
        # the table around the layout holds no card: every other mark is a phantom
        elsewhere = [m.index for m in reading.indices if id(m) not in on_cards]
        if elsewhere:
            crops = upright_crops(frame, elsewhere, recogniser.contract)
            phantoms.extend(
                (m.score, Taught(NONE, crop)) for m, crop in zip(elsewhere, crops, strict=True)
            )
    missing = tuple(code for code in places if code not in found)
    ordered = tuple(code for code in places if code in found)
    return Lesson(_with_phantoms(taught, phantoms), ordered, missing, extra, photos)


def _with_phantoms(taught: list[Taught], phantoms: list[tuple[float, Taught]]) -> tuple:
    """``taught`` and, of the phantoms, at most as many as there are cards taught, the
    likeliest to be taken for an index first: a profile taught mostly phantoms would learn
    to read cards as none."""
    likeliest = sorted(phantoms, key=lambda pair: -pair[0])[: len(taught)]
    return (*taught, *(t for _, t in likeliest))


def as_read(frame: np.ndarray, reading) -> np.ndarray:
    """The frame as the classifier saw its crops: its negative where it was read so (light
    print on dark cards), so a profile learns the crops it will be asked about."""
    return 255 - frame if reading.negative else frame


def _deck_of(layout: str) -> str:
    return "special" if layout == "special" else "standard"


def _cards_and_unread(
    cards: Sequence[CardReading], indices: Sequence[IndexReading], contract
) -> list[tuple[Placed, list[IndexReading]]]:
    """Each card read, with its marks: the corners it was read from, then any mark read as no
    card that lies in one of its corners (a corner the classifier could not read); then each
    group of strong marks read as no card that lie on no card read (one group per card they
    predict), as a card read "none". Cards laid overlapping hold each other's corners inside
    their outlines, so a card's own corners go first."""
    none = contract.not_an_index
    owner: dict[int, int] = {}
    for k, card in enumerate(cards):
        corners = [_middle(card.index_box), card.other_corner]
        for n, reading in enumerate(indices):
            i = reading.index
            reach = max(i.index_w, i.index_h) / 2
            if n not in owner and any(
                c is not None and math.dist((i.x, i.y), c) <= reach for c in corners
            ):
                owner[n] = k
    outlines = [np.asarray(card.polygon, np.float32) for card in cards]
    for n, reading in enumerate(indices):
        if n in owner or reading.code != none:
            continue
        for k, outline in enumerate(outlines):
            short = min(math.dist(outline[0], outline[1]), math.dist(outline[1], outline[2]))
            near = min(math.dist((reading.index.x, reading.index.y), p) for p in outline)
            if _inside(outline, reading.index.x, reading.index.y) and near <= CORNER_REACH * short:
                owner[n] = k
                break
    result: list[tuple[Placed, list[IndexReading]]] = []
    for k, (card, outline) in enumerate(zip(cards, outlines, strict=True)):
        middle = outline.mean(axis=0)
        height = max(math.dist(outline[0], outline[1]), math.dist(outline[1], outline[2]))
        placed = Placed(float(middle[0]), float(middle[1]), height, card.code, card.angle)
        result.append((placed, [indices[n] for n, at in owner.items() if at == k]))
    unread = [
        r
        for n, r in enumerate(indices)
        if n not in owner and r.code == none and r.index.score >= UNREAD_HEAT
    ]
    for group in _by_card(unread):
        first = group[0].index
        height = max(first.card_w, first.card_h)
        x = float(np.mean([r.index.card_x for r in group]))
        y = float(np.mean([r.index.card_y for r in group]))
        result.append((Placed(x, y, height, none, first.angle), group))
    return result


def _middle(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _by_card(marks: list[IndexReading]) -> list[list[IndexReading]]:
    """Marks grouped by the card they predict: two marks whose predicted card middles lie
    within half a card's short side of each other are one card's."""
    groups: list[list[IndexReading]] = []
    for mark in marks:
        i = mark.index
        for group in groups:
            g = group[0].index
            if math.dist((i.card_x, i.card_y), (g.card_x, g.card_y)) < min(g.card_w, g.card_h) / 2:
                group.append(mark)
                break
        else:
            groups.append([mark])
    return groups


def _inside(outline: np.ndarray, x: float, y: float) -> bool:
    return cv2.pointPolygonTest(outline, (float(x), float(y)), False) >= 0


# --- photos labelled with boxes ------------------------------------------------------------


@dataclass(frozen=True)
class Box:
    """A labelled box: the code as labelled (RULES.md notation, the suit letter optional, or a
    rank word), and its corners in px."""

    name: str
    x0: float
    y0: float
    x1: float
    y1: float


def from_boxes(
    recogniser: Recogniser, photos: Iterable[tuple[np.ndarray, Sequence[Box]]]
) -> Lesson:
    """The lesson of photos labelled with boxes, one per card or one per corner index: each
    mark whose middle lies in a box (a whole card's: near one of its corners) is taught as the
    box's code; a box named by rank alone takes the colour the classifier reads likelier."""
    c = recogniser.contract
    taught: list[Taught] = []
    phantoms: list[tuple[float, Taught]] = []
    found: set[str] = set()
    extra = count = 0
    for frame, boxes in photos:
        count += 1
        labels = [(box, _label(box.name)) for box in boxes]
        deck = "special" if any(code in SPECIAL_CLASSES for _, code in labels) else "standard"
        reading = recogniser.read(frame, deck, melds=False)
        frame = as_read(frame, reading)
        for mark in reading.indices:
            (crop,) = upright_crops(frame, [mark.index], c)
            hit = next((code for box, code in labels if _in_box(mark, box)), None)
            if hit is None:
                # on the table or in a card's picture: no card's index
                extra += mark.code != c.not_an_index
                phantoms.append((mark.index.score, Taught(NONE, crop)))
                continue
            code = _coloured(hit, mark, c.classes)
            found.add(code)
            taught.append(Taught(code, crop))
    ordered = tuple(sorted(found, key=c.classes.index))
    return Lesson(_with_phantoms(taught, phantoms), ordered, (), extra, count)


def _label(name: str) -> str:
    """A box's name as a code: RULES.md notation (``5C``, ``QR``, ``LADY``), or a rank alone
    (``Q``, ``queen``); a rank alone of the standard deck comes back without its colour."""
    word = RANK_WORDS.get(name.strip().lower(), name)
    try:
        rank, colour = card_of(word)
    except ValueError as error:
        raise TeachingError(str(error)) from None
    return rank + (colour or "")


def _coloured(code: str, mark: IndexReading, classes: Sequence[str]) -> str:
    if code in classes:
        return code
    red, black = classes.index(code + "R"), classes.index(code + "B")
    rows = mark.probabilities
    if rows is None:
        return code + "B"
    return code + ("R" if rows[red] > rows[black] else "B")


def _in_box(mark: IndexReading, box: Box) -> bool:
    x, y = mark.index.x, mark.index.y
    width, height = box.x1 - box.x0, box.y1 - box.y0
    # a box of a whole card is about the card the mark predicts; an index's box, a corner
    card_sized = width * height > 0.4 * mark.index.card_w * mark.index.card_h
    if not card_sized:
        pad = 0.3 * max(width, height)
        return box.x0 - pad <= x <= box.x1 + pad and box.y0 - pad <= y <= box.y1 + pad
    if not (box.x0 <= x <= box.x1 and box.y0 <= y <= box.y1):
        return False
    corners = ((box.x0, box.y0), (box.x1, box.y0), (box.x1, box.y1), (box.x0, box.y1))
    return min(math.dist((x, y), p) for p in corners) <= CORNER_REACH * min(width, height) * 1.5


def voc_photos(folder: Path) -> list[tuple[Path, list[Box]]]:
    """Every photo under ``folder`` with a Pascal VOC file beside it (the same name, .xml),
    with its boxes. Raises TeachingError where there is none, or a file cannot be read."""
    found = []
    for image, label in photo_files(folder):
        try:
            boxes = [Box(name, *corners) for name, *corners in voc_boxes(label)]
        except (ET.ParseError, AttributeError, TypeError, ValueError) as error:
            raise TeachingError(f"{label}: not a Pascal VOC file we can read ({error})") from None
        found.append((image, boxes))
    if not found:
        raise TeachingError(f"{folder}: no photo with a Pascal VOC file (.xml) beside it")
    return found
