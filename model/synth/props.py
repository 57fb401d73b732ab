"""Things on the table that are not playing cards, for the scene renderer to scatter.

``render_prop(kind, rng)`` draws one object seen from straight above as straight RGBA (alpha 0
outside it, soft at its edge) with its real size in millimetres, so the scene can scale it with
the cards. Hands are ``edge`` props: the wrist is at the bottom of the image and the forearm
runs off its bottom border, and the scene brings them in from a frame border.

>>> import numpy as np
>>> prop = render_prop("coaster", np.random.default_rng(0))
>>> prop.kind, prop.rgba.dtype.name, prop.rgba.shape[2]
('coaster', 'uint8', 4)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from model.synth.prop_cup import render_cup
from model.synth.prop_hand import render_hand
from model.synth.prop_keyboard import render_keyboard
from model.synth.prop_paper import render_score_pad
from model.synth.prop_phone import render_phone
from model.synth.prop_print import render_printed_page
from model.synth.prop_small import (
    render_coaster,
    render_dice,
    render_glasses_case,
    render_pen,
    render_snack_bowl,
)
from model.synth.types import Prop

_PAINTERS: dict[str, Callable[[np.random.Generator], Prop]] = {
    "score-pad": render_score_pad,
    "phone": render_phone,
    "cup": render_cup,
    "hand": render_hand,
    "pen": render_pen,
    "coaster": render_coaster,
    "glasses-case": render_glasses_case,
    "snack-bowl": render_snack_bowl,
    "dice": render_dice,
    "printed-page": render_printed_page,
    "keyboard": render_keyboard,
}

PROP_KINDS: tuple[str, ...] = tuple(_PAINTERS)
# Drawn on the training split's tables alone: the test and validation splits render as they
# did before these were added (a kind more draws one chance more for every scene), so their
# figures stay comparable; the real photos measure what they teach
TRAINING_ONLY_PROPS: tuple[str, ...] = ("printed-page", "keyboard")


def prop_kinds(split: str) -> tuple[str, ...]:
    """The kinds of prop the scenes of ``split`` scatter, in the order their chances are drawn."""
    if split == "train":
        return PROP_KINDS
    return tuple(kind for kind in PROP_KINDS if kind not in TRAINING_ONLY_PROPS)


def render_prop(kind: str, rng: np.random.Generator) -> Prop:
    """Draw one ``kind`` of prop; the same generator state always gives the same prop."""
    painter = _PAINTERS.get(kind)
    if painter is None:
        raise KeyError(f"{kind!r} is not a prop kind; known: {', '.join(PROP_KINDS)}")
    return painter(rng)
