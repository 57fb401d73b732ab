"""A meld's cards read knowing they share a rank (scanner/vision/melds.py), on hand-made fans
whose classifier probabilities are set by hand."""

from dataclasses import replace

import numpy as np
import pytest

from scanner.vision import Recogniser
from scanner.vision.cards import IndexReading, merge_cards
from scanner.vision.contract import CLASSES, NOT_AN_INDEX
from scanner.vision.decode import IndexCandidate
from scanner.vision.melds import meld_posteriors, of_one_rank, read_as_meld, read_with_melds
from scanner.vision.stages import melds as melds_stage
from scanner.vision.stages.records import Work
from tests.vision.test_grouping import card, fan

MIN_CONFIDENCE = 0.5


def probabilities(**sure: float) -> np.ndarray:
    """Class probabilities with ``sure`` (code → probability; "none" for not an index) and the
    rest spread over the other classes."""
    row = np.zeros(len(CLASSES))
    for code, p in sure.items():
        row[CLASSES.index(NOT_AN_INDEX if code == "none" else code)] = p
    rest = [k for k in range(len(CLASSES)) if row[k] == 0]
    row[rest] = (1.0 - row.sum()) / len(rest)
    return row


def read(code: str, reading, **sure: float):
    """``reading`` (a hand-made card) as the classifier read it: ``code``, its probability the
    largest of ``sure``."""
    row = probabilities(**sure)
    confidence = float(row[CLASSES.index(code)])
    return replace(
        reading,
        code=code,
        confidence=confidence,
        check=confidence < MIN_CONFIDENCE,
        probabilities=row,
    )


def plainly(code: str, reading):
    return read(code, reading, **{code: 0.97})


def with_melds(cards, deck="standard"):
    read_again, found, _ = read_with_melds(cards, CLASSES, deck, NOT_AN_INDEX, MIN_CONFIDENCE)
    assert found == []
    return read_again


def six_fan(unsure, at: int = 3):
    """A fan of five sixes of which card ``at`` is read as ``unsure`` does."""
    cards = fan("6R 6B 6R 6B 6R", 100, 100)
    return [unsure(c) if n == at else plainly(c.code, c) for n, c in enumerate(cards)]


def test_an_unsure_card_is_read_as_its_meld_reads_and_asks_for_a_check():
    cards = six_fan(lambda c: read("5B", c, **{"5B": 0.5, "6B": 0.3}))
    assert not cards[3].check  # 0.5 sure: counted as read
    read_again = with_melds(cards)
    assert [c.code for c in read_again] == ["6R", "6B", "6R", "6B", "6R"]
    assert read_again[3].confidence > 0.5 and read_again[3].check
    assert all(not c.check for n, c in enumerate(read_again) if n != 3)


def test_cards_known_to_be_one_meld_are_read_as_the_grouping_would_read_them():
    cards = six_fan(lambda c: read("5B", c, **{"5B": 0.5, "6B": 0.3}))
    as_one = read_as_meld(cards, CLASSES, "standard", NOT_AN_INDEX, MIN_CONFIDENCE)
    assert as_one == with_melds(cards)
    # a lone card has no mates to read it
    assert (
        read_as_meld(cards[3:4], CLASSES, "standard", NOT_AN_INDEX, MIN_CONFIDENCE)[0].code == "5B"
    )
    # the grouping the meld reading made comes back with it
    _, _, melds = read_with_melds(cards, CLASSES, "standard", NOT_AN_INDEX, MIN_CONFIDENCE)
    assert [len(meld.cards) for meld in melds] == [5]
    assert read_with_melds(cards, CLASSES, None, NOT_AN_INDEX, MIN_CONFIDENCE)[2] == ()


def test_a_sure_card_keeps_its_code_even_when_its_meld_reads_another_rank():
    cards = six_fan(lambda c: read("8B", c, **{"8B": 0.95, "6B": 0.02}))
    read_again = with_melds(cards)
    assert read_again[3].code == "8B" and not read_again[3].check
    assert read_again[3].confidence > 0.5


def fairly_sure_five(c):
    """Read as a five 0.8 sure, a six 0.03: the meld of three cards read or more makes it a
    six; a pair of cards lying together does not."""
    return read("5B", c, **{"5B": 0.8, "6B": 0.03})


def test_three_cards_read_are_a_meld_whose_rank_outweighs_a_fairly_sure_card():
    three = six_fan(fairly_sure_five, at=2)[:3]
    read_again = with_melds(three)
    assert [c.code for c in read_again] == ["6R", "6B", "6B"]
    assert read_again[2].check and read_again[2].confidence > 0.5


def test_two_cards_lying_together_are_no_meld_to_outweigh_a_fairly_sure_card():
    """A hand's mixed cards held in a fan, or two melds' ends, lie as a meld's pair does."""
    pair = six_fan(fairly_sure_five, at=1)[:2]
    read_again = with_melds(pair)
    assert [c.code for c in read_again] == ["6R", "5B"] and not read_again[1].check
    # an unsure card still reads as its one mate does
    unsure = six_fan(lambda c: read("5B", c, **{"5B": 0.5, "6B": 0.3}), at=1)[:2]
    assert [c.code for c in with_melds(unsure)] == ["6R", "6B"]


