"""Classified indices → physical cards, each once (pure functions).

A fully visible card shows two indices, the second turned about 180° at the opposite corner;
both predict the same card centre. A fanned meld hides all but one index of most cards, and the
locator may mark one index twice; both cases are resolved here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from scanner.vision.contract import SPECIAL_CLASSES
from scanner.vision.decode import IndexCandidate, Point, angle_gap

DUPLICATE_SHARE = 0.5  # another mark within half the index's size of a mark is the same index
DUPLICATE_ANGLE = 30.0
# The constants below were each chosen in model/experiments/pairing.md.
# … and a reading of the same word (WORD_CODES) within this share of its height down it (within
# SAME_WORD_ALONG of its width along): the locator measures a tall word index (the joker's JOKER
# printed down the corner) short and marks it twice along its length, while a fan card's index
# beneath another shows only about its own height or more from it. Ranks are printed no taller
# than their index and keep half a height: cards of one rank squared into a pile lie that close.
SAME_CODE_DOWN = 0.7
# A word index marked twice along its reading direction (the word measured short) is one index;
# ranks keep half a width, as cards of one rank lie side by side that close.
SAME_WORD_ALONG = 0.7
WORD_CODES = frozenset({"JK", *(code for code in SPECIAL_CLASSES if not code.isdigit())})
# A faint mark (heat under FAINT_REPEAT_HEAT and under FAINT_REPEAT_SHARE of the other's) read
# as the code of a clear mark within FAINT_REPEAT_ALONG of its index's width along its reading
# direction (and DUPLICATE_SHARE of its height across it) is a second mark of that index: on a
# tight fan of one rank the heat rises a little beside a clear index, and the mark there was
# counted as a card. A card of that rank lying so close has a clear mark of its own.
FAINT_REPEAT_ALONG = 0.9
FAINT_REPEAT_HEAT = 0.35
FAINT_REPEAT_SHARE = 0.5
PAIR_DISTANCE = 1.0  # short sides between the centres a card's two indices predict
PAIR_ANGLE_SLACK = 40.0  # … and read about 180° apart, within this (30 left more double counts)
PAIR_TIGHT = 0.3  # closer than this, two corners are one card even when read differently
# Two readings of one code are also one card when each lies where the other points to its
# card's far corner: the midpoint between them is within DIAGONAL_SLACK degrees of the
# direction each predicts its card centre in, at DIAGONAL_RATIO times the distance it predicts.
# The direction holds where the card-size regression does not (a loose card's two corners,
# each predicting a card too small, counted twice).
DIAGONAL_SLACK = 8.0
DIAGONAL_RATIO = (0.5, 2.5)
# Once the frame's cards read at both corners have measured the card size (see SIZE_PAIRS), two
# such readings lie at most MEASURED_RATIO times the distance predicted: two fans of one rank
# lying head to head, each index on the line to the other's card, were paired across the gap.
MEASURED_RATIO = (0.5, 1.4)
# Pairs of one code come before pairs read as two codes, each best first by
# REACH × reach + skew / SKEW_UNIT + error / ERROR_UNIT: reach is how far apart the two lie
# against how far each predicts its card centre (a card's far corner lies nearer its own top-left
# index than the fan cards beneath it do, for fans run right or down so that indices show), skew
# the degrees each predicted centre lies off the line between them, error the centre error in
# short sides, weighed half as much as at first: the centres a fan's top card and the card
# beneath it predict lie about as close to its far corner's.
REACH = 20.0
SKEW_UNIT = 10.0
ERROR_UNIT = 0.6
# … and by UNSURE × (1 − the less sure of the two readings' confidence): of two marks on one
# index (an index marked twice, once at another size), each fitting the card's other corner
# about as well, the one read surely pairs with it.
UNSURE = 1.0
# A card read at both corners measures its own size: its two index centres lie as far apart as
# the distances each predicts to the card's centre, added. The locator's card size is a guess
# from the index alone and is off by a design's ratio of index to card, which breaks grouping:
# a fan's steps are measured in card sizes. So every card of a frame is scaled by the median
# measured/predicted ratio of its cards read at both corners, when at least SIZE_PAIRS of them
# agree, within SIZE_LIMITS, and the corners are paired again with the sizes measured.
SIZE_PAIRS = 2
SIZE_LIMITS = (0.5, 2.0)
# A table may hold decks of two designs (a jumbo-index deck beside a bridge deck), whose cards
# the locator misjudges by different ratios: a mark takes the median of the cards read at both
# corners whose indices are within SIZE_ALIKE times its own height, where SIZE_PAIRS of them
# are, and the frame's median where not.
SIZE_ALIKE = 1.4
# A card read at both corners in one code is placed by the corner that reads the same way up as
# more of the marks within ALONG_REACH of its card's long side (ALONG_ANGLE), not by the surer
# one: placed by a fan's top card's far corner (paired with the index of the card beneath), the
# card beneath was reported at the top card's place, a double count and a card missed.
ALONG_ANGLE = 40.0
ALONG_REACH = 1.5
# Nor by a corner whose index runs off the frame where the other lies whole in it: such a card
# was reported there, out of sight, and missed where it lies whole.
# Two corners read as two codes are one card by their geometry alone, the surer reading kept.
# When the other was read at least this sure as well, it may be another card lying squarely over
# this one (a lone Jester across a 10's corner), so the card asks for a check and is never set
# aside as a stray.
DISPUTE_SURE = 0.9
# Two corners read as two codes, placed as one card's corners are (within PAIR_DISTANCE, or each
# where the other points), are one card where their readings agree: the code the product of their
# class probabilities names is one of the two, and each corner gives it at least JOINT_SURE. The
# far corner of a small card is often read unsurely as a rank of like shape (a 2 for a 1), and
# the card was counted twice; held to the product alone, two real cards side by side were one.
JOINT_SURE = 0.2


@dataclass(frozen=True)
class IndexReading:
    """One located index and what the classifier read in it."""

    index: IndexCandidate
    code: str  # one of the classifier's classes, "none" included
    confidence: float  # the classifier's probability of ``code``
    doubted: bool = False  # the verifier doubts it is printed on a card (verifier.py)
    # the classifier's probability of every class where it read ``code`` (for ``melds.py``)
    probabilities: np.ndarray | None = field(default=None, compare=False, repr=False)
    # the stage or rule that gave this reading ("classify", a recheck's name, "strays", "gaps"):
    # what ``handfoot eval`` credits it to, and what the size policy leaves out of its measure
    read_by: str = field(default="classify", compare=False)
    # a deck profile reads it as another card than the classifier does (profile.py)
    contested: bool = False


@dataclass(frozen=True)
class CardReading:
    """One physical card: its code (RULES.md §6, R/B form), the classifier's confidence, the
    index it was read from, the card's outline in reading order, and ``check`` when the reading
    is too unsure to count without a person looking (``doubted``: because the verifier doubts it
    is a card at all)."""

    code: str
    confidence: float
    index_box: tuple[float, float, float, float]  # x0, y0, x1, y1, frame px
    polygon: tuple[Point, Point, Point, Point]
    angle: float  # degrees clockwise from upright, of the index read
    check: bool
    corners: int = 1  # 2 when its far corner was read too (a card nothing lies on)
    doubted: bool = False
    disputed: bool = False  # a corner paired with it was read, surely, as another code
    contested: bool = False  # the deck profile reads it as another card than the classifier
    probabilities: np.ndarray | None = field(default=None, compare=False, repr=False)
    # the centre of its other corner's index, where both were read: the card's centre lies
    # midway between the two (``faces.py`` cuts its face out there)
    other_corner: Point | None = field(default=None, compare=False, repr=False)

    @classmethod
    def from_index(
        cls, reading: IndexReading, min_confidence: float, corners: int = 1
    ) -> CardReading:
        return cls(
            code=reading.code,
            confidence=reading.confidence,
            index_box=reading.index.index_box(),
            polygon=reading.index.card_polygon(),
            angle=reading.index.angle,
            check=reading.confidence < min_confidence or reading.doubted or reading.contested,
            corners=corners,
            doubted=reading.doubted,
            contested=reading.contested,
            probabilities=reading.probabilities,
        )

    def as_json(self, digits: int = 1) -> dict:
        """The card as the CLI and the web page print it."""
        return {
            "code": self.code,
            "confidence": round(self.confidence, 3),
            "index_box": [round(value, digits) for value in self.index_box],
            "polygon": [[round(x, digits), round(y, digits)] for x, y in self.polygon],
            "angle": round(self.angle, 1),
            "check": self.check,
        }


def same_index(first: IndexCandidate, second: IndexCandidate) -> bool:
    """Whether two marks lie on one printed index: about the same reading angle, and each
    centre within half an index width and height of the other along the index's own axes."""
    if angle_gap(first.angle, second.angle) > DUPLICATE_ANGLE:
        return False
    (ux, uy), (vx, vy) = first.axes
    dx, dy = second.x - first.x, second.y - first.y
    width = max(first.index_w, second.index_w)
    height = max(first.index_h, second.index_h)
    along, down = abs(dx * ux + dy * uy), abs(dx * vx + dy * vy)
    return along < DUPLICATE_SHARE * width and down < DUPLICATE_SHARE * height


