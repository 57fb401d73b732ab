"""The classifier's features as a second ONNX output, ``features`` [N, channels, rows,
columns]: what its last layer reads, the maps of its last convolution before they are
flattened. A deck profile (``scanner/vision/profile.py``)
compares a table's own cards by them; the shipped readings (``logits``) are unchanged.

The edit works on the float model and on its int8 twin alike (in the twin the head's input is
a dequantized tensor), so a profile reads with whichever twin the recogniser reads. A twin made
from a float file records that file's digest; :func:`add_features` writes the edited float
file's digest into the edited twin, so the twin is never taken for a stale one.
"""

from __future__ import annotations

from pathlib import Path

FEATURES = "features"
# what lies between the head's matrix product and the logits in an int8 twin
_PASS_THROUGH = ("QuantizeLinear", "DequantizeLinear", "Identity")


def with_features(model):
    """``model`` (an ``onnx.ModelProto`` of a classifier) with the input of its head as the
    output ``features``; as it is when it has that output. Raises ValueError when the logits
    do not come from a matrix product (no head to read the features of)."""
    import onnx
    from onnx import helper

    graph = model.graph
    if any(output.name == FEATURES for output in graph.output):
        return model
    made_by = {name: node for node in graph.node for name in node.output}
    node = made_by.get(graph.output[0].name)
    while node is not None and node.op_type in _PASS_THROUGH:
        node = made_by.get(node.input[0])
    if node is None or node.op_type not in ("Gemm", "MatMul"):
        raise ValueError(f"{graph.output[0].name} does not come from a head (Gemm or MatMul)")
    features, shape = node.input[0], ["n", "width"]
    source = made_by.get(features)
    while source is not None and source.op_type in _PASS_THROUGH:
        source = made_by.get(source.input[0])
    if source is not None and source.op_type == "Flatten":
        # the maps themselves, so a profile can pool them knowing their shape
        features, shape = source.input[0], ["n", "channels", "rows", "columns"]
    graph.node.append(helper.make_node("Identity", [features], [FEATURES], name=FEATURES))
    graph.output.append(helper.make_tensor_value_info(FEATURES, onnx.TensorProto.FLOAT, shape))
    return model


def add_features(folder: Path, name: str = "classifier") -> list[Path]:
    """Give ``folder/NAME.onnx`` and its int8 twin, where there is one, the ``features``
    output, in place (each file replaced whole); the twin's record of its float file follows
    the edited float file. The files changed."""
    import onnx

    from scanner.vision.networks import FLOAT_DIGEST, file_digest

    float_path, twin_path = folder / f"{name}.onnx", folder / f"{name}.int8.onnx"
    float_digest = file_digest(float_path)
    changed = []
    if _edit(float_path):
        changed.append(float_path)
    if twin_path.exists():
        twin = onnx.load(str(twin_path))
        recorded = {entry.key: entry for entry in twin.metadata_props}
        now = file_digest(float_path)
        # a twin made from the float file as it was follows it; any other stays stale
        follows = FLOAT_DIGEST in recorded and recorded[FLOAT_DIGEST].value == float_digest
        edited = _edit(twin_path)
        if follows and now != float_digest:
            twin = onnx.load(str(twin_path))
            for entry in twin.metadata_props:
                if entry.key == FLOAT_DIGEST:
                    entry.value = now
            _save(twin, twin_path)
            edited = True
        if edited:
            changed.append(twin_path)
    return changed


def _edit(path: Path) -> bool:
    import onnx

    model = onnx.load(str(path))
    before = len(model.graph.output)
    with_features(model)
    if len(model.graph.output) == before:
        return False
    onnx.checker.check_model(model)
    _save(model, path)
    return True


def _save(model, path: Path) -> None:
    import onnx

    temporary = path.with_suffix(".tmp")
    onnx.save(model, str(temporary))
    temporary.replace(path)
