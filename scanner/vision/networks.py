"""The recogniser's networks: the ONNX sessions built once (int8 twins where they may be read),
warmed up, and run in batches. Every other module of the reading calls a network through
:class:`Networks`, never a session.

The locator is required, and the classifier; the verifier, refiner, wider classifier and face
reader are read where the model folder holds them and :class:`ReadOptions` leaves them on.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scanner.vision import contract as spec
from scanner.vision.contract import Contract
from scanner.vision.errors import RecogniserError
from scanner.vision.options import ReadOptions
from scanner.vision.preprocess import locator_input
from scanner.vision.strips import heads_in_strips
from scanner.vision.turns import TURN_CHOICES, mean_heads

log = logging.getLogger(__name__)
LOCATOR_FILE = "locator.onnx"
CLASSIFIER_FILE = "classifier.onnx"
VERIFIER_FILE = "verifier.onnx"  # optional: without it no reading is doubted
REFINER_FILE = "refiner.onnx"  # optional: without it a doubtful mark is read where it was made
WIDER_FILE = "wider.onnx"  # optional: without it a small index is read by the classifier alone
FACE_FILE = "face.onnx"  # optional: without it a card's face is not read (``faces.py``)
OPTIONAL_FILES = (VERIFIER_FILE, REFINER_FILE, WIDER_FILE, FACE_FILE)
# 8-bit twins (model/recogniser/quantize.py), read in place of the float files they were made
# from: 1.8 times as fast a crop, deciding as the float ones do (model/experiments/int8-twins.md)
INT8_FILES = {
    CLASSIFIER_FILE: "classifier.int8.onnx",
    VERIFIER_FILE: "verifier.int8.onnx",
    WIDER_FILE: "wider.int8.onnx",
}
FLOAT_DIGEST = "float_sha256"  # a twin's metadata: the SHA-256 of the float file it was made from
# A twin's metadata: its weights' bits; with 7 no CPU's 16-bit integer sums overflow, and every
# CPU computes the same integers (model/experiments/int8-twins.md)
WEIGHT_BITS = "weight_bits"
SAFE_WEIGHT_BITS = "7"
CLASSIFIER_BATCH = 64  # crops per run: a network's activations grow with the batch (speed.md)
WARM_UP_SIZE = (1280, 960)
# the classifier's second output: what its last layer reads, for deck profiles (``profile.py``)
FEATURES = "features"


def default_model_dir() -> Path:
    """The ``model`` package's folder, where the trained files are shipped."""
    import model

    return Path(model.__file__).parent


def open_session(path: Path, threads: int):
    """An onnxruntime session on the CPU for the model at ``path``, or a plain
    :class:`RecogniserError` when the file is missing or damaged."""
    if not path.is_file():
        raise RecogniserError(
            f"{path}: no such model file; train the recogniser with `make model` "
            "(or pass the folder that holds locator.onnx and classifier.onnx)"
        )
    try:
        import onnxruntime
    except ImportError:
        raise RecogniserError(
            "onnxruntime is not installed; the recogniser needs it: pip install onnxruntime"
        ) from None
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    options.log_severity_level = 3
    # onnxruntime plans a block of memory for each input shape it sees; frames of many sizes
    # (scaled frames, strips) then held 300 MB at the peak of a busy bench, 250 MB without
    # the plans, in the same time
    options.enable_mem_pattern = False
    if _shared_arena():
        options.add_session_config_entry("session.use_env_allocators", "1")
    if threads > 1:
        # onnxruntime's threads spin between runs by default, taking the cores the numpy work
        # between the many small runs of a frame needs (model/experiments/speed.md)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime raises its own classes for a damaged file
        raise RecogniserError(f"{path}: not a model onnxruntime can load ({error})") from None


