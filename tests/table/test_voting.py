"""Voting over the frames of one scan (scanner/table/voting.py): pure functions on readings."""

import math
from dataclasses import replace

import pytest

from scanner.table.voting import match_distance, vote
from scanner.vision.cards import CardReading

CARD_W, CARD_H = 60.0, 84.0


def card(code, x, y, confidence=0.95, angle=0.0, corner="top-left") -> CardReading:
    """A card whose top-left corner lies at (x, y), read from ``corner``, turned ``angle``°
    about that corner (clockwise on the image)."""
    turn = math.radians(angle)
    cos, sin = math.cos(turn), math.sin(turn)

    def at(u, v):
        return (x + u * cos - v * sin, y + u * sin + v * cos)

    polygon = (at(0, 0), at(CARD_W, 0), at(CARD_W, CARD_H), at(0, CARD_H))
    if corner == "top-left":
        ix, iy = at(6, 10)
    else:
        ix, iy = at(CARD_W - 6, CARD_H - 10)
        angle += 180.0
    box = (ix - 4, iy - 8, ix + 4, iy + 8)
    return CardReading(code, confidence, box, polygon, angle % 360.0, confidence < 0.5)


def fan(codes, x=100.0, y=100.0, step=12.0, confidence=0.95, jitter=0.0, top_seen=True):
    """Cards fanned to the right; the top one read at both corners (as a card in full view is)
    unless ``top_seen`` is false."""
    cards = [card(c, x + n * step + jitter, y, confidence) for n, c in enumerate(codes)]
    if cards and top_seen:
        cards[-1] = replace(cards[-1], corners=2)
    return cards


def test_one_frame_is_the_frame_itself():
    cards = [*fan(["KR", "KB", "KR"]), card("3R", 400, 100, confidence=0.4)]
    result = vote([cards])
    assert sorted(v.card.code for v in result.cards) == ["3R", "KB", "KR", "KR"]
    by_code = {v.card.code: v.card for v in result.cards}
    assert by_code["3R"].check and by_code["3R"].confidence == pytest.approx(0.4)
    assert not by_code["KB"].check
    assert all(v.seen == 1 and v.frames == 1 for v in result.cards)


def test_a_card_the_verifier_doubted_in_every_frame_asks_for_a_check():
    def frame(doubt_in_this_one):
        lone = replace(card("KR", 400, 100, confidence=0.95), doubted=doubt_in_this_one)
        return [*fan(["9R", "9B", "9R"]), replace(lone, check=doubt_in_this_one)]

    doubted = {v.card.code: v.card for v in vote([frame(True)] * 3).cards}["KR"]
    assert doubted.doubted and doubted.check and doubted.confidence == pytest.approx(0.95)
    # one frame in which it was trusted clears the doubt
    cleared = {v.card.code: v.card for v in vote([frame(True), frame(False)]).cards}["KR"]
    assert not cleared.doubted and not cleared.check


def test_a_card_disputed_in_every_frame_asks_for_a_check():
    def frame(disputed_in_this_one):
        lone = replace(card("10", 400, 100, confidence=0.99), disputed=disputed_in_this_one)
        return [*fan(["9R", "9B", "9R"]), replace(lone, check=disputed_in_this_one)]

    disputed = {v.card.code: v.card for v in vote([frame(True)] * 3).cards}["10"]
    assert disputed.disputed and disputed.check
    cleared = {v.card.code: v.card for v in vote([frame(True), frame(False)]).cards}["10"]
    assert not cleared.disputed and not cleared.check


def test_a_single_bad_frame_is_overruled():
    good = fan(["9R", "9B", "9R", "2B"])
    bad = fan(["9R", "8B", "9R", "2B"], jitter=1.0)  # one card misread, a pixel off
    result = vote([good, bad, fan(["9R", "9B", "9R", "2B"], jitter=-1.0)])
    assert [v.card.code for v in result.cards] == ["9R", "9B", "9R", "2B"]
    second = result.cards[1]
    assert second.votes == {"8B": pytest.approx(0.95), "9B": pytest.approx(1.9)}
    assert second.card.confidence == pytest.approx(1.9 / 3)
    assert not second.card.check and not second.unanimous
    assert all(v.unanimous for n, v in enumerate(result.cards) if n != 1)


def test_a_phantom_in_one_frame_is_dropped_and_kept_for_diagnosis():
    cards = fan(["QR", "QB", "QR"])
    phantom = card("AB", 600, 300, confidence=0.9)
    result = vote([cards, [*cards, phantom], cards])
    assert [v.card.code for v in result.cards] == ["QR", "QB", "QR"]
    assert [v.card.code for v in result.dropped] == ["AB"]


def test_a_card_missed_once_counts_but_with_less_confidence():
    cards = fan(["5R", "5B", "5R"])
    result = vote([cards, cards[:2], cards])
    last = result.cards[2]
    assert last.seen == 2 and last.card.confidence == pytest.approx(0.95 * 2 / 3)


def test_disagreeing_frames_make_a_check_card_not_a_guess():
    frames = [[card(code, 50, 50, confidence=0.6)] for code in ("6R", "8R", "6B")]
    result = vote(frames)
    (only,) = result.cards
    assert only.card.check and only.card.confidence == pytest.approx(0.2)


def test_either_corner_of_a_loose_card_is_the_same_card():
    top = card("JR", 300, 300, corner="top-left")
    bottom = card("JR", 301, 299, corner="bottom-right")
    assert match_distance(top, bottom) is not None
    result = vote([[top], [bottom], [top]])
    assert len(result.cards) == 1 and result.cards[0].seen == 3


def test_neighbours_in_a_tight_fan_stay_apart():
    cards = fan(["7R", "7B", "7R", "7B", "7R"], step=9.0)  # each card shows 15 % of its width
    shifted = fan(["7R", "7B", "7R", "7B", "7R"], step=9.0, jitter=1.5)
    result = vote([cards, shifted, cards])
    assert len(result.cards) == 5 and all(v.seen == 3 for v in result.cards)


def test_differently_turned_cards_never_match():
    assert match_distance(card("KR", 0, 0), card("KR", 0, 0, angle=90)) is None
    assert match_distance(card("KR", 0, 0), card("KR", 200, 0)) is None


def test_the_vote_does_not_depend_on_the_order_of_cards_in_a_frame():
    frames = [fan(["AR", "AB", "2R", "AR"]), fan(["AR", "AB", "JK", "AR"], jitter=0.5)]
    frames.append(list(reversed(frames[0])))
    forward = vote(frames)
    backward = vote([list(reversed(frame)) for frame in frames])
    assert [v.card for v in forward.cards] == [v.card for v in backward.cards]


def test_no_frames_no_cards():
    assert vote([]).cards == () and vote([[], []]).cards == ()


def test_a_card_seen_at_both_corners_in_any_frame_keeps_it():
    once = fan(["9R", "9B", "2B"])
    covered = fan(["9R", "9B", "2B"], jitter=1.0, top_seen=False)
    result = vote([covered, once, fan(["9R", "9B", "2B"], jitter=-1.0, top_seen=False)])
    assert [v.card.corners for v in result.cards] == [1, 1, 2]
    alone = vote([covered, covered])
    assert [v.card.corners for v in alone.cards] == [1, 1, 1]
