"""The three scan modes (scanner/table/modes.py) on hand-laid readings: the engine's verdicts,
totals and reasons come through, and nothing is guessed."""

import pytest

from engine import get_preset
from scanner.table.modes import LONE_CARD, STRAY, Mode, interpret
from tests.table.test_voting import card, fan

PAGAT = get_preset("pagat")


def codes(meld) -> list[str]:
    return [c.code for c in meld.cards]


def table_cards():
    book = fan(["KR", "KB", "KR", "KB", "KR", "KB", "KR"], x=100, y=100)
    meld = fan(["9R", "9B", "2B"], x=100, y=300)
    return [*book, *meld, card("3R", 500, 300)]


def test_table_mode_scores_melds_books_and_red_threes():
    result = interpret(Mode.TABLE, table_cards(), PAGAT)
    assert sorted(codes(meld) for meld in result.melds) == [
        ["9R", "9B", "2B"],
        ["KR", "KB", "KR", "KB", "KR", "KB", "KR"],
    ]
    kinds = sorted(meld.verdict.label for meld in result.melds)
    assert kinds == ["clean book", "dirty meld"]
    assert [c.code for c in result.red_threes] == ["3R"]
    assert result.totals["melded_points"] == 70 + 40
    assert result.totals["book_bonuses"] == 500
    assert result.totals["red_threes"] == 100
    assert result.totals["total"] == 710
    assert result.totals["books"] == 1 and result.totals["clean_books"] == 1
    assert result.legal and not result.needs_check and not result.unplaced


def test_the_json_line_carries_the_issue_fields():
    data = interpret(Mode.TABLE, table_cards(), PAGAT).as_json()
    book = next(meld for meld in data["melds"] if meld["kind"] == "clean book")
    assert book["legal"] is True and book["problems"] == [] and book["points"] == 570
    assert data["red_threes"] == ["3R"] and data["unplaced"] == []
    assert data["mode"] == "table" and data["rules"] == "pagat" and data["totals"]["total"] == 710


def test_meld_mode_gives_every_reason():
    result = interpret(Mode.MELD, fan(["8R", "8B", "2R", "JK"]), PAGAT)
    (meld,) = result.melds
    assert not result.legal
    assert [p.message for p in meld.verdict.problems] == [
        "a dirty meld of 4 cards may hold only 1 wild card (this one has 2)"
    ]


def test_meld_mode_initial_minimum_over_the_melds_laid_together():
    cards = [*fan(["9R", "9B", "2B"], y=100), *fan(["AR", "AB", "AR"], y=300)]
    opens = interpret(Mode.MELD, cards, PAGAT, deal=2, initial=True)
    assert opens.totals == {
        "points": 40 + 60,
        "initial_minimum": 90,
        "initial_points": 100,
        "opens": True,
    }
    short = interpret(Mode.MELD, fan(["9R", "9B", "2B"]), PAGAT, deal=2, initial=True)
    assert short.totals["opens"] is False
    assert [p.message for p in short.problems] == [
        "the first meld of deal 2 needs at least 90 points (these cards make 40)"
    ]


def test_meld_mode_takes_cards_spread_apart_as_one_meld():
    spread = [card("QR", 100, 100), card("QB", 300, 100), card("QR", 500, 100)]
    (meld,) = interpret(Mode.MELD, spread, PAGAT).melds
    assert sorted(codes(meld)) == ["QB", "QR", "QR"] and meld.verdict.legal


def test_leftovers_count_against_the_side():
    cards = [card("5B", 100, 100), card("JK", 300, 100), card("3B", 500, 100)]
    result = interpret(Mode.LEFTOVERS, cards, PAGAT)
    assert result.totals == {"cards": -60, "red_threes": 0, "lady_penalties": 0, "total": -60}
    held_three = interpret(Mode.LEFTOVERS, [card("3R", 100, 100)], PAGAT)
    assert held_three.totals["red_threes"] == -100


def test_a_lone_card_on_the_table_is_reported_not_guessed():
    result = interpret(Mode.TABLE, [*table_cards(), card("QB", 900, 700)], PAGAT)
    assert [(u.card.code, u.reason) for u in result.unplaced] == [("QB", LONE_CARD)]
    assert result.needs_check and result.totals["total"] == 710


def test_an_unsure_mark_far_from_every_card_is_shown_but_neither_counted_nor_asked_about():
    mark = card("6B", 900, 700, confidence=0.3)
    result = interpret(Mode.TABLE, [*table_cards(), mark], PAGAT)
    assert [(item.card, item.reason) for item in result.strays] == [(mark, STRAY)]
    assert not result.unplaced and not result.needs_check and result.totals["total"] == 710
    assert mark not in result.cards
    data = result.as_json()
    assert [(item["code"], item["check"]) for item in data["strays"]] == [("6B", True)]


def test_in_meld_mode_an_unsure_card_shown_apart_is_still_a_card():
    cards = [card("8R", 100, 100), card("8B", 400, 100), card("8R", 700, 500, confidence=0.3)]
    result = interpret(Mode.MELD, cards, PAGAT)
    assert [codes(meld) for meld in result.melds] == [["8R", "8B", "8R"]]
    assert not result.strays and result.needs_check


