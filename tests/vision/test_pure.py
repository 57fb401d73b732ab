"""The recogniser's pre- and post-processing as pure functions: no model involved."""

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from model.evaluate.scenes import (
    FATES,
    draw_confusion,
    error_lines,
    miss_fate,
    report,
    score_scene,
    summarise,
)
from scanner.vision import closer
from scanner.vision.annotate import CHECK_COLOUR, annotate
from scanner.vision.cards import (
    ROWS_AT_ONCE,
    CardReading,
    IndexReading,
    joint_reading,
    merge_cards,
    opposite_corners,
    same_card,
    same_index,
    suppress_duplicates,
)
from scanner.vision.contract import Contract
from scanner.vision.decode import IndexCandidate, angle_gap, decode_heads
from scanner.vision.errors import RecogniserError
from scanner.vision.preprocess import crop_matrix, index_crops, locator_input, normalise

C = Contract.from_spec()


# -- preprocess ------------------------------------------------------------------------------------


def test_locator_input_normalises_and_pads_with_zeros():
    frame = np.zeros((50, 70, 3), np.uint8)
    frame[:, :, 0] = 255
    tensor = locator_input(frame, C)
    assert tensor.shape == (1, 3, 64, 96) and tensor.dtype == np.float32
    assert np.allclose(tensor[0, 0, :50, :70], (1 - C.mean) / C.std)
    assert np.allclose(tensor[0, 1, :50, :70], (0 - C.mean) / C.std)
    assert not tensor[0, :, 50:, :].any() and not tensor[0, :, :, 70:].any()


@pytest.mark.parametrize("size", [(64, 96), (50, 70)])
def test_locator_input_is_exactly_normalise_s_numbers(size):
    frame = np.random.default_rng(3).integers(0, 256, (*size, 3), dtype=np.uint8)
    tensor = locator_input(frame, C)
    np.testing.assert_array_equal(tensor[0, :, : size[0], : size[1]], normalise(frame, C))


def test_locator_input_refuses_what_is_not_an_rgb_frame():
    with pytest.raises(ValueError, match="uint8"):
        locator_input(np.zeros((10, 10), np.uint8), C)


def quadrant_frame(centre, angle, index_h, index_w, size=(160, 200)):
    """A frame showing a 2×2 pattern (red, green / blue, white as read) turned by ``angle``."""
    height, width = size
    ys, xs = np.mgrid[0:height, 0:width] + 0.5  # pixel centres
    theta = math.radians(angle)
    dx, dy = xs - centre[0], ys - centre[1]
    along = dx * math.cos(theta) + dy * math.sin(theta)
    down = -dx * math.sin(theta) + dy * math.cos(theta)
    frame = np.zeros((height, width, 3), np.uint8)
    inside = (abs(along) < index_w / 2) & (abs(down) < index_h / 2)
    colours = {(0, 0): (255, 0, 0), (1, 0): (0, 255, 0), (0, 1): (0, 0, 255), (1, 1): (255,) * 3}
    for (right, lower), colour in colours.items():
        frame[inside & ((along > 0) == right) & ((down > 0) == lower)] = colour
    return frame


@pytest.mark.parametrize("angle", [0, 37, 90, 180, 250, 270])
def test_crops_turn_the_index_upright(angle):
    place = IndexCandidate(97.3, 81.6, 1.0, angle, 40.0, 24.0, 0, 0, 1, 1)
    frame = quadrant_frame((place.x, place.y), angle, place.index_h, place.index_w)
    (crop,) = index_crops(frame, [place], C)
    rgb = np.moveaxis(crop * C.std + C.mean, 0, -1)  # back to 0–1
    middle_x, middle_y = C.crop_w / 2, C.crop_h / 2  # the index centre, crop corner coordinates
    # the index is 40 px tall in a crop 1.5 × 40 = 60 px tall: ±16 crop px around the middle

    def at(dx, dy):
        return rgb[int(middle_y + dy) - 1 : int(middle_y + dy) + 1, int(middle_x + dx) - 1 :][:, :2]

    assert np.allclose(at(-4, -8).mean(axis=(0, 1)), (1, 0, 0), atol=0.05)
    assert np.allclose(at(4, -8).mean(axis=(0, 1)), (0, 1, 0), atol=0.05)
    assert np.allclose(at(-4, 8).mean(axis=(0, 1)), (0, 0, 1), atol=0.05)
    assert np.allclose(at(4, 8).mean(axis=(0, 1)), (1, 1, 1), atol=0.05)
    assert np.allclose(rgb[1, 1], 0, atol=0.05)  # the crop's corner: table, not index


def test_the_crop_middle_lands_on_the_index_centre_and_edges_repeat():
    place = IndexCandidate(12.25, 30.5, 1.0, 123.0, 32.0, 20.0, 0, 0, 1, 1)
    assert crop_matrix(place, C) @ [C.crop_w / 2, C.crop_h / 2, 1] == pytest.approx((12.25, 30.5))
    edge = IndexCandidate(2.0, 20.0, 1.0, 0.0, 32.0, 20.0, 0, 0, 1, 1)  # crop runs off the left
    (crop,) = index_crops(np.full((40, 40, 3), 255, np.uint8), [edge], C)
    assert crop.min() == pytest.approx((1 - C.mean) / C.std)
    assert index_crops(np.zeros((9, 9, 3), np.uint8), [], C).shape == (0, 3, C.crop_h, C.crop_w)


@pytest.mark.parametrize("angle", [0.0, 71.5, 200.0])
def test_crops_are_the_crops_the_classifier_was_trained_on(angle):
    targets = pytest.importorskip("model.recogniser.targets", reason="needs the training code")
    frame = np.random.default_rng(1).integers(0, 256, (120, 160, 3), np.uint8)
    place = IndexCandidate(70.3, 55.8, 1.0, angle, 26.0, 15.0, 0, 0, 1, 1)
    trained = targets.upright_crop(frame, np.array([place.x, place.y]), angle, place.index_h)
    (crop,) = index_crops(frame, [place], C)
    assert np.array_equal(crop, normalise(trained, C))


# -- decode ----------------------------------------------------------------------------------------


def heads_with(peaks, size=(20, 30)):
    """Heads [1, C, h, w] with the given cells set: {(row, col): {channel: value}}."""
    heads = np.zeros((1, C.head_channels, *size), np.float32)
    for (row, col), values in peaks.items():
        for channel, value in values.items():
            heads[0, channel, row, col] = value
    return heads


def peak(
    heat, angle, index_h=20.0, index_w=12.0, card=(1.5, 2.5), size=(4.0, 5.5), at=(0.25, 0.75)
):
    theta = math.radians(angle)
    return {
        C.heat: heat,
        C.cos: math.cos(theta) * 3,  # the length of (cos, sin) does not matter
        C.sin: math.sin(theta) * 3,
        C.log_index_h: math.log(index_h),
        C.log_index_w: math.log(index_w),
        C.card_u: card[0],
        C.card_v: card[1],
        C.log_card_w: math.log(size[0]),
        C.log_card_h: math.log(size[1]),
        C.offset_x: at[0],
        C.offset_y: at[1],
    }


def test_decode_finds_each_peak_with_its_geometry():
    heads = heads_with(
        {
            (5, 7): peak(0.9, 90.0),
            (5, 8): {C.heat: 0.6},  # a neighbour of a higher peak: not a peak
            (12, 20): peak(0.5, 0.0, at=(-0.5, 0.25)),  # the centre just left of the cell
            (15, 3): {C.heat: C.peak_threshold - 0.01},  # too faint
            (19, 29): peak(0.8, 0.0),  # in the padding below the frame
        }
    )
    first, second = decode_heads(heads, (120, 76), C)
    assert (first.x, first.y) == (pytest.approx((7 + 0.25) * 4), pytest.approx((5 + 0.75) * 4))
    assert first.score == pytest.approx(0.9) and first.angle == pytest.approx(90.0)
    assert (first.index_h, first.index_w) == (pytest.approx(20), pytest.approx(12))
    # turned 90° clockwise: reading runs down the frame (u = (0, 1)), "down" points left
    assert first.card_x == pytest.approx(first.x - 2.5 * 20)
    assert first.card_y == pytest.approx(first.y + 1.5 * 20)
    assert (first.card_w, first.card_h) == (pytest.approx(80), pytest.approx(110))
    polygon = np.array(first.card_polygon())
    assert polygon[0] == pytest.approx((first.card_x + 55, first.card_y - 40))  # its top-left
    assert polygon[2] == pytest.approx((first.card_x - 55, first.card_y + 40))
    assert first.index_box() == pytest.approx(
        (first.x - 10, first.y - 6, first.x + 10, first.y + 6)
    )
    assert (second.x, second.y, second.angle) == (78.0, 49.0, 0.0)


