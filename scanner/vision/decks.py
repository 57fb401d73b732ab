"""One table, one deck: the classifier's readings held to the deck the table is played with.

A game is played with the standard decks or with the special Hand 'N Foot deck, never both, but
the classifier reads each index on its own, and a few of the special deck's indices look like
standard ones (its "JK" read as a black King, "LO" as a 10). Knowing the deck (from the rules,
or from what most of the frame reads), each index's reading is the most likely class of that
deck, or "not an index" (pure numpy).

The deck the rules play is a strong hint, not a certainty: it counts as EXPECTED_WEIGHT sure
readings, so a frame of three or four cards (a hand's leftovers) follows the rules, while a
table laid with the other deck still reads as that deck, and its cards are then reported as
not belonging to the game instead of being forced into lookalikes.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from scanner.vision.contract import deck_of

DECKS = ("standard", "special")
# Each chosen in model/experiments/decks.md:
SURE = 0.5  # only readings at least this sure vote for the frame's deck
EXPECTED_WEIGHT = 3.0  # the expected deck's head start, in sure readings: a hand's few cards


def check_deck(deck: str | None) -> str | None:
    """``deck`` when it is one of DECKS or None; a plain ValueError otherwise."""
    if deck is not None and deck not in DECKS:
        raise ValueError(f"the deck is {' or '.join(DECKS)}, not {deck!r}")
    return deck


def infer_deck(
    probabilities: np.ndarray, classes: Sequence[str], expected: str | None = None
) -> str | None:
    """The deck most of a frame's readings belong to: each sure reading (its best class a card,
    at least SURE) votes with its probability, and the ``expected`` deck starts with
    EXPECTED_WEIGHT votes. None when nothing sure was read and nothing expected, or the vote is
    tied."""
    votes = dict.fromkeys(DECKS, 0.0)
    if check_deck(expected) is not None:
        votes[expected] = EXPECTED_WEIGHT
    best = probabilities.argmax(axis=1) if len(probabilities) else np.zeros(0, int)
    sure = probabilities[np.arange(len(best)), best]
    for k, p in zip(best, sure, strict=True):
        deck = deck_of(classes[k])
        if deck is not None and p >= SURE:
            votes[deck] += float(p)
    standard, special = votes["standard"], votes["special"]
    if standard == special:
        return None
    return "standard" if standard > special else "special"


def allowed(classes: Sequence[str], deck: str | None) -> np.ndarray:
    """Which classes a reading may take with ``deck``: its cards and every class of no deck
    ("not an index"); all classes when the deck is unknown."""
    return np.array([deck is None or deck_of(code) in (deck, None) for code in classes])


def best_in_deck(
    probabilities: np.ndarray, classes: Sequence[str], deck: str | None
) -> tuple[np.ndarray, np.ndarray]:
    """Per reading, the index of its most likely allowed class and that class's probability
    given the deck (the probabilities of the allowed classes, renormalised to sum to 1)."""
    mask = allowed(classes, deck)
    kept = np.where(mask, probabilities, 0.0)
    total = np.maximum(kept.sum(axis=1, keepdims=True), 1e-12)
    kept = kept / total
    best = kept.argmax(axis=1)
    return best, kept[np.arange(len(best)), best]