ROWS_AT_ONCE = 256  # marks weighed against all the others in one block of numpy (memory)


def _rows(marks: Sequence[IndexCandidate]) -> np.ndarray:
    """Each mark as (x, y, angle, index_w, index_h, u_x, u_y, v_x, v_y)."""
    return np.array(
        [(m.x, m.y, m.angle, m.index_w, m.index_h, *m.axes[0], *m.axes[1]) for m in marks],
        np.float64,
    ).reshape(len(marks), 9)


def _offsets(origin: np.ndarray, other: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where marks ``other`` lie in the axes of marks ``origin`` (both ``_rows``, broadcast
    against each other): the gap between their reading angles (degrees), and how far along and
    down the origin's index (signed) in the larger of the two indices' width and height."""
    x, y, angle, w, h, ux, uy, vx, vy = np.moveaxis(origin, -1, 0)
    ox, oy, oangle, ow, oh = np.moveaxis(other, -1, 0)[:5]
    gap = np.abs((angle - oangle + 180.0) % 360.0 - 180.0)
    dx, dy = ox - x, oy - y
    along = (dx * ux + dy * uy) / np.maximum(w, ow)
    down = (dx * vx + dy * vy) / np.maximum(h, oh)
    return gap, along, down


def _on_earlier(
    later: np.ndarray,
    earlier: np.ndarray,
    later_codes: np.ndarray | None = None,
    earlier_codes: np.ndarray | None = None,
    later_heat: np.ndarray | None = None,
    earlier_heat: np.ndarray | None = None,
) -> np.ndarray:
    """[i, j]: whether later mark i (``_rows``) lies on earlier mark j's index, weighed in
    j's axes (see DUPLICATE_SHARE); read as codes, also down or along j's reading of the same
    word (see SAME_CODE_DOWN and SAME_WORD_ALONG), and, given the marks' heat, along j's
    reading of the same code where i is faint beside j (see FAINT_REPEAT_ALONG)."""
    gap, along, down = _offsets(earlier[None, :], later[:, None])
    along, down = np.abs(along), np.abs(down)
    near = (along < DUPLICATE_SHARE) & (down < DUPLICATE_SHARE)
    if later_codes is not None and earlier_codes is not None:
        words = np.array([code in WORD_CODES for code in later_codes])[:, None]
        same = earlier_codes[None, :] == later_codes[:, None]
        near |= same & words & (along < SAME_WORD_ALONG) & (down < SAME_CODE_DOWN)
        if later_heat is not None and earlier_heat is not None:
            faint = (later_heat[:, None] < FAINT_REPEAT_HEAT) & (
                later_heat[:, None] < FAINT_REPEAT_SHARE * earlier_heat[None, :]
            )
            near |= same & faint & (along < FAINT_REPEAT_ALONG) & (down < DUPLICATE_SHARE)
    return (gap <= DUPLICATE_ANGLE) & near


def _firsts(marks: Sequence[IndexCandidate], codes: Sequence[str] | None = None) -> list[bool]:
    """For each of ``marks`` (most trusted first) whether it is kept: whether it lies on no
    earlier kept mark's index (``_on_earlier``, weighing the marks' heat where they are read
    as ``codes``). Every pair is weighed at once and the marks then kept in order: weighing
    each mark against those kept so far took four times as long on a busy frame."""
    count = len(marks)
    rows = _rows(marks)
    code_of = None if codes is None else np.array(codes, dtype=object)
    heat = np.array([mark.score for mark in marks], np.float64)
    earlier: list[list[int]] = []
    for first in range(0, count, ROWS_AT_ONCE):
        mine = slice(first, min(count, first + ROWS_AT_ONCE))  # [mark, earlier mark]
        if code_of is None:
            on = _on_earlier(rows[mine], rows)
        else:
            on = _on_earlier(rows[mine], rows, code_of[mine], code_of, heat[mine], heat)
        repeats = np.tril(on, k=first - 1)
        earlier.extend(np.flatnonzero(row).tolist() for row in repeats)
    kept: list[bool] = []
    for before in earlier:
        kept.append(not any(kept[j] for j in before))
    return kept


def repeats_any(
    mark: IndexCandidate, code: str, marks: Sequence[IndexCandidate], codes: Sequence[str]
) -> bool:
    """Whether ``mark``, read as ``code``, lies on the index of one of ``marks`` (read as
    ``codes``) as ``_firsts`` judges a later mark against an earlier one, their heat aside: a
    place a fan's step points to (``gaps.py``) was never marked, so it has none."""
    if not marks:
        return False
    on = _on_earlier(
        _rows([mark]), _rows(marks), np.array([code], dtype=object), np.array(codes, dtype=object)
    )
    return bool(on.any())


