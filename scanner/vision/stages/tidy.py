"""Stage ``tidy``: a card far smaller than the sure cards around it dropped (``proportion.py``,
rule ``proportion``), and every card and index put back in the pixels of
the frame as it came (``scale.py``)."""

from __future__ import annotations

from dataclasses import replace

from scanner.vision.proportion import in_proportion
from scanner.vision.scale import indices_scaled_back, indices_shifted, scaled_back, shifted
from scanner.vision.stages.records import FrameContext, Work

NAME = "tidy"


def run(context: FrameContext, work: Work) -> Work:
    cards = in_proportion(work.cards) if context.options.proportion else work.cards
    readings = work.readings
    # back through each scaling in turn, the last first, as the frame was scaled
    for factor in (context.scale.again, context.scale.factor):
        cards, readings = scaled_back(cards, factor), indices_scaled_back(readings, factor)
    if context.scale.region is not None:  # a part of the frame read: back to where it lies
        x0, y0, _, _ = context.scale.region
        cards, readings = shifted(cards, x0, y0), indices_shifted(readings, x0, y0)
    return replace(work, cards=tuple(cards), readings=tuple(readings))
