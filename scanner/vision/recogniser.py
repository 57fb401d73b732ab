"""The recogniser: the ONNX sessions built once, then ``read(frame)`` per frame."""

from __future__ import annotations

import functools
import hashlib
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from scanner.vision import closer, suit_below
from scanner.vision import contract as spec
from scanner.vision.cards import CardReading, IndexReading, merge_cards, suppress_duplicates
from scanner.vision.contract import Contract
from scanner.vision.decks import best_in_deck, check_deck, infer_deck
from scanner.vision.decode import IndexCandidate, decode_heads
from scanner.vision.errors import RecogniserError
from scanner.vision.faces import face_images, face_outline, faces_to_read, with_face
from scanner.vision.faint import FAINT_HEAT, counts, read_in_full
from scanner.vision.gaps import STRAY_HEAT, WALK_HEAT, fan_gaps, fan_strays, read_already
from scanner.vision.grouping import CardGroup
from scanner.vision.large_frame import factor_from_preview, preview_factor, smaller_factor
from scanner.vision.legibility import (
    Advice,
    advice_for,
    legibility_json,
)
from scanner.vision.melds import of_one_rank, read_as_meld, read_with_melds
from scanner.vision.preprocess import (
    check_frame,
    context_crops,
    index_crops,
    locator_input,
    normalise,
    wider_crops,
)
from scanner.vision.proportion import in_proportion
from scanner.vision.refine import refine_crops, refined_place
from scanner.vision.scale import (
    SIZES_SURE,
    indices_scaled_back,
    median_size,
    reading_scale,
    scaled_back,
    scaled_frame,
    small_size,
    sure_index_sizes,
)
from scanner.vision.second_look import second_look_factors, standing
from scanner.vision.strips import heads_in_strips
from scanner.vision.turns import TURN_CHOICES, mean_heads
from scanner.vision.unread import agreed_unread
from scanner.vision.verifier import settle_lone_doubts
from scanner.vision.wider import small_cards, with_wider

log = logging.getLogger(__name__)
LOCATOR_FILE = "locator.onnx"
CLASSIFIER_FILE = "classifier.onnx"
VERIFIER_FILE = "verifier.onnx"  # optional: without it no reading is doubted
REFINER_FILE = "refiner.onnx"  # optional: without it a doubtful mark is read where it was made
WIDER_FILE = "wider.onnx"  # optional: without it a small index is read by the classifier alone
FACE_FILE = "face.onnx"  # optional: without it a card's face is not read (``faces.py``)
OPTIONAL_FILES = (VERIFIER_FILE, REFINER_FILE, WIDER_FILE, FACE_FILE)
# The classifier, verifier and wider classifier in 8-bit integers (model/recogniser/quantize.py),
# read in their place where they lie beside the float files they were made from: 1.8 times as
# fast a crop, deciding as the float models do on every crop they read at least 0.5 sure.
INT8_FILES = {
    CLASSIFIER_FILE: "classifier.int8.onnx",
    VERIFIER_FILE: "verifier.int8.onnx",
    WIDER_FILE: "wider.int8.onnx",
}
FLOAT_DIGEST = "float_sha256"  # a twin's metadata: the SHA-256 of the float file it was made from
# A twin's metadata: its weights' bits. With 8, a CPU without VNNI (most PCs before 2019, and
# AMD's before Zen 4) saturates the sums of u8 × s8 pairs in 16 bits and reads another card;
# with 7 no sum can overflow, and every CPU computes the same integers.
WEIGHT_BITS = "weight_bits"
SAFE_WEIGHT_BITS = "7"
CLASSIFIER_BATCH = 64  # crops per classifier run: its activations grow with the batch
RETRY_TURNS = (-90.0, -60.0, -30.0, -15.0, 15.0, 30.0, 60.0, 90.0)
UNSURE_BELOW = 0.7  # a reading less sure than this is also read again, turned
RETRY_CONFIDENCE = 0.8  # a mark read again turned counts only this sure
# A doubtful mark read again where the refiner says its index lies counts this sure. On 400 busy
# validation scenes (seeds 7777, 7878, 7979) and 480 one-side tables (8181, 8282, 8383): 0.8
# (as a turned reading) found 96.0–97.1 % of the cards, 49.8 % of the scenes exact, 412 tables
# right; 0.7: 96.2–97.3 %, 51.0 %, 410; 0.6: 96.3–97.2 %, 51.5 %, 408.
REFINED_SURE = 0.7
# The refiner learnt marks a little off their indices (``model/recogniser/refine.py``); the
# marks of cards missed lie further off (a fifth of the index at the median), and one answer
# takes them part of the way. Its place is given to it again, and that answer read. On the five
# busy validation sets (seeds 6161, 6262, 7777, 7878, 7979) twice against once: cards missed
# 1,116 → 1,109, read as another code 951 → 926, double counts 115 → 106, phantoms 40 → 38,
# scenes exact 270 → 268 of 500; 200 one-side validation tables (8282) right 182 → 184, wrong
# without a check 2 → 1. Three times: no better on 7777 and 7878.
REFINE_ROUNDS = 2
# A card read in a fan's gap (gaps.py) counts where, weighed with its meld, it reads at least
# GAP_SURE sure, from a classifier's reading at least GAP_FLOOR sure. On the five busy
# validation sets (the model card, "Gaps in a fan"), read by the classifier alone, GAP_SURE 0.3:
# 794 missed, 142 phantoms, 285 of 500 scenes exact; 0.5: 801, 138, 286; 0.8: 820, 134, 287.
# Weighed with the meld, GAP_FLOOR 0.5: 798, 138, 286; 0.2: 790, 140, 286; 0.1: 789, 141, 286.
GAP_SURE = 0.5
GAP_FLOOR = 0.2
WARM_UP_SIZE = (1280, 960)