def suppress_duplicates(candidates: Iterable[IndexCandidate]) -> tuple[IndexCandidate, ...]:
    """Each printed index once: of marks on the same index, the one with the most heat."""
    ordered = sorted(candidates, key=lambda c: -c.score)
    return tuple(mark for mark, kept in zip(ordered, _firsts(ordered), strict=True) if kept)


@dataclass(frozen=True)
class _PairGeometry:
    """For every pair [i, j] of marks: whether they read about 180° apart (``turned``), how far
    apart the card centres they predict lie in card short sides (``error``), whether each lies
    within DIAGONAL_SLACK of the line along which the other predicts its card's centre
    (``aligned``), the degrees the worse of the two lies off that line (``skew``), and how far
    apart they lie against the distance each predicts to its centre: the nearer and farther of
    the two ratios, and their mean (``reach``)."""

    turned: np.ndarray
    error: np.ndarray
    aligned: np.ndarray
    skew: np.ndarray
    nearer: np.ndarray
    farther: np.ndarray
    down: np.ndarray  # [i, j]: the degrees down from i's reading direction that j lies at

    @property
    def reach(self) -> np.ndarray:
        return (self.nearer + self.farther) / 2

    def opposite(self, ratio: tuple[float, float] = DIAGONAL_RATIO) -> np.ndarray:
        """Whether each lies where the other points to its card's far corner: aligned, and
        each ``ratio`` (low, high) times the distance it predicts to its centre from it."""
        low, high = ratio
        return self.aligned & (low <= self.nearer) & (self.farther <= high)

    def far_corner(self, turn: tuple[float, float], ratio: tuple[float, float]) -> np.ndarray:
        """Whether each lies where its own axes put the other's card's far corner: ``turn``
        (low, high) degrees down from the other's reading direction, at ``ratio`` (low, high)
        times the distance both predict to their card centres."""
        both = 2 * self.nearer * self.farther / np.maximum(self.nearer + self.farther, 1e-9)
        return (
            (np.minimum(self.down, self.down.T) >= turn[0])
            & (np.maximum(self.down, self.down.T) <= turn[1])
            & (ratio[0] <= both)
            & (both <= ratio[1])
        )


