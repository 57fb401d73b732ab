"""Grouping a frame's cards into melds by layout: hand-made edge cases, then rendered scenes
(their labels as ideal readings, turned, and jittered as the recogniser errs)."""

import random
from dataclasses import replace

import numpy as np
import pytest

from model.evaluate.truth import groups_from_labels, reading_from_label, seen_ids
from model.synth.scene import render_scene
from scanner.vision.cards import CardReading
from scanner.vision.grouping import CLOSE_DOUBT, CardGroup, Grouping, group_cards

W, H = 60.0, 84.0  # a card's size in frame px
INDEX_AT = (0.1, 0.13)  # an index's centre from its corner, in card widths and heights


def _axes(angle: float) -> tuple[np.ndarray, np.ndarray]:
    theta = np.radians(angle)
    return np.array([np.cos(theta), np.sin(theta)]), np.array([-np.sin(theta), np.cos(theta)])


def card(
    code: str, x: float, y: float, angle: float = 0.0, *, far: bool = False, check: bool = False
) -> CardReading:
    """A W×H card centred at (x, y), turned ``angle``° clockwise, read from its top-left index
    or (``far``) from its bottom-right one, upside down."""
    u, v = _axes(angle)
    centre = np.array([x, y])
    corners = [
        centre + a * W / 2 * u + b * H / 2 * v for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    ]
    if far:
        corners, u, v, angle = corners[2:] + corners[:2], -u, -v, angle + 180.0
    ix, iy = corners[0] + INDEX_AT[0] * W * u + INDEX_AT[1] * H * v
    return CardReading(
        code=code,
        confidence=0.9,
        index_box=(ix - 4, iy - 8, ix + 4, iy + 8),
        polygon=tuple((float(px), float(py)) for px, py in corners),
        angle=angle % 360.0,
        check=check,
    )


def fan(codes: str, x: float, y: float, angle: float = 0.0, step=(0.3, 0.0)) -> list[CardReading]:
    """Cards fanned from the bottom one centred at (x, y): each next card moved by ``step``
    (card widths sideways, card heights down, in the cards' own axes)."""
    u, v = _axes(angle)
    shift = step[0] * W * u + step[1] * H * v
    return [
        card(code, *(np.array([x, y]) + n * shift), angle) for n, code in enumerate(codes.split())
    ]


def shuffled(cards: list[CardReading], seed: int = 0) -> list[CardReading]:
    cards = list(cards)
    random.Random(seed).shuffle(cards)
    return cards


# -- hand-made cases ---------------------------------------------------------------------------


def test_no_cards_no_groups():
    assert group_cards([]) == Grouping((), (), ())


def test_one_card_is_a_single_and_a_lone_red_three_a_red_three():
    assert group_cards([card("KR", 100, 100)]) == Grouping((), (), (card("KR", 100, 100),))
    assert group_cards([card("3R", 100, 100)]).red_threes == (card("3R", 100, 100),)


@pytest.mark.parametrize("angle", [0.0, 37.0, 130.0, 270.0])
@pytest.mark.parametrize("step", [(0.15, 0.0), (0.4, 0.0), (0.0, 0.14), (0.0, 0.3)])
def test_a_fan_or_a_cascade_is_one_group_bottom_card_first(angle, step):
    cards = fan("4R 4B 2R 4R JK", 300, 300, angle, step)
    grouping = group_cards(shuffled(cards))
    assert grouping.melds and grouping.melds[0].cards == tuple(cards)
    assert not grouping.singles and not grouping.red_threes
    assert grouping == group_cards(list(reversed(cards)))


def test_a_group_knows_its_codes_and_outline():
    cards = fan("7R 7B 7R", 200, 200)
    (group,) = group_cards(cards).melds
    assert isinstance(group, CardGroup) and group.codes == ("7R", "7B", "7R")
    xs, ys = zip(*group.outline, strict=True)
    assert min(xs) == pytest.approx(200 - W / 2) and max(xs) == pytest.approx(200 + 0.6 * W + W / 2)
    assert min(ys) == pytest.approx(200 - H / 2) and max(ys) == pytest.approx(200 + H / 2)


def test_a_top_card_read_from_its_far_index_joins_its_fan_last():
    cards = fan("9R 9B 9R 9B", 300, 300, 20.0, (0.0, 0.2))
    cards[-1] = card(cards[-1].code, *np.mean(cards[-1].polygon, axis=0), 20.0, far=True)
    (group,) = group_cards(shuffled(cards)).melds
    assert group.cards == tuple(cards)


