"""A printed page on the table: the rules sheet, a letter, a certificate, a leaflet.

Lines of small type hold letters and numbers the size of a card's corner index, and a word in
capitals (JOKER, LORD, KING) can be a word card's index itself: the recogniser must learn that
print on paper is not a card. The real photos showed it: a line of print read as jokers, a
printed word as the special deck's VILLAIN.
"""

from __future__ import annotations

import cv2
import numpy as np

from model.synth.prop_draw import PX_PER_MM, Layers, blank, grain, mask, rounded_rect
from model.synth.types import Prop

# Words of the rule sheets we play by (Danish, Swedish, Norwegian) and of English letters, with
# the card words a page about cards prints; Hershey fonts draw ASCII alone, so å, ä and ö are
# written a and o
VOCABULARY = """
the and of to a in for is on that with as you it are this be at or from your by have not all
can when one will each team player players cards card deal hand foot meld melds book books
score points round turn draw discard pile red black three wild clean dirty natural going out
bonus game rules before after must may only og i at det en til er som pa de med han af for
ikke der var mig sig men et har om kort spil spiller hand fod runde point makker bunke och att
for av med till ar inte spelare kortlek poang omgang spillet kortene poeng dear thank you
congratulations achievement university certificate awarded
"""
WORDS = tuple(VOCABULARY.split())
SHOUTED = (
    "JOKER", "JOKERS", "KING", "QUEEN", "JACK", "ACE", "LORD", "LADY", "VILLAIN", "JESTER",
    "RULES", "HAND", "FOOT", "NOTE", "SCORE", "BONUS", "RED", "BLACK", "WILD", "TOTAL",
)  # fmt: skip
NUMBERS = ("2", "3", "5", "7", "8", "9", "10", "11", "12", "20", "50", "100", "300", "500")
FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
    cv2.FONT_HERSHEY_SIMPLEX | cv2.FONT_ITALIC,
)
PAPERS = ((248, 247, 242), (240, 238, 228), (250, 248, 236), (236, 240, 244), (244, 236, 214))
INKS = ((22, 22, 26), (40, 40, 48), (18, 30, 90), (70, 70, 76))
ACCENTS = ((150, 24, 30), (24, 60, 140), (20, 90, 50))
# (width, height) in mm: A4, US letter, A5, a folded leaflet, a certificate turned long side up
SHEETS = ((210, 297), (216, 279), (148, 210), (99, 210), (297, 210))


def _word(rng: np.random.Generator) -> str:
    pick = rng.random()
    if pick < 0.08:
        return str(rng.choice(SHOUTED))
    if pick < 0.14:
        return str(rng.choice(NUMBERS))
    word = str(rng.choice(WORDS))
    return word.capitalize() if rng.random() < 0.1 else word


def _line(rng: np.random.Generator, width_px: float, font: int, scale: float) -> str:
    """Words up to ``width_px`` wide, at least one."""
    line = _word(rng)
    while True:
        longer = f"{line} {_word(rng)}"
        if cv2.getTextSize(longer, font, scale, 1)[0][0] > width_px:
            return line
        line = longer


def _scale_for(font: int, cap_mm: float) -> float:
    """The Hershey scale whose capitals stand ``cap_mm`` tall on the page."""
    (_, tall), _ = cv2.getTextSize("H", font, 1.0, 1)
    return cap_mm * PX_PER_MM / max(tall, 1)


def _print_block(
    ink: np.ndarray,
    rng: np.random.Generator,
    box_mm: tuple[float, float, float, float],
    font: int,
    cap_mm: float,
    centred: bool,
) -> None:
    """Paragraphs of type filling ``box_mm`` (x0, y0, x1, y1) on ``ink`` (255 where inked)."""
    x0, y0, x1, y1 = (v * PX_PER_MM for v in box_mm)
    scale = _scale_for(font, cap_mm)
    thick = max(1, round(cap_mm * PX_PER_MM / 11 * rng.uniform(0.8, 1.3)))
    step = cap_mm * PX_PER_MM * rng.uniform(1.6, 2.2)
    y = y0 + cap_mm * PX_PER_MM
    while y < y1:
        if rng.random() < 0.12:  # a paragraph's end
            y += step * 0.6
        short = rng.random() < 0.15
        text = _line(rng, (x1 - x0) * (rng.uniform(0.3, 0.8) if short else 1.0), font, scale)
        width = cv2.getTextSize(text, font, scale, thick)[0][0]
        x = x0 + ((x1 - x0 - width) / 2 if centred else 0)
        cv2.putText(ink, text, (round(x), round(y)), font, scale, 255, thick, cv2.LINE_AA)
        y += step