def test_a_card_of_the_other_deck_is_unplaced_with_the_reason():
    cards = fan(["KR", "LORD", "KB"])
    result = interpret(Mode.MELD, cards, PAGAT)
    (item,) = result.unplaced
    assert item.card.code == "LORD"
    assert "special Hand 'N Foot deck" in item.reason and "standard deck" in item.reason
    assert codes(result.melds[0]) == ["KR", "KB"]


def test_check_cards_are_counted_but_marked():
    cards = table_cards()
    cards[2] = card("KR", cards[2].polygon[0][0], 100, confidence=0.3)
    result = interpret(Mode.TABLE, cards, PAGAT)
    book = next(meld for meld in result.melds if meld.verdict.complete)
    assert [c.code for c in book.check_cards] == ["KR"] and result.needs_check
    assert book.as_json()["check"] == [2]


def test_an_impossible_deal_number_is_refused():
    from engine import RulesError

    with pytest.raises(RulesError):
        interpret(Mode.TABLE, table_cards(), PAGAT, deal=9)


def test_the_annotated_image_outlines_legal_melds_green_and_illegal_red():
    import numpy as np

    from scanner.table.annotate import CHECK, ILLEGAL, LEGAL, RED_THREE, annotate_table

    cards = [
        *fan(["KR", "KB", "KR"], x=100, y=100),
        *fan(["8R", "8B", "2R", "JK"], x=100, y=300),
        card("3R", 500, 300),
    ]
    cards[1] = card("KB", cards[1].polygon[0][0], 100, confidence=0.3)
    result = interpret(Mode.TABLE, cards, PAGAT)
    image = np.full((480, 640, 3), 90, np.uint8)
    drawn = annotate_table(image, result)
    assert drawn.shape == image.shape and (image == 90).all()  # the frame itself is untouched

    def has(colour, rows, cols):
        patch = drawn[rows, cols].reshape(-1, 3)
        return bool((np.abs(patch.astype(int) - colour).sum(axis=1) < 30).any())

    assert has(LEGAL, slice(90, 200), slice(90, 200))  # the kings
    assert has(ILLEGAL, slice(290, 400), slice(90, 200))  # two wild cards in four
    assert has(RED_THREE, slice(290, 400), slice(490, 570))
    assert has(CHECK, slice(100, 130), slice(100, 130))  # the unsure king's index


def test_a_gap_in_a_fan_says_a_card_may_be_missing():
    from scanner.table.spacing import fan_doubt, top_doubt

    whole = fan(["9R", "9B", "9R", "9B", "2B"], step=15.0)
    assert fan_doubt(whole) is None
    gap = [c for n, c in enumerate(whole) if n != 2]  # the middle card was not read
    assert fan_doubt(gap) == "a card may be missing between 9B and 9B: count this meld"
    assert fan_doubt(whole[:2] + whole[3:4]) is not None  # one gap in three cards shows too
    twice = [*whole[:3], card("9R", whole[2].polygon[0][0] + 2, 100), *whole[3:]]
    assert "counted twice" in fan_doubt(twice)
    # a top card read from its far corner lies elsewhere and does not count as a gap
    top = card("2B", whole[-1].polygon[0][0], 100, corner="bottom-right")
    assert fan_doubt([*whole[:-1], top]) is None
    # a top card read at its top-left corner alone: something may lie on it
    covered = fan(["9R", "9B", "9R", "9B", "2B"], step=15.0, top_seen=False)
    assert fan_doubt(covered) is None and top_doubt(covered) == (
        "2B on top was read at one corner only: a card lying on it may not have been read: "
        "count this meld"
    )


def test_a_doubtful_meld_asks_for_a_check():
    cards = [c for n, c in enumerate(table_cards()) if n != 3]  # one king of the book unread
    result = interpret(Mode.TABLE, cards, PAGAT)
    kings = next(meld for meld in result.melds if meld.verdict.rank.name == "KING")
    assert kings.doubt and "missing" in kings.doubt and result.needs_check
    assert kings.as_json()["doubt"] == kings.doubt


def test_a_meld_split_where_cards_were_not_read_asks_for_a_check():
    from scanner.vision.grouping import CLOSE_DOUBT
    from tests.table.test_voting import CARD_W

    step = 0.3 * CARD_W
    book = fan(["KR", "KB", "KR", "KB", "KR", "KB", "KR"], step=step)
    read = book[:3] + book[5:]  # two kings in the middle not read: two "melds" side by side
    result = interpret(Mode.TABLE, read, PAGAT)
    assert len(result.melds) == 2 and result.needs_check
    assert all(meld.doubt == CLOSE_DOUBT for meld in result.melds)


def test_an_illegal_meld_on_a_table_asks_for_a_check_but_not_in_meld_mode():
    pair = fan(["6R", "6B"], y=300)  # a meld's third card misread into another group
    table = interpret(Mode.TABLE, [*table_cards()[:7], *pair], PAGAT)
    assert not table.legal and table.needs_check
    meld = interpret(Mode.MELD, pair, PAGAT)
    assert not meld.legal and not meld.needs_check