@functools.cache  # once a process: onnxruntime's environment holds one
def _shared_arena() -> bool:
    """Whether onnxruntime's environment holds one memory arena on the CPU that every session
    may draw from, registering it: each session otherwise grows an arena of its own to the
    largest run it has seen and keeps it (16 MB more at the bench's peak). Where this
    onnxruntime cannot register one, each session keeps its own."""
    import onnxruntime

    memory = onnxruntime.OrtMemoryInfo(
        "Cpu", onnxruntime.OrtAllocatorType.ORT_ARENA_ALLOCATOR, 0, onnxruntime.OrtMemType.DEFAULT
    )
    try:
        onnxruntime.create_and_register_allocator(memory, onnxruntime.OrtArenaCfg({}))
    except (AttributeError, RuntimeError, TypeError) as error:
        log.debug("no shared memory arena: %s", error)
        return False
    return True


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex: what an int8 twin records of its float model."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def softmax(logits: np.ndarray) -> np.ndarray:
    """Class probabilities [N, C] from the classifier's logits [N, C], in float64."""
    shifted = logits.astype(np.float64) - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=1, keepdims=True)


def sigmoid(logits: np.ndarray) -> np.ndarray:
    """Probabilities from one-logit outputs (the verifier's), in float64."""
    return 1.0 / (1.0 + np.exp(-logits.astype(np.float64)))


def _open_model(folder: Path, name: str, quantized: bool, threads: int):
    """A session for model ``name`` in ``folder`` and the file it reads: the int8 twin where
    asked for, there, made from the float file beside it as that file is now, and with weights
    no CPU's integer sums overflow (``WEIGHT_BITS``); a twin that is not is passed over, with
    a warning, for the float file beside it; None when neither is there and the model is
    optional."""
    path, twin = folder / name, folder / INT8_FILES.get(name, name)
    if quantized and twin != path and twin.exists():
        session = open_session(twin, threads)
        stale = _stale_twin(session.get_modelmeta().custom_metadata_map, path)
        if stale is None:
            return session, twin
        if not path.exists():
            log.warning("%s %s, and no %s lies beside it to read instead", twin, stale, path.name)
            return session, twin
        log.warning(
            "%s %s: reading %s (make the twin again with "
            "`python -m model.recogniser.train quantize`)",
            twin,
            stale,
            path.name,
        )
    if name in OPTIONAL_FILES and not path.exists():
        return None, path
    return open_session(path, threads), path


def _stale_twin(metadata: dict[str, str], float_path: Path) -> str | None:
    """Why a twin with this metadata should not be read in the place of ``float_path``, or
    None."""
    if metadata.get(WEIGHT_BITS) != SAFE_WEIGHT_BITS:
        return "holds 8-bit weights, which read wrong on a CPU without VNNI"
    if float_path.exists() and metadata.get(FLOAT_DIGEST) != file_digest(float_path):
        return f"was not made from {float_path.name} as it is now"
    return None