def _pair_geometry(marks: Sequence[IndexCandidate]) -> _PairGeometry:
    pos = np.array([(m.x, m.y) for m in marks], dtype=float).reshape(-1, 2)
    centre = np.array([(m.card_x, m.card_y) for m in marks], dtype=float).reshape(-1, 2)
    angle = np.array([m.angle for m in marks], dtype=float)
    short = np.array([m.card_short_side for m in marks], dtype=float)
    gap = np.abs((angle[:, None] - angle[None, :] + 180.0) % 360.0 - 180.0)
    apart = centre[None, :] - centre[:, None]
    error = np.hypot(apart[..., 0], apart[..., 1]) / np.maximum(
        np.minimum(short[:, None], short[None, :]), 1e-9
    )
    half = (pos[None, :] - pos[:, None]) / 2  # [i, j]: from i halfway to j
    distance = np.maximum(np.hypot(half[..., 0], half[..., 1]), 1e-9)
    offset = centre - pos
    length = np.maximum(np.hypot(offset[:, 0], offset[:, 1]), 1e-9)
    # cosine between i's predicted centre direction and the way to j, and j's and the way to i
    along_i = np.einsum("ik,ijk->ij", offset, half) / (length[:, None] * distance)
    along_j = -np.einsum("jk,ijk->ij", offset, half) / (length[None, :] * distance)
    ratio_i, ratio_j = distance / length[:, None], distance / length[None, :]
    worse = np.minimum(along_i, along_j)
    cos, sin = np.cos(np.radians(angle))[:, None], np.sin(np.radians(angle))[:, None]
    down = np.degrees(
        np.arctan2(half[..., 1] * cos - half[..., 0] * sin, half[..., 0] * cos + half[..., 1] * sin)
    )
    return _PairGeometry(
        turned=np.abs(gap - 180.0) <= PAIR_ANGLE_SLACK,
        error=error,
        aligned=worse >= np.cos(np.radians(DIAGONAL_SLACK)),
        skew=np.degrees(np.arccos(np.clip(worse, -1.0, 1.0))),
        nearer=np.minimum(ratio_i, ratio_j),
        farther=np.maximum(ratio_i, ratio_j),
        down=down,
    )


def opposite_corners(first: IndexCandidate, second: IndexCandidate) -> bool:
    """Whether two indices read about 180° apart each lie where the other points to the far
    corner of its card (see DIAGONAL_SLACK)."""
    geometry = _pair_geometry([first, second])
    return bool(geometry.turned[0, 1] and geometry.opposite()[0, 1])


def corner_pairs(marks: Sequence[IndexCandidate]) -> np.ndarray:
    """[i, j]: whether marks i and j may be one card's two corners by their places alone (the
    tests of ``same_card`` and ``opposite_corners``, on every pair at once)."""
    g = _pair_geometry(marks)
    return g.turned & ((g.error <= PAIR_DISTANCE) | g.opposite())


def same_card(first: IndexCandidate, second: IndexCandidate, *, tight: bool = False) -> bool:
    """Whether two indices read about 180° apart predict card centres within PAIR_DISTANCE of
    a short side (``tight``: PAIR_TIGHT, geometry sure enough to merge two different readings)."""
    geometry = _pair_geometry([first, second])
    limit = PAIR_TIGHT if tight else PAIR_DISTANCE
    return bool(geometry.turned[0, 1] and geometry.error[0, 1] <= limit)


def joint_reading(
    first: IndexReading, second: IndexReading, classes: Sequence[str]
) -> tuple[str, float, np.ndarray] | None:
    """The code two readings of one card agree on, how sure, and the class probabilities read
    together (the product of theirs, normalised): None unless that code is one of the two read
    and each reading gives it at least JOINT_SURE."""
    together = _read_together(first, second)
    if together is None:
        return None
    best, sure, shares = together
    code = classes[best]
    each = min(float(first.probabilities[best]), float(second.probabilities[best]))
    if code not in (first.code, second.code) or each < JOINT_SURE:
        return None
    return code, sure, shares


def _read_together(
    first: IndexReading, second: IndexReading, leave_out: int | None = None
) -> tuple[int, float, np.ndarray] | None:
    """The class two readings of one card name together (the likeliest by the product of their
    class probabilities, the class numbered ``leave_out`` aside), how sure, and that product
    normalised; None where either reading has no probabilities."""
    if first.probabilities is None or second.probabilities is None:
        return None
    product = first.probabilities * second.probabilities
    if leave_out is not None:
        product[leave_out] = 0.0
    best = int(np.argmax(product))
    # no surer than the surer corner read it: two corners of one card, printed alike and
    # blurred alike, do not fail independently
    sure = max(float(first.probabilities[best]), float(second.probabilities[best]))
    return best, sure, product / max(float(product.sum()), 1e-12)


def _same_code(codes: Sequence[str]) -> np.ndarray:
    """[i, j]: whether readings i and j were read as one code."""
    _, code = np.unique(np.array(codes, dtype=str), return_inverse=True)
    return code[:, None] == code[None, :]


