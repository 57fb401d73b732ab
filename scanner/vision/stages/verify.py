"""Stage ``verify``: the marks the verifier says lie on the table, not on a card, dropped;
those the classifier is sure of kept, marked ``doubted`` (``verifier.py``). All kept without
a verifier, or with the rule ``verify`` off."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from scanner.vision.preprocess import context_crops, normalise
from scanner.vision.stages.records import FrameContext, Work
from scanner.vision.verifier import settle_lone_doubts

NAME = "verify"


def run(context: FrameContext, work: Work) -> Work:
    c, readings = context.contract, work.readings
    if not context.options.verify or context.nets.verifier is None or not readings:
        return work
    on_card = np.ones(len(readings))
    cards = [n for n, r in enumerate(readings) if r.code != c.not_an_index]
    crops = context_crops(work.image, [readings[n].index for n in cards], c)
    on_card[cards] = context.nets.on_card(normalise(crops, c))
    settled = settle_lone_doubts(
        readings, on_card, c.verify_below, c.not_an_index, c.verify_ask_from
    )
    return replace(work, readings=tuple(settled))
