"""How well the recogniser reads a folder of labelled synthetic scenes (``handfoot synth``).

A labelled card counts when at least one of its indices is ``visible`` (≥ 90 % seen). A read
card lands on the labelled card one of whose index quads holds the centre of its index box
(any visibility); a read inside no quad lands, after all those that did, on the card whose
index quad lies nearest, if within half that index's width (``NEAR``) of its edge. The first
read on a countable card finds it; another read on it is a double count; a read on a card with
no visible index is ignored; a read on no card is a phantom. Given the indices read before the
corners were paired, each card missed also says what became of it (``miss_fate``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from scanner.vision.cards import CardReading, IndexReading
from scanner.vision.contract import CLASSES, NOT_AN_INDEX, deck_of
from scanner.vision.grouping import index_centre
from scanner.vision.images import read_image
from scanner.vision.legibility import advice_for

if TYPE_CHECKING:
    from scanner.vision.reading import Reading

MISSED = "missed"  # the confusion matrix's column for cards nobody read
PHANTOM = "phantom"  # … and its row for reads where no card is (or a card read twice)
# Edges of the index sizes recall is split by: a card's size is the short side, in frame
# pixels, of its largest visible index (a busy table seen from above holds many below 6 px,
# where a blurred rank is hard to read for anyone).
SIZE_EDGES = (6, 8, 10, 14)
# How far outside an index quad, in its short sides, a read still lands on it. An index 4 px
# wide read 2 px off its centre lies outside its quad: such a read is the card found, placed
# a pixel or two off, not a phantom beside a card missed.
NEAR = 0.5


@dataclass(frozen=True)
class Found:
    truth: str
    read: str


@dataclass(frozen=True)
class SceneScore:
    """One scene's reads set against its labels."""

    name: str
    deck: str
    held_out: bool  # the scene uses a card design held out of training
    found: tuple[Found, ...]
    missed: tuple[str, ...]  # codes of countable cards nobody read
    doubles: tuple[str, ...]  # codes read on a card already found
    phantoms: tuple[str, ...]  # codes read where no labelled card is
    ignored: int  # reads on cards none of whose indices is visible
    sizes: tuple[tuple[float, bool], ...] = ()  # per countable card: index size (px), found
    errors: tuple[dict, ...] = ()  # each card missed, read wrong, read twice or read on nothing
    index_px: float | None = None  # the median index size the recogniser measured (legibility)
    small_px: float | None = None  # the size the smallest fifth of them lie under (legibility)
    table: str | None = None  # the surface the cards lie on (its name in model/synth)

    @property
    def exact(self) -> bool:
        """Every countable card found with its code, and nothing else read."""
        right = all(pair.truth == pair.read for pair in self.found)
        return right and not self.missed and not self.doubles and not self.phantoms


def held_out_styles() -> frozenset[str]:
    """Names of the card designs that never appear in training scenes: the renderer's own,
    the printed decks' and the typeset ones' (faces/typeset.py) held out."""
    from model.synth.deck_art.faces import ALL_ART_STYLES
    from model.synth.faces import ALL_STYLES
    from model.synth.faces.typeset import table

    every = [*ALL_STYLES, *ALL_ART_STYLES, *(style for style, _ in table().values())]
    return frozenset(style.name for style in every if style.split == "test")


def _inside(quad: Sequence[Sequence[float]], x: float, y: float) -> bool:
    return cv2.pointPolygonTest(np.asarray(quad, np.float32), (x, y), False) >= 0


def _short_side(quad: np.ndarray) -> float:
    return float(min(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0])))


def _largest_index(card: dict) -> np.ndarray | None:
    """The quad of the card's largest visible index (None if none is visible)."""
    quads = [np.asarray(index["quad"], float) for index in card["indices"] if index["visible"]]
    return max(quads, key=_short_side, default=None)


def index_size(card: dict) -> float:
    """The short side, in frame pixels, of the card's largest visible index (0 if none)."""
    largest = _largest_index(card)
    return 0.0 if largest is None else _short_side(largest)