def test_decode_reads_angles_all_round():
    for angle in (0.0, 45.0, 179.0, 181.0, 300.0):
        (candidate,) = decode_heads(heads_with({(3, 3): peak(0.9, angle)}), (120, 80), C)
        assert candidate.angle == pytest.approx(angle, abs=1e-4)
        assert 0 <= candidate.angle < 360
    assert angle_gap(350, 10) == 20 and angle_gap(10, 190) == 180
    assert decode_heads(heads_with({}), (120, 80), C) == ()
    with pytest.raises(ValueError, match="heads"):
        decode_heads(np.zeros((1, 3, 4, 4), np.float32), (16, 16), C)


# -- cards -----------------------------------------------------------------------------------------


def index_of(card_centre, card_angle, corner, *, score=0.9, card=(80.0, 110.0), index=(20.0, 12.0)):
    """The candidate a perfect locator gives for one corner index of a card centred at
    ``card_centre`` and turned by ``card_angle``."""
    (card_w, card_h), (index_h, index_w) = card, index
    angle = (card_angle + (0 if corner == "top-left" else 180)) % 360
    theta = math.radians(angle)
    u, v = (
        np.array([math.cos(theta), math.sin(theta)]),
        np.array([-math.sin(theta), math.cos(theta)]),
    )
    centre = np.array(card_centre) - (card_w / 2 - 10) * u - (card_h / 2 - 15) * v
    return IndexCandidate(*centre, score, angle, index_h, index_w, *card_centre, card_w, card_h)


def reading(candidate, code="KR", confidence=0.95):
    return IndexReading(candidate, code, confidence)


def merged(readings):
    return merge_cards(readings, not_an_index="none", min_confidence=0.5)


def test_the_two_indices_of_one_card_make_one_card():
    top = index_of((300, 200), 30, "top-left")
    bottom = index_of((305, 197), 30, "bottom-right")  # its predicted centre a little off
    assert same_card(top, bottom)
    (card,) = merged([reading(top, confidence=0.9), reading(bottom, confidence=0.97)])
    assert card.code == "KR" and card.confidence == 0.97
    assert card.angle == pytest.approx(210) and card.index_box == bottom.index_box()


CLASSES = ("1", "2", "8", "10", "KR", "QR", "none")


def read_as(candidate, **shares):
    """``candidate`` read with these class probabilities (the rest on "none"), its code the
    likeliest."""
    row = np.array([shares.get(code, 0.0) for code in CLASSES])
    row[-1] = 1.0 - row.sum()
    best = int(np.argmax(row))
    return IndexReading(candidate, CLASSES[best], float(row[best]), probabilities=row)


def test_two_corners_read_as_two_codes_their_readings_agree_on_are_one_card():
    # a small special card's far corner read unsurely as a 2 that is its 1
    top = index_of((300, 200), 30, "top-left")
    far = index_of((332, 188), 30, "bottom-right")  # looser than PAIR_TIGHT
    first, second = read_as(top, **{"1": 0.87, "2": 0.05}), read_as(far, **{"2": 0.4, "1": 0.3})
    code, sure, together = joint_reading(first, second, CLASSES)
    assert code == "1" and sure == pytest.approx(0.87)  # no surer than the surer corner
    assert together.sum() == pytest.approx(1.0) and CLASSES[int(np.argmax(together))] == "1"
    (card,) = merge_cards([first, second], not_an_index="none", min_confidence=0.5, classes=CLASSES)
    assert (card.code, card.corners) == ("1", 2)
    # without the classes the readings are two cards, as they were
    assert len(merged([first, second])) == 2
    # the less sure corner's code wins where the two together say so
    first = read_as(top, **{"2": 0.55, "1": 0.4})
    second = read_as(far, **{"1": 0.45, "8": 0.4, "2": 0.02})
    (card,) = merge_cards([first, second], not_an_index="none", min_confidence=0.5, classes=CLASSES)
    assert card.code == "1" and card.confidence == pytest.approx(0.45) and card.check


def test_two_corners_read_surely_as_two_codes_stay_two_cards():
    top = index_of((300, 200), 30, "top-left")
    far = index_of((332, 188), 30, "bottom-right")
    first, second = read_as(top, KR=0.97, QR=0.02), read_as(far, QR=0.94, KR=0.05)
    assert joint_reading(first, second, CLASSES) is None  # the QR corner gives KR 0.05
    cards = merge_cards([first, second], not_an_index="none", min_confidence=0.5, classes=CLASSES)
    assert sorted(card.code for card in cards) == ["KR", "QR"]
    # a third code the two agree on more than on either of theirs is no reading of either
    first, second = read_as(top, **{"8": 0.5, "10": 0.45}), read_as(far, **{"1": 0.5, "10": 0.45})
    assert joint_reading(first, second, CLASSES) is None
    # readings without probabilities (a gap's, a closer look's) pair only by their codes
    bare = [reading(top, "8", 0.9), reading(far, "10", 0.6)]
    assert len(merge_cards(bare, not_an_index="none", min_confidence=0.5, classes=CLASSES)) == 2


def test_two_unsure_corners_of_one_card_read_as_two_codes_are_one_card_that_asks_a_check():
    # a Queen of a narrow deck, its two corners read 0.17 as 10R and 0.15 as QR: counted twice
    top = index_of((300, 200), 30, "top-left")
    far = index_of((332, 188), 30, "bottom-right")  # looser than PAIR_TIGHT
    first = read_as(top, **{"10": 0.17, "QR": 0.16, "KR": 0.15, "8": 0.14, "1": 0.13, "2": 0.13})
    second = read_as(far, **{"QR": 0.16, "KR": 0.15, "1": 0.14, "2": 0.14, "8": 0.14, "10": 0.13})
    assert joint_reading(first, second, CLASSES) is None  # neither gives QR 0.2

    def cards(*readings):
        return merge_cards(readings, not_an_index="none", min_confidence=0.5, classes=CLASSES)

    (card,) = cards(first, second)
    assert (card.code, card.corners, card.check) == ("QR", 2, True)
    assert card.confidence == pytest.approx(0.16)  # no surer than the surer corner read it
    # a corner read surely is a reading of its own: two cards, as they were
    sure = read_as(top, **{"10": 0.6, "QR": 0.1})
    assert sorted(card.code for card in cards(sure, second)) == ["10", "QR"]
    # another unsure mark where a corner's partner could lie: which is the card's is unknown
    near = index_of((324, 224), 30, "bottom-right")  # looser than PAIR_TIGHT too
    third = read_as(near, **{"KR": 0.3, "QR": 0.25, "10": 0.2})
    assert len(cards(first, second, third)) == 3
    # inside a fan, the card after it covers its far corner (see INTERIOR_REACH); here each
    # of its neighbours, read at both its corners, is one card already
    step = 1.5 * top.index_w
    fan = []
    for along, code in ((-step, "8"), (step, "2")):
        mark = beside(top, along)
        far_corner = index_of((mark.card_x, mark.card_y), 30, "bottom-right")
        fan += [reading(mark, code, 0.9), reading(far_corner, code, 0.9)]
    assert len(cards(first, second, *fan)) == 4
    # without the classes the readings are two cards
    assert len(merged([first, second])) == 2


def test_two_cards_stay_two():
    first = index_of((300, 200), 30, "top-left")
    # another card of the same code a fan step (20 % of its width) along
    fanned = index_of((316, 209), 30, "top-left")
    assert len(merged([reading(first), reading(fanned)])) == 2
    # a card upside down far away
    assert len(merged([reading(first), reading(index_of((500, 200), 30, "bottom-right"))])) == 2
    # the second corner of the same card read as another code: one card, the surer reading
    other = reading(index_of((300, 200), 30, "bottom-right"), "QR", 0.6)
    assert [c.code for c in merged([reading(first), other])] == ["KR"]
    # each card pairs once: a third same-code index at the spot makes a second card
    trio = [reading(index_of((300, 200), 30, c)) for c in ("top-left", "bottom-right")]
    trio.append(reading(index_of((301, 200), 210, "top-left", card=(60, 80)), confidence=0.5))
    assert len(merged(trio)) == 2