def test_marks_read_not_an_index_make_no_meld_of_a_pair():
    """Marks offered as cards (the tablecloth's pattern beside a card, read "not an index")
    count in no meld's size: a pair and such a mark are still a pair."""
    readings = fan_readings(probabilities(none=0.6, **{"6B": 0.3}))[:3]
    row = probabilities(**{"5B": 0.8, "6B": 0.03})
    readings[1] = replace(readings[1], code="5B", confidence=0.8, probabilities=row)
    cards = merged(readings)
    assert [c.code for c in cards] == ["6R", "5B"]
    read_again, _, melds = read_with_melds(
        cards, CLASSES, "standard", NOT_AN_INDEX, MIN_CONFIDENCE, [readings[2]]
    )
    assert [len(meld.cards) for meld in melds] == [3]
    assert [c.code for c in read_again] == ["6R", "5B"]


def test_a_wild_card_read_plainly_stays_wild():
    cards = six_fan(lambda c: read("JK", c, JK=0.85, **{"6B": 0.08}))
    assert with_melds(cards)[3].code == "JK"


def test_a_card_weighed_towards_not_an_index_keeps_its_reading():
    """The meld never takes a card away: a card the meld makes less likely than "not an
    index" (read so only because a card was asked of the crop) stays as read."""
    cards = six_fan(lambda c: read("5B", c, none=0.7, **{"5B": 0.2}))
    assert with_melds(cards)[3] == cards[3]


def test_a_rank_never_melded_stays_as_read_and_is_never_read_into():
    """A Lady lies on top of a clean group (RULES.md §5): it is no card of the meld's rank."""
    lords = fan("LORD LORD LORD LORD", 100, 100)
    cards = [plainly("LORD", c) for c in lords[:3]]
    cards.append(read("LADY", lords[3], LADY=0.7, LORD=0.25))
    read_again = with_melds(cards, deck="special")
    assert read_again[3].code == "LADY" and read_again[3] == cards[3]


def test_nothing_changes_without_a_deck_without_probabilities_or_without_a_meld():
    cards = six_fan(lambda c: read("5B", c, **{"5B": 0.5, "6B": 0.3}))
    assert with_melds(cards, deck=None) == tuple(cards)
    bare = [replace(c, probabilities=None) for c in cards]
    assert with_melds(bare) == tuple(bare)
    apart = [read("5B", card("5B", 100, 100), **{"5B": 0.5, "6B": 0.3})]
    apart.append(plainly("6B", card("6B", 400, 400)))
    assert with_melds(apart) == tuple(apart)


def test_two_melds_are_read_each_by_its_own_rank():
    sixes = six_fan(lambda c: read("8B", c, **{"8B": 0.45, "6B": 0.35}))
    eights = [plainly(c.code, c) for c in fan("8R 8B 8R", 100, 400)]
    eights.append(read("6R", card("8R", 100 + 3 * 0.3 * 60, 400), **{"6R": 0.45, "8R": 0.35}))
    read_again = with_melds(sixes + eights)
    assert read_again[3].code == "6B" and read_again[-1].code == "8R"


def test_the_order_given_is_kept():
    cards = six_fan(lambda c: read("5B", c, **{"5B": 0.5, "6B": 0.3}))
    order = [4, 0, 3, 1, 2]
    read_again = with_melds([cards[n] for n in order])
    assert [c.index_box for c in read_again] == [cards[n].index_box for n in order]


def test_a_card_never_confirms_itself():
    """The rank a card is read by comes from the others alone: a meld whose others read two
    ranks equally leaves it its own reading."""
    prior = np.full((2, 4), 0.1)
    prior[0, 0] = prior[1, 1] = 0.7
    prior /= prior.sum(axis=1, keepdims=True)
    cards = np.array([[0.9, 0.1, 0, 0], [0.1, 0.9, 0, 0], [0.5, 0.5, 0, 0]])
    posterior = meld_posteriors(cards, prior)
    assert posterior[2, 0] == pytest.approx(posterior[2, 1])
    # the first card's prior comes from the second and third: rank 1 leads
    assert posterior[0, 1] > posterior[0, 0]


def candidate(x: float, y: float) -> IndexCandidate:
    """An upright 8×16 px index at (x, y) on a 60×84 px card."""
    return IndexCandidate(x, y, 0.9, 0.0, 16.0, 8.0, x + 24.0, y + 31.0, 60.0, 84.0)


def fan_readings(middle: np.ndarray) -> list[IndexReading]:
    """Five indices of a fan 18 px apart, all plainly sixes but the middle one, read as
    ``middle`` says."""
    readings = []
    for n in range(5):
        row = middle if n == 2 else probabilities(**{"6B" if n % 2 else "6R": 0.97})
        best = int(np.argmax(row))
        readings.append(
            IndexReading(candidate(100 + 18 * n, 100), CLASSES[best], row[best], False, row)
        )
    return readings