def render_printed_page(rng: np.random.Generator) -> Prop:
    """A sheet of print: a heading, then lines of type in one or two columns, now and then a
    certificate's border and centred lines; small type (capitals 1.5–4.5 mm), in the range of
    a card's index."""
    w_mm, h_mm = (float(v) * rng.uniform(0.97, 1.0) for v in SHEETS[rng.integers(len(SHEETS))])
    size = blank((w_mm, h_mm))
    w, h = size
    layers = Layers(size)
    sheet = mask(size, rounded_rect(0.2, 0.2, w_mm - 0.2, h_mm - 0.2, 0.6))
    layers.paint(sheet, np.asarray(PAPERS[rng.integers(len(PAPERS))], np.float32))

    certificate = rng.random() < 0.2
    margin = float(rng.uniform(12, 25))
    font = int(rng.choice(FONTS))
    ink = np.zeros((h, w), np.uint8)
    accent = np.zeros((h, w), np.uint8)
    if certificate:
        inset = round(margin * 0.5 * PX_PER_MM)
        for k in range(int(rng.integers(1, 4))):
            edge = inset + k * round(1.5 * PX_PER_MM)
            cv2.rectangle(accent, (edge, edge), (w - edge, h - edge), 255, 2, cv2.LINE_AA)
    heading_cap = float(rng.uniform(5, 12))
    heading = " ".join(
        str(rng.choice(SHOUTED)) if rng.random() < 0.6 else _word(rng).upper()
        for _ in range(int(rng.integers(1, 4)))
    )
    scale = _scale_for(font, heading_cap)
    thick = max(2, round(heading_cap * PX_PER_MM / 8))
    while cv2.getTextSize(heading, font, scale, thick)[0][0] > (w_mm - 2 * margin) * PX_PER_MM:
        scale *= 0.85
    width = cv2.getTextSize(heading, font, scale, thick)[0][0]
    x = (w - width) / 2 if certificate or rng.random() < 0.5 else margin * PX_PER_MM
    top = margin + heading_cap
    target = accent if rng.random() < 0.4 else ink
    cv2.putText(
        target, heading, (round(x), round(top * PX_PER_MM)), font, scale, 255, thick, cv2.LINE_AA
    )

    cap = float(rng.uniform(1.5, 4.5))
    body_top = top + heading_cap * 0.8
    columns = 2 if w_mm > 180 and rng.random() < 0.4 else 1
    gutter = 8.0
    width_mm = (w_mm - 2 * margin - gutter * (columns - 1)) / columns
    for k in range(columns):
        x0 = margin + k * (width_mm + gutter)
        box = (x0, body_top, x0 + width_mm, h_mm - margin)
        _print_block(ink, rng, box, font, cap, centred=certificate)

    inked = np.asarray(INKS[rng.integers(len(INKS))], np.float32)
    layers.paint(ink.astype(np.float32) / 255.0 * rng.uniform(0.8, 0.97) * sheet, inked)
    layers.paint(
        accent.astype(np.float32) / 255.0 * 0.9 * sheet,
        np.asarray(ACCENTS[rng.integers(len(ACCENTS))], np.float32),
    )
    curl = np.linspace(rng.uniform(-0.03, 0.03), rng.uniform(-0.03, 0.03), w, dtype=np.float32)
    layers.shade(1.0 + curl[None, :] + grain(rng, size, 0.8) * 0.012)
    return Prop("printed-page", layers.rgba(), (w_mm, h_mm))