def test_a_book_s_top_card_read_at_both_corners_counts_once_and_its_fan_stays_whole():
    # five sixes fanned a fifth of a card apart; the top card shows its far corner too, and its
    # far corner predicts a centre nearer the card beneath it than its own (its regression
    # a little short): read surest first, that corner took the card beneath as its partner
    fan = [index_of((300 + 16 * k, 200), 0, "top-left") for k in range(5)]
    far = index_of((364, 200), 0, "bottom-right")
    far = IndexCandidate(**{**far.__dict__, "card_x": far.card_x + 9, "card_y": far.card_y + 4})
    readings = [reading(far, "6R", 0.99)]
    readings += [reading(mark, "6R", 0.95 - 0.01 * k) for k, mark in enumerate(fan)]
    cards = merged(readings)
    assert len(cards) == 5
    assert sorted(round(card.index_box[0]) for card in cards)[:4] == sorted(
        round(mark.index_box()[0]) for mark in fan[:4]
    )


def test_a_card_read_at_both_corners_in_one_code_is_placed_by_its_fan_s_index():
    # the top card's far corner, read surest, predicts the centre of the card beneath it and
    # pairs with that card's index: the count is right either way, but placed by the far corner
    # the card beneath would be reported at the top card's place
    fan = [index_of((300 + 16 * k, 200), 0, "top-left") for k in range(5)]
    far = index_of((364, 200), 0, "bottom-right")
    far = IndexCandidate(**{**far.__dict__, "card_x": fan[3].card_x, "card_y": fan[3].card_y})
    readings = [reading(far, "6R", 0.99)]
    readings += [reading(mark, "6R", 0.95 - 0.01 * k) for k, mark in enumerate(fan)]
    cards = merged(readings)
    assert sorted(card.index_box for card in cards) == sorted(mark.index_box() for mark in fan)
    assert max(card.confidence for card in cards) == 0.99  # the surer reading's confidence
    # a loose card has no fan: it is placed by its surer corner, as before
    top, bottom = (index_of((300, 200), 10, c) for c in ("top-left", "bottom-right"))
    (card,) = merged([reading(top, "3R", 0.9), reading(bottom, "3R", 0.97)])
    assert card.index_box == bottom.index_box()


def test_a_corner_pairs_with_the_surely_read_of_two_marks_that_fit_it_alike():
    # One corner's index marked twice: a mark read 0.99 sure on it and one read 0.3 sure
    # three quarters of its width beside it, the card predicted from each alike; the far corner
    # fits the unsure one a little better, and pairing by fit alone counted the card twice
    # with no check (a joker of a busy validation scene).
    top = index_of((300, 200), 30, "top-left")
    bottom = index_of((300, 200), 30, "bottom-right")
    u = np.array([math.cos(math.radians(30)), math.sin(math.radians(30))])
    dx, dy = 0.75 * top.index_w * u
    beside = replace(
        top, x=top.x + dx, y=top.y + dy, card_x=top.card_x + dx, card_y=top.card_y + dy
    )
    readings = [reading(top, "KR", 0.99), reading(beside, "KR", 0.3), reading(bottom, "KR", 0.98)]
    card, unsure = merged(readings)
    assert (card.confidence, card.corners, card.check) == (0.99, 2, False)
    assert (unsure.confidence, unsure.corners, unsure.check) == (0.3, 1, True)


def test_a_card_is_not_placed_by_a_corner_the_frame_edge_cuts():
    # a loose card at the frame's right edge: its surer corner's index runs off the frame, so
    # the card is reported at the corner that lies whole in it
    inside, cut = (index_of((45, 200), 0, c) for c in ("top-left", "bottom-right"))
    readings = [reading(inside, "3R", 0.9), reading(cut, "3R", 0.97)]
    assert cut.index_box()[2] > 80 > inside.index_box()[2]
    (card,) = merge_cards(readings, not_an_index="none", min_confidence=0.5, bounds=(80, 400))
    assert card.index_box == inside.index_box() and card.confidence == 0.97
    (card,) = merged(readings)  # the frame unknown: by the surer corner, as before
    assert card.index_box == cut.index_box()


def test_two_cards_of_one_code_each_read_at_both_corners_pair_as_two_cards():
    # two 3s lying one over the other a third of a card down (busy test scene 34, the marks
    # as the locator gave them): the nearest pair is the lower card's top corner with the upper
    # card's far corner, which left the two other corners each a card: one card counted twice
    def mark(x, y, angle, index_h, index_w, card_x, card_y, card_w, card_h):
        return IndexCandidate(x, y, 0.6, angle, index_h, index_w, card_x, card_y, card_w, card_h)

    upper_top = mark(1114.6, 500.6, 73.4, 19.3, 10.7, 1069.0, 533.5, 79.6, 117.4)
    lower_top = mark(1136.2, 580.8, 63.5, 22.4, 10.0, 1088.9, 610.3, 81.2, 121.8)
    lower_far = mark(1098.1, 682.1, 254.9, 16.9, 12.4, 1144.0, 652.2, 76.1, 110.9)
    upper_far = mark(1070.1, 598.5, 248.6, 18.6, 10.7, 1099.4, 555.3, 74.9, 109.6)
    readings = [
        reading(mark, "3R", sure)
        for mark, sure in zip(
            (upper_top, lower_top, lower_far, upper_far), (0.985, 0.972, 0.949, 0.925), strict=True
        )
    ]
    cards = merged(readings)
    assert [card.corners for card in cards] == [2, 2]
    assert {card.index_box for card in cards} == {upper_top.index_box(), lower_top.index_box()}


def test_a_faint_mark_between_two_cards_of_a_tight_fan_is_a_second_mark_not_a_card():
    # three sevens fanned a little under two index widths apart, and a faint mark 0.7 of a
    # width beside the middle one's index, read surely as a seven (busy test scene 240)
    def fan_card(k, score=0.8):
        return index_of((300 + 25 * k, 200), 0, "top-left", score=score, index=(28.0, 13.0))

    fan = [reading(fan_card(k), "7R", 0.99) for k in range(3)]
    beside = fan_card(1.36, score=0.2)
    readings = [*fan, reading(beside, "7R", 0.94)]

    def cards(readings):
        return merge_cards(readings, not_an_index="none", min_confidence=0.5, faint_below=0.3)

    assert sorted(card.index_box for card in cards(readings)) == sorted(
        r.index.index_box() for r in fan
    )
    # a faint mark a whole width from either neighbour is taken so only where the locator's
    # threshold says it is faint (nearer, its heat against its neighbour's says so too)
    midway = [*fan, reading(fan_card(1.52, score=0.2), "7R", 0.94)]
    assert len(cards(midway)) == 3
    assert len(merged(midway)) == 4
    # as clear a mark there is the locator's own: a card
    clear = reading(fan_card(1.36, score=0.5), "7R", 0.94)
    assert len(cards([*fan, clear])) == 4
    # a faint mark past the fan's end, or between two cards of another code, is a card
    assert len(cards([*fan, reading(fan_card(2.7, score=0.2), "7R", 0.94)])) == 4
    assert len(cards([*fan, reading(beside, "8R", 0.94)])) == 4


def test_a_loose_card_whose_size_is_read_short_still_counts_once():
    # both corners predict a card 55 % of its size: the centres they predict lie a short side
    # apart, but each lies on the line to the other's corner
    top, bottom = (index_of((300, 200), 10, c) for c in ("top-left", "bottom-right"))
    small = []
    for mark in (top, bottom):
        cx = mark.x + (mark.card_x - mark.x) * 0.55
        cy = mark.y + (mark.card_y - mark.y) * 0.55
        small.append(
            IndexCandidate(
                **{**mark.__dict__, "card_x": cx, "card_y": cy, "card_w": 44.0, "card_h": 60.0}
            )
        )
    assert not same_card(*small) and opposite_corners(*small)
    assert len(merged([reading(small[0], "3R"), reading(small[1], "3R", 0.9)])) == 1
    # read as two codes, geometry this loose is not enough: two cards
    assert len(merged([reading(small[0], "3R"), reading(small[1], "8R", 0.9)])) == 2