def test_a_red_three_read_from_its_far_index_at_a_fan_s_end_is_a_red_three():
    cards = fan("9R 9B 9R 3R", 300, 300, 20.0, (0.0, 0.2))
    cards[-1] = card("3R", *np.mean(cards[-1].polygon, axis=0), 20.0, far=True)
    grouping = group_cards(shuffled(cards))
    assert [group.cards for group in grouping.melds] == [tuple(cards[:3])]
    assert grouping.red_threes == (cards[-1],)


def test_two_melds_close_but_apart_stay_two():
    first = fan("5R 5B 5R", 200, 300)
    # the second meld starts 4 px (about 4 mm) after the first one's top card
    second = fan("QB QR QB QB", 200 + 0.6 * W + W + 4, 300)
    grouping = group_cards(shuffled(first + second))
    assert [group.cards for group in grouping.melds] == [tuple(first), tuple(second)]
    assert [group.doubt for group in grouping.melds] == [None, None]


def test_a_fan_split_where_two_cards_were_not_read_asks_to_be_counted():
    book = fan("7R 7B 7R 7R 7B 7R 7R", 200, 300)
    read = book[:3] + book[5:]  # the 4th and 5th cards were missed: a gap of three steps
    grouping = group_cards(shuffled(read))
    assert [group.cards for group in grouping.melds] == [tuple(book[:3]), tuple(book[5:])]
    assert [group.doubt for group in grouping.melds] == [CLOSE_DOUBT, CLOSE_DOUBT]


def test_red_threes_lying_over_one_another_are_red_threes_not_a_meld():
    threes = fan("3R 3R 3R", 200, 300)
    grouping = group_cards(shuffled(threes))
    assert grouping.melds == () and grouping.singles == ()
    assert grouping.red_threes == tuple(threes)


@pytest.mark.parametrize("step", [(0.3, 0.0), (0.0, 0.22)])
def test_red_threes_lying_on_or_under_a_meld_do_not_join_it(step):
    """A column of red threes laid beside melds touches them; red threes are never melded, so
    the meld stays whole and the threes stay red threes (on 200 one-side validation tables two
    tables more came out right, none went wrong silently)."""
    cards = fan("3R 7R 7R 7B 7R 3R 3R", 200, 300, step=step)
    grouping = group_cards(shuffled(cards))
    assert [group.codes for group in grouping.melds] == [("7R", "7R", "7B", "7R")]
    assert [c.code for c in grouping.red_threes] == ["3R", "3R", "3R"]


def test_melds_of_players_on_two_sides_stay_apart():
    mine = fan("8R 8B 8R", 300, 300, 0.0)
    # across the table, turned 180°, its top edge 4 px from mine
    theirs = fan("KB KR KB", 300 + 0.6 * W, 300 - H - 4, 180.0)
    beside = fan("6R 6B 6R", 300 + 0.6 * W + W / 2 + 4 + H / 2, 300 - 0.3 * W, 90.0)
    grouping = group_cards(mine + theirs + beside)
    assert sorted(group.codes for group in grouping.melds) == [
        ("6R", "6B", "6R"),
        ("8R", "8B", "8R"),
        ("KB", "KR", "KB"),
    ]


def test_a_card_across_the_gap_does_not_chain_two_melds():
    first = fan("5R 5B 5R", 200, 300)
    second = fan("QB QR QB QB", 200 + 0.6 * W + 1.4 * W, 300)
    gap_centre = 200 + 0.6 * W + 0.5 * W + 0.2 * W
    # dropped crooked across the gap, over both melds: joins neither
    crooked = card("JK", gap_centre, 300, 45.0)
    grouping = group_cards([*first, *second, crooked])
    assert [group.cards for group in grouping.melds] == [tuple(first), tuple(second)]
    assert grouping.singles == (crooked,)
    # laid straight over the gap it hides the second meld's first index; it may join one meld,
    # never both
    straight = card("JK", gap_centre, 300)
    grouping = group_cards([*first, straight, *second[1:]])
    groups = [set(group.cards) for group in grouping.melds] + [{c} for c in grouping.singles]
    assert not any(group & set(first) and group & set(second) for group in groups)


def test_a_lady_on_a_top_card_caps_that_group():
    cards = fan("10R 10B 10R 10R", 300, 300, 200.0)
    top = np.mean(cards[-1].polygon, axis=0)
    lady = card("LADY", *(top + 1.0), 201.0)
    # the next meld in the row, 8 px past the top card
    other = fan("6R 6B 6R", *(top + (W + 8) * _axes(200.0)[0]), 200.0)
    grouping = group_cards(shuffled([lady, *cards, *other]))
    assert sorted(group.codes for group in grouping.melds) == [
        ("10R", "10B", "10R", "10R", "LADY"),
        ("6R", "6B", "6R"),
    ]