def _landing(cards: list[dict], x: float, y: float) -> int | None:
    """The labelled card whose index quad holds (x, y): a visible index before a hidden one,
    then the card on top."""
    best, best_key = None, None
    for position, card in enumerate(cards):
        for index in card["indices"]:
            if _inside(index["quad"], x, y):
                key = (index["visible"], index["visible_fraction"], position)
                if best_key is None or key > best_key:
                    best, best_key = position, key
    return best


def _by_other_corner(
    cards: list[dict],
    countable: Sequence[bool],
    card: CardReading,
    landing: int | None,
    claimed: set[int],
) -> int | None:
    """Where a card read at both corners lands: where its index lands (``landing``), unless
    that is on no card that counts and its other corner's index lies inside the quad of one
    that does and that no card read lands on (``claimed``, which it then joins). A card is one
    reading of both its corners: the locator's centre of a narrow index (a joker's word printed
    down its corner) can lie a few pixels beside its quad, on the half-hidden index of the card
    beneath it, and the card read right at both corners was counted as read on that hidden card
    and its own card as missed. A card already read is not taken from its reading so: the
    hidden card beneath may be the one read, half in view."""
    if card.other_corner is None or (landing is not None and countable[landing]):
        return landing
    other = _landing(cards, *card.other_corner)
    if other is None or not countable[other] or other in claimed:
        return landing
    claimed.add(other)
    return other


def _near(cards: list[dict], x: float, y: float) -> int | None:
    """The labelled card whose index quad lies nearest (x, y), outside by at most ``NEAR`` of
    its short side."""
    best, best_gap = None, None
    for position, card in enumerate(cards):
        for index in card["indices"]:
            quad = np.asarray(index["quad"], np.float32)
            gap = -cv2.pointPolygonTest(quad, (x, y), True)
            if gap <= NEAR * _short_side(quad) and (best_gap is None or gap < best_gap):
                best, best_gap = position, gap
    return best


# What became of a card missed, from the indices read before the corners were paired that land
# on it (as a card read there would: ``_landing``, then ``_near``); the first of FATES that
# happened to it is its fate.
# its code read there, and lost as readings became cards: paired with another card's corner, or
# taken for a second mark of another index of its code (``cards.merge_cards``)
LOST_IN_PAIRING = "lost in pairing"
READ_AS_ANOTHER_CODE = "read as another code"  # and that reading lost as well
READ_AS_NOT_AN_INDEX = "read as not an index"
NO_READING = "no reading"  # never marked, or marked faintly, or set aside by the verifier
FATES = (LOST_IN_PAIRING, READ_AS_ANOTHER_CODE, READ_AS_NOT_AN_INDEX, NO_READING)


def miss_fate(code: str, codes_read: Iterable[str]) -> str:
    """What became of a labelled card of ``code`` nobody read (one of FATES), given the codes
    of the indices read on it before the corners were paired."""
    happened = {NO_READING}
    for read in codes_read:
        if read == code:
            happened.add(LOST_IN_PAIRING)
        elif read == NOT_AN_INDEX:
            happened.add(READ_AS_NOT_AN_INDEX)
        else:
            happened.add(READ_AS_ANOTHER_CODE)
    return next(fate for fate in FATES if fate in happened)


def _codes_landed(truth: list[dict], indices: Iterable[IndexReading]) -> dict[int, list[str]]:
    """For each labelled card, the codes of the indices read that land on it."""
    landed: dict[int, list[str]] = {}
    for reading in indices:
        x, y = float(reading.index.x), float(reading.index.y)
        position = _landing(truth, x, y)
        if position is None:
            position = _near(truth, x, y)
        if position is not None:
            landed.setdefault(position, []).append(reading.code)
    return landed


def _error(kind: str, truth: dict | None, card: CardReading | None, at: Sequence[float]) -> dict:
    """One line of the error listing (``handfoot eval --errors``): what went wrong, the true
    and the read code, how sure the read was and whether it asked for a check, the true
    card's index size and where in the frame (px) it happened."""
    return {
        "kind": kind,
        "truth": truth["code"] if truth else None,
        "read": card.code if card else None,
        "confidence": round(card.confidence, 3) if card else None,
        "check": card.check if card else None,
        "index_size": round(index_size(truth), 1) if truth else None,
        "at": [round(float(v), 1) for v in at],
    }