def shrunk(mark, share):
    """``mark`` predicting a card ``share`` of its size, about the index."""
    return IndexCandidate(
        **{
            **mark.__dict__,
            "card_x": mark.x + (mark.card_x - mark.x) * share,
            "card_y": mark.y + (mark.card_y - mark.y) * share,
            "card_w": mark.card_w * share,
            "card_h": mark.card_h * share,
        }
    )


def test_cards_read_at_both_corners_set_the_size_of_every_card_of_the_frame():
    # the locator reads this design's cards at 2/3 of their size; two loose cards read at both
    # corners show it, and a fan card beside them gets its true outline back
    loose = [
        index_of((150 + 200 * k, 200), 0, c) for k in range(2) for c in ("top-left", "bottom-right")
    ]
    fan_card = index_of((300, 500), 0, "top-left")
    readings = [reading(shrunk(mark, 2 / 3), "9B") for mark in [*loose, fan_card]]
    cards = merged(readings)
    assert len(cards) == 3
    (fan,) = [card for card in cards if card.index_box == shrunk(fan_card, 2 / 3).index_box()]
    np.testing.assert_allclose(fan.polygon, fan_card.card_polygon(), atol=1e-6)
    # one card read at both corners is not enough to say
    few = merged(readings[:2] + readings[4:])
    (alone,) = [card for card in few if card.index_box == shrunk(fan_card, 2 / 3).index_box()]
    assert alone.polygon == shrunk(fan_card, 2 / 3).card_polygon()


CORNERS = ("top-left", "bottom-right")


def test_decks_of_two_designs_on_one_table_are_each_sized_by_their_own_cards():
    # a jumbo-index deck (indices 30 px, its cards read at 2/3 of their size) beside a bridge
    # deck (indices 20 px, read at their size); each deck has two cards read at both corners
    # and one fan card, which takes its own deck's size, not the frame's median
    jumbo = dict(index=(30.0, 16.0))
    loose = [index_of((150 + 200 * k, 200), 0, c, **jumbo) for k in range(2) for c in CORNERS]
    loose += [index_of((150 + 200 * k, 600), 0, c) for k in range(2) for c in CORNERS]
    jumbo_fan, bridge_fan = (
        index_of((700, 200), 0, "top-left", **jumbo),
        index_of((700, 600), 0, "top-left"),
    )
    shares = [2 / 3] * 4 + [1.0] * 4 + [2 / 3, 1.0]
    marks = [*loose, jumbo_fan, bridge_fan]
    cards = merged(
        [reading(shrunk(m, share), "9B") for m, share in zip(marks, shares, strict=True)]
    )
    assert len(cards) == 6
    for fan_card, share in ((jumbo_fan, 2 / 3), (bridge_fan, 1.0)):
        (card,) = [c for c in cards if c.index_box == shrunk(fan_card, share).index_box()]
        np.testing.assert_allclose(card.polygon, fan_card.card_polygon(), atol=1e-6)


def head_to_head(reach):
    """Two marks of one code read 180° apart, each on the line along which the other predicts
    its card, lying ``reach`` times as far apart as one card's two corners."""
    top, bottom = (index_of((300, 500), 0, c) for c in CORNERS)
    offset = np.array([bottom.x - bottom.card_x, bottom.y - bottom.card_y])
    x, y = np.array([bottom.x, bottom.y]) + (reach - 1) * 2 * offset
    cx, cy = np.array([bottom.card_x, bottom.card_y]) + (reach - 1) * 2 * offset
    return top, IndexCandidate(**{**bottom.__dict__, "x": x, "y": y, "card_x": cx, "card_y": cy})


def test_fans_of_one_rank_head_to_head_are_not_paired_once_the_card_size_is_measured():
    # two loose cards read at both corners measure this design's cards at 1/1.3 of the size the
    # locator predicts; the fan indices of two melds of sixes lie head to head twice as far
    # apart as one card's corners, each on the line to the other's card
    loose = [index_of((150 + 200 * k, 200), 0, c) for k in range(2) for c in CORNERS]
    readings = [reading(shrunk(mark, 1.3), "9B") for mark in loose]
    far = [reading(shrunk(mark, 1.3), "6B") for mark in head_to_head(2.0)]
    assert opposite_corners(*(r.index for r in far))  # by the locator's sizes, one card
    assert len(merged(readings + far)) == 4
    # the two corners of one card still pair
    near = [reading(shrunk(mark, 1.3), "6B") for mark in head_to_head(1.0)]
    assert len(merged(readings + near)) == 3
    # with no size measured, the diagonal alone pairs them, as it pairs a loose card's corners
    assert len(merged(far)) == 1


def test_a_card_whose_other_corner_reads_surely_as_another_code_asks_for_a_check():
    from scanner.vision.cards import DISPUTE_SURE

    top = index_of((300, 200), 30, "top-left")
    bottom = index_of((300, 200), 30, "bottom-right")
    # the other corner read unsurely as another code: a misread, the card stands as read
    (card,) = merged([reading(top, "10", 0.99), reading(bottom, "JESTER", DISPUTE_SURE - 0.01)])
    assert (card.code, card.check, card.disputed) == ("10", False, False)
    # read surely as another code too: maybe another card lying over it; one card, to check
    (card,) = merged([reading(top, "10", 0.99), reading(bottom, "JESTER", 0.96)])
    assert (card.code, card.check, card.disputed) == ("10", True, True)
    assert card.confidence == 0.99 and card.as_json()["check"] is True
    # two sure readings of one code are the two corners of one card, nothing to dispute
    (card,) = merged([reading(top, "10", 0.99), reading(bottom, "10", 0.96)])
    assert not card.check and not card.disputed and card.corners == 2
    # the card keeps where its other corner's index lies (its face is cut out between the two)
    assert card.other_corner == pytest.approx((bottom.x, bottom.y))
    (alone,) = merged([reading(top, "10", 0.99)])
    assert alone.other_corner is None


def predicting_turned(mark: IndexCandidate, degrees: float) -> IndexCandidate:
    """``mark`` predicting its card's centre turned ``degrees`` about the index."""
    theta = math.radians(degrees)
    dx, dy = mark.card_x - mark.x, mark.card_y - mark.y
    card_x = mark.x + dx * math.cos(theta) - dy * math.sin(theta)
    card_y = mark.y + dx * math.sin(theta) + dy * math.cos(theta)
    return IndexCandidate(**{**mark.__dict__, "card_x": card_x, "card_y": card_y})


def test_a_card_s_two_corners_pair_by_their_own_axes_where_its_centre_is_mispredicted():
    # A court card's picture, or the fan beneath it, turns the card the locator predicts: the
    # two centres lie more than PAIR_DISTANCE apart and off the line between the corners.
    top = predicting_turned(index_of((300, 200), 30, "top-left"), 60)
    bottom = predicting_turned(index_of((300, 200), 30, "bottom-right"), 60)
    assert not same_card(top, bottom) and not opposite_corners(top, bottom)
    # but each lies right of and below the other as read, as a card's far corner does
    (card,) = merged([reading(top, confidence=0.99), reading(bottom, confidence=0.96)])
    assert card.corners == 2 and card.confidence == 0.99
    # read as two codes they stay two readings: one may be a card lying over the other
    assert len(merged([reading(top, "KR"), reading(bottom, "KB")])) == 2
    # a third reading of the code where the far corner would be is no less likely: no pair
    beneath = IndexCandidate(**{**top.__dict__, "x": top.x - 18 * math.cos(math.radians(30))})
    assert len(merged([reading(top), reading(bottom), reading(beneath, confidence=0.9)])) == 3


def beside(mark: IndexCandidate, along: float) -> IndexCandidate:
    """``mark`` moved ``along`` its reading direction, its predicted card with it."""
    (ux, uy), _ = mark.axes
    moved = {"x": mark.x + along * ux, "y": mark.y + along * uy}
    moved |= {"card_x": mark.card_x + along * ux, "card_y": mark.card_y + along * uy}
    return IndexCandidate(**{**mark.__dict__, **moved})


