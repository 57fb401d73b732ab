"""Stage ``locate``: the locator's marks in the frame, one per index, down to the faint ones
(``faint.py``; without the rule ``faint``, only the clear ones)."""

from __future__ import annotations

from dataclasses import replace

from scanner.vision.cards import suppress_duplicates
from scanner.vision.decode import decode_heads
from scanner.vision.faint import FAINT_HEAT
from scanner.vision.stages.records import FrameContext, Work

NAME = "locate"


def run(context: FrameContext, work: Work) -> Work:
    c = context.contract
    floor = min(FAINT_HEAT, c.peak_threshold) if context.options.faint else c.peak_threshold
    heads = context.nets.heads(work.image)
    marks = decode_heads(heads, work.bounds, c, threshold=floor)
    return replace(work, marks=suppress_duplicates(marks))