def _pairs(
    g: _PairGeometry,
    codes: Sequence[str],
    as_read: _PairGeometry | None = None,
    agree: Callable[[int, int], bool] | None = None,
    sure: np.ndarray | None = None,
) -> list[tuple[int, int]]:
    """The pairs (i, j), i < j, of the marks whose geometry is ``g`` that may be the two
    corners of one card (the tests of ``same_card`` and ``opposite_corners``, on every pair at
    once), pairs of one code first, then best first: the nearest against the distance each
    predicts to its card's centre, then the squarest and the closest in predicted centres (see
    REACH), and, given each reading's confidence (``sure``), the surest (UNSURE). With
    ``as_read`` (the geometry of the marks as the locator read them, ``g`` that of the marks
    sized as measured), the diagonal test holds the pair to MEASURED_RATIO."""
    if len(codes) < 2:
        return []
    if as_read is None:
        opposite = g.opposite()
    else:  # sizes measured: held to them, or to the locator's own
        opposite = g.opposite(MEASURED_RATIO) | as_read.opposite(MEASURED_RATIO)
    same = _same_code(codes)
    near = (g.error <= PAIR_DISTANCE) | opposite
    if agree is not None:  # two codes whose readings agree pair as one code does
        for i, j in zip(*np.nonzero(np.triu(g.turned & near & ~same, 1)), strict=True):
            if agree(int(i), int(j)):
                same[i, j] = same[j, i] = True
    fits = g.turned & np.where(same, near, g.error <= PAIR_TIGHT)
    rows, cols = np.nonzero(np.triu(fits, 1))
    fit = (g.skew / SKEW_UNIT + g.error / ERROR_UNIT + REACH * g.reach)[rows, cols]
    if sure is not None:
        fit += UNSURE * (1.0 - np.minimum(sure[rows], sure[cols]))
    order = np.lexsort((fit, ~same[rows, cols]))
    return [(int(rows[k]), int(cols[k])) for k in order]


def merge_cards(
    readings: Sequence[IndexReading],
    *,
    not_an_index: str,
    min_confidence: float,
    classes: Sequence[str] | None = None,
    bounds: tuple[float, float] | None = None,
    faint_below: float = 0.0,
) -> tuple[CardReading, ...]:
    """Physical cards from classified indices, most confident first. Indices read as
    ``not_an_index`` are dropped; twice-marked indices count once; two readings that are the
    two corners of one card become one card (the more confident reading, placed by the corner
    its fan reads the same way up as: see ALONG_ANGLE). Readings below
    ``min_confidence``, and doubted ones, are kept with ``check=True``.

    Corners are paired over the whole frame, the best-fitting pair first (see ``_pairs``), not
    reading by reading: a book's top card read from both corners has its far corner's
    partner among the fan's cards of the same code, all predicting nearly the same centre;
    taken in order of confidence, the far corner paired with a fan card and the card counted
    twice while that fan card went missing. The outlines are scaled to the card size the
    frame's cards read at both corners measure (see SIZE_PAIRS), and paired again held to that
    size (see MEASURED_RATIO). A card whose other corner
    was read as another code at least DISPUTE_SURE sure is ``disputed`` and asks for a
    check. Given ``classes`` (the classifier's, in the order of the readings' probabilities),
    two corners read as two codes that their readings together agree on (``joint_reading``)
    pair as one code's do, and the card takes the code they agree on. Given the frame's
    ``bounds`` (width, height), a card is not placed by a corner the frame's edge cuts. A
    mark of heat under ``faint_below`` lying between two clear marks of its code along their
    fan is a second mark of one of their indices (``_between_clear``). Given ``classes`` too,
    two corners both read less than ``min_confidence`` sure, as two codes, lying as one card's
    corners and each the other's only partner, are one card (``_unsure_corners``)."""
    ordered = sorted((r for r in readings if r.code != not_an_index), key=lambda r: -r.confidence)
    firsts = _firsts([r.index for r in ordered], [r.code for r in ordered])
    unique = [reading for reading, kept in zip(ordered, firsts, strict=True) if kept]
    between = _between_clear(unique, faint_below)
    unique = [reading for reading, aside in zip(unique, between, strict=True) if not aside]
    marks_read = [r.index for r in unique]
    codes = [r.code for r in unique]
    joint: dict[tuple[int, int], tuple[str, float, np.ndarray] | None] = {}

    def agree(i: int, j: int) -> bool:
        if (i, j) not in joint:
            joint[i, j] = joint_reading(unique[i], unique[j], classes)
        return joint[i, j] is not None

    together = agree if classes is not None else None
    sure = np.array([r.confidence for r in unique], np.float64)
    as_read = geometry = _pair_geometry(marks_read)
    absorbed, pairs = _pair_up(marks_read, codes, as_read, agree=together, sure=sure)
    scales = size_scales(marks_read, pairs)
    if len(pairs) >= SIZE_PAIRS:  # paired again with the sizes measured
        marks_read = [scaled(mark, scale) for mark, scale in zip(marks_read, scales, strict=True)]
        geometry = _pair_geometry(marks_read)
        absorbed, _ = _pair_up(marks_read, codes, geometry, as_read, together, sure)
    absorbed.update(
        _far_corners(geometry, codes, set(absorbed) | set(absorbed.values()), marks_read)
    )
    if classes is not None:
        lone = set(absorbed) | set(absorbed.values())
        none = list(classes).index(not_an_index)
        for kept, gone in _unsure_corners(geometry, sure, lone, marks_read, min_confidence).items():
            together = _read_together(unique[kept], unique[gone], leave_out=none)
            if together is not None:  # read as the card both name, "not an index" aside
                best, sure_of, shares = together
                absorbed[kept], joint[kept, gone] = gone, (classes[best], sure_of, shares)
    disputed = {
        kept
        for kept, gone in absorbed.items()
        if codes[kept] != codes[gone] and unique[gone].confidence >= DISPUTE_SURE
    }
    gone, cards = set(absorbed.values()), []
    paired = gone | absorbed.keys()
    placed = _placed_by(marks_read, codes, absorbed, bounds)
    for n, reading in enumerate(unique):
        if n in gone:
            continue
        # pairs run (surer, less sure), as ``joint`` holds them; it holds only two-code pairs
        agreed = joint.get((n, absorbed[n])) if n in absorbed else None
        if agreed is not None:
            code, sure, probabilities = agreed
            reading = replace(reading, code=code, confidence=sure, probabilities=probabilities)
        card = CardReading.from_index(
            replace(reading, index=marks_read[placed.get(n, n)]),
            min_confidence,
            2 if n in paired else 1,
        )
        if n in absorbed:
            other = marks_read[absorbed[n] if placed.get(n, n) == n else n]
            card = replace(card, other_corner=(other.x, other.y))
        cards.append(replace(card, check=True, disputed=True) if n in disputed else card)
    return tuple(cards)