@dataclass(frozen=True)
class Reading:
    """What one frame showed: the physical cards, milliseconds spent per stage (``locate``,
    ``decode``, ``classify``, ``verify``, ``total``), the deck the cards were read as (None
    when nothing was read surely and no deck was expected), the factor the frame was scaled by
    to be read (``scale.py``; the cards are in the frame's own pixels), every index read
    before the corners were paired into cards, "not an index" included (``handfoot eval``
    says from them what became of a card missed), and the median size of the indices read as
    cards and the size the smallest fifth of them lie under, in the frame's own pixels (None
    when fewer than eight were read)."""

    cards: tuple[CardReading, ...]
    timing_ms: dict[str, float]
    deck: str | None = None
    scale: float = 1.0
    indices: tuple[IndexReading, ...] = ()
    index_px: float | None = None  # the median short side of the indices read as cards
    small_px: float | None = None  # the short side the smallest fifth of them lie under

    @property
    def advice(self) -> Advice | None:
        """What the players could change for a better reading (``legibility.py``)."""
        return advice_for(self.small_px)

    def as_json(self) -> dict:
        return {
            "cards": [card.as_json() for card in self.cards],
            "deck": self.deck,
            "scale": round(self.scale, 3),
            **legibility_json(self.index_px, self.small_px),
            "timing_ms": {stage: round(ms, 1) for stage, ms in self.timing_ms.items()},
        }


def _quarter_turns(turns: int) -> tuple[int, ...]:
    if turns not in TURN_CHOICES:
        raise RecogniserError(f"turns is one of {sorted(TURN_CHOICES)}, not {turns}")
    return TURN_CHOICES[turns]


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
        # between the many small runs of a frame needs: on two cores, two spinning threads
        # read the bench's frames slower than one (median 431 against 334 ms), two that sleep
        # faster (306 ms)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime raises its own classes for a damaged file
        raise RecogniserError(f"{path}: not a model onnxruntime can load ({error})") from None


@functools.cache  # once a process: onnxruntime's environment holds one
def _shared_arena() -> bool:
    """Whether onnxruntime's environment holds one memory arena on the CPU that every session
    may draw from, registering it. Each session grows an arena of its own to the largest run
    it has seen and keeps it: one shared by the five models peaked 16 MB lower on the bench's
    busy frames (239.5 against 255.9 MB), the readings and the time alike. Where this
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


def _summed(timing: dict[str, float], more: dict[str, float]) -> dict[str, float]:
    """Two readings' milliseconds, stage by stage: a frame read twice took both."""
    return {stage: spent + more[stage] for stage, spent in timing.items()}


def softmax(logits: np.ndarray) -> np.ndarray:
    """Class probabilities [N, C] from the classifier's logits [N, C], in float64."""
    shifted = logits.astype(np.float64) - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=1, keepdims=True)


def sigmoid(logits: np.ndarray) -> np.ndarray:
    """Probabilities from one-logit outputs (the verifier's), in float64."""
    return 1.0 / (1.0 + np.exp(-logits.astype(np.float64)))


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex: what an int8 twin records of its float model."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _names(session, wanted_input: str, wanted_output: str, path: Path) -> tuple[str, str]:
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
    return inputs[0], wanted_output if wanted_output in outputs else outputs[0]


def _meld_read(reading: IndexReading, moved: dict[tuple, CardReading]) -> IndexReading:
    """``reading`` with the code and confidence its meld read in it, where that moved."""
    card = moved.get(reading.index.index_box())
    if card is None:
        return reading
    return replace(reading, code=card.code, confidence=card.confidence)


def _as_read(card: CardReading, read: CardReading) -> CardReading:
    """``card`` with the code and confidence of ``read``, the same index read before, asking
    for a check where either does (paired again, it may now be disputed)."""
    check = read.check or card.check
    return replace(card, code=read.code, confidence=read.confidence, check=check)


def replaces(first: IndexReading, code: str, confidence: float, floor: float, none: str) -> bool:
    """Whether a second reading (``code``, ``confidence``) of a doubtful mark, turned or moved,
    replaces the ``first``: it reads a card at least ``floor`` sure, and surer than a card
    read the first time. "Not an index" (``none``) the first time counts as no card at all,
    however sure: the classifier learnt to call an index seen at a wrong angle or beside the
    crop "not an index", and the locator's misses are such marks (measured on 200 busy
    validation scenes: large, sharp indices marked 60–90° off and read "not an index" 0.93–1.0
    sure, read 0.92–0.97 sure turned, stayed missed while the "not an index" counted)."""
    before = 0.0 if first.code == none else first.confidence
    return code != none and confidence >= floor and confidence > before


