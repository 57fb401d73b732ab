"""A rendered scene's labels as the recogniser would ideally report them (pure functions).

The scene renderer (``model.synth.scene``) labels every face-up card with its outline
(``corners``: the face's top-left, top-right, bottom-right, bottom-left) and its two indices,
and every group of cards (``melds``, bottom card first). Tests and the evaluation of the
table code compare what they find against these.

A card counts as *seen* when at least one of its indices is ``visible`` (the renderer's
≥ 90 % shown): that is the recogniser's best case, it needs an index to read a card.
Seen cards keep the order of the labels, and a card is named by its position in
``labels["cards"]`` (its ``id``).
"""

from __future__ import annotations

from scanner.vision.cards import CardReading


def is_seen(card: dict) -> bool:
    """Whether one of the card's indices shows well enough to be read."""
    return any(index["visible"] for index in card["indices"])


def seen_ids(labels: dict) -> list[int]:
    """The ids of the seen cards, in the labels' order (the order of
    :func:`readings_from_labels`)."""
    return [position for position, card in enumerate(labels["cards"]) if is_seen(card)]


def reading_from_label(card: dict, index_number: int | None = None) -> CardReading:
    """A seen card as a perfect reading: read from its index ``index_number`` (a position in
    ``card["indices"]``; default the first visible one, the top-left one when both show, as a
    fan's top card does), with the outline turned to that index's reading order, confidence 1.
    """
    if index_number is None:
        index = next(index for index in card["indices"] if index["visible"])
    else:
        index = card["indices"][index_number]
    corners = [(float(x), float(y)) for x, y in card["corners"]]
    if index["corner"] == "bottom-right":  # read upside down: its top-left is the face's BR
        corners = corners[2:] + corners[:2]
    x0, y0, x1, y1 = (float(value) for value in index["box"])
    return CardReading(
        code=card["code"],
        confidence=1.0,
        index_box=(x0, y0, x1, y1),
        polygon=(corners[0], corners[1], corners[2], corners[3]),
        angle=float(index["orientation"]),
        check=False,
        corners=max(1, sum(bool(mark["visible"]) for mark in card["indices"])),
    )


def readings_from_labels(labels: dict) -> list[CardReading]:
    """One reading per seen card, in the order of :func:`seen_ids`."""
    return [reading_from_label(card) for card in labels["cards"] if is_seen(card)]


def groups_from_labels(labels: dict) -> list[list[int]]:
    """The labelled groups restricted to seen cards, as card ids, bottom card first; groups
    with no seen card are left out. A squared book whose top card alone shows is a group of
    one, and so is each red three (the renderer labels every loose card a group of its own)."""
    seen = set(seen_ids(labels))
    groups = ([card for card in meld["cards"] if card in seen] for meld in labels["melds"])
    return [group for group in groups if group]
