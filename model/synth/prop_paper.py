"""A score pad: ruled paper with team names and handwritten running scores.

Some of the scribbles are deliberately card-like (``K``, ``10``, ``A``, ``7``): the recogniser
must learn that a handwritten index on paper is not a card.
"""

from __future__ import annotations

import cv2
import numpy as np

from model.synth.prop_draw import PX_PER_MM, Layers, blank, grain, mask, rounded_rect
from model.synth.types import Prop

TEAMS = [
    "US",
    "THEM",
    "Mom",
    "Dad",
    "Kids",
    "Ann",
    "Bob",
    "Team A",
    "Team B",
    "Ed+Jo",
    "Girls",
    "Boys",
    "We",
    "They",
    "Liz",
    "Sam",
    "Nana",
    "Pop",
    "N/S",
    "E/W",
]
CARDISH = ["K", "Q", "A", "J", "10", "7", "8", "9", "3", "2", "JK"]
PAPERS = [(246, 244, 236), (250, 246, 214), (244, 236, 180), (236, 238, 240)]
INKS = [(24, 40, 130), (20, 20, 28), (36, 60, 160), (120, 24, 30)]
FONTS = [
    cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
    cv2.FONT_HERSHEY_SCRIPT_COMPLEX,
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_PLAIN,
]


def _scribble(ink: np.ndarray, text: str, org_mm, height_mm: float, rng, font: int) -> None:
    """Handwriting: a Hershey font with a random size, weight and wobble."""
    s = PX_PER_MM
    (_, th), _ = cv2.getTextSize(text, font, 1.0, 1)
    scale = height_mm * s / max(th, 1) * rng.uniform(0.85, 1.15)
    thick = max(int(rng.uniform(0.25, 0.5) * s), 1)
    org = (int(org_mm[0] * s + rng.normal(0, 0.6 * s)), int(org_mm[1] * s + rng.normal(0, 0.5 * s)))
    cv2.putText(ink, text, org, font, scale, 255, thick, cv2.LINE_AA)


def _score_text(rng: np.random.Generator, total: int) -> tuple[str, int]:
    if rng.random() < 0.18:
        return str(rng.choice(CARDISH)), total
    total += int(rng.integers(-60, 500)) * 5
    return str(total), total


def render_score_pad(rng: np.random.Generator) -> Prop:
    w_mm, h_mm = float(rng.uniform(95, 130)), float(rng.uniform(140, 200))
    size = blank((w_mm, h_mm))
    w, h = size
    layers = Layers(size)
    sheet = mask(size, rounded_rect(0.3, 0.3, w_mm - 0.3, h_mm - 0.3, 1.0))
    paper = np.asarray(PAPERS[int(rng.integers(len(PAPERS)))], np.float32)
    layers.paint(sheet, paper)

    rule = np.zeros((h, w), np.uint8)
    row_mm = float(rng.uniform(6.5, 9.0))
    top_mm = float(rng.uniform(18, 30))
    for y in np.arange(top_mm, h_mm - 3, row_mm):
        cv2.line(rule, (0, int(y * PX_PER_MM)), (w, int(y * PX_PER_MM)), 255, 1, cv2.LINE_AA)
    teams = int(rng.integers(2, 4))
    col_mm = w_mm / teams
    for k in range(1, teams):
        x = int(k * col_mm * PX_PER_MM)
        cv2.line(rule, (x, int((top_mm - row_mm) * PX_PER_MM)), (x, h), 255, 2, cv2.LINE_AA)
    rule_colour = (120, 160, 210) if rng.random() < 0.7 else (200, 120, 120)
    layers.paint(rule.astype(np.float32) / 255.0 * 0.8 * sheet, rule_colour)
    if rng.random() < 0.6:  # the gummed binding strip along the top
        strip = mask(size, rounded_rect(0, 0, w_mm, float(rng.uniform(5, 9)), 0.5))
        colour = [(180, 40, 40), (40, 40, 50), (250, 250, 250), (60, 80, 140)][rng.integers(4)]
        layers.paint(strip, colour)

    ink = np.zeros((h, w), np.uint8)
    font = int(rng.choice(FONTS))
    names = rng.choice(TEAMS, teams, replace=False)
    for k, name in enumerate(names):
        _scribble(ink, str(name), (k * col_mm + 3, top_mm - 2), row_mm * 0.7, rng, font)
    rows = int(rng.integers(3, max(4, int((h_mm - top_mm) / row_mm))))
    for k in range(teams):
        total = 0
        for r in range(rows):
            text, total = _score_text(rng, total)
            y = top_mm + (r + 1) * row_mm - 1.5
            _scribble(ink, text, (k * col_mm + rng.uniform(3, 8), y), row_mm * 0.6, rng, font)
            if rng.random() < 0.08:  # a crossed-out mistake
                x0 = int((k * col_mm + 3) * PX_PER_MM)
                cv2.line(
                    ink,
                    (x0, int((y - 2) * PX_PER_MM)),
                    (x0 + int(15 * PX_PER_MM), int((y - 1) * PX_PER_MM)),
                    255,
                    2,
                    cv2.LINE_AA,
                )
    shear = rng.uniform(-0.25, 0.1)
    m = np.float32([[1, shear, -shear * h / 2], [0, 1, 0]])
    ink = cv2.warpAffine(ink, m, (w, h))
    ink_colour = np.asarray(INKS[int(rng.integers(len(INKS)))], np.float32)
    layers.paint(ink.astype(np.float32) / 255.0 * rng.uniform(0.75, 0.95) * sheet, ink_colour)

    curl = np.linspace(rng.uniform(-0.04, 0.04), rng.uniform(-0.04, 0.04), h, dtype=np.float32)
    layers.shade(1.0 + curl[:, None] + grain(rng, size, 0.8) * 0.015)
    return Prop("score-pad", layers.rgba(), (w_mm, h_mm), extra={"teams": [str(n) for n in names]})