def test_a_card_inside_a_fan_takes_no_far_corner():
    from scanner.vision.cards import INTERIOR_REACH, fan_interior

    # the pair of the test above, each corner reading the other as its far corner by its axes
    top = predicting_turned(index_of((300, 200), 30, "top-left"), 60)
    bottom = predicting_turned(index_of((300, 200), 30, "bottom-right"), 60)
    step = 1.5 * top.index_w  # a fan's cards, each 1.5 index widths on from the one before
    before, after = beside(top, -step), beside(top, step)
    assert fan_interior([before, top, after]).tolist() == [False, True, False]
    assert fan_interior([before, top, after], [1, 2]).tolist() == [True, False]
    # inside a fan of other codes, the card after it covers its far corner: two cards
    fan = [reading(before, "QR"), reading(top), reading(after, "QB")]
    cards = merged([*fan, reading(bottom, confidence=0.96)])
    assert len(cards) == 4 and all(card.corners == 1 for card in cards)
    # the fan's end card shows its far corner: one card of two corners
    cards = merged([reading(before, "QR"), reading(top), reading(bottom, confidence=0.96)])
    assert len(cards) == 2 and sorted(card.corners for card in cards) == [1, 2]
    # cards lying side by side, each in plain view, lie farther apart than a fan's
    wide = top.index_w * (INTERIOR_REACH + 0.5)
    apart = [beside(top, -wide), top, beside(top, wide)]
    assert not fan_interior(apart).any()
    cards = merged(
        [
            reading(apart[0], "QR"),
            reading(top),
            reading(apart[2], "QB"),
            reading(bottom, confidence=0.96),
        ]
    )
    assert len(cards) == 3
    # nor is a mark inside a row of marks turned another way
    turned = [IndexCandidate(**{**m.__dict__, "angle": m.angle + 90.0}) for m in (before, after)]
    assert not fan_interior([turned[0], top, turned[1]]).any()


def test_two_cards_of_one_code_turned_head_to_tail_beside_each_other_stay_two():
    # card B lies turned 180° beside card A: its index 150 px along A's reading direction and
    # 30 px down, too flat a line for A's far corner (FAR_TURN), as near as a card's corners
    first = index_of((300, 200), 0, "top-left")
    second = IndexCandidate(
        **{
            **index_of((300, 200), 180, "top-left").__dict__,
            "x": first.x + 150.0,
            "y": first.y + 30.0,
        }
    )
    second = IndexCandidate(
        **{**second.__dict__, "card_x": second.x - 30.0, "card_y": second.y - 40.0}
    )
    assert not same_card(first, second) and not opposite_corners(first, second)
    assert len(merged([reading(first, "7B", 0.99), reading(second, "7B", 0.98)])) == 2


def test_near_duplicate_marks_of_one_index_count_once():
    index = index_of((300, 200), 30, "top-left", score=0.8)
    shifted = IndexCandidate(**{**index.__dict__, "x": index.x + 3, "y": index.y - 2, "score": 0.9})
    turned = IndexCandidate(**{**index.__dict__, "angle": index.angle + 90})
    kept = suppress_duplicates([index, shifted, turned])
    assert kept == (shifted, turned)
    (card,) = merged([reading(index, "KR", 0.6), reading(shifted, "KB", 0.8)])
    assert card.code == "KB"


def test_crowded_marks_count_once_as_when_each_is_weighed_against_those_kept():
    # more marks than one block weighs at once, crowded so that many repeat one another
    rng = np.random.default_rng(7)
    count = 2 * ROWS_AT_ONCE + 37
    marks = [
        IndexCandidate(x, y, score, angle, h, w, 0.0, 0.0, 1.0, 1.0)
        for x, y, score, angle, h, w in zip(
            rng.uniform(0, 400, count),
            rng.uniform(0, 300, count),
            rng.uniform(0.3, 1.0, count),
            rng.choice([0.0, 12.0, 40.0, 90.0, 185.0], count) + rng.normal(0, 6, count),
            rng.uniform(8, 30, count),
            rng.uniform(5, 18, count),
            strict=True,
        )
    ]
    one_by_one = []
    for mark in sorted(marks, key=lambda m: -m.score):
        if not any(same_index(kept, mark) for kept in one_by_one):
            one_by_one.append(mark)
    kept = suppress_duplicates(marks)
    assert kept == tuple(one_by_one)
    assert 2 * ROWS_AT_ONCE > len(kept) > 50  # the blocks' edges were crossed by repeats


def test_a_tall_index_marked_twice_down_its_length_counts_once_but_a_fan_of_one_rank_stays():
    # The joker's JOKER printed down its corner, measured short: a second mark 0.6 of an index
    # height further down, read as the same code.
    top = index_of((300, 200), 20, "top-left", index=(20.0, 8.0))
    v = np.array([-math.sin(math.radians(20)), math.cos(math.radians(20))])
    lower = IndexCandidate(**{**top.__dict__, "x": top.x + 12 * v[0], "y": top.y + 12 * v[1]})
    (card,) = merged([reading(top, "JK", 0.97), reading(lower, "JK", 0.86)])
    assert card.confidence == 0.97
    # Read as two codes, they are two readings (a neighbour's index, or a misread to check).
    assert len(merged([reading(top, "JK", 0.97), reading(lower, "10B", 0.86)])) == 2
    # A rank is printed no taller than its index: there, a second card of the rank, as cards
    # squared into a pile or a tight fan of one rank lie.
    assert len(merged([reading(top, "5R", 0.97), reading(lower, "5R", 0.86)])) == 2
    # A step of 0.8 index heights down is a card beneath, as in a fan of one rank.
    further = IndexCandidate(**{**top.__dict__, "x": top.x + 16 * v[0], "y": top.y + 16 * v[1]})
    assert len(merged([reading(top, "JK", 0.97), reading(further, "JK", 0.86)])) == 2
    # … and cards side by side along the reading direction stay apart at any step.
    u = np.array([math.cos(math.radians(20)), math.sin(math.radians(20))])
    beside = IndexCandidate(**{**top.__dict__, "x": top.x + 6 * u[0], "y": top.y + 6 * u[1]})
    assert len(merged([reading(top, "7B", 0.97), reading(beside, "7B", 0.9)])) == 2


def test_a_word_index_marked_twice_along_its_length_counts_once_but_ranks_side_by_side_stay():
    # The joker's JOKER printed down the corner reads along its length (the reading direction
    # u): measured short, it is marked twice 0.6 of its width apart along it.
    word = index_of((300, 200), 20, "top-left", index=(8.0, 20.0))
    u = np.array([math.cos(math.radians(20)), math.sin(math.radians(20))])
    second = IndexCandidate(**{**word.__dict__, "x": word.x + 12 * u[0], "y": word.y + 12 * u[1]})
    for code in ("JK", "JOKER", "VILLAIN"):
        (card,) = merged([reading(word, code, 0.97), reading(second, code, 0.86)])
        assert card.confidence == 0.97
    # two cards of one rank that close side by side stay two, and so do two words further apart
    assert len(merged([reading(word, "7B", 0.97), reading(second, "7B", 0.9)])) == 2
    assert len(merged([reading(word, "11", 0.97), reading(second, "11", 0.9)])) == 2
    far = IndexCandidate(**{**word.__dict__, "x": word.x + 16 * u[0], "y": word.y + 16 * u[1]})
    assert len(merged([reading(word, "JK", 0.97), reading(far, "JK", 0.86)])) == 2


def test_a_faint_mark_beside_a_clear_index_of_its_code_counts_once_but_a_clear_one_stays():
    # On a tight fan of one rank the locator's heat rises a little beside a clear index: a
    # faint mark 0.7 of the index's width along its reading direction, read as the same code.
    clear = index_of((300, 200), 20, "top-left", score=0.8, index=(20.0, 14.0))
    u = np.array([math.cos(math.radians(20)), math.sin(math.radians(20))])

    def beside(width_share, score):
        step = width_share * clear.index_w
        return replace(clear, x=clear.x + step * u[0], y=clear.y + step * u[1], score=score)

    (card,) = merged([reading(clear, "7B", 0.97), reading(beside(0.7, 0.2), "7B", 0.95)])
    assert (card.confidence, card.index_box) == (0.97, clear.index_box())
    # a mark as clear as its neighbour is a card of that rank beneath it, read as another code
    # it is another card, and further than 0.9 of a width along it lies past the index
    assert len(merged([reading(clear, "7B", 0.97), reading(beside(0.7, 0.6), "7B", 0.95)])) == 2
    assert len(merged([reading(clear, "7B", 0.97), reading(beside(0.7, 0.2), "7R", 0.95)])) == 2
    assert len(merged([reading(clear, "7B", 0.97), reading(beside(1.0, 0.2), "7B", 0.95)])) == 2
    # the heat that counts is the mark's own against its neighbour's: a faint pair stays two
    faint = replace(clear, score=0.3)
    assert len(merged([reading(faint, "7B", 0.97), reading(beside(0.7, 0.2), "7B", 0.95)])) == 2


