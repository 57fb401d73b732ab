"""A card far smaller than the table's sure cards where it lies is no card.

The cards of a deal are all one size (two decks of bridge and poker size differ by a tenth),
and they lie on one plane. For a camera looking at a plane, the inverse of the depth is an
affine function of the image coordinates, and a card's scale in pixels follows the inverse
depth (its tilt to the camera changes slowly too), so that scale changes over the frame nearly
as a plane: larger at the near end of a table, smaller at the far end, never halved between
two neighbours. The locator marks grain in wood, a word of print or a knot in
a cloth's pattern as an index now and then, and the card it predicts around such a mark is
the mark's size, a quarter to a half of the true cards' around it (a reading's outline is
drawn from its index's size: ``decode.py``).

So the cards read surely (REFERENCE_SURE, no check) give the scale: their sizes fitted as a
plane over the frame where there are PLANE_FROM of them, their median where there are fewer
(a plane fitted to few cards tilts on one of them). Where none is read so, the cards read at
both corners give it: two corners that agree on one card's place are a card, however unsure
its code (a real photo: an Ace of spades read at both corners, 0.37 sure once its half-hidden
face was weighed in, and a spot on a rug's edge beside it read 0.33 as a King). A card not
among them whose outline measures under UNDER_SCALE of that scale at its centre is dropped: on
the real photos and the busy validation sets it drops phantoms and no card
(model/experiments/proportion.md).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from scanner.vision.cards import CardReading

# Each chosen in model/experiments/proportion.md:
REFERENCE_SURE = 0.8  # cards read this sure without a check give the scale
PLANE_FROM = 6  # a plane from this many such cards, their median where fewer
UNDER_SCALE = 0.5  # a card under this share of the scale where it lies is dropped
# A Huber weight's reach in robust spreads, and the rounds of reweighting: a phantom or a card
# whose outline was guessed wrong among the sure ones then pulls the plane little
HUBER_REACH = 1.5
ROUNDS = 5


def card_scales(outlines: np.ndarray) -> np.ndarray:
    """The square root of the area of each outline [N, K, 2] (the shoelace formula), in frame
    pixels."""
    x, y = outlines[..., 0], outlines[..., 1]
    twice = (x * np.roll(y, 1, axis=-1) - y * np.roll(x, 1, axis=-1)).sum(axis=-1)
    return np.sqrt(0.5 * np.abs(twice))


def expected_scales(centres: np.ndarray, scales: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The card scale the cards at ``centres`` [N, 2] with ``scales`` [N] give at each point
    of ``at`` [M, 2]: their median with fewer than PLANE_FROM cards, else a plane fitted with
    Huber weights, kept between a quarter of their median and their largest (beyond the sure
    cards, a plane runs on where the table need not)."""
    # three numbers fitted by reweighted least squares: a robust regressor from a library
    # (scikit-learn's HuberRegressor) would bring a large dependency to the Pi for them
    middle = float(np.median(scales))
    if len(scales) < PLANE_FROM:
        return np.full(len(at), middle)
    design = np.column_stack([np.ones(len(scales)), centres])
    weights = np.ones(len(scales))
    for _ in range(ROUNDS):
        coefficients = np.linalg.lstsq(design * weights[:, None], scales * weights, rcond=None)[0]
        residuals = np.abs(scales - design @ coefficients)
        spread = 1.4826 * float(np.median(residuals)) + 1e-6
        weights = np.sqrt(np.minimum(1.0, HUBER_REACH * spread / np.maximum(residuals, 1e-9)))
    planned = np.column_stack([np.ones(len(at)), at]) @ coefficients
    return np.clip(planned, 0.25 * middle, float(scales.max()))


def in_proportion(cards: Sequence[CardReading]) -> tuple[CardReading, ...]:
    """``cards`` without those far smaller than the sure cards give where they lie."""
    if not cards:
        return tuple(cards)
    sure = np.array([card.confidence >= REFERENCE_SURE and not card.check for card in cards])
    if not sure.any():  # a card read at both corners is a card, however unsure its code
        sure = np.array([card.corners == 2 for card in cards])
    if not sure.any() or sure.all():
        return tuple(cards)
    outlines = np.array([card.polygon for card in cards], np.float64)
    scales, centres = card_scales(outlines), outlines.mean(axis=1)
    expected = expected_scales(centres[sure], scales[sure], centres)
    return tuple(
        card
        for card, own, scale, wanted in zip(cards, sure, scales, expected, strict=True)
        if own or scale >= UNDER_SCALE * wanted
    )