def unread(readings, cards):
    """The marks of ``readings`` read "not an index" that their meld among ``cards`` counts."""
    unsure = [reading for reading in readings if reading.code == NOT_AN_INDEX]
    read_again, found, _ = read_with_melds(
        cards, CLASSES, "standard", NOT_AN_INDEX, MIN_CONFIDENCE, unsure
    )
    assert len(read_again) == len(cards)
    return found


def merged(readings):
    return merge_cards(readings, not_an_index=NOT_AN_INDEX, min_confidence=MIN_CONFIDENCE)


def test_a_mark_read_not_an_index_in_a_meld_that_reads_its_rank_is_a_card():
    readings = fan_readings(probabilities(none=0.6, **{"6B": 0.3}))
    assert readings[2].code == NOT_AN_INDEX and len(merged(readings)) == 4
    (found,) = unread(readings, merged(readings))
    assert found.code == "6B" and found.index == readings[2].index
    assert found.confidence >= MIN_CONFIDENCE


def test_a_mark_read_not_an_index_stays_so_alone_or_when_nothing_of_a_card_shows():
    lone = fan_readings(probabilities(none=0.6, **{"6B": 0.3}))[2:3]
    assert unread(lone, merged(lone)) == []
    faint = fan_readings(probabilities(none=0.97, **{"6B": 0.03}))
    assert unread(faint, merged(faint)) == []
    other = fan_readings(probabilities(none=0.6, **{"9B": 0.3}))
    assert unread(other, merged(other)) == []


def stage_reads(recogniser, readings, cards):
    """The stage ``melds`` reading ``cards`` (paired from ``readings``) of the standard deck
    knowing a meld's cards share a rank: the cards and the melds."""
    context = recogniser.context(np.zeros((1, 1, 3), np.uint8), "standard")
    work = Work(readings=tuple(readings), cards=tuple(cards), deck="standard")
    return melds_stage.with_melds(context, work)


def test_the_recogniser_counts_such_a_card_and_asks_for_a_check():
    recogniser = Recogniser.load()
    readings = fan_readings(probabilities(none=0.6, **{"6B": 0.3}))
    cards, _ = stage_reads(recogniser, readings, merged(readings))
    assert sorted(card.code for card in cards) == ["6B", "6B", "6B", "6R", "6R"]
    (middle,) = [card for card in cards if card.index_box == readings[2].index.index_box()]
    assert middle.code == "6B" and middle.check
    assert sum(card.check for card in cards) == 1


def far_corner(last: IndexCandidate, row: np.ndarray, off: float) -> IndexReading:
    """The far corner of the card whose index is ``last`` (an upright ``candidate``), read as
    ``row`` says, predicting its card's centre ``off`` px below the true one."""
    centre_x, centre_y = last.card_x, last.card_y
    x, y = 2 * centre_x - last.x, 2 * centre_y - last.y
    index = IndexCandidate(x, y, 0.9, 180.0, 16.0, 8.0, centre_x, centre_y + off, 60.0, 84.0)
    best = int(np.argmax(row))
    return IndexReading(index, CLASSES[best], float(row[best]), False, row)


def test_a_top_card_s_far_corner_its_meld_reads_again_pairs_with_its_own_index():
    recogniser = Recogniser.load()
    fan = fan_readings(probabilities(**{"6B": 0.97}))
    # the top card's far corner read unsurely as a 9, its centre a third of a short side off:
    # two codes are not one card at that distance, so it counts twice
    far = far_corner(fan[-1].index, probabilities(**{"9R": 0.55, "6R": 0.35}), 20.0)
    readings = [*fan, far]
    assert far.code == "9R" and len(merged(readings)) == 6
    cards, _ = stage_reads(recogniser, readings, merged(readings))
    assert sorted(card.code for card in cards) == ["6B", "6B", "6B", "6R", "6R"]
    (top,) = [card for card in cards if card.corners == 2]
    assert top.index_box == fan[-1].index.index_box() and not top.check
    # read surely as another rank, it is no misread of this meld's rank: two cards stay
    sure = far_corner(fan[-1].index, probabilities(**{"9R": 0.97}), 20.0)
    cards, _ = stage_reads(recogniser, [*fan, sure], merged([*fan, sure]))
    assert sorted(card.code for card in cards) == ["6B", "6B", "6B", "6R", "6R", "9R"]


def test_a_fan_of_many_ranks_is_no_meld_to_look_along():
    def one_rank(codes, **unsure):
        cards = [replace(c, confidence=unsure.get(c.code, 0.9)) for c in fan(codes, 100, 100)]
        return of_one_rank(cards, "standard", MIN_CONFIDENCE)

    assert one_rank("6R 6B 6R") and one_rank("6R 6B 8B 6R")  # a card misread in a meld
    assert not one_rank("10R KR AB")  # laid in a row, each of its own rank
    assert not one_rank("5B 8B")  # no rank holds more than half
    assert one_rank("6R 2B JK 6B") and one_rank("2B JK")  # wild cards aside
    assert one_rank("10R KR", KR=0.3)  # an unsure reading aside
    assert one_rank("10R 10B 7 LORD")  # the other deck's readings aside
