"""PyTorch models read back from their ONNX files, so a shipped model can be trained on when its
training checkpoint is gone.

The exporter folds each batch norm into the convolution before it; read back, the convolution
takes the folded weights and its batch norm becomes the identity plus the folded bias, so the
model computes what the file does. Train such a model with its batch norms fixed
(``freeze_norms``): their running statistics no longer describe the activations.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import torch
from torch import nn

LAYERS = {"Conv": nn.Conv2d, "Gemm": nn.Linear}


def _layers_in_order(model: nn.Module, example: torch.Tensor) -> list[nn.Module]:
    """The model's convolutions and linear layers in the order its forward pass runs them,
    which is the order of the ONNX graph's nodes."""
    order: list[nn.Module] = []
    hooks = [
        layer.register_forward_hook(lambda layer, *_: order.append(layer))
        for layer in model.modules()
        if isinstance(layer, tuple(LAYERS.values()))
    ]
    with torch.no_grad():
        model.eval()(example)
    for hook in hooks:
        hook.remove()
    return order


def _norm_after(model: nn.Module) -> dict[nn.Module, nn.BatchNorm2d]:
    """Each convolution followed by a batch norm in its Sequential, and that norm."""
    pairs = {}
    for layer in model.modules():
        if isinstance(layer, nn.Sequential):
            for first, second in itertools.pairwise(layer):
                if isinstance(first, nn.Conv2d) and isinstance(second, nn.BatchNorm2d):
                    pairs[first] = second
    return pairs


def load_folded(model: nn.Module, path: Path, example: torch.Tensor) -> nn.Module:
    """``model`` (built with the file's architecture) given the weights of the ONNX file at
    ``path``; ``example`` is an input the model takes. Raises ValueError when the file's layers
    do not match the model's."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {item.name: numpy_helper.to_array(item).copy() for item in graph.initializer}
    nodes = [node for node in graph.node if node.op_type in LAYERS]
    layers = _layers_in_order(model, example)
    kinds = [type(layer) for layer in layers]
    if kinds != [LAYERS[node.op_type] for node in nodes]:
        raise ValueError(
            f"{path}: {len(nodes)} convolutions and linear layers, the model has {len(layers)}"
            " (not the same architecture)"
        )
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
            plain_statistics(norm)
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(bias))
    return model.eval()


def plain_statistics(norm: nn.BatchNorm2d) -> None:
    """Running statistics that leave the norm its affine part alone: mean 0, and a variance
    that makes it divide by exactly 1."""
    with torch.no_grad():
        norm.running_mean.zero_()
        norm.running_var.fill_(1.0 - norm.eps)


def freeze_norms(model: nn.Module) -> None:
    """Batch norms use their running statistics in training too (call after ``train()``)."""
    for layer in model.modules():
        if isinstance(layer, nn.BatchNorm2d):
            layer.eval()