@pytest.mark.parametrize("far", [False, True])
def test_red_threes_side_by_side_stay_apart(far):
    threes = [card("3R", 100 + n * 1.15 * W, 100, 3.0 * n, far=far and n == 1) for n in range(3)]
    grouping = group_cards(shuffled(threes))
    assert grouping.melds == () and grouping.singles == ()
    assert grouping.red_threes == tuple(threes)  # in reading order


def test_a_squared_book_shows_one_card_and_loose_cards_are_not_guessed_into_melds():
    book_top = card("AB", 400, 400, 10.0)
    meld = fan("AR AB AR", 400 + 1.2 * W, 400 + 0.2 * W, 10.0)
    stray = card("9R", 400, 400 + H + 10, 73.0)
    grouping = group_cards([book_top, *meld, stray])
    assert [group.codes for group in grouping.melds] == [("AR", "AB", "AR")]
    assert set(grouping.singles) == {book_top, stray}


def test_a_pair_is_reported_and_unsure_cards_group_like_any():
    pair = [card("KR", 300, 300, check=True), card("KB", 300 + 0.3 * W, 300)]
    (group,) = group_cards(pair).melds
    assert group.cards == tuple(pair)


def test_an_unsure_reading_far_from_every_card_is_a_stray_not_a_single():
    meld = fan("KR KB KR KB", 300, 300)
    far = card("9B", 300 + 4 * W, 300 + 3 * H, check=True)  # the cloth's pattern, most likely
    near = card("6B", 300, 300 + H + 30, check=True)  # within two short sides of the meld
    sure = card("4R", 300 - 4 * W, 300 + 3 * H)  # as far, but read surely: a card
    grouping = group_cards(shuffled([*meld, far, near, sure]))
    assert grouping.strays == (far,)
    assert set(grouping.singles) == {near, sure}
    assert [group.codes for group in grouping.melds] == [("KR", "KB", "KR", "KB")]


def test_a_disputed_card_far_from_every_card_is_never_a_stray():
    meld = fan("KR KB KR KB", 300, 300)
    disputed = replace(card("10", 300 + 4 * W, 300 + 3 * H, check=True), disputed=True)
    grouping = group_cards(shuffled([*meld, disputed]))
    assert grouping.strays == () and grouping.singles == (disputed,)


def test_with_no_card_read_surely_nothing_is_a_stray():
    lone = [card("9B", 100, 100, check=True), card("6B", 700, 700, check=True)]
    grouping = group_cards(lone)
    assert grouping.strays == () and set(grouping.singles) == set(lone)


def test_melds_come_in_reading_order():
    low = fan("4R 4B 4R", 100, 500)
    high_right = fan("9R 9B 9R", 500, 100)
    high_left = fan("QR QB QR", 100, 110)
    grouping = group_cards(low + high_right + high_left)
    assert [group.codes[0] for group in grouping.melds] == ["QR", "9R", "4R"]


# -- rendered scenes -------------------------------------------------------------------------

SCENES = 40


# Rendering forty scenes takes seconds: the tests that use them are marked slow.
@pytest.fixture(scope="module")
def scenes() -> list[dict]:
    """The labels of rendered held-out scenes at 1280×960 (the pixels are not needed)."""
    return [
        render_scene(0, index, split="test", size=(1280, 960), photographic=False).labels
        for index in range(SCENES)
    ]


def _as_ids(grouping: Grouping, ids: dict[int, int]) -> dict[str, set]:
    """The grouping as card ids: melds as tuples in fan order, loose cards by kind."""
    return {
        "melds": {tuple(ids[id(c)] for c in group.cards) for group in grouping.melds},
        "red_threes": {ids[id(c)] for c in grouping.red_threes},
        "singles": {ids[id(c)] for c in grouping.singles},
    }


def _partition(found: dict[str, set]) -> set[frozenset]:
    loose = found["red_threes"] | found["singles"]
    return {frozenset(meld) for meld in found["melds"]} | {frozenset([card]) for card in loose}


def _score(labels: dict, readings: list[CardReading]) -> tuple[bool, int]:
    """Whether ``readings`` (one per seen card, in seen order) group exactly as labelled, and
    how many found groups mix cards of two labelled groups."""
    ids = {
        id(reading): card_id for reading, card_id in zip(readings, seen_ids(labels), strict=True)
    }
    found = _partition(_as_ids(group_cards(readings), ids))
    truth = {frozenset(group) for group in groups_from_labels(labels)}
    mixed = sum(not any(group <= true for true in truth) for group in found)
    return found == truth, mixed


