"""Faint marks read in full (``scanner/vision/faint.py``): which ones, and a fan of Queens cut by
the frame's top edge read through the shipped models."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

import scanner.vision.recogniser as recogniser_module
from scanner.vision.contract import Contract
from scanner.vision.decode import IndexCandidate
from scanner.vision.faint import (
    FAINT_SURE,
    LARGE_INDEX,
    NEAR_EDGE,
    counts,
    read_in_full,
)
from scanner.vision.recogniser import Recogniser

C = Contract.from_spec()
FRAME = (1280, 960)
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "vision" / "faint"


def mark(x: float, y: float, side: float) -> IndexCandidate:
    """A faint mark of an index ``side`` px across (its short side), turned a little."""
    return IndexCandidate(x, y, 0.2, 10.0, side * 1.6, side, x + 20.0, y + 30.0, 60.0, 84.0)


def test_a_large_faint_mark_is_read_in_full_wherever_it_lies():
    assert read_in_full(mark(640, 480, LARGE_INDEX), FRAME)
    assert not read_in_full(mark(640, 480, LARGE_INDEX - 0.5), FRAME)


@pytest.mark.parametrize(
    "place",
    [(10.0, 480.0), (640.0, 10.0), (1270.0, 480.0), (640.0, 950.0)],
    ids=["left", "top", "right", "bottom"],
)
def test_a_faint_mark_near_any_edge_of_the_frame_is_read_in_full(place):
    x, y = place
    assert read_in_full(mark(x, y, 8.0), FRAME)


def test_a_small_faint_mark_inside_the_frame_is_read_once():
    side = 8.0
    just_inside = NEAR_EDGE * side + 0.5
    assert not read_in_full(mark(just_inside, 480, side), FRAME)
    assert not read_in_full(mark(640, FRAME[1] - just_inside, side), FRAME)
    assert read_in_full(mark(NEAR_EDGE * side - 0.5, 480, side), FRAME)


def test_a_faint_mark_counts_only_as_a_card_read_surely():
    none = C.not_an_index
    assert counts("QR", FAINT_SURE, none)
    assert not counts("QR", FAINT_SURE - 0.01, none)
    assert not counts(none, 0.99, none)


def _on(card, indices) -> str | None:
    """The code of the labelled index the card's index box lies on."""
    x0, y0, x1, y1 = card.index_box
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    for index in indices:
        quad = np.asarray(index["quad"], np.float32)
        if cv2.pointPolygonTest(quad, centre, False) >= 0:
            return index["code"]
    return None


def test_a_fan_cut_by_the_frames_edge_is_read_where_its_marks_are_faint(monkeypatch):
    """The top of a busy rendered scene (``fixtures/vision/faint/make.py``): a fan of eight
    Queens whose top corners the frame's edge cuts, their bottom corners in view but marked
    only faintly. Read in full, the Queen of hearts whose index is in plain view is read, and
    every card read lies on an index of its own code; read once, as faint marks were, it is
    missed."""
    name = "fan-7878-28.jpg"
    indices = json.loads((FIXTURE / "expected.json").read_text())[name]
    frame = cv2.imread(str(FIXTURE / name))[:, :, ::-1].copy()
    recogniser = Recogniser.load(threads=1)
    plain_queen = next(i for i in indices if i["code"] == "QR" and i["visible"])

    cards = recogniser.read(frame).cards
    assert [_on(card, [plain_queen]) for card in cards].count("QR") == 1
    assert all(_on(card, indices) == card.code for card in cards)
    queens = [card for card in cards if card.code in ("QR", "QB")]
    assert len(queens) >= 3  # the plain Queen, the fan's last card and a Queen half hidden

    monkeypatch.setattr(recogniser_module, "read_in_full", lambda candidate, size: False)
    once = recogniser.read(frame).cards
    assert [_on(card, [plain_queen]) for card in once].count("QR") == 0
    assert len([card for card in once if card.code in ("QR", "QB")]) < len(queens)
