"""Card faces, backs and the non-playing cards of a box, drawn procedurally in many deck styles.

>>> from model.synth.faces import CARD_NAMES, render_face, style_by_name
>>> face = render_face(style_by_name("classic-sans"), "10S")
>>> face.code, face.rgba.shape, [m.orientation for m in face.indices]
('10B', (350, 250, 4), [0, 180])
"""

from .nonplaying import KINDS as NONPLAYING_KINDS
from .render import CARD_NAMES, code_of, render_back, render_face, render_nonplaying
from .styles import (
    ALL_STYLES,
    SPECIAL_STYLES,
    STANDARD_STYLES,
    TRAINING_ONLY_STYLES,
    VARIED_STYLES,
    style_by_name,
)

__all__ = [
    "ALL_STYLES",
    "CARD_NAMES",
    "NONPLAYING_KINDS",
    "SPECIAL_STYLES",
    "STANDARD_STYLES",
    "TRAINING_ONLY_STYLES",
    "VARIED_STYLES",
    "code_of",
    "render_back",
    "render_face",
    "render_nonplaying",
    "style_by_name",
]
