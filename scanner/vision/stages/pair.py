"""Stage ``pair``: the indices read as cards paired into physical cards, a card's two corners
counted once (``cards.merge_cards``)."""

from __future__ import annotations

from dataclasses import replace

from scanner.vision.cards import merge_cards
from scanner.vision.stages.records import FrameContext, Work

NAME = "pair"


def run(context: FrameContext, work: Work) -> Work:
    c = context.contract
    cards = merge_cards(
        list(work.readings),
        not_an_index=c.not_an_index,
        min_confidence=c.min_confidence,
        classes=c.classes,
        bounds=work.bounds,
        faint_below=c.peak_threshold,
    )
    return replace(work, cards=tuple(cards))
