"""Dark cards among light ones (``scanner/vision/dark_cards.py``): where a frame is dark, which
of its negative's cards are added, and a real photo beside its own negative read through the
shipped models."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.vision.cards import CardReading
from scanner.vision.dark_cards import (
    DARK_SHARE,
    MOST_PIXELS,
    PATCH_GROW,
    PATCH_TO,
    DarkSurface,
    joined,
)
from scanner.vision.reading import Reading
from scanner.vision.recogniser import Recogniser
from tests.vision.test_second_look import _inside, _labelled_cards

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "vision" / "second_look"
WHITE = np.array([230.0, 230.0, 230.0])


def _desk(dark_box: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """A light desk 400 × 300 px, with a black card lying on it at ``dark_box`` (x0, y0, x1,
    y1)."""
    frame = np.full((300, 400, 3), 230, np.uint8)
    if dark_box is not None:
        x0, y0, x1, y1 = dark_box
        frame[y0:y1, x0:x1] = 25
    return frame


def _card(
    code: str, at: tuple[float, float], *, corners: int = 1, check: bool = False
) -> CardReading:
    """A card whose index's top-left corner lies ``at``, its outline 60 × 84 px from there."""
    x, y = at
    outline = ((x, y), (x + 60, y), (x + 60, y + 84), (x, y + 84))
    return CardReading(code, 0.9, (x, y, x + 12, y + 24), outline, 0.0, check, corners)


def _reading(*cards: CardReading) -> Reading:
    return Reading(cards, {})


def test_a_light_desk_holds_no_dark_card_and_a_black_card_on_it_does():
    assert DarkSurface.of(_desk(), WHITE).share == 0.0
    assert not DarkSurface.of(_desk(), WHITE).may_hold_dark_cards
    dark = DarkSurface.of(_desk((100, 100, 160, 184)), WHITE)
    assert dark.share == pytest.approx(60 * 84 / (400 * 300))
    assert dark.share >= DARK_SHARE and dark.may_hold_dark_cards


def test_a_dark_share_is_measured_within_a_cards_outline():
    dark = DarkSurface.of(_desk((100, 100, 160, 184)), WHITE)
    # the outline drawn takes in its edge pixels: the desk just beyond the card
    assert dark.share_within(((100, 100), (160, 100), (160, 184), (100, 184))) > 0.9
    assert dark.share_within(((250, 50), (310, 50), (310, 134), (250, 134))) == 0.0
    half = ((130, 100), (190, 100), (190, 184), (130, 184))
    assert dark.share_within(half) == pytest.approx(0.5, abs=0.05)


def test_only_the_part_of_the_frame_where_a_dark_card_may_lie_is_read_as_its_negative():
    light = _card("9R", (300, 150))  # the frame's own card: its outline sets a card's size
    dark = DarkSurface.of(_desk((100, 100, 160, 184)), WHITE)
    x0, y0, x1, y1 = dark.card_region([light], (400, 300))
    grow = PATCH_GROW * np.sqrt(60 * 84)
    assert x0 == pytest.approx(100 - grow, abs=2) and y0 == pytest.approx(100 - grow, abs=2)
    assert x1 == pytest.approx(160 + grow, abs=2) and y1 == pytest.approx(184 + grow, abs=2)
    # clipped to the frame
    corner = DarkSurface.of(_desk((0, 0, 60, 84)), WHITE).card_region([light], (400, 300))
    assert corner[:2] == (0, 0)


def test_no_part_is_read_where_the_dark_is_too_small_for_a_card_or_is_the_table():
    light = _card("9R", (300, 150))
    crumb = DarkSurface.of(_desk((100, 100, 110, 110)), WHITE)  # a coin, a shadow
    assert crumb.card_region([light], (400, 300)) is None
    table = np.full((300, 400, 3), 25, np.uint8)
    table[150:234, 300:360] = 230  # a light card on a dark table, nothing else
    dark_table = DarkSurface.of(table, WHITE)
    assert dark_table.share > PATCH_TO and dark_table.card_region([light], (400, 300)) is None


def test_a_large_frame_is_measured_on_a_grid_of_its_pixels():
    frame = np.full((3000, 4000, 3), 230, np.uint8)
    frame[:, :1000] = 20
    dark = DarkSurface.of(frame, WHITE)
    assert dark.mask.size <= MOST_PIXELS and dark.step > 1
    assert dark.share == pytest.approx(0.25, abs=0.01)
    assert dark.share_within(((0, 0), (999, 0), (999, 2999), (0, 2999))) == pytest.approx(1.0)


def test_the_negatives_dark_cards_are_added_where_they_lie_clear_of_the_frames_own():
    dark = DarkSurface.of(_desk((200, 100, 260, 184)), WHITE)
    own = _reading(_card("9R", (20, 20)))
    negative = _reading(
        _card("QB", (200, 100)),  # a black card's queen: added
        _card("5R", (22, 22)),  # the frame's own nine's index, read again: not added
        _card("7R", (300, 200)),  # on the light desk (a light card's pip turned): not added
        _card("8B", (205, 105), check=True),  # asking for a check: not added
    )
    joint = joined(own, negative, dark)
    assert [card.code for card in joint.cards] == ["9R", "QB"]
    assert joint.indices == own.indices  # the frame's own: what sizes it


def test_a_joker_from_the_negative_counts_only_where_both_its_corners_were_read():
    dark = DarkSurface.of(_desk((200, 100, 260, 184)), WHITE)
    one = _reading(_card("JK", (200, 100)))
    both = _reading(_card("JK", (200, 100), corners=2))
    assert joined(_reading(), one, dark).cards == ()
    assert [card.code for card in joined(_reading(), both, dark).cards] == ["JK"]