def score_scene(
    labels: dict,
    cards: Iterable[CardReading],
    held_out: frozenset[str] = frozenset(),
    indices: Sequence[IndexReading] | None = None,
) -> SceneScore:
    """Set the cards read in one scene against its labels (a ``handfoot-scene/1`` object).
    With ``indices`` (read before the corners were paired), each card missed in ``errors``
    says what became of it (``fate``, see ``miss_fate``)."""
    truth = labels["cards"]
    countable = [any(index["visible"] for index in card["indices"]) for card in truth]
    found: dict[int, Found] = {}
    doubles, phantoms, ignored, errors = [], [], 0, []
    surest_first = sorted(cards, key=lambda card: -card.confidence)
    centres = [tuple(index_centre(card).tolist()) for card in surest_first]
    landings = [_landing(truth, *centre) for centre in centres]
    claimed = {at for at in landings if at is not None and countable[at]}
    for n, card in enumerate(surest_first):
        landings[n] = _by_other_corner(truth, countable, card, landings[n], claimed)
    # Reads inside a quad land first, so a read beside an index never takes its card from one
    # lying on it.
    order = [n for n, at in enumerate(landings) if at is not None]
    for n in (n for n, at in enumerate(landings) if at is None):
        landings[n] = _near(truth, *centres[n])
        order.append(n)
    for n in order:
        card, centre, position = surest_first[n], centres[n], landings[n]
        if position is None:
            phantoms.append(card.code)
            errors.append(_error("phantom", None, card, centre))
        elif not countable[position]:
            ignored += 1
        elif position in found:
            doubles.append(card.code)
            errors.append(_error("double count", truth[position], card, centre))
        else:
            found[position] = Found(truth[position]["code"], card.code)
            if card.code != truth[position]["code"]:
                errors.append(_error("wrong code", truth[position], card, centre))
    missing = [n for n, card in enumerate(truth) if countable[n] and n not in found]
    missed = [truth[n]["code"] for n in missing]
    landed = _codes_landed(truth, indices) if indices is not None else None
    for n in missing:
        error = _error("missed", truth[n], None, _largest_index(truth[n]).mean(axis=0))
        if landed is not None:
            error["fate"] = miss_fate(truth[n]["code"], landed.get(n, ()))
        errors.append(error)
    return SceneScore(
        name=str(labels.get("image") or labels.get("index", "")),
        deck=labels["deck"],
        held_out=any(style in held_out for style in labels["styles"]),
        found=tuple(found[n] for n in sorted(found)),
        missed=tuple(missed),
        doubles=tuple(doubles),
        phantoms=tuple(phantoms),
        ignored=ignored,
        sizes=tuple((index_size(c), n in found) for n, c in enumerate(truth) if countable[n]),
        errors=tuple(errors),
        table=labels.get("surface"),
    )


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def size_bins(edges: Sequence[float] = SIZE_EDGES) -> list[tuple[str, float, float]]:
    """(label, from, below) for each bin of index sizes: "<6 px", "6-8 px", …, "≥14 px"."""
    bounds = [0.0, *edges, float("inf")]
    labels = [f"<{edges[0]} px"]
    labels += [f"{a}-{b} px" for a, b in pairwise(edges)]
    labels += [f"≥{edges[-1]} px"]
    return [(label, bounds[n], bounds[n + 1]) for n, label in enumerate(labels)]


def _by_size(pairs: Sequence[tuple[float, bool]], count: str, share: str) -> dict[str, dict]:
    """Per bin of index sizes (see SIZE_EDGES): how many of ``pairs`` (size, yes or no) lie in
    it, as ``count``, and the share of them that are yes, as ``share``."""
    result = {}
    for label, low, high in size_bins():
        inside = [yes for size, yes in pairs if low <= size < high]
        result[label] = {count: len(inside), share: _share(sum(inside), len(inside))}
    return result


def recall_by_size(scores: Sequence[SceneScore]) -> dict[str, dict]:
    """Per bin of index sizes (see SIZE_EDGES): how many countable cards, and the share found."""
    return _by_size([pair for score in scores for pair in score.sizes], "cards", "recall")