def test_unknown_crops_are_dropped_and_unsure_ones_flagged():
    cards = merged(
        [
            reading(index_of((100, 100), 0, "top-left"), "none", 0.99),
            reading(index_of((300, 100), 0, "top-left"), "7", 0.42),
            reading(index_of((500, 100), 0, "top-left"), "LORD", 0.91),
        ]
    )
    assert [(c.code, c.check) for c in cards] == [("LORD", False), ("7", True)]
    shown = cards[1].as_json()
    assert set(shown) == {"code", "confidence", "index_box", "polygon", "angle", "check"}
    assert len(shown["polygon"]) == 4 and shown["check"] is True
    json.dumps(shown)


# -- contract --------------------------------------------------------------------------------------


def test_the_contract_comes_from_the_shipped_json_when_there_is_one(tmp_path):
    assert Contract.load(tmp_path) == C
    (tmp_path / "recogniser.json").write_text(
        json.dumps({"spec": {"PEAK_THRESHOLD": 0.4}, "CLASSES": list(C.classes), "epochs": 3})
    )
    assert Contract.load(tmp_path).peak_threshold == 0.4
    (tmp_path / "recogniser.json").write_text(json.dumps({"stride": "four"}))
    with pytest.raises(RecogniserError, match="STRIDE"):
        Contract.load(tmp_path)
    (tmp_path / "recogniser.json").write_text(json.dumps({"classes": ["KR"]}))
    with pytest.raises(RecogniserError, match="none"):
        Contract.load(tmp_path)


def test_a_missing_model_names_the_file_and_how_to_train(tmp_path):
    from scanner.vision import Recogniser

    with pytest.raises(RecogniserError, match=r"locator\.onnx.*make model"):
        Recogniser.load(tmp_path)


# -- evaluate and annotate -------------------------------------------------------------------------


def label_card(code, x, visible=(True, False)):
    """A labelled card whose two index quads are 10 px squares at (x, 0) and (x, 100)."""
    indices = [
        {
            "quad": [[x, y], [x + 10, y], [x + 10, y + 10], [x, y + 10]],
            "visible": seen,
            "visible_fraction": 1.0 if seen else 0.3,
        }
        for y, seen in zip((0, 100), visible, strict=True)
    ]
    return {"code": code, "indices": indices}


def test_recall_is_split_by_the_largest_visible_index():
    small = label_card("5B", 0, visible=(True, True))
    small["indices"][0]["quad"] = [[0, 0], [4, 0], [4, 9], [0, 9]]  # 4 px on its short side
    small["indices"][1]["quad"] = [[0, 100], [5, 100], [5, 109], [0, 109]]
    hidden_large = label_card("9R", 50, visible=(False, True))
    hidden_large["indices"][0]["quad"] = [[50, 0], [80, 0], [80, 30], [50, 30]]  # not visible
    labels = {"deck": "standard", "styles": ["classic"], "cards": [small, hidden_large]}
    score = score_scene(labels, [read_at("5B", 2, 4)])
    assert score.sizes == ((5.0, True), (10.0, False))
    bins = summarise([score])["recall_by_index_size"]
    assert list(bins) == ["<6 px", "6-8 px", "8-10 px", "10-14 px", "≥14 px"]
    assert bins["<6 px"] == {"cards": 1, "recall": 1.0}
    assert bins["10-14 px"] == {"cards": 1, "recall": 0.0}


def test_exact_scenes_are_split_by_their_smallest_card():
    small = label_card("5B", 0)
    small["indices"][0]["quad"] = [[0, 0], [5, 0], [5, 9], [0, 9]]  # 5 px on its short side
    large = label_card("9R", 50)  # 10 px
    labels = {"deck": "standard", "styles": ["classic"]}
    both_right = score_scene(
        {**labels, "cards": [small, large]}, [read_at("5B", 2, 4), read_at("9R", 55, 5)]
    )
    small_misread = score_scene(
        {**labels, "cards": [small, large]}, [read_at("6B", 2, 4), read_at("9R", 55, 5)]
    )
    large_only = score_scene({**labels, "cards": [large]}, [read_at("9R", 55, 5)])
    no_cards = score_scene({**labels, "cards": []}, [])
    bins = report([both_right, small_misread, large_only, no_cards])["exact_by_smallest_index"]
    assert list(bins) == ["<6 px", "6-8 px", "8-10 px", "10-14 px", "≥14 px"]
    # a scene counts once, by its smallest card, whatever its larger cards measure
    assert bins["<6 px"] == {"scenes": 2, "exact_scenes": 0.5}
    assert bins["10-14 px"] == {"scenes": 1, "exact_scenes": 1.0}
    assert bins["6-8 px"] == {"scenes": 0, "exact_scenes": None}
    assert sum(part["scenes"] for part in bins.values()) == 3  # the scene without cards: none


def read_at(code, x, y, confidence=0.9):
    box = (x - 2, y - 2, x + 2, y + 2)
    return CardReading(code, confidence, box, ((0, 0), (1, 0), (1, 1), (0, 1)), 0.0, False)


def test_a_scene_is_scored_against_its_labels():
    labels = {
        "image": "scene_000000.jpg",
        "deck": "standard",
        "styles": ["classic"],
        "cards": [
            label_card("KR", 0),
            label_card("7B", 50, visible=(False, False)),  # hidden: reads on it are ignored
            label_card("QB", 100),
            label_card("2R", 200, visible=(False, True)),
        ],
    }
    reads = [
        read_at("KR", 5, 5, 0.99),  # found
        read_at("KB", 5, 105, 0.6),  # KR's other corner, hidden: a double count
        read_at("7B", 55, 5),  # ignored
        read_at("QR", 105, 5),  # found, wrong colour
        read_at("9R", 400, 400),  # phantom
    ]  # 2R missed
    score = score_scene(labels, reads, held_out=frozenset({"classic"}))
    assert score.held_out and not score.exact
    assert [(f.truth, f.read) for f in score.found] == [("KR", "KR"), ("QB", "QR")]
    assert (score.missed, score.doubles, score.phantoms, score.ignored) == (
        ("2R",),
        ("KB",),
        ("9R",),
        1,
    )
    figures = summarise([score])
    assert figures["recall"] == 0.6667 and figures["precision"] == 0.5
    assert figures["accuracy"] == {"all": 0.5, "standard": 0.5, "special": None}
    assert figures["per_class_recall"] == {"2R": 0.0, "QB": 0.0, "KR": 1.0}
    assert score.sizes == ((10.0, True), (10.0, True), (10.0, False))  # 10 px squares
    assert figures["recall_by_index_size"]["10-14 px"] == {"cards": 3, "recall": 0.6667}
    assert figures["recall_by_index_size"]["<6 px"] == {"cards": 0, "recall": None}

    assert list(error_lines([score])) == [
        {"scene": "scene_000000.jpg", "kind": kind, "truth": truth, "read": read,
         "confidence": sure, "check": False if read else None, "index_size": size, "at": at}
        for kind, truth, read, sure, size, at in [
            ("wrong code", "QB", "QR", 0.9, 10.0, [105.0, 5.0]),  # surest first
            ("double count", "KR", "KB", 0.6, 10.0, [5.0, 105.0]),
            ("phantom", None, "9R", 0.9, None, [400.0, 400.0]),  # reads on no quad last
            ("missed", "2R", None, None, 10.0, [205.0, 105.0]),  # its visible index's centre
        ]
    ]  # fmt: skip

    exact = score_scene({**labels, "cards": labels["cards"][:1]}, reads[:1])
    assert exact.exact and not exact.held_out and not exact.errors
    both = report([score, exact])
    assert both["exact_scenes"] == 0.5 and both["by_styles"]["seen"]["recall"] == 1.0
    assert both["by_styles"]["held_out"]["phantoms"] == 1
    # a scene whose indices measured small is told so, and is counted apart
    told = report([replace(score, small_px=5.0), replace(exact, small_px=12.0)])["by_legibility"]
    assert told["small_cards"]["scenes"] == 1 and told["small_cards"]["exact_scenes"] == 0.0
    assert told["readable"]["scenes"] == 1 and told["readable"]["exact_scenes"] == 1.0
    assert report([score, exact])["by_legibility"]["readable"]["scenes"] == 2  # unmeasured
    # per table, most errors first
    tables = report([replace(score, table="lace-over-wood"), exact])["by_table"]
    assert list(tables) == ["lace-over-wood", "unknown"]
    assert tables["lace-over-wood"] == {
        "scenes": 1, "countable": 3, "errors": 4, "exact_scenes": 0.0
    }  # fmt: skip
    assert tables["unknown"]["errors"] == 0 and tables["unknown"]["exact_scenes"] == 1.0
    image = draw_confusion([score, exact])
    assert image.ndim == 3 and image.shape[0] > 27 * 18 and image.shape[1] > 27 * 18


