"""Which card read in a photo of a deck laid out is which: rows found on a table photographed
askew, wrapped or upside down, and a card missed, misread or seen twice moving no other
card's code."""

import doctest
import math

import pytest

import scanner.decks.layouts
from scanner.decks.layouts import Placed, align, layout_codes, placed_codes, reading_order


def test_doctests():
    assert doctest.testmod(scanner.decks.layouts).failed == 0


def laid(codes_by_row, *, turn=0.0, step=80.0, drop=130.0, read=None):
    """Cards at their places, rows ``drop`` px apart, the whole turned ``turn`` degrees
    clockwise about the origin; ``read`` changes what a card reads as (code → read)."""
    read = read or {}
    cards, theta = [], math.radians(turn)
    for r, row in enumerate(codes_by_row):
        for n, code in enumerate(row):
            x, y = 100 + n * step, 100 + r * drop
            cards.append(
                Placed(
                    x * math.cos(theta) - y * math.sin(theta),
                    x * math.sin(theta) + y * math.cos(theta),
                    110.0,
                    read.get(code, code),
                    turn,
                )
            )
    return cards


def rows(layout):
    return scanner.decks.layouts.layout_rows(layout)


@pytest.mark.parametrize("layout", ["standard", "special"])
@pytest.mark.parametrize("turn", [0.0, 6.0, -8.0])
def test_a_layout_read_right_gives_every_card_its_own_code(layout, turn):
    cards = laid(rows(layout), turn=turn)
    assert placed_codes(cards, layout) == [c.code for c in cards]


def test_a_photo_taken_from_the_other_side_reads_the_layout_backwards():
    cards = laid(rows("special"), turn=180.0)
    assert placed_codes(cards, "special") == [c.code for c in cards]


def test_a_long_row_wrapped_onto_two_lines_keeps_its_order():
    red, black, joker = rows("standard")
    cards = laid([red[:7], red[7:], black[:7], black[7:], joker])
    assert placed_codes(cards, "standard") == [c.code for c in cards]


def test_misread_cards_take_their_places_code_and_a_missed_one_moves_no_other():
    numbers, words = rows("special")
    # the 3 read as a 5, the Jester as nothing the classifier knows, the 9 not found at all
    cards = laid([numbers, words], read={"3": "5", "JESTER": "none"})
    del cards[numbers.index("9")]
    codes = placed_codes(cards, "special")
    expected = [code for code in layout_codes("special") if code != "9"]
    assert codes == expected


def test_a_card_read_in_a_row_of_another_layout_row_takes_no_place():
    """The words of a special deck the reader cannot read at all: the 12 read as a 2 at the
    end of the numbers' row must not be taken for a card of the words' row."""
    numbers, _ = rows("special")
    cards = laid([numbers], read={"12": "2"})
    codes = placed_codes(cards, "special")
    assert codes[:-1] == list(numbers[:-1])
    assert codes[-1] in (None, "12")


def test_alignment_costs_a_step_per_card_missed_or_extra():
    cost, matched = align(["AR", "AR", "2R"], ["AR", "2R", "3R"])
    assert matched[2] is None and cost == pytest.approx(2.0)
    assert reading_order([]) == []


def test_an_unknown_layout_is_refused():
    with pytest.raises(ValueError, match="standard or special"):
        layout_codes("tarot")
