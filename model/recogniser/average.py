"""Two ONNX files of one network averaged weight by weight (onnx only).

A classifier trained on from the shipped one on new scenes reads those scenes better and can
read real photographs worse: it drifts towards what the new scenes show. The mean of its
weights and those it started from keeps most of both (Wortsman et al. 2022, "Robust
fine-tuning of zero-shot models"): the sixth version's classifier, half and half, kept the
real photos' rank accuracy (94.4 % against 94.6 %, 92.4 % for the trained-on one alone) and
most of its gain on one-side validation tables (80.6 % right against 77.1 % and 82.3 %). The
locator trained on too, averaged so, kept the one-side tables (80.8 %) and made fewer silent
errors (2 against 6 of 480) where alone it read real photos with more readings off a card.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

KINDS = {"image": "locator", "crops": "classifier"}  # a model's input names its kind


def kind_of(path: Path) -> str:
    """Whether the ONNX file at ``path`` is the "locator" or the "classifier", by its input."""
    import onnx

    inputs = [node.name for node in onnx.load(str(path), load_external_data=False).graph.input]
    kinds = {KINDS[name] for name in inputs if name in KINDS}
    if len(kinds) != 1:
        raise ValueError(f"{path}: neither the locator nor the classifier (inputs {inputs})")
    return kinds.pop()


def average_onnx(first: Path, second: Path, out: Path, share: float = 0.5) -> Path:
    """``out``: the graph of ``first`` with every floating-point weight
    ``(1 - share) × first + share × second``. Both must hold the same weights by name and
    shape (one network, trained on from the other)."""
    import onnx
    from onnx import numpy_helper

    if not 0.0 <= share <= 1.0:
        raise ValueError(f"share is between 0 and 1, not {share}")
    base, other = onnx.load(str(first)), onnx.load(str(second))
    theirs = {t.name: numpy_helper.to_array(t) for t in other.graph.initializer}
    mine = {t.name for t in base.graph.initializer}
    if mine != set(theirs):
        raise ValueError(
            f"{first} and {second} are not one network: weights "
            f"{sorted(mine ^ set(theirs))[:5]} are in only one"
        )
    for tensor in base.graph.initializer:
        ours, their = numpy_helper.to_array(tensor), theirs[tensor.name]
        if ours.shape != their.shape:
            raise ValueError(f"{tensor.name}: {ours.shape} in {first}, {their.shape} in {second}")
        if ours.dtype.kind != "f":
            if not np.array_equal(ours, their):
                raise ValueError(f"{tensor.name}: the two files differ in a non-weight constant")
            continue
        mean = ((1.0 - share) * ours.astype(np.float64) + share * their).astype(ours.dtype)
        tensor.CopyFrom(numpy_helper.from_array(mean, tensor.name))
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = out.with_suffix(".partial")
    onnx.save(base, str(temporary))
    temporary.replace(out)
    return out
