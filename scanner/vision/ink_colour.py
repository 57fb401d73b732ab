"""Red told by the ink against its own paper (rule ``ink_colour``; pure functions).

The classifier learnt red from hue, and a dull or cast photo, or a black card's gold print, it
reads as black (model/experiments/colour.md). Here the ink's colour is measured against the
card's own paper: each pixel of the index, divided by the paper's colour (a white balance by the
paper, von Kries), absorbs as much red light as green and blue where the ink is black or grey,
and far less red where it is red. The ratio of the two is :func:`ink_ratio`; it holds however
much of a pixel is ink (a small index's pixels are ink and paper mixed), and a colour cast or a
dull photo only moves it toward 1. A dark card's light print is measured the same way, as light
it gives back over its paper's: the same red as green and blue for white or silver print, less
green and blue for red or gold. Black paper reflects too little to tell the light's colour, so
that print is balanced by the frame's brightest surfaces (:func:`frame_white`).

Only ink clearly redder than its paper counts (ratio under RED_ON_LIGHT or RED_ON_DARK): the
row is then held to red, black ruled out (:func:`held_to_red`), so the network keeps deciding the
rank and how sure it is, and every later rule (pairing, melds, faces) reads the card red. Ink
that measures neutral is no evidence of black: a greyscale photo's red ink measures neutral too,
and so does a dulled one's, however red. The special deck's codes and the joker are left as they
are. On real photos it pays on the black deck's gold print (model/experiments/ink-colour.md).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import numpy as np

# The index's own pixels in a classifier crop (CROP_SCALE index heights tall): rows and columns,
# as shares of the crop, that hold the rank and suit sign and little of the card's edge or what
# lies beyond it. Beyond them a white desk around a black card measured as neutral "ink".
WINDOW_ROWS = (1 / 6, 5 / 6)
WINDOW_COLUMNS = (5 / 32, 27 / 32)
# An ink pixel lies at least this share of the way to the index's deepest (its 95th percentile)
INK_SHARE = 0.5
# Red absorbed per green and blue below which ink on light paper is red: red ink measures 0–0.8
# in colour photos, black ink 0.9–1.1, but 0.78–0.86 where the index's window holds a warm
# table or a court card's picture beside its index (model/experiments/ink-colour.md).
RED_ON_LIGHT = 0.5
# Green and blue given back per red below which print on dark paper is red or gold: a black
# deck's gold print measures 0.3–0.9, its white print 0.9–1.2.
RED_ON_DARK = 0.87
# an index this shallow (its deepest ink, as a share of its paper's light) is measured no better
# than JPEG noise: no vote
LEAST_DEPTH = 0.15
# a crop whose channels differ by no more than this anywhere (levels of 255) is greyscale
GREY_LEVELS = 4


def frame_white(frame: np.ndarray, most: int = 65536) -> np.ndarray:
    """The colour of the frame's brightest surfaces (RGB, float): the median of its top 3 % of
    pixels by brightness, those clipped in a channel left out; at most ``most`` pixels read."""
    step = max(1, int(np.sqrt(frame.shape[0] * frame.shape[1] / most)))
    pixels = frame[::step, ::step].reshape(-1, 3).astype(np.float64) + 1.0
    pixels = pixels[pixels.max(axis=1) < 250] if (pixels.max(axis=1) < 250).any() else pixels
    light = pixels.mean(axis=1)
    # np.percentile(light, 97) from the two values around it, not a sort of them all
    at = (len(light) - 1) * 0.97
    low = int(at)
    high = min(low + 1, len(light) - 1)
    parted = np.partition(light, (low, high))
    bar = parted[low] + (parted[high] - parted[low]) * (at - low)
    return np.median(pixels[light >= bar], axis=0)


def ink_ratio(
    crops: np.ndarray, white: np.ndarray | Callable[[], np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """For each upright crop (uint8 [N, H, W, 3], RGB), the red its ink absorbs per green and
    blue against its paper (light paper), or the green and blue per red its print gives back
    over its paper, balanced by ``white`` (dark paper): about 1 for neutral ink, under it for
    red or gold, NaN where the crop shows no colour or too shallow an index to measure; and
    whether its paper is the light part of it. ``white`` may be a function that measures it:
    it is asked only where a crop lies on dark paper."""
    n, height, width = crops.shape[:3]
    rows = slice(round(WINDOW_ROWS[0] * height), round(WINDOW_ROWS[1] * height))
    columns = slice(round(WINDOW_COLUMNS[0] * width), round(WINDOW_COLUMNS[1] * width))
    pixels = crops[:, rows, columns].reshape(n, -1, 3).astype(np.float64) + 1.0
    light = pixels.mean(axis=2)
    low, middle, high, glare = np.percentile(light, [5, 50, 95, 97], axis=1)[..., None]
    on_light = (high - middle) < (middle - low)  # the paper is the crop's lighter part
    paper_pixels = np.where(on_light, (light >= middle) & (light <= glare), light <= middle)
    paper = _masked_median(pixels, paper_pixels)
    if on_light.all():
        deep = 1.0 - pixels / paper[:, None]
    else:
        balance = white() if callable(white) else white
        deep = np.where(
            on_light[..., None], 1.0 - pixels / paper[:, None], (pixels - paper[:, None]) / balance
        )
    depth = deep.mean(axis=2)
    deepest = np.percentile(depth, 95, axis=1)
    ink = depth > INK_SHARE * deepest[:, None]
    red, rest = deep[..., 0] * ink, (deep[..., 1] + deep[..., 2]) / 2 * ink
    # least squares through the paper: red = ratio × rest (light paper), the other way on dark
    ratio = np.where(
        on_light[:, 0],
        (red * rest).sum(axis=1) / np.maximum((rest * rest).sum(axis=1), 1e-9),
        (red * rest).sum(axis=1) / np.maximum((red * red).sum(axis=1), 1e-9),
    )
    spread = np.abs(np.diff(crops[:, rows, columns].astype(np.int16), axis=3)).max(axis=(1, 2, 3))
    unmeasured = (spread <= GREY_LEVELS) | (deepest < LEAST_DEPTH)
    return np.where(unmeasured, np.nan, ratio), on_light[:, 0]


def _masked_median(pixels: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The median colour [N, 3] of each crop's ``pixels`` [N, P, 3] where ``mask`` [N, P] (NaN
    where none is): ``np.nanmedian``'s, from one sort (nanmedian took half the rule's time)."""
    ordered = np.sort(np.where(mask[..., None], pixels, np.inf), axis=1)
    count = mask.sum(axis=1)
    rows = np.arange(len(count))
    low, high = np.maximum((count - 1) // 2, 0), np.maximum(count // 2, 0)
    median = (ordered[rows, low] + ordered[rows, high]) / 2
    median[count == 0] = np.nan
    return median


def red_ink(crops: np.ndarray, white: np.ndarray | Callable[[], np.ndarray]) -> np.ndarray:
    """Whether each crop's ink is clearly red (bool [N]); False where it cannot be told."""
    ratio, on_light = ink_ratio(crops, white)
    with np.errstate(invalid="ignore"):
        return ratio < np.where(on_light, RED_ON_LIGHT, RED_ON_DARK)


# Rows with less than this probability on the standard deck's black codes are not measured: held
# to red, they would change by less than it (model/experiments/ink-colour.md, speed)
BLACK_WORTH = 0.05


@functools.cache
def black_columns(classes: tuple[str, ...]) -> np.ndarray:
    """The columns of the standard deck's black codes that have a red twin."""
    return np.array(
        [k for k, code in enumerate(classes) if code.endswith("B") and code[:-1] + "R" in classes],
        int,
    )


def worth_measuring(rows: np.ndarray, classes: Sequence[str]) -> np.ndarray:
    """Which rows hold black enough to be worth measuring (bool [N]).

    >>> classes = ("QR", "QB", "7", "none")
    >>> worth_measuring(np.array([[0.9, 0.08, 0.0, 0.02], [0.98, 0.01, 0.0, 0.01]]), classes)
    array([ True, False])
    """
    return rows[:, black_columns(tuple(classes))].sum(axis=1) >= BLACK_WORTH


def held_to_red(row: np.ndarray, classes: Sequence[str], none: str) -> np.ndarray:
    """``row`` (class probabilities) with black ruled out: each standard rank's red given the
    larger of its red and black probabilities, its black none, and the smaller of the two given
    to ``none`` (a card of the colour ruled out is no card); every other class as it was. The
    rank is read as the network read it, its colour red, as sure as the network was of the
    colour it chose. Not the sum of the two: a doubtful reading made sure is one the verifier
    keeps where it would have dropped it. Nor a black left standing: later rules that multiply
    rows (a face read as black) turned the card back. Nor the row short of what black held: a
    reading's confidence is its share of its deck's, and rose.

    >>> classes = ("QR", "QB", "7R", "7B", "7", "none")
    >>> held_to_red(np.array([0.1, 0.6, 0.05, 0.0, 0.05, 0.2]), classes, "none").round(3).tolist()
    [0.6, 0.0, 0.05, 0.0, 0.05, 0.3]
    """
    column = {code: k for k, code in enumerate(classes)}
    pairs = [
        (k, column[code[:-1] + "B"])
        for code, k in column.items()
        if code.endswith("R") and code[:-1] + "B" in column
    ]
    red, black = (np.array(side) for side in zip(*pairs, strict=True))
    held = row.copy()
    held[red] = np.maximum(row[red], row[black])
    held[black] = 0.0
    held[column[none]] += np.minimum(row[red], row[black]).sum()
    return held