@pytest.mark.slow
def test_rendered_scenes_group_as_labelled(scenes):
    exact, mixed = 0, 0
    for labels in scenes:
        readings = [reading_from_label(labels["cards"][n]) for n in seen_ids(labels)]
        right, wrong = _score(labels, readings)
        exact += right
        mixed += wrong
        ids = dict(zip(map(id, readings), seen_ids(labels), strict=True))
        found = _as_ids(group_cards(readings), ids)
        for meld in labels["melds"]:
            seen = [n for n in meld["cards"] if n in ids.values()]
            if meld["kind"] == "red three" and seen:
                assert seen[0] in found["red_threes"]
            if meld["kind"] == "book" and len(seen) == 1:  # squared up: only its top card shows
                assert seen[0] in found["singles"]
    share = exact / len(scenes)
    print(f"\ngrouped exactly as labelled: {exact}/{len(scenes)} scenes ({share:.0%})")
    # Measured 35/40: the misses are splits where 2+ cards in a row of a fan hide their index.
    assert share >= 0.8
    assert mixed == 0  # never two labelled groups in one


def _turned(reading: CardReading, quarter: int, width: float, height: float) -> CardReading:
    """The reading as seen by the camera turned ``quarter`` × 90° clockwise."""

    def point(x: float, y: float) -> tuple[float, float]:
        for turn in range(quarter):
            size = height if turn % 2 == 0 else width
            x, y = size - y, x
        return (x, y)

    x0, y0, x1, y1 = reading.index_box
    xs, ys = zip(*(point(x, y) for x, y in ((x0, y0), (x1, y1))), strict=True)
    return CardReading(
        code=reading.code,
        confidence=reading.confidence,
        index_box=(min(xs), min(ys), max(xs), max(ys)),
        polygon=tuple(point(x, y) for x, y in reading.polygon),
        angle=(reading.angle + 90.0 * quarter) % 360.0,
        check=reading.check,
    )


@pytest.mark.slow
def test_turning_the_frame_or_reordering_the_cards_changes_nothing(scenes):
    for labels in scenes:
        readings = [reading_from_label(labels["cards"][n]) for n in seen_ids(labels)]
        ids = dict(zip(map(id, readings), seen_ids(labels), strict=True))
        grouping = group_cards(readings)
        assert group_cards(readings[::-1]) == grouping
        expected = _as_ids(grouping, ids)
        for quarter in (1, 2, 3):
            turned = [_turned(r, quarter, labels["width"], labels["height"]) for r in readings]
            turned_ids = dict(zip(map(id, turned), seen_ids(labels), strict=True))
            assert _as_ids(group_cards(turned[::-1]), turned_ids) == expected, labels["index"]


def _jittered(card_label: dict, rng: np.random.Generator) -> CardReading:
    """The card as the recogniser reads it (model/README.md): from either visible index, the
    outline's centre off by 0.12 of the card's short side (sd, each axis), turned by 8° (sd,
    with the reading angle), scaled ±10 %, the index centre off by 0.015 of the short side."""
    visible = [n for n, index in enumerate(card_label["indices"]) if index["visible"]]
    reading = reading_from_label(card_label, visible[rng.integers(len(visible))])
    polygon = np.asarray(reading.polygon)
    centre = polygon.mean(axis=0)
    short = min(np.linalg.norm(polygon[1] - polygon[0]), np.linalg.norm(polygon[3] - polygon[0]))
    turn = rng.normal(0.0, 8.0)
    c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))
    rotation = np.array([[c, -s], [s, c]])
    moved = (polygon - centre) @ rotation.T * rng.uniform(0.9, 1.1) + centre
    moved += rng.normal(0.0, 0.12 * short, 2)
    dx, dy = rng.normal(0.0, 0.015 * short, 2)
    x0, y0, x1, y1 = reading.index_box
    return CardReading(
        code=reading.code,
        confidence=reading.confidence,
        index_box=(x0 + dx, y0 + dy, x1 + dx, y1 + dy),
        polygon=tuple((float(x), float(y)) for x, y in moved),
        angle=(reading.angle + turn) % 360.0,
        check=reading.check,
    )


@pytest.mark.slow
def test_outlines_jittered_as_the_recogniser_errs_still_group(scenes):
    exact, mixed = 0, 0
    for labels in scenes:
        rng = np.random.default_rng(labels["index"])
        readings = [_jittered(labels["cards"][n], rng) for n in seen_ids(labels)]
        right, wrong = _score(labels, readings)
        exact += right
        mixed += wrong
    share = exact / len(scenes)
    print(
        f"\njittered, grouped exactly as labelled: {exact}/{len(scenes)} scenes ({share:.0%}), "
        f"{mixed} groups mixing two labelled ones"
    )
    assert share >= 0.7  # measured 0.8
    assert mixed <= 3
