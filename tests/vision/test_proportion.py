"""A card far smaller than the sure cards where it lies is dropped (``proportion.py``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from scanner.vision.cards import CardReading
from scanner.vision.proportion import PLANE_FROM, card_scales, expected_scales, in_proportion


def card(x: float, y: float, scale: float, confidence: float = 0.99, check: bool = False):
    """A card of outline ``scale`` × ``scale`` px centred on (x, y), its index at the top left."""
    h = scale / 2
    polygon = ((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h))
    index = (x - h, y - h, x - h + scale / 6, y - h + scale / 4)
    return CardReading("KR", confidence, index, polygon, 0.0, check)


def card_scale(card: CardReading) -> float:
    return float(card_scales(np.asarray([card.polygon], np.float64))[0])


def from_above(scale: float = 60.0) -> list[CardReading]:
    """Eight sure cards of one size, as a camera straight above the table sees them."""
    return [card(100 + 150 * k, 300 + 200 * (k % 2), scale) for k in range(8)]


def tilted() -> list[CardReading]:
    """Eight sure cards, 80 px at the top of the frame and 40 px at its foot, 1,000 px down: a
    camera at one end of a long table."""
    return [card(100 + 150 * k, 125 * k, 80 - 0.04 * 125 * k) for k in range(8)]


def test_a_card_scale_is_the_root_of_its_outline_area():
    assert card_scale(card(50, 50, 42)) == pytest.approx(42)
    turned = CardReading("KR", 0.9, (0, 0, 1, 1), ((0, 5), (5, 0), (10, 5), (5, 10)), 45.0, False)
    assert card_scale(turned) == pytest.approx(np.sqrt(50))


def test_a_reading_under_half_the_sure_cards_size_is_dropped():
    sure = from_above()
    grain = card(400, 700, 25, confidence=0.75)  # a mark on the wood, its card its own size
    smaller = card(600, 700, 40, confidence=0.6, check=True)  # a card of another deck, or blurred
    read = in_proportion([*sure, grain, smaller])
    assert grain not in read
    assert smaller in read
    assert read[: len(sure)] == tuple(sure)


def test_the_scale_follows_the_table_away_from_the_camera():
    sure = tilted()
    far = card(500, 1000, 25, confidence=0.7)  # 25 of the 40 px there: a card
    near = card(500, 0, 25, confidence=0.7)  # 25 of the 80 px there: not one
    read = in_proportion([*sure, far, near])
    assert far in read and near not in read
    # the median of the sure cards (about 62 px) would have dropped the far card too
    assert 0.5 * float(np.median([card_scale(c) for c in sure])) > 25


def test_the_plane_holds_against_a_sure_phantom_among_the_cards():
    sure = tilted()
    phantom = card(300, 500, 12)  # read sure, so never dropped itself
    centres = np.array([np.mean(c.polygon, axis=0) for c in sure])
    scales = np.array([card_scale(c) for c in sure])
    plain = expected_scales(centres, scales, centres)
    leaned = expected_scales(np.vstack([centres, [300, 500]]), np.append(scales, 12.0), centres)
    assert np.abs(leaned - plain).max() < 2.0
    assert phantom in in_proportion([*sure, phantom])


def test_few_sure_cards_give_their_median_and_none_drop_nothing():
    few = [card(100, 100, 60), card(400, 100, 64), card(700, 400, 58)]
    assert len(few) < PLANE_FROM
    far = card(900, 900, 25, confidence=0.5, check=True)
    assert far not in in_proportion([*few, far])
    kept = card(900, 900, 31, confidence=0.5)  # just over half their median, 60 px
    assert kept in in_proportion([*few, kept])
    unsure = [card(100, 100, 60, confidence=0.5), card(300, 300, 20, confidence=0.4)]
    assert in_proportion(unsure) == tuple(unsure)
    assert in_proportion([]) == ()


def test_a_small_sure_card_is_kept():
    sure = from_above()
    small = card(900, 900, 20, confidence=0.95)
    assert small in in_proportion([*sure, small])


def test_without_sure_cards_a_card_read_at_both_corners_gives_the_scale():
    # a lone card read unsurely at both corners, and a spot on a rug read as a King beside it
    whole = replace(card(300, 300, 100, confidence=0.37, check=True), corners=2)
    dot = card(600, 300, 46, confidence=0.33, check=True)
    assert in_proportion([whole, dot]) == (whole,)
    # read at one corner only, it is no surer a card than the dot
    alone = replace(whole, corners=1)
    assert in_proportion([alone, dot]) == (alone, dot)
    # a sure card, where there is one, gives the scale as before
    sure = card(900, 300, 50)
    assert in_proportion([whole, dot, sure]) == (whole, dot, sure)