def test_nothing_from_the_negative_leaves_the_reading_as_it_was():
    dark = DarkSurface.of(_desk((200, 100, 260, 184)), WHITE)
    own = _reading(_card("9R", (20, 20)))
    assert joined(own, _reading(), dark) is own


@pytest.fixture(scope="module")
def light_and_dark() -> np.ndarray:
    """The real photo of a nine and an ace of hearts beside its own negative at half the
    light: two light cards and, as a deck printed light on black card stock would show them
    (the stock photographs at a tenth or so of a white desk's light), two dark ones."""
    photo = cv2.imread(str(FIXTURE / "IMG_2598.JPG"))[:, :, ::-1]
    return np.ascontiguousarray(np.hstack([photo, (255 - photo) // 2]))


def test_dark_cards_beside_light_ones_are_read_as_the_frames_negative(light_and_dark):
    """The light half reads as it comes; the dark half's cards, which the locator learnt only
    as dark print on light paper, are read in the frame's negative and added, without a
    check: all four found, two in each half."""
    reading = Recogniser.load(threads=1).read(light_and_dark)
    middle = light_and_dark.shape[1] / 2
    halves = {"light": [], "dark": []}
    for card in reading.cards:
        x0, _, x1, _ = card.index_box
        halves["light" if (x0 + x1) / 2 < middle else "dark"].append(card)
    assert sorted(card.code[:-1] for card in halves["light"]) == ["9", "A"]
    assert sorted(card.code[:-1] for card in halves["dark"]) == ["9", "A"]
    assert not any(card.check for card in halves["dark"])
    assert reading.looked[-1] == reading.scale  # the negative read once, at the kept scale


def test_a_part_of_the_frame_read_as_its_negative_puts_its_cards_where_they_lie(light_and_dark):
    """The negative is read only around the dark patches, which here begin well inside the
    frame (a light desk lies left of and above the photo); its cards come back in the whole
    frame's pixels, each on its own labelled card (the labels' boxes shifted by the desk and the
    light half's width)."""
    left, top = 240, 160
    frame = cv2.copyMakeBorder(
        light_and_dark, top, 0, left, 0, cv2.BORDER_CONSTANT, value=(230,) * 3
    )
    middle = left + light_and_dark.shape[1] // 2
    boxes = {
        rank: (x0 + middle, y0 + top, x1 + middle, y1 + top)
        for rank, (x0, y0, x1, y1) in _labelled_cards(FIXTURE / "IMG_2598.xml")
    }
    reading = Recogniser.load(threads=1).read(frame)
    dark = [c for c in reading.cards if c.index_box[0] >= middle]
    assert sorted(c.code[:-1] for c in dark) == ["9", "A"]
    for card in dark:
        assert _inside(card, boxes["nine" if card.code.startswith("9") else "ace"])


def test_without_the_rule_the_negative_is_not_read(light_and_dark):
    reading = Recogniser.load(threads=1).without("dark_cards").read(light_and_dark)
    assert len(reading.looked) < len(Recogniser.load(threads=1).read(light_and_dark).looked)


@pytest.mark.parametrize("sure", [True, False])
def test_the_part_read_as_a_negative_reads_its_doubtful_marks_again_only_when_asked(sure):
    """The size policy asks for the dark patch's negative, at the scale the frame's own
    reading was kept at, without rechecks (``dark_cards_sure``): only what the negative reads
    surely can be added, and it reads in less time."""
    from scanner.vision.contract import Contract
    from scanner.vision.options import ReadOptions
    from scanner.vision.stages.size import SizePolicy

    frame = _desk((100, 100, 160, 184))
    options = ReadOptions() if sure else ReadOptions().without("dark_cards_sure")
    policy = SizePolicy((400, 300), Contract.from_spec(), options, DarkSurface.of(frame, WHITE))
    assert policy.proposed.recheck and not policy.proposed.negative
    policy.read(_reading(_card("9R", (300, 150))))
    negative = policy.proposed
    assert negative.negative and negative.region is not None
    assert negative.recheck is not sure and negative.factor == 1.0
    policy.read(_reading())
    assert policy.proposed is None and [c.code for c in policy.kept.cards] == ["9R"]


def test_a_close_up_of_dark_cards_is_read_smaller_in_its_negative_too():
    """A frame of one light card and a dark one, each a fifth of the frame across: the dark
    part read as it came reads nothing surely, so it is read again smaller (``close_up``), in
    the same part of the frame; with the rule off, not."""
    from scanner.vision.contract import Contract
    from scanner.vision.options import ReadOptions
    from scanner.vision.stages.size import SizePolicy

    frame = np.full((900, 1200, 3), 230, np.uint8)
    frame[200:620, 100:400] = 25  # the dark card, 300 × 420 px
    outline = ((700.0, 200.0), (1000.0, 200.0), (1000.0, 620.0), (700.0, 620.0))
    light = CardReading("9R", 0.9, (700, 200, 760, 290), outline, 0.0, False, 1)
    for close_up in (True, False):
        options = ReadOptions() if close_up else ReadOptions().without("close_up")
        dark = DarkSurface.of(frame, WHITE)
        policy = SizePolicy((1200, 900), Contract.from_spec(), options, dark)
        policy.read(_reading(light))
        while not policy.proposed.negative:  # the frame's own smaller looks read nothing more
            policy.read(_reading())
        part = policy.proposed
        assert part.negative and part.factor == 1.0
        policy.read(_reading())
        if close_up:
            smaller = policy.proposed
            assert smaller.negative and smaller.region == part.region and smaller.factor < 1.0
        else:
            assert policy.proposed is None
