"""Readings held to one deck (scanner/vision/decks.py)."""

import numpy as np
import pytest

from scanner.vision.contract import CLASSES, deck_of
from scanner.vision.decks import allowed, best_in_deck, check_deck, infer_deck


def rows(*readings: dict[str, float]) -> np.ndarray:
    """Probability rows from {code: probability}; the rest of each row goes to "none"."""
    out = np.zeros((len(readings), len(CLASSES)))
    for n, reading in enumerate(readings):
        for code, p in reading.items():
            out[n, CLASSES.index(code)] = p
        out[n, CLASSES.index("none")] += 1 - sum(reading.values())
    return out


def test_the_deck_most_sure_readings_belong_to_wins():
    special = rows({"7": 0.9}, {"LORD": 0.8}, {"KB": 0.7, "JOKER": 0.2}, {"12": 0.95})
    assert infer_deck(special, CLASSES) == "special"
    standard = rows({"KB": 0.9}, {"7R": 0.99}, {"10": 0.6, "10B": 0.3})
    assert infer_deck(standard, CLASSES) == "standard"


def test_unsure_readings_and_marks_that_are_no_index_do_not_vote():
    assert infer_deck(rows({"KB": 0.4}, {}, {"7": 0.3}), CLASSES) is None
    assert infer_deck(rows({"KB": 0.4}, {"7": 0.9}), CLASSES) == "special"
    assert infer_deck(np.zeros((0, len(CLASSES))), CLASSES) is None


def test_the_expected_deck_weighs_as_three_sure_readings():
    two = rows({"7": 0.9}, {"LORD": 0.9})
    assert infer_deck(two, CLASSES, expected="standard") == "standard"
    four = rows({"7": 0.9}, {"LORD": 0.9}, {"12": 0.9}, {"1": 0.9})
    assert infer_deck(four, CLASSES, expected="standard") == "special"
    assert infer_deck(np.zeros((0, len(CLASSES))), CLASSES, expected="special") == "special"


def test_a_tied_vote_leaves_the_deck_open():
    assert infer_deck(rows({"KB": 0.9}, {"7": 0.9}), CLASSES) is None


def test_a_reading_of_the_other_deck_becomes_the_likeliest_card_of_this_one():
    probabilities = rows({"KB": 0.6, "JOKER": 0.3}, {"none": 0.0, "5R": 0.1})
    best, confidence = best_in_deck(probabilities, CLASSES, "special")
    assert CLASSES[best[0]] == "JOKER"
    assert confidence[0] == pytest.approx(0.3 / 0.4)  # JOKER and "none" share what is left
    assert CLASSES[best[1]] == "none"


def test_an_open_deck_keeps_the_classifier_s_own_best_reading():
    probabilities = rows({"KB": 0.6, "JOKER": 0.3}, {"7": 0.8})
    best, confidence = best_in_deck(probabilities, CLASSES, None)
    assert [CLASSES[k] for k in best] == ["KB", "7"]
    assert confidence == pytest.approx([0.6, 0.8])


def test_each_deck_allows_its_own_cards_and_not_an_index():
    for deck in ("standard", "special"):
        kept = [code for code, ok in zip(CLASSES, allowed(CLASSES, deck), strict=True) if ok]
        assert "none" in kept
        assert {deck_of(code) for code in kept} == {deck, None}
    assert allowed(CLASSES, None).all()


def test_an_unknown_deck_is_a_plain_error():
    assert check_deck("special") == "special" and check_deck(None) is None
    with pytest.raises(ValueError, match="standard or special, not 'tarot'"):
        check_deck("tarot")
