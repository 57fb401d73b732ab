"""Stage ``tidy``: a card far smaller than the sure cards around it dropped (``proportion.py``,
rule ``proportion``), and every card and index put back in the pixels of
the frame as it came (``scale.py``)."""

from __future__ import annotations

from dataclasses import replace

from scanner.vision.proportion import in_proportion
from scanner.vision.scale import indices_scaled_back, scaled_back
from scanner.vision.stages.records import FrameContext, Work

NAME = "tidy"


def run(context: FrameContext, work: Work) -> Work:
    cards = in_proportion(work.cards) if context.options.proportion else work.cards
    readings = work.readings
    # back through each scaling in turn, the last first, as the frame was scaled
    for factor in (context.scale.again, context.scale.factor):
        cards, readings = scaled_back(cards, factor), indices_scaled_back(readings, factor)
    return replace(work, cards=tuple(cards), readings=tuple(readings))
