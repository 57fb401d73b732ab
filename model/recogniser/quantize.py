"""The classifier, the verifier and the wider classifier in 8-bit integers, for speed on a CPU.

onnxruntime's static quantisation (`onnxruntime.quantization`): weights per output channel as
int8 holding 7 bits (-64 to 64), activations as uint8 with ranges measured (min and max) on
crops cut exactly as inference cuts them, from training scenes the float models read. Full
8-bit weights read alike only on CPUs with VNNI: elsewhere onnxruntime sums each u8 × s8 pair
in 16 bits, which they overflow, and the first shipped twins read 3 % of the classifier's
crops as another class on such a CPU (busy test scenes: recall 97.6 → 94.6 %); with 7 bits no
sum can overflow and every CPU computes the same integers. On one thread of a CPU with VNNI
the int8 classifier reads a crop in 0.065–0.075 ms against 0.123–0.126 ms, the verifier in
0.051 against 0.086 ms (on one with AVX2 alone, 0.175 against 0.236 ms and 0.132 against
0.168 ms); the locator, mostly depthwise convolutions, is no faster in int8 (25.5
against 28.2 ms of convolutions on a 1280×960 frame) and stays in floats.

The float files stay the models that training goes on from and that are averaged; the int8
files sit beside them (``classifier.int8.onnx``, ``verifier.int8.onnx``, ``wider.int8.onnx``),
each recording the SHA-256 of the float file it was made from, and the recogniser reads a twin
in its float model's place only beside that very file. A twin is written only when it decides
as the float model does on crops it was not calibrated on: the classifier (and the wider one)
the same class on at least 99.5 % of the crops the float one reads at least 0.5 sure (on the
others, ambiguous crops a reading asks a check for either way, it gave another top class to
1.4 % of 4,096), the verifier the same side of its threshold on 99.5 % of its crops, and no
probability moved by more than 0.2.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

CALIBRATION_CROPS = 4096  # crops whose activations set the ranges; as many again check them
MIN_AGREEMENT = 0.995
CHUNK = 64
MAX_CHANGE = 0.2  # of any probability, on any crop
MIN_CROPS = 32  # at the least, for calibration and as many again to check


@dataclass(frozen=True)
class Quantized:
    """One quantised model: where it was written and how often it decides as the float one."""

    path: Path
    checked: int  # crops that decide, none of them calibrated on (see ``quantize``)
    agreement: float  # the share of them decided alike
    largest_change: float  # the largest change of a probability over all the crops checked


def calibration_crops(scenes: Path, models: Path, count: int) -> dict[str, np.ndarray]:
    """The normalised crops the float classifier, verifier and wider classifier in ``models``
    are given while the first ``count`` scenes of ``scenes`` are read, by file name:
    {"classifier.onnx": [N, 3, h, w], "verifier.onnx": [M, 3, s, s], "wider.onnx": [K, 3, h,
    w]} (a model the folder does not hold, none)."""
    from model.recogniser.dataset import scene_files
    from scanner.vision.images import read_image
    from scanner.vision.networks import CLASSIFIER_FILE, VERIFIER_FILE, WIDER_FILE, Networks
    from scanner.vision.options import ReadOptions
    from scanner.vision.recogniser import Recogniser

    class Recording(Networks):
        seen: dict[str, list[np.ndarray]] | None = None  # None while warming up

        def classify(self, crops: np.ndarray) -> np.ndarray:
            if self.seen is not None:
                self.seen[CLASSIFIER_FILE].append(crops.copy())
            return super().classify(crops)

        def on_card(self, crops: np.ndarray) -> np.ndarray:
            if self.seen is not None:
                self.seen[VERIFIER_FILE].append(crops.copy())
            return super().on_card(crops)

        def widened(self, crops: np.ndarray) -> np.ndarray:
            if self.seen is not None:
                self.seen[WIDER_FILE].append(crops.copy())
            return super().widened(crops)

    images = [label.with_suffix(".jpg") for label in scene_files(scenes)]
    options = ReadOptions(int8=False)
    networks = Recording.load(models, 1, options)
    networks.seen = {CLASSIFIER_FILE: [], VERIFIER_FILE: [], WIDER_FILE: []}
    recogniser = Recogniser(networks, options)
    for image in images[:count]:
        recogniser.read(read_image(image))
    return {name: np.concatenate(parts) for name, parts in networks.seen.items() if parts}


def quantize(
    source: Path, target: Path, crops: np.ndarray, seed: int, threshold: float = 0.5
) -> Quantized:
    """``source`` quantised to ``target``, calibrated on half of ``crops`` (at most
    CALIBRATION_CROPS) and checked against the float model on the other half: a classifier
    (many logits) must give the same top class wherever the float one reads a class at least
    ``threshold`` sure (a less sure reading asks for a check either way), a one-logit model
    the same side of ``threshold`` everywhere. Raises ValueError, writing nothing, where they
    decide alike on less than MIN_AGREEMENT of those crops or a probability moves by more
    than MAX_CHANGE."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    from scanner.vision.networks import open_session

    order = np.random.default_rng(seed).permutation(len(crops))
    half = min(CALIBRATION_CROPS, len(order) // 2)
    calibrate, check = crops[order[:half]], crops[order[half : 2 * half]]
    if half < MIN_CROPS:
        raise ValueError(
            f"{len(crops)} crops are too few to calibrate {source.name} on and check it "
            f"(at least {2 * MIN_CROPS}): read more scenes"
        )
    name = open_session(source, 1).get_inputs()[0].name

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self._starts = iter(range(0, len(calibrate), CHUNK))

        def get_next(self) -> dict[str, np.ndarray] | None:
            start = next(self._starts, None)
            return None if start is None else {name: calibrate[start : start + CHUNK]}

    with tempfile.TemporaryDirectory() as work:
        prepared, written = Path(work) / "prepared.onnx", Path(work) / "int8.onnx"
        # the graphs are fixed but for the batch: no symbolic shapes to infer
        quant_pre_process(str(source), str(prepared), skip_symbolic_shape=True)
        quantize_static(
            str(prepared),
            str(written),
            Reader(),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            calibrate_method=CalibrationMethod.MinMax,
            # 7-bit weights: a CPU without VNNI sums u8 × s8 pairs in 16 bits, which 8-bit
            # weights overflow (3 % of the classifier's crops read another class on one)
            reduce_range=True,
        )
        _record_source(written, source)
        decided, agreement, change = _agreement(source, written, check, name, threshold)
        if agreement < MIN_AGREEMENT or change > MAX_CHANGE:
            raise ValueError(
                f"{source.name} in int8 decides as in floats on {agreement:.1%} of {decided} "
                f"crops (at least {MIN_AGREEMENT:.0%}) and moves a probability by up to "
                f"{change:.3f} (at most {MAX_CHANGE}): not written"
            )
        target.write_bytes(written.read_bytes())
    return Quantized(target, decided, agreement, change)


def _record_source(quantized: Path, source: Path) -> None:
    """Write the float file's digest and the weights' bits into the twin's metadata: the
    recogniser reads a twin only beside the float model it was made from (a model trained
    again leaves no stale twin read in its place) and only with 7-bit weights."""
    import onnx

    from scanner.vision.networks import FLOAT_DIGEST, SAFE_WEIGHT_BITS, WEIGHT_BITS, file_digest

    model = onnx.load(str(quantized))
    for key, value in ((FLOAT_DIGEST, file_digest(source)), (WEIGHT_BITS, SAFE_WEIGHT_BITS)):
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.save(model, str(quantized))


def _agreement(
    source: Path, quantized: Path, crops: np.ndarray, name: str, threshold: float
) -> tuple[int, float, float]:
    """How many of ``crops`` decide (see ``quantize``), the share of them the two models
    decide alike, and the largest change of a probability over all ``crops``."""
    from scanner.vision.networks import open_session, sigmoid, softmax

    sessions = [open_session(path, 1) for path in (source, quantized)]
    floats, ints = (
        np.concatenate(
            [
                session.run(None, {name: crops[start : start + CHUNK]})[0]
                for start in range(0, len(crops), CHUNK)
            ]
        ).astype(np.float64)
        for session in sessions
    )
    if floats.shape[1] == 1:
        before, after = sigmoid(floats[:, 0]), sigmoid(ints[:, 0])
        alike = (before >= threshold) == (after >= threshold)
        return len(alike), float(alike.mean()), float(np.abs(after - before).max())
    before, after = softmax(floats), softmax(ints)
    sure = before.max(axis=1) >= threshold
    same = before.argmax(axis=1)[sure] == after.argmax(axis=1)[sure]
    return len(same), float(same.mean()), float(np.abs(after - before).max())


def quantize_models(scenes: Path, models: Path, count: int, seed: int) -> list[Quantized]:
    """Each float model in ``models`` quantised beside it (the recogniser's INT8_FILES),
    calibrated on the crops of the first ``count`` scenes of ``scenes``; the classifier is
    checked where it reads a class as sure as a reading must be to count without a check,
    the verifier at the threshold below which it doubts a reading (the contract's)."""
    from scanner.vision.contract import Contract
    from scanner.vision.networks import CLASSIFIER_FILE, INT8_FILES, VERIFIER_FILE, WIDER_FILE

    contract = Contract.load(models)
    threshold = {CLASSIFIER_FILE: contract.min_confidence, VERIFIER_FILE: contract.verify_below}
    threshold[WIDER_FILE] = contract.min_confidence
    crops = calibration_crops(scenes, models, count)
    return [
        quantize(models / name, models / INT8_FILES[name], crops[name], seed, threshold[name])
        for name in INT8_FILES
        if name in crops
    ]