def weighed_reading(
    card: CardReading,
    weighed: np.ndarray,
    classes: Sequence[str],
    none: int,
    min_confidence: float,
) -> CardReading:
    """``card`` read as the likeliest of ``classes`` by ``weighed`` (its class probabilities
    weighed by what else is known of it, "not an index" as it was read; any scale), with that
    class's share of them; as it was where that is "not an index". A card whose code so moves,
    or that is left under ``min_confidence``, asks for a check."""
    shares = weighed / max(float(weighed.sum()), 1e-12)
    best = int(np.argmax(shares))
    if best == none:
        return card
    code, sure = classes[best], float(shares[best])
    check = card.check or code != card.code or sure < min_confidence
    return replace(card, code=code, confidence=sure, check=check)


# A card lying open whose two corners were both read as one code, but whose card the locator
# predicts turned or sized wrongly from one of them (a court card's picture, a fan beneath it),
# was counted twice. Each corner still reads the other right of and below it, FAR_TURN degrees
# down from its reading direction (a card's diagonal between its indices: 50–60°), at FAR_RATIO
# times the distance both predict to their centres; such corners left unpaired, each the other's
# only such reading, are one card. From 20° down, two cards of one rank lying head to tail in a
# row were taken for one (model/experiments/pairing.md).
FAR_TURN = (40.0, 80.0)
FAR_RATIO = (0.6, 1.6)

# A card inside a fan lies under the card after it, which covers its far corner: only a fan's
# end cards show both corners, and a fan card left unpaired took the far corner of a top card of
# its code. So a mark with a mark turned like it on either side of it, along its reading
# direction or down it, within INTERIOR_REACH of the larger index's width (or height) and
# INTERIOR_ACROSS of its height (or width) across, is given no lone far corner. Cards lying side
# by side, each in plain view, lie five index widths or more apart
# (model/experiments/pairing.md).
INTERIOR_REACH = 2.5
INTERIOR_ACROSS = 0.5


def fan_interior(marks: Sequence[IndexCandidate], among: Sequence[int] | None = None) -> np.ndarray:
    """Whether each of ``marks`` (or each of those numbered ``among``) has a mark of ``marks``
    turned like it on either side, along its reading direction or down it (see
    INTERIOR_REACH)."""
    mine = np.arange(len(marks)) if among is None else np.asarray(among, int)
    if len(marks) < 3 or not len(mine):
        return np.zeros(len(mine), bool)
    rows = _rows(marks)
    gap, along, down = _offsets(rows[mine][:, None], rows[None, :])
    alike = gap <= DUPLICATE_ANGLE
    alike[np.arange(len(mine)), mine] = False

    def either_side(step: np.ndarray, across: np.ndarray) -> np.ndarray:
        line = alike & (np.abs(across) < INTERIOR_ACROSS) & (np.abs(step) <= INTERIOR_REACH)
        ahead = (line & (step >= INTERIOR_ACROSS)).any(axis=1)
        behind = (line & (step <= -INTERIOR_ACROSS)).any(axis=1)
        return ahead & behind

    return either_side(along, down) | either_side(down, along)


def _far_corners(
    g: _PairGeometry, codes: Sequence[str], paired: set[int], marks: Sequence[IndexCandidate]
) -> dict[int, int]:
    """Pairs (earlier → later) of the marks of geometry ``g`` not in ``paired``, read as one
    code, each the only such mark lying where the other's card's far corner is by its own axes
    (see FAR_TURN): turned about 180°, FAR_TURN degrees down from its reading direction, at
    FAR_RATIO times the distance both predict to their card centres; a mark of ``marks`` inside
    a fan (``fan_interior``) has no far corner in view."""
    fits = g.turned & g.far_corner(FAR_TURN, FAR_RATIO) & _same_code(codes)
    fits &= _free(paired, len(codes))
    return _only_partners(fits, marks)