@dataclass(frozen=True)
class _Net:
    """One session and the names of the input it takes and the output read from it."""

    session: object
    feed: str
    fetch: str
    path: Path

    def run(self, tensor: np.ndarray) -> np.ndarray:
        (out,) = self.session.run([self.fetch], {self.feed: tensor})
        return out

    def gives(self, name: str) -> bool:
        return any(node.name == name for node in self.session.get_outputs())

    def run_with(self, tensor: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
        """The output read and the output ``name``, from one run."""
        out, more = self.session.run([self.fetch, name], {self.feed: tensor})
        return out, more


def _net(session, wanted_input: str, wanted_output: str, path: Path) -> _Net:
    """``session`` with the contract's input and output names, or with the ones it has (and a
    warning) where they differ."""
    inputs = [node.name for node in session.get_inputs()]
    outputs = [node.name for node in session.get_outputs()]
    if len(inputs) != 1 or not outputs:
        raise RecogniserError(f"{path}: expected one input, has {inputs} → {outputs}")
    if inputs[0] != wanted_input or wanted_output not in outputs:
        log.warning(
            "%s: inputs %s, outputs %s (the contract names %r → %r)",
            path,
            inputs,
            outputs,
            wanted_input,
            wanted_output,
        )
    fetch = wanted_output if wanted_output in outputs else outputs[0]
    return _Net(session, inputs[0], fetch, path)


class Networks:
    """The networks of one model folder, each run a batch at a time.

    Build it with :meth:`load`; :meth:`heads`, :meth:`classify` and the rest take and give
    numpy arrays and hold no state of a frame."""

    def __init__(
        self,
        contract: Contract,
        locator: _Net,
        classifier: _Net,
        *,
        verifier: _Net | None = None,
        refiner: _Net | None = None,
        wider: _Net | None = None,
        face: _Net | None = None,
        turns: int = 4,
    ) -> None:
        if turns not in TURN_CHOICES:
            raise RecogniserError(f"turns is one of {sorted(TURN_CHOICES)}, not {turns}")
        self.contract = contract
        self._locator, self._classifier = locator, classifier
        self.verifier, self.refiner, self.wider, self.face = verifier, refiner, wider, face
        self._turns = TURN_CHOICES[turns]
        batch = classifier.session.get_inputs()[0].shape[0]
        # a model exported with a fixed batch size gets exactly that many crops per run
        self._fixed_batch = isinstance(batch, int) and batch > 0
        self.batch = batch if self._fixed_batch else CLASSIFIER_BATCH
        # whether the classifier gives its features (a model exported before them does not)
        self.gives_features = classifier.gives(FEATURES)

    @classmethod
    def load(cls, folder: Path, threads: int, options: ReadOptions) -> Networks:
        """The networks in ``folder`` on ``threads`` threads each, as ``options`` allow, warmed
        up on a blank frame. Raises :class:`RecogniserError` when a file is missing or does not
        follow the contract."""
        if threads < 1:
            raise RecogniserError(f"threads must be at least 1, not {threads}")
        locator_path = folder / LOCATOR_FILE
        locator = _net(open_session(locator_path, threads), "image", "heads", locator_path)
        session, path = _open_model(folder, CLASSIFIER_FILE, options.int8, threads)
        classifier = _net(session, "crops", "logits", path)
        contract = Contract.load(folder)

        def optional(name: str, wanted: bool, feed: str, fetch: str) -> _Net | None:
            if not wanted:
                return None
            session, path = _open_model(folder, name, options.int8, threads)
            return None if session is None else _net(session, feed, fetch, path)

        networks = cls(
            contract,
            locator,
            classifier,
            # the verifier is loaded whatever ``options.verify`` says: the verify stage asks it
            verifier=optional(VERIFIER_FILE, True, "context", "logit"),
            refiner=optional(REFINER_FILE, options.refine, "around", "geometry"),
            wider=optional(WIDER_FILE, options.wider, "crops", "logits"),
            face=optional(FACE_FILE, options.faces, "faces", "logits"),
            turns=options.turns,
        )
        networks.warm_up()
        return networks

    @property
    def files(self) -> tuple[str, ...]:
        """The model files read, by name: which twins, for the benches."""
        nets = (self._locator, self._classifier, self.verifier, self.refiner, self.wider)
        return tuple(net.path.name for net in (*nets, self.face) if net is not None)

    def heads(self, frame: np.ndarray) -> np.ndarray:
        """The locator's heads [1, C, H', W'] for an RGB uint8 frame [H, W, 3], averaged over
        the turns it reads the frame in (``turns.py``), a strip at a time where the frame is
        large (``strips.py``)."""
        c = self.contract

        def whole(part: np.ndarray) -> np.ndarray:
            return mean_heads(locator_input(part, c), self._locator.run, c, self._turns)

        return heads_in_strips(frame, whole, c.locator_multiple, c.stride)

    def locate(self, tensor: np.ndarray) -> np.ndarray:
        """The locator's heads for one prepared input tensor [1, 3, H, W] (a mosaic)."""
        return self._locator.run(tensor)

    def classify(self, crops: np.ndarray) -> np.ndarray:
        """The classifier's logits [N, classes] for normalised index crops [N, 3, h, w]."""
        chunks = [self._classifier.run(chunk)[:count] for chunk, count in self._chunks(crops)]
        if not chunks:
            return np.zeros((0, len(self.contract.classes)), np.float32)
        return np.concatenate(chunks)

    def classify_with_features(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The classifier's logits [N, classes] and features [N, D], from one run. Raises
        :class:`RecogniserError` where the classifier gives no features."""
        if not self.gives_features:
            raise RecogniserError(
                f"{self._classifier.path.name} gives no {FEATURES!r}: a deck profile needs a "
                "classifier exported with them"
            )
        runs = [
            tuple(out[:count] for out in self._classifier.run_with(chunk, FEATURES))
            for chunk, count in self._chunks(crops)
        ]
        if not runs:
            return np.zeros((0, len(self.contract.classes)), np.float32), np.zeros((0, 0))
        return np.concatenate([r[0] for r in runs]), np.concatenate([r[1] for r in runs])

    def _chunks(self, crops: np.ndarray) -> Iterator[tuple[np.ndarray, int]]:
        """``crops`` a batch at a time, each with its count of real crops: a model exported
        with a fixed batch size gets exactly that many, padded with blanks."""
        for start in range(0, len(crops), self.batch):
            chunk = crops[start : start + self.batch]
            count = len(chunk)
            if self._fixed_batch and count < self.batch:
                chunk = np.concatenate(
                    [chunk, np.zeros((self.batch - count, *chunk.shape[1:]), np.float32)]
                )
            yield chunk, count

    def on_card(self, crops: np.ndarray) -> np.ndarray:
        """The verifier's probability that each normalised context crop shows an index printed
        on a card [N]."""
        rows = [
            self.verifier.run(crops[start : start + self.batch])[:, 0]
            for start in range(0, len(crops), self.batch)
        ]
        return sigmoid(np.concatenate(rows)) if rows else np.zeros(0)

    def refined(self, crops: np.ndarray) -> np.ndarray:
        """The refiner's geometry [N, len(REFINED)] for crops around doubtful marks."""
        return self.refiner.run(crops)

    def widened(self, crops: np.ndarray) -> np.ndarray:
        """The wider classifier's logits [N, classes] for crops wider than an index's."""
        return self.wider.run(crops)

    def faces(self, faces: np.ndarray) -> np.ndarray:
        """The face reader's logits [N, classes] for normalised images of whole cards."""
        return self.face.run(faces)

    def warm_up(self, size: tuple[int, int] = WARM_UP_SIZE) -> None:
        """Run every network once, so the first real frame is not the slow one, and check that
        their outputs have the contract's shapes."""
        width, height = size
        heads = self.heads(np.zeros((height, width, 3), np.uint8))
        c = self.contract
        stride = c.stride
        if heads.ndim != 4 or heads.shape[1] != c.head_channels or heads.shape[2] * stride < height:
            raise RecogniserError(
                f"the locator gives {heads.shape}, the contract [1, {c.head_channels}, H/{stride}, "
                f"W/{stride}]"
            )
        logits = self.classify(np.zeros((1, 3, c.crop_h, c.crop_w), np.float32))
        if logits.shape != (1, len(c.classes)):
            raise RecogniserError(
                f"the classifier gives {logits.shape}, the contract [N, {len(c.classes)}] "
                "(one logit per class)"
            )
        classes = len(c.classes)
        optional = (  # each present network run on two blank inputs: (name, net, input, outputs)
            ("verifier", self.verifier, (c.verify_side,) * 2, 1),
            ("wider classifier", self.wider, (c.crop_h, c.crop_w), classes),
            ("refiner", self.refiner, (c.refine_side,) * 2, len(spec.REFINED)),
            ("face reader", self.face, (spec.FACE_H, spec.FACE_W), classes),
        )
        for name, net, side, outputs in optional:
            if net is None:
                continue
            shape = net.run(np.zeros((2, 3, *side), np.float32)).shape
            if shape != (2, outputs):
                raise RecogniserError(
                    f"the {name} gives {shape} for 2 inputs, the contract [N, {outputs}]"
                )