class Recogniser:
    """Reads the cards in a frame with the locator and the classifier.

    Build it with :meth:`load` (sessions are created once and warmed up); call :meth:`read`
    for every frame, from one thread at a time."""

    def __init__(
        self,
        locator,
        classifier,
        contract: Contract,
        names: dict[str, str],
        turns: int = 4,
        verifier=None,
        look_closer: bool = True,
        rescale: bool = True,
        files: tuple[str, ...] = (),
        refiner=None,
        wider=None,
        face=None,
    ) -> None:
        self._turns = _quarter_turns(turns)
        self.files = files  # the model files read, by name: which twins, for the benches
        self._look_closer = look_closer
        self._rescale = rescale
        self._locator = locator
        self._classifier = classifier
        self._verifier = verifier
        self._refiner = refiner
        self._wider = wider
        self._face = face
        # px on an index's short side below which the wider classifier reads it, in the frame
        # being read: WIDER_BELOW in the frame as it came, times the factor it was scaled by
        self._wider_below = contract.wider_below
        self.contract = contract
        self._names = names
        batch = classifier.get_inputs()[0].shape[0]
        # a model exported with a fixed batch size gets exactly that many crops per run
        self._batch = batch if isinstance(batch, int) and batch > 0 else CLASSIFIER_BATCH
        self._fixed_batch = isinstance(batch, int) and batch > 0

    @classmethod
    def load(
        cls,
        model_dir: Path | str | None = None,
        threads: int = 1,
        turns: int = 4,
        look_closer: bool = True,
        rescale: bool = True,
        quantized: bool = True,
        refine: bool = True,
        wider: bool = True,
        face: bool = True,
    ) -> Recogniser:
        """The models from ``model_dir`` (default: the ``model`` package), on ``threads``
        threads each, warmed up on a blank frame: the locator, the classifier and, where the
        folder holds them, the verifier (``verifier.py``) and the refiner (``refine.py``). The
        locator reads each frame ``turns`` ways (1, 2 or 4 quarter turns, see ``turns.py``): 4
        finds the most cards, 1 takes about half the time. ``look_closer``: small marks read
        "not an index" are located again scaled up (``closer.py``). ``rescale``: a frame of
        small indices is read scaled up (``scale.py``). ``quantized``: the int8 classifier,
        verifier and wider classifier are read where the folder holds them, made from its float
        files as they are (INT8_FILES), the float ones otherwise. ``refine``: the refiner is
        read where the folder holds one (False: as if it held none). ``wider``: the same for
        the wider classifier (``wider.py``), ``face`` for the face reader (``faces.py``).
        Raises :class:`RecogniserError` when a file is missing or does not follow the
        contract."""
        folder = Path(model_dir) if model_dir is not None else default_model_dir()
        if threads < 1:
            raise RecogniserError(f"threads must be at least 1, not {threads}")
        _quarter_turns(turns)  # refused before the models are loaded
        locator_path = folder / LOCATOR_FILE
        locator = open_session(locator_path, threads)
        classifier, classifier_path = _open_model(folder, CLASSIFIER_FILE, quantized, threads)
        contract = Contract.load(folder)
        image, heads = _names(locator, "image", "heads", locator_path)
        crops, logits = _names(classifier, "crops", "logits", classifier_path)
        names = {"image": image, "heads": heads, "crops": crops, "logits": logits}
        verifier, verifier_path = _open_model(folder, VERIFIER_FILE, quantized, threads)
        if verifier is not None:
            names["context"], names["logit"] = _names(verifier, "context", "logit", verifier_path)
        refiner, refiner_path = None, folder / REFINER_FILE
        if refine:
            refiner, refiner_path = _open_model(folder, REFINER_FILE, quantized, threads)
        if refiner is not None:
            names["around"], names["geometry"] = _names(refiner, "around", "geometry", refiner_path)
        wider_model, wider_path = None, folder / WIDER_FILE
        if wider:
            wider_model, wider_path = _open_model(folder, WIDER_FILE, quantized, threads)
        if wider_model is not None:
            names["wide_crops"], names["wide_logits"] = _names(
                wider_model, "crops", "logits", wider_path
            )
        face_model, face_path = None, folder / FACE_FILE
        if face:
            face_model, face_path = _open_model(folder, FACE_FILE, quantized, threads)
        if face_model is not None:
            names["faces"], names["face_logits"] = _names(face_model, "faces", "logits", face_path)
        read = (locator_path, classifier_path) + ((verifier_path,) if verifier else ())
        read += (refiner_path,) if refiner else ()
        read += (wider_path,) if wider_model else ()
        read += (face_path,) if face_model else ()
        recogniser = cls(
            locator,
            classifier,
            contract,
            names,
            turns,
            verifier,
            look_closer,
            rescale,
            tuple(path.name for path in read),
            refiner,
            wider_model,
            face_model,
        )
        recogniser.warm_up()
        return recogniser

    def warm_up(self, size: tuple[int, int] = WARM_UP_SIZE) -> None:
        """Run both models once, so the first real frame is not the slow one, and check that
        their outputs have the contract's shapes."""
        width, height = size
        heads = self._locate(np.zeros((height, width, 3), np.uint8))
        c = self.contract
        stride = c.stride
        if heads.ndim != 4 or heads.shape[1] != c.head_channels or heads.shape[2] * stride < height:
            raise RecogniserError(
                f"the locator gives {heads.shape}, the contract [1, {c.head_channels}, H/{stride}, "
                f"W/{stride}]"
            )
        logits = self._classify(np.zeros((1, 3, c.crop_h, c.crop_w), np.float32))
        if logits.shape != (1, len(c.classes)):
            raise RecogniserError(
                f"the classifier gives {logits.shape}, the contract [N, {len(c.classes)}] "
                "(one logit per class)"
            )
        classes = len(c.classes)
        optional = (  # each present model run on two blank inputs: (name, run, input, outputs)
            ("verifier", self._verifier, self._run_verifier, (c.verify_side,) * 2, 1),
            ("wider classifier", self._wider, self._run_wider, (c.crop_h, c.crop_w), classes),
            ("refiner", self._refiner, self._run_refiner, (c.refine_side,) * 2, len(spec.REFINED)),
            ("face reader", self._face, self._run_face, (spec.FACE_H, spec.FACE_W), classes),
        )
        for name, model, run, size, outputs in optional:
            if model is None:
                continue
            shape = run(np.zeros((2, 3, *size), np.float32)).shape
            if shape != (2, outputs):
                raise RecogniserError(
                    f"the {name} gives {shape} for 2 inputs, the contract [N, {outputs}]"
                )

    def read(self, frame: np.ndarray, deck: str | None = None, *, melds: bool = True) -> Reading:
        """The cards in an RGB uint8 frame [H, W, 3], each held to one deck: the deck most of
        the frame reads, where ``deck`` ("standard" or "special", the deck the rules play)
        weighs as much as three sure readings (see ``decks.py``). With ``melds``, the cards
        lying in a meld are read knowing that a meld's cards share a rank (``melds.py``):
        leave it off for cards that need not (a hand's leftovers). A frame larger than the
        locator learnt is read at the size its indices measure in a preview, a smaller one
        whose indices are larger than it reads well also smaller (``large_frame.py``). A frame
        in which no card is read is read again at other sizes (a small one larger, a large one
        smaller), and the cards read there without a check kept (``second_look.py``)."""
        check_deck(deck)
        check_frame(frame)
        height, width = frame.shape[:2]
        preview = preview_factor((width, height)) if self._rescale else None
        if preview is None:
            reading = self._read_large_indices(frame, deck, melds)
            looked = [1.0]
        else:
            reading, looked = self._read_large(frame, deck, melds, preview)
        if reading.cards or reading.scale not in looked or not self._rescale:
            return reading  # cards read, or read scaled up for small indices already
        timing = reading.timing_ms
        for factor in second_look_factors((width, height), self.contract.scale_up_pixels, looked):
            again = self._read_at(frame, deck, melds, factor)
            timing = _summed(timing, again.timing_ms)
            cards = standing(again.cards)
            if cards:
                return replace(again, cards=cards, timing_ms=timing)
        return replace(reading, timing_ms=timing)

    def _read_large_indices(self, frame: np.ndarray, expected: str | None, melds: bool) -> Reading:
        """:meth:`read` of a frame no larger than the locator learnt, as it came, and, where the
        indices read in it as cards are larger than it reads well, also smaller
        (``large_frame.smaller_factor``): the reading with more cards read without a check,
        with the time of both."""
        reading = self._read_scaled(frame, expected, melds, 1.0)
        if not reading.cards or reading.scale != 1.0 or not self._rescale:
            return reading
        factor = smaller_factor(self._sure_sizes(reading), (frame.shape[1], frame.shape[0]))
        if factor is None:
            return reading
        again = self._read_at(frame, expected, melds, factor)
        kept = again if len(standing(again.cards)) > len(standing(reading.cards)) else reading
        return replace(kept, timing_ms=_summed(reading.timing_ms, again.timing_ms))

    def _read_large(
        self, frame: np.ndarray, expected: str | None, melds: bool, preview: float
    ) -> tuple[Reading, list[float]]:
        """:meth:`read` of a frame larger than the locator learnt: first its preview, scaled by
        ``preview`` (and not scaled up again), then, where the indices read there call for
        another size, the frame at that size (``large_frame.py``); in the frame's own pixels,
        with the time of both readings, and the factors read at."""
        first = self._read_at(frame, expected, melds, preview, rescale=False)
        factor = factor_from_preview(self._sure_sizes(first), preview)
        if factor == preview:
            return first, [preview]
        again = self._read_at(frame, expected, melds, factor)
        kept = first if first.cards and not again.cards else again  # the preview's, if only it read
        return replace(kept, timing_ms=_summed(first.timing_ms, again.timing_ms)), [preview, factor]

    def _read_at(
        self,
        frame: np.ndarray,
        expected: str | None,
        melds: bool,
        factor: float,
        rescale: bool = True,
    ) -> Reading:
        """:meth:`_read_scaled` of ``frame`` scaled by ``factor``, in the frame's own pixels."""
        scaled = frame if factor == 1.0 else scaled_frame(frame, factor)
        reading = self._read_scaled(scaled, expected, melds, factor, rescale)
        if factor == 1.0:
            return reading
        return self._reading(
            scaled_back(reading.cards, factor),
            reading.timing_ms,
            reading.deck,
            reading.scale * factor,
            indices_scaled_back(reading.indices, factor),
        )

    def _sure_sizes(self, reading: Reading) -> list[float]:
        """The short sides of the indices ``reading`` read as cards at least SIZES_SURE sure, in
        the frame's own pixels: what the scale a frame is read at is judged by."""
        return sure_index_sizes(reading.indices, self.contract.not_an_index, SIZES_SURE)

    def _read_scaled(
        self,
        frame: np.ndarray,
        expected: str | None,
        melds: bool,
        scaled: float,
        rescale: bool = True,
    ) -> Reading:
        """:meth:`read` of ``frame``, which is the frame as it came scaled by ``scaled``: the
        wider classifier's bound is in the pixels of the frame as it came. With ``rescale``
        (and the recogniser's), a frame of small indices is read again scaled up."""
        started = time.perf_counter()
        self._wider_below = self.contract.wider_below * scaled
        candidates = self._marks(frame)
        located = time.perf_counter()
        readings, deck, passed_over = self._read_indices(frame, candidates, expected)
        classified = time.perf_counter()
        locate_s, classify_s = located - started, classified - located
        factor = self._scale_for(frame, readings) if self._rescale and rescale else 1.0
        if factor != 1.0:  # read again from the start, and both readings' time counted
            frame = scaled_frame(frame, factor)
            self._wider_below = self.contract.wider_below * scaled * factor
            candidates = self._marks(frame)
            located = time.perf_counter()
            readings, deck, passed_over = self._read_indices(frame, candidates, expected)
            locate_s += located - classified
            classified = time.perf_counter()
            classify_s += classified - located
        readings = agreed_unread(readings, self.contract.classes, deck, self.contract.not_an_index)
        readings = self._verify(frame, readings)
        verified = time.perf_counter()
        bounds = (frame.shape[1], frame.shape[0])
        cards = merge_cards(
            readings,
            not_an_index=self.contract.not_an_index,
            min_confidence=self.contract.min_confidence,
            classes=self.contract.classes,
            bounds=bounds,
            faint_below=self.contract.peak_threshold,
        )
        cards = self._read_faces(frame, cards)
        if melds:
            cards, melds_read = self._read_with_melds(readings, cards, deck, bounds)
            cards = self._fill_gaps(frame, readings, passed_over, cards, melds_read, deck)
        cards = scaled_back(in_proportion(cards), factor)
        indices = indices_scaled_back(readings, factor)
        done = time.perf_counter()
        timing = {
            "locate": locate_s * 1000,
            "classify": classify_s * 1000,
            "verify": (verified - classified) * 1000,
            "decode": (done - verified) * 1000,
            "total": (done - started) * 1000,
        }
        log.debug(
            "read %d cards from %d indices in %.0f ms (scaled %.2f)",
            len(cards),
            len(candidates),
            timing["total"],
            factor,
        )
        return self._reading(cards, timing, deck, factor, indices)

    def _reading(
        self,
        cards: Sequence[CardReading],
        timing: dict,
        deck: str | None,
        scale: float,
        indices: Sequence[IndexReading],
    ) -> Reading:
        """A :class:`Reading` of ``cards`` and ``indices`` (in the frame's own pixels), with
        the sizes of the indices read as cards measured."""
        c = self.contract
        sizes = sure_index_sizes(indices, c.not_an_index, c.min_confidence)
        return Reading(
            tuple(cards), timing, deck, scale, tuple(indices), median_size(sizes), small_size(sizes)
        )

    def heads(self, frame: np.ndarray) -> np.ndarray:
        """The locator's heads [1, C, H', W'] for an RGB uint8 frame [H, W, 3], averaged over
        the turns it reads the frame in: what its marks are decoded from, on the grid of the
        frame padded to the contract's multiple."""
        return self._locate(frame)  # its input is cut by locator_input, which checks the frame

    def _read_faces(
        self, frame: np.ndarray, cards: tuple[CardReading, ...]
    ) -> tuple[CardReading, ...]:
        """``cards`` read again with their faces where these lie in view (``faces.py``)."""
        wanted = faces_to_read(cards) if self._face is not None else []
        if not wanted:
            return cards
        c = self.contract
        faces = softmax(
            self._run_face(
                normalise(face_images(frame, [face_outline(cards[n]) for n in wanted]), c)
            )
        )
        none = list(c.classes).index(c.not_an_index)
        read = list(cards)
        for n, face in zip(wanted, faces, strict=True):
            read[n] = with_face(cards[n], face, c.classes, none, c.min_confidence)
        return tuple(read)

    def _read_with_melds(
        self,
        readings: list[IndexReading],
        cards: tuple[CardReading, ...],
        deck: str | None,
        bounds: tuple[float, float] | None = None,
    ) -> tuple[tuple[CardReading, ...], tuple[CardGroup, ...]]:
        """``cards`` read knowing a meld's cards share a rank, with the marks read "not an
        index" that their meld reads as a card; those always ask for a check (``melds.py``);
        and the melds they were read in.

        Where the melds moved a code or found a card, the corners are paired again, each
        index read as its meld read it: a top card's far corner read as another rank (a 9 for
        the 6 of its fan, 10 for a King), which two corners read as two codes never pair, is
        read as its meld's rank and so paired with its own card's index, and the card counts
        once. On the five busy validation sets (seeds 6161, 6262, 7777, 7878, 7979) double
        counts 110 → 82, missed 854 → 848, scenes exact 277 → 279 of 500; 480 one-side
        tables as before."""
        c = self.contract
        unread = [reading for reading in readings if reading.code == c.not_an_index]
        read, found, melds = read_with_melds(
            cards, c.classes, deck, c.not_an_index, c.min_confidence, unread
        )
        moved = {
            card.index_box: card
            for card, before in zip(read, cards, strict=True)
            if card.code != before.code
        }
        if not found and not moved:
            return read, melds
        # paired again with the found ones and the codes the melds moved; each card keeps what
        # its meld read in it
        read_again = {card.index_box: card for card in read}
        new = {reading.index.index_box() for reading in found}
        as_read = [_meld_read(reading, moved) for reading in readings] if moved else readings
        merged = merge_cards(
            as_read + found,
            not_an_index=c.not_an_index,
            min_confidence=c.min_confidence,
            classes=c.classes,
            bounds=bounds,
            faint_below=c.peak_threshold,
        )
        return tuple(
            replace(card, check=True)
            if card.index_box in new
            else _as_read(card, read_again.get(card.index_box, card))
            for card in merged
        ), melds

    def _fill_gaps(
        self,
        frame: np.ndarray,
        readings: Sequence[IndexReading],
        faint: Sequence[IndexCandidate],
        cards: tuple[CardReading, ...],
        melds: Sequence[CardGroup],
        deck: str | None,
    ) -> tuple[CardReading, ...]:
        """``cards`` and the cards read on a meld's line of indices where a mark was read "not
        an index" or a ``faint`` one as no card (``fan_strays``; faint marks of at least
        STRAY_HEAT, and of at least WALK_HEAT along a fan that gained a card so), read as the
        meld's cards are,
        then those read between two of a meld's cards (``melds``, as the meld reading grouped
        them) that lie two or three fan steps apart (``gaps.py``): each read there at least
        GAP_FLOOR sure, and at least GAP_SURE sure weighed with that meld.

        A mark there may have been read and then taken for another card's (a cascade's
        indices of one rank lie one below the other, as a joker's word down its corner does),
        so only the indices counted as cards keep a place from being read. Only a meld of one
        rank is looked along (``of_one_rank``): cards of many ranks laid in a row are no fan."""
        if deck is None or not melds:
            return cards
        c = self.contract
        marks = {reading.index.index_box(): reading.index for reading in readings}
        counted = [marks[card.index_box] for card in cards if card.index_box in marks]
        counted_codes = [card.code for card in cards if card.index_box in marks]
        # each meld's cards as they are now; a mark still read "not an index" is no step
        latest = {card.index_box: card for card in cards}
        fans = [
            [latest[card.index_box] for card in meld.cards if card.index_box in latest]
            for meld in melds
        ]
        fan_marks = [
            [marks[card.index_box] for card in fan if card.index_box in marks] for fan in fans
        ]
        melded = [of_one_rank(fan, deck, c.min_confidence) for fan in fans]
        unread = [reading.index for reading in readings if reading.code == c.not_an_index]
        walk = unread + list(faint)
        unread += [mark for mark in faint if mark.score >= STRAY_HEAT]
        added: list[CardReading] = []

        def look(
            where: Callable[[int], list[IndexCandidate]], among: Iterable[int] | None = None
        ) -> set[int]:
            """Reads the places ``where`` gives each fan (those numbered ``among``, or all);
            the fans that gained a card."""
            places, homes, grown = [], [], set()
            for n in range(len(fans)) if among is None else sorted(among):
                if not melded[n]:
                    continue
                found = where(n)
                places += found
                homes += [n] * len(found)
            for home, index, card in self._read_places(
                frame, places, homes, fans, counted, counted_codes, deck
            ):
                counted.append(index)
                counted_codes.append(card.code)
                fans[home].append(card)
                fan_marks[home].append(index)
                added.append(card)
                grown.add(home)
            return grown

        # The strays first: a card found on a fan's line is a step its gaps are measured by.
        # A fan grown so reaches further along its line, so its strays are looked for again,
        # its fainter marks too (a tight fan of Queens marked only faintly, 90° off, is walked
        # one card at a time).
        grown = look(lambda n: fan_strays(fan_marks[n], unread, counted))
        while grown:
            grown = look(lambda n: fan_strays(fan_marks[n], walk, counted), grown)
        look(lambda n: fan_gaps(fan_marks[n], counted))
        return (*cards, *added)

    def _read_places(
        self,
        frame: np.ndarray,
        places: Sequence[IndexCandidate],
        homes: Sequence[int],
        fans: Sequence[Sequence[CardReading]],
        counted: Sequence[IndexCandidate],
        counted_codes: Sequence[str],
        deck: str,
    ) -> list[tuple[int, IndexCandidate, CardReading]]:
        """The cards read at ``places``, each as a card of the fan ``fans[homes[n]]``: read
        there at least GAP_FLOOR sure, at least GAP_SURE sure weighed with that fan, and not one
        of the cards read already (``counted``, read as ``counted_codes``)."""
        if not places:
            return []
        c = self.contract
        codes, confidence, rows = self._read(frame, places, deck)
        first = [
            IndexReading(place, code, sure, probabilities=row)
            for place, code, sure, row in zip(places, codes, confidence, rows, strict=True)
        ]
        # a place lies where the fan's step puts it; its index may lie a little off
        again = self._refine(frame, first, deck)
        # each card read there weighed with its meld, as the meld reading weighs its cards
        weighed = [
            (home, reading.index, self._as_meld_reads(fans[home], reading, deck))
            for reading, home in zip(again, homes, strict=True)
            if reading.code != c.not_an_index and reading.confidence >= GAP_FLOOR
        ]
        # moved by the refiner, a place may land on a card read already, or two on one card
        found: list[tuple[int, IndexCandidate, CardReading]] = []
        for home, index, card in sorted(weighed, key=lambda item: -item[2].confidence):
            taken = [*counted, *(other for _, other, _ in found)]
            taken_codes = [*counted_codes, *(other.code for _, _, other in found)]
            if card.confidence >= GAP_SURE and not read_already(
                index, card.code, taken, taken_codes
            ):
                found.append((home, index, card))
        return found

    def _as_meld_reads(
        self, meld: Sequence[CardReading], reading: IndexReading, deck: str
    ) -> CardReading:
        """``reading`` as a card of ``meld``, read with the meld's cards."""
        c = self.contract
        card = CardReading.from_index(reading, c.min_confidence)
        return read_as_meld([*meld, card], c.classes, deck, c.not_an_index, c.min_confidence)[-1]

    def _scale_for(self, frame: np.ndarray, readings: Sequence[IndexReading]) -> float:
        """The factor to read ``frame`` at (``scale.py``), from the sizes of the indices read
        in it as cards: of the locator's marks on a photo of a few cards, many are patterns
        smaller than any index."""
        height, width = frame.shape[:2]
        return reading_scale(readings, (width, height), self.contract)

    def _marks(self, frame: np.ndarray) -> tuple[IndexCandidate, ...]:
        """The locator's marks in ``frame``, down to the faint ones, one per index."""
        height, width = frame.shape[:2]
        floor = min(FAINT_HEAT, self.contract.peak_threshold)
        heads = self._locate(frame)
        return suppress_duplicates(
            decode_heads(heads, (width, height), self.contract, threshold=floor)
        )

    def _locate(self, frame: np.ndarray) -> np.ndarray:
        c = self.contract
        return heads_in_strips(frame, self._locate_whole, c.locator_multiple, c.stride)

    def _locate_whole(self, frame: np.ndarray) -> np.ndarray:
        return mean_heads(
            locator_input(frame, self.contract), self._run_locator, self.contract, self._turns
        )

    def _run_locator(self, tensor: np.ndarray) -> np.ndarray:
        (heads,) = self._locator.run([self._names["heads"]], {self._names["image"]: tensor})
        return heads

    def _classify(self, crops: np.ndarray) -> np.ndarray:
        chunks = []
        for start in range(0, len(crops), self._batch):
            chunk = crops[start : start + self._batch]
            count = len(chunk)
            if self._fixed_batch and count < self._batch:
                chunk = np.concatenate(
                    [chunk, np.zeros((self._batch - count, *chunk.shape[1:]), np.float32)]
                )
            (logits,) = self._classifier.run([self._names["logits"]], {self._names["crops"]: chunk})
            chunks.append(logits[:count])
        if not chunks:
            return np.zeros((0, len(self.contract.classes)), np.float32)
        return np.concatenate(chunks)

    def _run_verifier(self, crops: np.ndarray) -> np.ndarray:
        feed = {self._names["context"]: crops}
        (logits,) = self._verifier.run([self._names["logit"]], feed)
        return logits

    def _on_card(self, crops: np.ndarray) -> np.ndarray:
        """The verifier's probability that each normalised context crop shows an index printed
        on a card [N]."""
        rows = [
            self._run_verifier(crops[start : start + self._batch])[:, 0]
            for start in range(0, len(crops), self._batch)
        ]
        if not rows:
            return np.zeros(0)
        return sigmoid(np.concatenate(rows))

    def _verify(self, frame: np.ndarray, readings: list[IndexReading]) -> list[IndexReading]:
        """``readings`` less the marks on the table the verifier doubts, those the classifier is
        sure of marked ``doubted`` instead (``verifier.py``); all of them when there is no
        verifier."""
        if self._verifier is None or not readings:
            return readings
        on_card = np.ones(len(readings))
        cards = [n for n, r in enumerate(readings) if r.code != self.contract.not_an_index]
        crops = context_crops(frame, [readings[n].index for n in cards], self.contract)
        on_card[cards] = self._on_card(normalise(crops, self.contract))
        return settle_lone_doubts(
            readings,
            on_card,
            self.contract.verify_below,
            self.contract.not_an_index,
            self.contract.verify_ask_from,
        )

    def _read_indices(
        self, frame: np.ndarray, candidates: tuple[IndexCandidate, ...], expected: str | None
    ) -> tuple[list[IndexReading], str | None, list[IndexCandidate]]:
        """Each candidate read, held to the deck most of the clear marks read (``expected``
        weighing as three sure readings), that deck, and the faint marks of at least WALK_HEAT
        that count as no card (a fan's line may hold them: ``fan_strays``). Faint marks
        (``faint.py``) are kept only where a card is read surely; those near the frame's edge
        are first read as fully as the clear ones."""
        threshold = self.contract.peak_threshold
        none = self.contract.not_an_index
        height, width = frame.shape[:2]
        in_full = [c.score > threshold or read_in_full(c, (width, height)) for c in candidates]
        marks = [c for c, full in zip(candidates, in_full, strict=True) if full]
        faint = [c for c, full in zip(candidates, in_full, strict=True) if not full]
        probabilities, deck = self._with_suits_below(
            frame, marks, self._probabilities(frame, marks), expected
        )
        codes, confidence = self._pick(probabilities, deck)
        readings = [
            IndexReading(candidate, codes[n], confidence[n], probabilities=probabilities[n])
            for n, candidate in enumerate(marks)
        ]
        readings = self._read_again(frame, readings, deck)
        readings = self._refine(frame, readings, deck)
        if self._look_closer:
            readings = self._closer(frame, readings, deck)
        readings = [
            reading
            for mark, reading in zip(marks, readings, strict=True)
            if mark.score > threshold or counts(mark, reading.code, reading.confidence, none)
        ]
        passed_over = []
        if faint:  # read once: turning every faint mark would cost more than it finds
            codes, confidence, rows = self._read(frame, faint, deck)
            for n, candidate in enumerate(faint):
                if counts(candidate, codes[n], confidence[n], none):
                    readings.append(
                        IndexReading(candidate, codes[n], confidence[n], probabilities=rows[n])
                    )
                elif candidate.score >= WALK_HEAT:
                    passed_over.append(candidate)
        return readings, deck, passed_over

    def _with_suits_below(
        self,
        frame: np.ndarray,
        marks: Sequence[IndexCandidate],
        probabilities: np.ndarray,
        expected: str | None,
    ) -> tuple[np.ndarray, str | None]:
        """``probabilities`` [marks, classes] and the frame's deck, a mark read as a bare number
        both decks print read again where its suit sign would lie (``suit_below.py``): where
        the frame, so read, is a standard deck's, with those readings; else as first read."""
        classes = self.contract.classes
        bare = suit_below.bare_numbers(probabilities, classes)
        if bare:
            grown = self._probabilities(frame, [suit_below.grown_down(marks[n]) for n in bare])
            taken = suit_below.take_grown(probabilities, bare, grown, classes)
            deck = infer_deck(taken, classes, expected)
            if deck == "standard":
                return taken, deck
        return probabilities, infer_deck(probabilities, classes, expected)

    def _doubtful(self, readings: Sequence[IndexReading]) -> list[int]:
        """Where ``readings`` are "not an index" or less than UNSURE_BELOW sure."""
        none = self.contract.not_an_index
        return [n for n, r in enumerate(readings) if r.code == none or r.confidence < UNSURE_BELOW]

    def _run_refiner(self, crops: np.ndarray) -> np.ndarray:
        feed = {self._names["around"]: crops}
        (geometry,) = self._refiner.run([self._names["geometry"]], feed)
        return geometry

    def _run_face(self, faces: np.ndarray) -> np.ndarray:
        (logits,) = self._face.run([self._names["face_logits"]], {self._names["faces"]: faces})
        return logits

    def _refine(
        self, frame: np.ndarray, readings: list[IndexReading], deck: str | None
    ) -> list[IndexReading]:
        """A mark still read "not an index" or unsurely, read again where the refiner says its
        index lies (``refine.py``, asked REFINE_ROUNDS times, each time from its last answer);
        a card read there at least REFINED_SURE sure, and surer than a card read where the mark
        was made, counts."""
        none = self.contract.not_an_index
        doubtful = self._doubtful(readings)
        if self._refiner is None or not doubtful:
            return readings
        moved = [readings[n].index for n in doubtful]
        for _ in range(REFINE_ROUNDS):
            moved = self._refined_places(frame, moved)
        codes, confidence, rows = self._read(frame, moved, deck)
        kept = list(readings)
        for k, n in enumerate(doubtful):
            if replaces(readings[n], codes[k], confidence[k], REFINED_SURE, none):
                kept[n] = IndexReading(moved[k], codes[k], confidence[k], probabilities=rows[k])
        return kept

    def _refined_places(
        self, frame: np.ndarray, places: list[IndexCandidate]
    ) -> list[IndexCandidate]:
        """Each of ``places`` moved where the refiner says its index lies."""
        geometry = np.concatenate(
            [
                self._run_refiner(
                    normalise(refine_crops(frame, chunk, self.contract), self.contract)
                )
                for start in range(0, len(places), self._batch)
                for chunk in [places[start : start + self._batch]]
            ]
        )
        return [
            refined_place(place, answer, self.contract)
            for place, answer in zip(places, geometry, strict=True)
        ]

    def _closer(
        self, frame: np.ndarray, readings: list[IndexReading], deck: str | None
    ) -> list[IndexReading]:
        """Each small mark read "not an index" located again in a patch scaled up, and read
        where the locator marks the same index there; a card read so, sure enough to count
        without a check, replaces it (see ``closer.py``: less sure, a third of such readings
        were phantoms or a wrong code)."""
        none = self.contract.not_an_index
        small = closer.worth_a_closer_look(readings, none)
        if not small:
            return readings
        places = [readings[n].index for n in small]
        mosaic = closer.build_mosaic(frame, [(p.x, p.y) for p in places], self.contract)
        height, width = mosaic.tensor.shape[2:]
        marks = decode_heads(
            self._run_locator(mosaic.tensor), (width, height), self.contract, limit=10 * len(small)
        )
        found = closer.closer_marks(places, closer.marks_in_frame(mosaic, marks))
        if not found:
            return readings
        order = sorted(found)
        codes, confidence, rows = self._read(frame, [found[k] for k in order], deck)
        kept = list(readings)
        for k, code, sure, row in zip(order, codes, confidence, rows, strict=True):
            if code != none and sure >= self.contract.min_confidence:
                kept[small[k]] = IndexReading(found[k], code, sure, probabilities=row)
        return kept

    def _probabilities(self, frame: np.ndarray, places: Sequence[IndexCandidate]) -> np.ndarray:
        """The classifier's class probabilities for each place [N, classes], a small index
        read as a card held to the card the wider classifier reads too (``wider.py``); crops
        are cut a batch at a time, so a busy frame never holds them all at once."""
        rows = []
        for start in range(0, len(places), self._batch):
            chunk = places[start : start + self._batch]
            probabilities = softmax(self._classify(index_crops(frame, chunk, self.contract)))
            rows.append(self._widened(frame, chunk, probabilities))
        return np.concatenate(rows) if rows else np.zeros((0, len(self.contract.classes)))

    def _widened(
        self, frame: np.ndarray, places: Sequence[IndexCandidate], probabilities: np.ndarray
    ) -> np.ndarray:
        """``probabilities`` with each small index read as a card held to the card most likely
        to both classifiers (``wider.py``); as they are without a wider classifier."""
        if self._wider is None:
            return probabilities
        none = self.contract.classes.index(self.contract.not_an_index)
        small = small_cards(probabilities, places, none, self._wider_below)
        if not small:
            return probabilities
        crops = normalise(
            wider_crops(frame, [places[n] for n in small], self.contract), self.contract
        )
        widened = probabilities.copy()
        widened[small] = with_wider(probabilities[small], softmax(self._run_wider(crops)), none)
        return widened

    def _run_wider(self, crops: np.ndarray) -> np.ndarray:
        feed = {self._names["wide_crops"]: crops}
        (logits,) = self._wider.run([self._names["wide_logits"]], feed)
        return logits

    def _pick(self, probabilities: np.ndarray, deck: str | None) -> tuple[list[str], list[float]]:
        best, confidence = best_in_deck(probabilities, self.contract.classes, deck)
        return [self.contract.classes[k] for k in best], [float(p) for p in confidence]

    def _read(
        self, frame: np.ndarray, places: Sequence[IndexCandidate], deck: str | None
    ) -> tuple[list[str], list[float], np.ndarray]:
        """The best class of ``deck`` for each place, its probability, and every class's."""
        probabilities = self._probabilities(frame, places)
        return (*self._pick(probabilities, deck), probabilities)

    def _read_again(
        self, frame: np.ndarray, readings: list[IndexReading], deck: str | None
    ) -> list[IndexReading]:
        """A mark the classifier calls "not an index", or reads unsurely, is most often a real
        index whose angle the locator missed (measured: median 33° on the marks called "not an
        index"): read it again turned by 15–90°, and keep a card the classifier reads surely
        there (``replaces``). On 120 validation scenes: recall 83.5 → 85.7 %, codes right 93.8
        → 94.8 %, precision 92.5 → 92.6 %."""
        none = self.contract.not_an_index
        doubtful = self._doubtful(readings)
        if not doubtful:
            return readings
        turned = [
            replace(readings[n].index, angle=(readings[n].index.angle + turn) % 360.0)
            for n in doubtful
            for turn in RETRY_TURNS
        ]
        codes, confidence, rows = self._read(frame, turned, deck)
        kept = list(readings)
        for k, n in enumerate(doubtful):
            tries = range(k * len(RETRY_TURNS), (k + 1) * len(RETRY_TURNS))
            best = max(tries, key=lambda t: (codes[t] != none, confidence[t]))
            if replaces(readings[n], codes[best], confidence[best], RETRY_CONFIDENCE, none):
                kept[n] = IndexReading(
                    turned[best], codes[best], confidence[best], probabilities=rows[best]
                )
        return kept