def exact_by_smallest_index(scores: Sequence[SceneScore]) -> dict[str, dict]:
    """Per bin of index sizes (see SIZE_EDGES): the scenes whose smallest countable card lies
    in it, and the share of them read exactly. One card too small to read keeps a whole scene
    from being exact, so this shows how far a split's exact scenes are bound by its smallest
    cards rather than by the many it reads well. Scenes with no countable card are left out."""
    smallest = [(min(size for size, _ in s.sizes), s.exact) for s in scores if s.sizes]
    return _by_size(smallest, "scenes", "exact_scenes")


def summarise(scores: Sequence[SceneScore]) -> dict:
    """The figures for a set of scenes, ready for JSON."""
    found = [pair for score in scores for pair in score.found]
    missed = [code for score in scores for code in score.missed]
    doubles = sum(len(score.doubles) for score in scores)
    phantoms = sum(len(score.phantoms) for score in scores)
    countable = len(found) + len(missed)
    right = [pair for pair in found if pair.truth == pair.read]
    accuracy = {"all": _share(len(right), len(found))}
    for deck in ("standard", "special"):
        in_deck = [pair for pair in found if deck_of(pair.truth) == deck]
        accuracy[deck] = _share(sum(p.truth == p.read for p in in_deck), len(in_deck))
    per_class_total = Counter([pair.truth for pair in found] + missed)
    per_class_right = Counter(pair.truth for pair in right)
    return {
        "scenes": len(scores),
        "countable": countable,
        "found": len(found),
        "missed": len(missed),
        "read_right": len(right),
        "double_counts": doubles,
        "phantoms": phantoms,
        "ignored": sum(score.ignored for score in scores),
        "recall": _share(len(found), countable),
        "precision": _share(len(found), len(found) + doubles + phantoms),
        "accuracy": accuracy,
        "exact_scenes": _share(sum(score.exact for score in scores), len(scores)),
        "per_class_recall": {
            code: _share(per_class_right[code], per_class_total[code])
            for code in CLASSES
            if per_class_total[code]
        },
        "recall_by_index_size": recall_by_size(scores),
    }


def report(scores: Sequence[SceneScore]) -> dict:
    """All scenes, then split by whether their card designs were held out of training, by
    whether the players would be told the cards look too small (``legibility.py``), by the
    size of each scene's smallest card, and by table.
    Per-class recall counts a card when it was found and read right."""
    result = summarise(scores)
    result["by_styles"] = {
        "seen": summarise([s for s in scores if not s.held_out]),
        "held_out": summarise([s for s in scores if s.held_out]),
    }
    # the scenes the players would be told to bring the camera closer for, and the others
    result["by_legibility"] = {
        "small_cards": summarise([s for s in scores if advice_for(s.small_px)]),
        "readable": summarise([s for s in scores if not advice_for(s.small_px)]),
    }
    for part in (*result["by_styles"].values(), *result["by_legibility"].values()):
        del part["per_class_recall"], part["recall_by_index_size"]
    result["exact_by_smallest_index"] = exact_by_smallest_index(scores)
    result["by_table"] = by_table(scores)
    return result


def by_table(scores: Sequence[SceneScore]) -> dict[str, dict]:
    """Per table the cards lie on, most errors first: how many scenes, cards and errors, and
    the share of scenes read exactly (a held-out tablecloth shows here apart from the rest)."""
    tables: dict[str, list[SceneScore]] = {}
    for score in scores:
        tables.setdefault(score.table or "unknown", []).append(score)
    parts = {
        name: {
            "scenes": len(part),
            "countable": sum(len(score.sizes) for score in part),
            "errors": sum(len(score.errors) for score in part),
            "exact_scenes": _share(sum(score.exact for score in part), len(part)),
        }
        for name, part in tables.items()
    }
    return dict(sorted(parts.items(), key=lambda item: (-item[1]["errors"], item[0])))


def error_lines(scores: Iterable[SceneScore]) -> Iterator[dict]:
    """Every scene's errors (see ``_error``), each led by the scene's image name."""
    for score in scores:
        for error in score.errors:
            yield {"scene": score.name, **error}


def scene_files(folder: Path, limit: int | None = None) -> list[Path]:
    """The label files ``scene_*.json`` in ``folder``, in order, at most ``limit``."""
    files = sorted(folder.glob("scene_*.json"))
    return files[:limit] if limit is not None else files


