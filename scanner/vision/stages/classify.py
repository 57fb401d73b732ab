"""Stage ``classify``: each clear mark read by the classifier, held to the deck most of them
read (``decks.py``); and the reading of places that every later stage asks of the classifier
(:func:`read_places`).

A mark read as a bare number both decks print is read again where its suit sign would lie
(``suit_below.py``, rule ``suits_below``); a small index read as a card is held to the card the
wider classifier reads too (``wider.py``, rule ``wider``); a mark whose ink is clearly redder
than its paper is read red (``ink_colour.py``, rule ``ink_colour``). Reading with a deck
profile, the classifier's logits are corrected for the table's deck, and a mark the correction
reads as another card asks for a check (``profile.py``). Faint marks are set aside
for the recheck ``faint``, except those near the frame's edge, read in full (``faint.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from scanner.vision import ink_colour, suit_below
from scanner.vision.cards import IndexReading
from scanner.vision.decks import best_in_deck, infer_deck
from scanner.vision.decode import IndexCandidate
from scanner.vision.networks import softmax
from scanner.vision.preprocess import normalise, upright_crops, wider_crops
from scanner.vision.stages.records import FrameContext, Work
from scanner.vision.wider import small_cards, with_wider

NAME = "classify"


def run(context: FrameContext, work: Work) -> Work:
    threshold = context.contract.peak_threshold
    image = work.image
    in_full = [m.score > threshold for m in work.marks]
    full = tuple(m for m, whole in zip(work.marks, in_full, strict=True) if whole)
    faint = tuple(m for m, whole in zip(work.marks, in_full, strict=True) if not whole)
    first, contested = opinions(context, image, full)
    rows, deck = _with_suits_below(context, image, full, first)
    codes, confidence = pick(context, rows, deck)
    readings = tuple(
        IndexReading(
            mark, codes[n], confidence[n], probabilities=rows[n], contested=bool(contested[n])
        )
        for n, mark in enumerate(full)
    )
    return replace(work, full=full, faint=faint, readings=readings, deck=deck)


def probabilities(
    context: FrameContext, image: np.ndarray, places: Sequence[IndexCandidate]
) -> np.ndarray:
    """The class probabilities for each place [N, classes] (see :func:`opinions`)."""
    return opinions(context, image, places)[0]


def opinions(
    context: FrameContext, image: np.ndarray, places: Sequence[IndexCandidate]
) -> tuple[np.ndarray, np.ndarray]:
    """The classifier's class probabilities for each place [N, classes], corrected for the
    table's deck where a profile is read with (``profile.py``), a small index read as a card
    held to the card the wider classifier reads too; and which places the profile reads as
    another card than the classifier alone [N]. Crops are cut a batch at a time, so a busy
    frame never holds them all at once."""
    c, nets = context.contract, context.nets
    none = c.classes.index(c.not_an_index)
    rows, contested = [], []
    for start in range(0, len(places), nets.batch):
        chunk = places[start : start + nets.batch]
        crops = upright_crops(image, chunk, c)
        if context.profile is None:
            logits = nets.classify(normalise(crops, c))
            differ = np.zeros(len(logits), bool)
        else:
            own, features = nets.classify_with_features(normalise(crops, c))
            logits = context.profile.adapt(own, features)
            read_as = logits.argmax(axis=1)
            differ = (read_as != own.argmax(axis=1)) & (read_as != none)
        read = softmax(logits)
        rows.append(_inked(context, crops, _widened(context, image, chunk, read)))
        contested.append(differ)
    if not rows:
        return np.zeros((0, len(c.classes))), np.zeros(0, bool)
    return np.concatenate(rows), np.concatenate(contested)


def _inked(context: FrameContext, crops: np.ndarray, read: np.ndarray) -> np.ndarray:
    """``read`` with each row whose ink is clearly redder than its paper held to red
    (``ink_colour.py``, rule ``ink_colour``); the crops are the frame's own colours, not its
    negative's."""
    if not context.options.ink_colour or not len(read):
        return read
    # only rows that hold some black are measured: the others would hardly change
    worth = np.flatnonzero(ink_colour.worth_measuring(read, context.contract.classes))
    if not len(worth):
        return read
    colours = 255 - crops[worth] if context.scale.negative else crops[worth]
    red = ink_colour.red_ink(colours, lambda: context.white)
    if not red.any():
        return read
    inked = read.copy()
    for n in worth[red]:
        inked[n] = ink_colour.held_to_red(read[n], context.contract.classes, context.none)
    return inked


def _widened(
    context: FrameContext,
    image: np.ndarray,
    places: Sequence[IndexCandidate],
    read: np.ndarray,
) -> np.ndarray:
    """``read`` with each small index read as a card held to the card most likely to both
    classifiers (``wider.py``); as it is without a wider classifier."""
    c, nets = context.contract, context.nets
    if not context.options.wider or nets.wider is None:
        return read
    none = c.classes.index(c.not_an_index)
    small = small_cards(read, places, none, context.wider_below)
    if not small:
        return read
    crops = normalise(wider_crops(image, [places[n] for n in small], c), c)
    widened = read.copy()
    widened[small] = with_wider(read[small], softmax(nets.widened(crops)), none)
    return widened


def pick(
    context: FrameContext, rows: np.ndarray, deck: str | None
) -> tuple[list[str], list[float]]:
    """The best class of ``deck`` in each row, and its probability."""
    classes = context.contract.classes
    best, confidence = best_in_deck(rows, classes, deck)
    return [classes[k] for k in best], [float(p) for p in confidence]


def read_places(
    context: FrameContext,
    image: np.ndarray,
    places: Sequence[IndexCandidate],
    deck: str | None,
    read_by: str,
) -> list[IndexReading]:
    """Each place read as the best class of ``deck``, with its probability, every class's,
    whether the deck profile reads it as another card, and ``read_by`` (the rule asking)."""
    rows, contested = opinions(context, image, places)
    codes, confidence = pick(context, rows, deck)
    return [
        IndexReading(
            place,
            codes[n],
            confidence[n],
            probabilities=rows[n],
            read_by=read_by,
            contested=bool(contested[n]),
        )
        for n, place in enumerate(places)
    ]


def _with_suits_below(
    context: FrameContext,
    image: np.ndarray,
    marks: Sequence[IndexCandidate],
    rows: np.ndarray,
) -> tuple[np.ndarray, str | None]:
    """``rows`` [marks, classes] and the frame's deck, a mark read as a bare number both decks
    print read again where its suit sign would lie (``suit_below.py``): where the frame, so
    read, is a standard deck's, with those readings; else as first read."""
    classes, expected = context.contract.classes, context.expected
    bare = suit_below.bare_numbers(rows, classes) if context.options.suits_below else []
    if bare:
        grown = probabilities(context, image, [suit_below.grown_down(marks[n]) for n in bare])
        taken = suit_below.take_grown(rows, bare, grown, classes)
        deck = infer_deck(taken, classes, expected)
        if deck == "standard":
            return taken, deck
    return rows, infer_deck(rows, classes, expected)
