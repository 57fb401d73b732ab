"""Growing a trained locator into the fine one: the same weights, plus residual blocks at 1/2 and
1/4 of the frame that start as the identity, so training goes on from what the plain locator
knows instead of starting again.

The plain locator misses indices only a few pixels wide (a 5 px wide index is found half the
time, but 64 % of the time in the same frame scaled up 2×, which adds no information): its only
full-resolution layer is the stem, and three layers lie between the pixels and its 1/4 features.

The start is read from an ONNX file (``locator_from_onnx``), so any shipped locator can be
grown; the grown model keeps its batch norms fixed while it trains (``onnx_weights.py``).

Measured, and why ``make model`` does not grow by default: the shipped locator grown and trained
12,000 more steps (2e-3 / 4, 46 minutes on 2 cores) marked fewer of the visible indices of 60
validation scenes (86.1 % against 86.9 %; below 6 px on the short side 47.9 % against 49.5 %):
the extra depth alone, added late, does not find small indices. ``train grow --grow-steps N``
runs it.
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn

from model.recogniser.nets import DwSep, Locator
from model.recogniser.onnx_weights import load_folded, plain_statistics


def locator_from_onnx(path: Path, fine: bool = False) -> Locator:
    """The locator in the ONNX file ``path`` as a PyTorch model computing the same (see
    ``onnx_weights.py``)."""
    return load_folded(Locator(fine=fine), path, torch.zeros(1, 3, 64, 64))


def grown(plain: Locator) -> Locator:
    """A fine locator computing exactly what ``plain`` does: its new residual blocks end in a
    batch norm scaled by zero, and what enters them has been through a ReLU already."""
    model = Locator(fine=True)
    _, unexpected = model.load_state_dict(plain.state_dict(), strict=False)
    if unexpected:
        raise ValueError(f"not a plain locator's weights: {unexpected}")
    new = [model.s2, *list(model.s4)[2:]]
    with torch.no_grad():
        for block in new:
            assert isinstance(block, DwSep) and block.residual
            for layer in block.modules():
                if isinstance(layer, nn.BatchNorm2d):
                    plain_statistics(layer)
            block.body[-1].weight.zero_()
            block.body[-1].bias.zero_()
    return model.eval()