def _free(paired: set[int], count: int) -> np.ndarray:
    """[i, j] over ``count`` marks: whether neither mark i nor mark j is in ``paired``, and
    i ≠ j."""
    free = np.ones(count, bool)
    free[list(paired)] = False
    both = free[:, None] & free[None, :]
    np.fill_diagonal(both, False)
    return both


def _only_partners(
    fits: np.ndarray, marks: Sequence[IndexCandidate], options: np.ndarray | None = None
) -> dict[int, int]:
    """The pairs (earlier → later) ``fits`` [i, j] allows whose two marks are each the other's
    only partner (by ``options``, each mark's count of partners; by default those ``fits``
    leaves), neither of them inside a fan (``fan_interior``)."""
    # only the marks that could pair are weighed: every mark took ms a frame
    could = np.flatnonzero(fits.any(axis=0) | fits.any(axis=1))
    inside = could[fan_interior(marks, could)]
    fits = fits.copy()
    fits[inside, :] = False
    fits[:, inside] = False
    if options is None:
        options = fits.sum(axis=1)
    rows, cols = np.nonzero(np.triu(fits, 1))
    return {
        int(i): int(j)
        for i, j in zip(rows, cols, strict=True)
        if options[i] == 1 and options[j] == 1
    }


# A card lying alone whose two corners are both read unsurely, as two codes, was counted twice,
# each corner a card asking for a check (the real photos' Queens of a narrow deck, read 0.17 as
# 10R at one corner and 0.15 as QR at the other). Two corners read less than the recogniser's
# ``min_confidence`` sure, lying as one card's corners, each the other's only such mark left
# unpaired and neither inside a fan, are one card, read as the product of their class
# probabilities names (it asks for a check: no corner read it half sure;
# model/experiments/pairing.md).
def _unsure_corners(
    g: _PairGeometry,
    sure: np.ndarray,
    paired: set[int],
    marks: Sequence[IndexCandidate],
    min_confidence: float,
) -> dict[int, int]:
    """Pairs (earlier → later) of the marks of geometry ``g`` not in ``paired``, both read less
    than ``min_confidence`` sure (``sure``), lying as one card's two corners (turned about
    180°, predicting centres within PAIR_DISTANCE, or each where the other's card's far corner
    lies), each the other's only such mark among those left unpaired; none inside a fan."""
    corners = (g.error <= PAIR_DISTANCE) | g.opposite() | g.far_corner(FAR_TURN, FAR_RATIO)
    fits = g.turned & corners & _free(paired, len(marks))
    unsure = sure < min_confidence
    return _only_partners(fits & unsure[:, None] & unsure[None, :], marks, fits.sum(axis=1))


# A faint mark (heat under the locator's peak threshold, counted because it was read at least
# 0.9 sure) lying between two clear marks of its code, each within BETWEEN_ALONG of the widest
# index's width along their reading direction and BETWEEN_DOWN of its height across it, is a
# second mark of one of their indices: the locator's heat on a tight fan of one rank rises a
# little beside a card's index, and the mark there was counted as a card between two. A card
# missed between two read ones leaves a gap of two fan steps, its index a clear mark when marked
# at all (model/experiments/pairing.md).
BETWEEN_ALONG = 2.2
BETWEEN_DOWN = 0.3


def _between_clear(readings: Sequence[IndexReading], faint_below: float) -> list[bool]:
    """For each of ``readings``, whether it is a faint mark (heat under ``faint_below``) lying
    between two clear marks of its code along their fan (see BETWEEN_ALONG)."""
    if not any(r.index.score < faint_below for r in readings):
        return [False] * len(readings)
    rows = _rows([r.index for r in readings])
    codes = np.array([r.code for r in readings], dtype=object)
    clear = np.array([r.index.score >= faint_below for r in readings])
    result = []
    for n, reading in enumerate(readings):
        if clear[n]:
            result.append(False)
            continue
        gap, along, down = _offsets(rows[n], rows)
        beside = clear & (codes == reading.code) & (gap <= DUPLICATE_ANGLE)
        beside &= (np.abs(along) <= BETWEEN_ALONG) & (np.abs(down) <= BETWEEN_DOWN)
        result.append(bool(np.any(beside & (along > 0)) and np.any(beside & (along < 0))))
    return result


def _placed_by(
    marks: Sequence[IndexCandidate],
    codes: Sequence[str],
    absorbed: dict[int, int],
    bounds: tuple[float, float] | None = None,
) -> dict[int, int]:
    """For pairs of one code (``absorbed``: kept → gone), the corner a card is placed by where
    it is not the kept one: the corner more of the marks around read the same way up as (see
    ALONG_ANGLE, ALONG_REACH), as a fan's indices do and its top card's far corner does not.
    Given the frame's ``bounds`` (width, height), never a corner whose index the frame's edge
    cuts where the other lies whole in the frame (see the note by ALONG_REACH)."""
    placed: dict[int, int] = {}
    if not absorbed:
        return placed
    xy = np.array([(m.x, m.y) for m in marks], dtype=float)
    angle = np.array([m.angle for m in marks], dtype=float)

    def alike(k: int) -> int:
        reach = ALONG_REACH * max(marks[k].card_w, marks[k].card_h)
        near = np.hypot(*(xy - xy[k]).T) <= reach
        same_way = angle_gap(angle, angle[k]) <= ALONG_ANGLE
        return int(np.sum(near & same_way)) - 1

    def inside(k: int) -> bool:
        if bounds is None:
            return True
        x0, y0, x1, y1 = marks[k].index_box()
        return x0 >= 0 and y0 >= 0 and x1 <= bounds[0] and y1 <= bounds[1]

    for kept, gone in absorbed.items():
        if codes[kept] != codes[gone] or not inside(gone):
            continue
        if alike(gone) > alike(kept) or not inside(kept):
            placed[kept] = gone
    return placed