def test_a_read_just_beside_a_small_index_finds_its_card():
    small = label_card("5B", 0)
    small["indices"][0]["quad"] = [[0, 0], [4, 0], [4, 8], [0, 8]]  # 4 px wide
    fan = label_card("5B", 6)
    fan["indices"][0]["quad"] = [[6, 0], [10, 0], [10, 8], [6, 8]]
    labels = {"deck": "standard", "styles": ["classic"], "cards": [small, fan]}

    beside = score_scene(labels, [read_at("5B", 2, 9.5), read_at("5B", 11.5, 4)])
    assert beside.exact  # each 1.5 px past its index's edge, within half its width (2 px)
    too_far = score_scene(labels, [read_at("5B", 2, 10.5)])
    assert too_far.phantoms == ("5B",) and too_far.missed == ("5B", "5B")
    between = score_scene(labels, [read_at("5B", 8, 4, 0.99), read_at("5B", 4.8, 4, 0.5)])
    assert between.doubles == () and between.exact  # the nearer quad, not the surer read's
    # A read inside a quad keeps its card, even from a surer read beside it.
    inside_first = score_scene(labels, [read_at("5B", 4.5, 4, 0.99), read_at("5B", 2, 4, 0.5)])
    assert inside_first.doubles == ("5B",) and inside_first.missed == ("5B",)


def test_a_card_read_at_both_corners_lands_by_its_other_corner_off_a_hidden_index():
    # a joker on top of a 5B: its narrow word read 3 px beside its quad, on the 5B's hidden
    # index beneath it; its far corner read where its other index lies
    under = label_card("5B", 0, visible=(False, False))
    joker = label_card("JK", 8, visible=(True, True))
    joker["indices"][0]["quad"] = [[8, 0], [12, 0], [12, 10], [8, 10]]  # 4 px wide
    labels = {"deck": "standard", "styles": ["classic"], "cards": [under, joker]}
    off = read_at("JK", 5, 5, 0.99)
    alone = score_scene(labels, [off])
    assert alone.ignored == 1 and alone.missed == ("JK",)  # one corner: where it lies
    both = score_scene(labels, [replace(off, other_corner=(13.0, 105.0))])
    assert both.exact and both.ignored == 0
    # a card whose own corner lands on a card that counts keeps it
    both = score_scene(labels, [replace(read_at("JK", 10, 5), other_corner=(5.0, 5.0))])
    assert both.exact
    # nor is a card read already taken from its reading: the hidden card may be the one read
    twice = score_scene(labels, [read_at("JK", 10, 105), replace(off, other_corner=(10, 5))])
    assert twice.exact and twice.ignored == 1
    # and the other corner counts only where it lands on a card that counts
    nowhere = score_scene(labels, [replace(off, other_corner=(300.0, 300.0))])
    assert nowhere.ignored == 1 and nowhere.missed == ("JK",)


def index_read_at(code, x, y, confidence=0.9):
    """An index read as ``code`` at (x, y), before the corners were paired."""
    return IndexReading(
        IndexCandidate(x, y, 0.8, 0.0, 8, 6, x + 20, y + 30, 50, 70), code, confidence
    )


def test_a_card_missed_says_what_became_of_it():
    assert miss_fate("7B", []) == "no reading"
    assert miss_fate("7B", ["none"]) == "read as not an index"
    assert miss_fate("7B", ["none", "1"]) == "read as another code"
    assert miss_fate("7B", ["1", "7B", "none"]) == "lost in pairing"
    assert set(FATES) == {"lost in pairing", "read as another code", "read as not an index",
                          "no reading"}  # fmt: skip

    # a fan: the missed card's visible index the square at (0, 0), the next card's at (14, 0)
    cards = [label_card("7B", 0), label_card("7B", 14)]
    labels = {"image": "s.jpg", "deck": "standard", "styles": [], "cards": cards}
    neighbour_found = [read_at("7B", 19, 5)]

    def fate(*indices):
        (missed,) = score_scene(labels, neighbour_found, indices=indices).errors
        assert missed["kind"] == "missed" and missed["truth"] == "7B"
        return missed["fate"]

    assert fate() == "no reading"
    assert fate(index_read_at("7B", 19, 5)) == "no reading"  # the neighbour's own index
    assert fate(index_read_at("7B", 12.5, 5)) == "no reading"  # nearer the neighbour
    assert fate(index_read_at("7B", 11, 5), index_read_at("none", 19, 5)) == "lost in pairing"
    assert fate(index_read_at("7B", 5, 105)) == "lost in pairing"  # on its hidden corner
    assert fate(index_read_at("1", 5, 5), index_read_at("none", 6, 5)) == "read as another code"
    (unsaid,) = score_scene(labels, neighbour_found).errors  # no indices given: no fate said
    assert "fate" not in unsaid


def test_annotations_mark_unsure_cards_in_orange():
    frame = np.zeros((120, 160, 3), np.uint8)
    polygon = ((20.0, 20.0), (100.0, 20.0), (100.0, 100.0), (20.0, 100.0))
    sure = CardReading("KR", 0.99, (22, 22, 30, 40), polygon, 0.0, False)
    unsure = CardReading("KR", 0.3, (22, 22, 30, 40), polygon, 0.0, True)
    assert annotate(frame, [sure]).any() and not frame.any()
    drawn = annotate(frame, [unsure])
    assert (drawn == CHECK_COLOUR).all(axis=-1).any()


def test_decoding_the_training_targets_gives_back_the_labelled_indices():
    """The locator is taught with ``targets.locator_targets``; decoding those very heads must
    find each index and its card where the labels put them."""
    targets = pytest.importorskip("model.recogniser.targets", reason="needs the training code")
    truths = []
    for card_centre, card_angle in (((150.3, 120.8), 30.0), ((330.0, 200.0), 275.0)):
        for corner in ("top-left", "bottom-right"):
            mark = index_of(card_centre, card_angle, corner)
            truths.append(
                targets.IndexTruth(
                    centre=np.array([mark.x, mark.y]),
                    angle=mark.angle,
                    height=mark.index_h,
                    width=mark.index_w,
                    card_centre=np.array(card_centre),
                    card_size=(mark.card_w, mark.card_h),
                    code="QB",
                    visible=1.0,
                )
            )
    heads, _, _ = targets.locator_targets(truths, 480, 320)
    found = suppress_duplicates(decode_heads(heads[None], (480, 320), C))
    assert len(found) == len(truths)
    for truth in truths:
        (mark,) = [m for m in found if math.dist((m.x, m.y), truth.centre) < 1e-3]
        assert angle_gap(mark.angle, truth.angle) < 1e-3
        assert (mark.index_h, mark.index_w) == pytest.approx((truth.height, truth.width))
        assert (mark.card_x, mark.card_y) == pytest.approx(tuple(truth.card_centre))
        assert (mark.card_w, mark.card_h) == pytest.approx(truth.card_size)
    cards = merged([reading(mark, "QB") for mark in found])
    assert len(cards) == 2