def evaluate_folder(
    folder: Path, read: Callable[[np.ndarray], Reading], limit: int | None = None
) -> list[SceneScore]:
    """Read every scene in ``folder`` with ``read`` (frame → the recogniser's Reading) and
    score it."""
    held_out = held_out_styles()
    scores = []
    for path in scene_files(folder, limit):
        labels = json.loads(path.read_text(encoding="utf-8"))
        image = path.parent / labels.get("image", path.with_suffix(".jpg").name)
        reading = read(read_image(image))
        score = score_scene(labels, reading.cards, held_out, reading.indices)
        scores.append(replace(score, index_px=reading.index_px, small_px=reading.small_px))
    return scores


def confusion_counts(scores: Iterable[SceneScore]) -> Counter:
    """(truth or PHANTOM, read or MISSED) → how often."""
    counts: Counter = Counter()
    for score in scores:
        counts.update((pair.truth, pair.read) for pair in score.found)
        counts.update((code, MISSED) for code in score.missed)
        counts.update((PHANTOM, code) for code in score.doubles + score.phantoms)
    return counts


def confusion_classes(scores: Sequence[SceneScore], counts: Counter) -> list[str]:
    """Every class of the decks the scenes use, plus any other class read, in CLASSES order."""
    decks = {score.deck for score in scores}
    seen = {code for pair in counts for code in pair}
    return [c for c in CLASSES if c != NOT_AN_INDEX and (deck_of(c) in decks or c in seen)]


def draw_confusion(scores: Sequence[SceneScore], cell: int = 18) -> np.ndarray:
    """The confusion matrix as an RGB image: rows the true code (last row: reads where no card
    is, or a card read twice), columns the code read (last column: missed). Cells are shaded
    by their share of the row and show the count."""
    counts = confusion_counts(scores)
    classes = confusion_classes(scores, counts)
    rows, cols = [*classes, PHANTOM], [*classes, MISSED]
    matrix = np.array([[counts[(r, c)] for c in cols] for r in rows], np.float64)
    font, scale = cv2.FONT_HERSHEY_SIMPLEX, cell / 45
    margin = cell * 4
    size_h, size_w = margin + len(rows) * cell + 8, margin + len(cols) * cell + 8
    image = np.full((size_h, size_w, 3), 255, np.uint8)
    shares = matrix / np.maximum(matrix.sum(axis=1, keepdims=True), 1)
    for r, row in enumerate(rows):
        y = margin + r * cell
        cv2.putText(image, row, (4, y + cell - 5), font, scale, (0, 0, 0), 1, cv2.LINE_AA)
        for c in range(len(cols)):
            x = margin + c * cell
            share = shares[r, c]
            if matrix[r, c]:
                tint = (40, 150, 60) if rows[r] == cols[c] else (200, 50, 40)
                colour = tuple(int(255 - share * (255 - t) * 0.9) for t in tint)
                cv2.rectangle(image, (x, y), (x + cell, y + cell), colour, cv2.FILLED)
                text = str(int(matrix[r, c]))
                ink = (255, 255, 255) if share > 0.55 else (0, 0, 0)
                small = scale * 0.8 * min(1.0, 2 / len(text))
                cv2.putText(image, text, (x + 1, y + cell - 5), font, small, ink, 1, cv2.LINE_AA)
            cv2.rectangle(image, (x, y), (x + cell, y + cell), (220, 220, 220), 1)
    cv2.putText(image, "true", (4, margin - 22), font, scale, (90, 90, 90), 1, cv2.LINE_AA)
    cv2.putText(image, "read ->", (4, margin - 6), font, scale, (90, 90, 90), 1, cv2.LINE_AA)
    # column labels, written sideways on a strip turned a quarter turn
    strip = np.full((cell * len(cols), margin, 3), 255, np.uint8)
    for c, col in enumerate(cols):
        cv2.putText(strip, col, (4, c * cell + cell - 5), font, scale, (0, 0, 0), 1, cv2.LINE_AA)
    image[:margin, margin : margin + len(cols) * cell] = cv2.rotate(
        strip, cv2.ROTATE_90_COUNTERCLOCKWISE
    )
    return image
