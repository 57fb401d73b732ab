"""Growing a trained locator into the fine one: the same weights, plus residual blocks at 1/2 and
1/4 of the frame that start as the identity, so training goes on from what the plain locator
knows instead of starting again.

The plain locator misses indices only a few pixels wide (a 5 px wide index is found half the
time, but 64 % of the time in the same frame scaled up 2×, which adds no information): its only
full-resolution layer is the stem, and three layers lie between the pixels and its 1/4 features.

The start is read from an ONNX file (``locator_from_onnx``), where the batch norms are folded
into the convolutions, so any shipped locator can be grown; the grown model keeps its batch
norms fixed (a plain affine map each) while it trains.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import torch
from torch import nn

from model.recogniser.nets import DwSep, Locator


def _convolutions(model: nn.Module, example: torch.Tensor) -> list[nn.Conv2d]:
    """The model's Conv2d layers in the order its forward pass runs them (the ONNX graph's)."""
    order: list[nn.Conv2d] = []
    hooks = [
        layer.register_forward_hook(lambda layer, *_: order.append(layer))
        for layer in model.modules()
        if isinstance(layer, nn.Conv2d)
    ]
    with torch.no_grad():
        model.eval()(example)
    for hook in hooks:
        hook.remove()
    return order


def _norm_after(model: nn.Module) -> dict[nn.Conv2d, nn.BatchNorm2d]:
    """Each convolution followed by a batch norm in its Sequential, and that norm."""
    pairs = {}
    for layer in model.modules():
        if isinstance(layer, nn.Sequential):
            children = list(layer)
            for first, second in itertools.pairwise(children):
                if isinstance(first, nn.Conv2d) and isinstance(second, nn.BatchNorm2d):
                    pairs[first] = second
    return pairs


def locator_from_onnx(path: Path, fine: bool = False) -> Locator:
    """The locator in ``path`` as a PyTorch model computing the same: each convolution takes
    the folded weights, and its batch norm becomes the identity plus the folded bias."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {item.name: numpy_helper.to_array(item).copy() for item in graph.initializer}
    nodes = [node for node in graph.node if node.op_type == "Conv"]
    model = Locator(fine=fine)
    layers = _convolutions(model, torch.zeros(1, 3, 64, 64))
    if len(layers) != len(nodes):
        raise ValueError(f"{path}: {len(nodes)} convolutions, a locator has {len(layers)}")
    norms = _norm_after(model)
    with torch.no_grad():
        for layer, node in zip(layers, nodes, strict=True):
            weight = weights[node.input[1]]
            bias = weights[node.input[2]] if len(node.input) > 2 else np.zeros(weight.shape[0])
            if tuple(weight.shape) != tuple(layer.weight.shape):
                raise ValueError(f"{path}: {node.name} is {weight.shape}, not {layer.weight.shape}")
            layer.weight.copy_(torch.from_numpy(weight))
            norm = norms.get(layer)
            if norm is None:
                layer.bias.copy_(torch.from_numpy(bias))
                continue
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)  # so the norm divides by exactly 1
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(bias))
    return model.eval()


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
                    layer.running_mean.zero_()
                    layer.running_var.fill_(1.0 - layer.eps)
            block.body[-1].weight.zero_()
            block.body[-1].bias.zero_()
    return model.eval()


def freeze_norms(model: nn.Module) -> None:
    """Batch norms use their running statistics in training too (call after ``train()``)."""
    for layer in model.modules():
        if isinstance(layer, nn.BatchNorm2d):
            layer.eval()