def _pair_up(
    marks: Sequence[IndexCandidate],
    codes: Sequence[str],
    geometry: _PairGeometry,
    as_read: _PairGeometry | None = None,
    agree: Callable[[int, int], bool] | None = None,
    sure: np.ndarray | None = None,
) -> tuple[dict[int, int], list[tuple[IndexCandidate, IndexCandidate]]]:
    """Each mark paired at most once, best pairs first (``_pairs``, given the marks'
    ``geometry``, ``as_read`` and the readings' confidences ``sure``): the less confident mark
    of each pair by the mark it joins (``marks`` run surest first), and the pairs."""
    options = _pairs(geometry, codes, as_read, agree, sure)
    chosen: list[tuple[int, int]] = []
    paired: set[int] = set()
    for first, second in options:
        if first in paired or second in paired:
            continue
        paired.update((first, second))
        chosen.append((first, second))
    chosen = _split_pairs(chosen, options, paired)
    absorbed = dict(chosen)  # the surer mark of each pair by the less confident one
    return absorbed, [(marks[first], marks[second]) for first, second in chosen]


# Corners are paired best pair first, and a best pair can be the wrong one: two cards of one
# code lying one over the other a third of a card down, each showing both corners, where the
# lower card's top corner lies nearer the upper card's far corner than either card's own
# corners lie to each other. Paired so, the two other corners were left a card each: one card
# counted twice. A pair whose two marks can each pair with a mark left unpaired is replaced by
# those two pairs, every one of them a pair the geometry allows (model/experiments/pairing.md).
def _split_pairs(
    chosen: list[tuple[int, int]], options: list[tuple[int, int]], paired: set[int]
) -> list[tuple[int, int]]:
    """``chosen`` with each pair (a, b) that two pairs could replace, a with one mark left
    unpaired and b with another, so replaced, the best such two first (by their places in
    ``options``, best first)."""
    rank = {pair: n for n, pair in enumerate(options)}
    partners: dict[int, list[int]] = {}
    for first, second in options:
        partners.setdefault(first, []).append(second)
        partners.setdefault(second, []).append(first)
    result = []
    for a, b in chosen:
        best = None
        for c in partners[a]:
            if c in paired:
                continue
            for d in partners[b]:
                if d in paired or d == c:
                    continue
                cost = rank[min(a, c), max(a, c)] + rank[min(b, d), max(b, d)]
                if best is None or cost < best[0]:
                    best = (cost, c, d)
        if best is None:
            result.append((a, b))
            continue
        _, c, d = best
        paired.update((c, d))
        result.extend([(min(a, c), max(a, c)), (min(b, d), max(b, d))])
    return result


def scaled(index: IndexCandidate, scale: float) -> IndexCandidate:
    """``index`` predicting a card ``scale`` times as large, about the index."""
    if scale == 1.0:
        return index
    return replace(
        index,
        card_x=index.x + scale * (index.card_x - index.x),
        card_y=index.y + scale * (index.card_y - index.y),
        card_w=scale * index.card_w,
        card_h=scale * index.card_h,
    )


def size_scales(
    marks: Sequence[IndexCandidate], pairs: Sequence[tuple[IndexCandidate, IndexCandidate]]
) -> list[float]:
    """How much larger each mark's card is than the locator predicts, measured on cards read
    at both corners (``pairs``): those whose indices are about its height (SIZE_ALIKE) where
    SIZE_PAIRS of them are, else all of them; 1 where fewer than SIZE_PAIRS were. Clipped to
    SIZE_LIMITS."""
    ratios, heights = [], []
    for first, second in pairs:
        predicted = sum(math.hypot(m.card_x - m.x, m.card_y - m.y) for m in (first, second))
        if predicted > 0:
            ratios.append(math.hypot(second.x - first.x, second.y - first.y) / predicted)
            heights.append((first.index_h + second.index_h) / 2)
    if len(ratios) < SIZE_PAIRS:
        return [1.0] * len(marks)
    ratio, height = np.array(ratios), np.array(heights)
    own = np.array([max(mark.index_h, 1e-9) for mark in marks]).reshape(-1, 1)
    alike = np.abs(np.log(height[None, :] / own)) <= math.log(SIZE_ALIKE)  # [marks, pairs]
    scale = np.full(len(marks), np.median(ratio))
    enough = alike.sum(axis=1) >= SIZE_PAIRS
    if enough.any():
        scale[enough] = np.nanmedian(np.where(alike[enough], ratio, np.nan), axis=1)
    return np.clip(scale, *SIZE_LIMITS).tolist()
