"""The training loop's sample changes: what a recoloured batch may and may not look like."""

import numpy as np
import torch

from model.recogniser.loop import GREY_SHARE, normalise, recolour
from scanner.vision import contract as spec


def _red_on_white(n: int) -> torch.Tensor:
    """n crops of white paper with a pure red stroke down the middle."""
    crops = np.full((n, spec.CROP_H, spec.CROP_W, 3), 255, np.uint8)
    crops[:, :, 12:20] = (220, 20, 30)
    return normalise(crops)


def _pixels(x: torch.Tensor) -> torch.Tensor:
    return x * spec.STD + spec.MEAN


def test_no_share_leaves_every_sample_as_it_was():
    x = _red_on_white(64)
    assert torch.equal(recolour(x, torch.Generator().manual_seed(1), 0.0), x)


def test_the_same_generator_gives_the_same_batch():
    x = _red_on_white(64)
    first = recolour(x, torch.Generator().manual_seed(3), 0.5)
    again = recolour(x, torch.Generator().manual_seed(3), 0.5)
    assert torch.equal(first, again)


def test_about_the_share_is_recoloured_and_the_rest_untouched():
    x = _red_on_white(2000)
    out = recolour(x, torch.Generator().manual_seed(5), 0.5)
    changed = (out != x).flatten(1).any(1)
    assert 900 < int(changed.sum()) < 1100
    assert torch.equal(out[~changed], x[~changed])


def test_recoloured_red_ranges_from_grey_to_full_under_a_bounded_cast():
    out = _pixels(recolour(_red_on_white(3000), torch.Generator().manual_seed(7), 1.0))
    stroke = out[:, :, 24, 16]  # (R, G, B) of the red stroke in each sample
    paper = out[:, :, 24, 2]
    # a cast is at most ±25 % a channel: the paper stays near white, never tinted past that
    ratio = paper.max(1).values / paper.min(1).values
    assert float(ratio.max()) <= 1.25 / 0.75 + 1e-4
    # colour kept from none (grey ink under the paper's own cast) to all of it
    redness = (stroke[:, 0] - stroke[:, 1]) / (paper[:, 0] + 1e-6)
    grey = (stroke[:, 0] / paper[:, 0] - stroke[:, 1] / paper[:, 1]).abs() < 1e-3
    assert abs(float(grey.float().mean()) - GREY_SHARE) < 0.04
    assert float(redness.max()) > 0.7 and float(redness[~grey].min()) < 0.1