def test_a_partly_hidden_index_leaves_the_readable_one_on_top_of_it_taught():
    """In a cascade a partly hidden index lies one fan step under the readable one on top of
    it: the hidden one is neither right nor wrong to mark, but the readable one's peak and the
    cells round it are still taught."""
    targets = pytest.importorskip("model.recogniser.targets", reason="needs the training code")

    def truth(x, y, visible):
        return targets.IndexTruth(
            centre=np.array([x, y]),
            angle=0.0,
            height=30.0,
            width=14.0,
            card_centre=np.array([x + 30.0, y + 50.0]),
            card_size=(90.0, 130.0),
            code="9R",
            visible=visible,
        )

    readable, hidden = truth(102.0, 98.0, 1.0), truth(102.0, 112.0, 0.6)
    heads, heat_weight, _ = targets.locator_targets([readable, hidden], 240, 200)
    stride = targets.spec.STRIDE
    column, row = int(102 // stride), int(98 // stride)
    assert heads[targets.spec.HEAT, row, column] == 1.0
    assert (heat_weight[row - 1 : row + 2, column - 1 : column + 2] == 1.0).all()
    below = int(112 // stride) + 1  # under the hidden index, clear of the readable one's cells
    assert heat_weight[below, column] == 0.0
    alone, *_ = targets.locator_targets([hidden], 240, 200)
    assert not alone[targets.spec.HEAT].any()


@pytest.mark.parametrize("angle", [0.0, 90.0, 30.0])
def test_oval_peaks_teach_a_tight_fans_indices_as_two(angle):
    """Two tall indices of a tight fan lie less than a width apart along their reading
    direction. Oval peaks (as wide and tall as the index) teach each its own peak with little
    heat between them, and decoding those heads gives both; round ones (as wide as the index
    is tall, the shipped locator's) run them together."""
    targets = pytest.importorskip("model.recogniser.targets", reason="needs the training code")
    along, down = targets.axes(angle)
    first = np.array([120.0, 100.0])
    truths = [
        targets.IndexTruth(
            centre=centre,
            angle=angle,
            height=48.0,
            width=20.0,
            card_centre=centre + 60.0,
            card_size=(140.0, 200.0),
            code="5B",
            visible=1.0,
        )
        for centre in (first, first + 16.0 * along)
    ]

    def heat_at(heat, point):
        column, row = (point // targets.spec.STRIDE).astype(int)
        return heat[row, column]

    between, below = first + 8.0 * along, first + 8.0 * down  # as far, down the first index
    heads, _, _ = targets.locator_targets(truths, 256, 224, "oval")
    heat = heads[targets.spec.HEAT]
    assert heat_at(heat, between) < 0.3 < 0.5 < heat_at(heat, below)
    assert len(suppress_duplicates(decode_heads(heads[None], (256, 224), C))) == 2
    round_heads, _, _ = targets.locator_targets(truths, 256, 224)
    assert heat_at(round_heads[targets.spec.HEAT], between) > 0.5
    with pytest.raises(ValueError, match="oval"):
        targets.locator_targets(truths, 256, 224, "square")


# -- a closer look ---------------------------------------------------------------------------------


def candidate(x, y, *, angle=0.0, height=12.0, score=0.6):
    return IndexCandidate(x, y, score, angle, height, height * 0.6, x + 20, y + 30, 40, 56)


def test_a_mosaic_holds_each_patch_scaled_up_and_apart():
    frame = np.zeros((100, 120, 3), np.uint8)
    frame[40:44, 60:64] = 255  # a white square 4 px wide at (60, 40)
    places = [(62.0, 42.0), (10.0, 90.0), (110.0, 5.0)]
    mosaic = closer.build_mosaic(frame, places, C, zoom=2.0, patch=32, gap=16)
    assert mosaic.per_row == 2 and mosaic.tile == 64
    _, _, height, width = mosaic.tensor.shape
    assert (height, width) == (160, 160)  # 2 rows and 2 columns of 64 + 16, rounded up to 32
    assert height % C.locator_multiple == 0 and width % C.locator_multiple == 0
    assert mosaic.origins[0] == (46.0, 26.0)
    black, white = -C.mean / C.std, (1 - C.mean) / C.std
    light = (mosaic.tensor[0, 0, :64, :64] - black) / (white - black)
    lit = np.argwhere(np.isclose(light, 1))
    # the 4 px square is 8 px wide in the mosaic (a half-lit edge), and frame pixel x lies at
    # 2 (x - 46) there: its middle, 61.5, at 31
    assert lit.min(axis=0).tolist() == [28, 28] and lit.max(axis=0).tolist() == [34, 34]
    assert light.sum() == pytest.approx(64, abs=0.5)
    rows, cols = np.indices(light.shape)
    centre = ((light * cols).sum() / light.sum(), (light * rows).sum() / light.sum())
    assert centre == pytest.approx((31, 31), abs=0.3)
    assert not mosaic.tensor[0, :, :, 64:80].any()  # the gap stays blank
    assert mosaic.tile_origin(2) == (0, 80)


def test_a_mosaic_needs_a_place():
    with pytest.raises(ValueError):
        closer.build_mosaic(np.zeros((10, 10, 3), np.uint8), [], C)


def test_marks_in_a_mosaic_come_back_in_frame_pixels():
    frame = np.zeros((200, 200, 3), np.uint8)
    mosaic = closer.build_mosaic(
        frame, [(50.0, 60.0), (150.0, 160.0)], C, zoom=2.0, patch=32, gap=16
    )
    step = mosaic.tile + mosaic.gap
    in_second = candidate(step + 40, 20, angle=30, height=20)
    in_the_gap = candidate(step - 8, 20)
    beyond = candidate(10, step + 10)  # a third patch's place, but there is none
    found = closer.marks_in_frame(mosaic, [in_second, in_the_gap, beyond])
    assert [n for n, _ in found] == [1]
    mark = found[0][1]
    assert (mark.x, mark.y) == pytest.approx((134 + 20, 144 + 10))
    assert (mark.index_h, mark.index_w) == pytest.approx((10, in_second.index_w / 2))
    assert mark.angle == in_second.angle and mark.score == in_second.score
    assert (mark.card_x, mark.card_y) == pytest.approx(
        (134 + (in_second.card_x - step) / 2, 144 + in_second.card_y / 2)
    )


def test_a_closer_mark_counts_on_the_same_index_read_the_same_way():
    first = candidate(100, 100, angle=350, height=10)
    near_and_turned_a_little = candidate(103, 101, angle=20, height=8, score=0.5)
    hotter_but_turned_back = candidate(101, 100, angle=170, height=8, score=0.9)
    too_far = candidate(108, 100, angle=350, height=8, score=0.9)
    assert closer.same_index(first, near_and_turned_a_little)
    assert not closer.same_index(first, hotter_but_turned_back)
    assert not closer.same_index(first, too_far)
    hottest = candidate(99, 99, angle=0, height=9, score=0.7)
    found = [(0, near_and_turned_a_little), (0, hotter_but_turned_back), (0, hottest), (1, too_far)]
    assert closer.closer_marks([first, candidate(300, 300)], found) == {0: hottest}


def test_the_hottest_small_marks_read_as_no_index_are_looked_at_again():
    none = C.not_an_index
    readings = [
        IndexReading(candidate(10, 10, height=12, score=0.4), none, 0.9),
        IndexReading(candidate(50, 10, height=12, score=0.8), none, 0.9),
        IndexReading(candidate(90, 10, height=12, score=0.9), "KR", 0.3),  # read a card
        IndexReading(candidate(130, 10, height=30, score=0.9), none, 0.9),  # large
        IndexReading(candidate(170, 10, height=closer.LARGEST_INDEX, score=0.6), none, 0.9),
    ]
    assert closer.worth_a_closer_look(readings, none) == [1, 4, 0]
    assert closer.worth_a_closer_look(readings, none, most=2) == [1, 4]
    assert closer.worth_a_closer_look(readings[2:4], none) == []


def test_a_second_reading_replaces_no_index_however_sure_and_only_an_unsurer_card():
    from scanner.vision.stages.recheck import RETRY_CONFIDENCE, replaces

    none, mark = C.not_an_index, candidate(10, 10)
    # an index the locator marked a quarter off, called "not an index" at its mark
    assert replaces(IndexReading(mark, none, 1.0), "12", 0.97, RETRY_CONFIDENCE, none)
    assert replaces(IndexReading(mark, "KR", 0.6), "KB", 0.85, RETRY_CONFIDENCE, none)
    assert not replaces(IndexReading(mark, "KR", 0.9), "KB", 0.85, RETRY_CONFIDENCE, none)
    assert not replaces(IndexReading(mark, none, 0.4), "7B", RETRY_CONFIDENCE - 0.01, 0.8, none)
    assert not replaces(IndexReading(mark, "KR", 0.3), none, 0.99, RETRY_CONFIDENCE, none)
