"""What the shipped models take and give: the contract between inference (``scanner/vision``)
and training (``model/``), which imports it from here. Plain Python, so inference needs neither
torch nor training code.

The locator sees the whole frame and marks the centre of every printed corner index; the
classifier reads one upright crop around each marked index. The constants below are the
contract as this code knows it; a :class:`Contract` holds the ones a model folder's
``recogniser.json`` gives (so a model and its constants travel together), these where it has
none.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from scanner.vision.errors import RecogniserError

log = logging.getLogger(__name__)
# A Path, not a str: the manifest written with the models holds every upper-case number, str and
# tuple of this module, and this name is none of the contract's.
MANIFEST = Path("recogniser.json")

STANDARD_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
STANDARD_CLASSES = (*(rank + colour for rank in STANDARD_RANKS for colour in "RB"), "JK")
SPECIAL_CLASSES = (
    *(str(n) for n in range(1, 13)),
    "LORD",
    "LADY",
    "VILLAIN",
    "JESTER",
    "JOKER",
)
NOT_AN_INDEX = "none"
CLASSES = (*STANDARD_CLASSES, *SPECIAL_CLASSES, NOT_AN_INDEX)


def deck_of(code: str) -> str | None:
    if code in STANDARD_CLASSES:
        return "standard"
    if code in SPECIAL_CLASSES:
        return "special"
    return None


# -- the locator ---------------------------------------------------------------------------------
# Input "image": float32 [1, 3, H, W], RGB, (pixel / 255 - MEAN) / STD, H and W multiples of
# LOCATOR_MULTIPLE (pad the frame bottom/right with zeros after normalising).
# Output "heads": float32 [1, HEAD_CHANNELS, H / STRIDE, W / STRIDE], one cell per STRIDE px.
MEAN = 0.5
STD = 0.25
STRIDE = 4
LOCATOR_MULTIPLE = 32

HEAT = 0  # probability (sigmoid applied inside the model) that an index centre lies in the cell
COS, SIN = 1, 2  # reading direction of the index: angle turned clockwise from upright
LOG_INDEX_H, LOG_INDEX_W = 3, 4  # log of the index's height and width in frame px
CARD_U, CARD_V = 5, 6  # card centre from the index centre, in index heights, index's own axes
#                        (u along the reading direction, v down the index)
LOG_CARD_W, LOG_CARD_H = 7, 8  # log of the card's width and height in index heights
OFFSET_X, OFFSET_Y = 9, 10  # where the centre lies inside its cell, in cells (0–1)
HEAD_CHANNELS = 11

# -- the classifier ------------------------------------------------------------------------------
# Input "crops": float32 [N, 3, CROP_H, CROP_W], normalised as above: each crop is the index
# turned upright, centred on the index centre, CROP_SCALE index heights tall and
# CROP_H / CROP_W as tall as wide. Output "logits": float32 [N, len(CLASSES)].
CROP_H, CROP_W = 48, 32
CROP_SCALE = 1.5
# 1: the crop also fits the index's width (wide word indices of the special deck); its extent
# is then max(height, width × CROP_H / CROP_W). 0: height only (models shipped before this).
CROP_FITS_WIDTH = 1


def crop_extent(index_h: float, index_w: float, fits_width: int = CROP_FITS_WIDTH) -> float:
    """The index size the crop is scaled to: CROP_SCALE of this is the crop's height."""
    return max(index_h, index_w * CROP_H / CROP_W) if fits_width else index_h


# -- decoding ------------------------------------------------------------------------------------
PEAK_THRESHOLD = 0.3  # heat above which a local maximum is an index candidate
MIN_CONFIDENCE = 0.5  # classifier probability below which a reading is "check", not a card

# -- the scale a frame is read at (``scanner/vision/scale.py``) ----------------------------------
# The locator learnt indices as the training frames show them and finds the smallest of them
# (a camera high above a wide table) far less often: a frame whose indices read as cards
# measure, at the median, less than SCALE_UP_BELOW px across (an index's short side) is read
# again scaled up so they measure SCALE_UP_TO px, by at most SCALE_UP_MOST and to at most
# SCALE_UP_PIXELS pixels. Eight million, not four: a 1640×1232 frame of 5 px indices is then
# scaled the full 2 times, and a frame's locator reads it a strip at a time (``strips.py``), so
# the peak stays under 300 MB. Each chosen in model/experiments/scale.md.
# SCALE_UP_BELOW = 0 reads every frame as it comes.
SCALE_UP_BELOW = 9.0
SCALE_UP_TO = 10.0
SCALE_UP_MOST = 2.0
SCALE_UP_PIXELS = 8_000_000
# A camera at one end of a long table sees the near melds large and the far ones small: the
# median is then large enough while the far cards are lost. A frame whose smallest fifth of those
# indices measure less than SCALE_SMALL_BELOW px is scaled up too, so that they measure
# SCALE_SMALL_TO px (or the median SCALE_UP_TO, whichever asks more), within the same bounds
# (model/experiments/scale.md).
# SCALE_SMALL_BELOW = 0 judges by the median alone.
SCALE_SMALL_BELOW = 7.0
SCALE_SMALL_TO = 8.0

# -- the verifier (a third, optional model: ``verifier.onnx``) ------------------------------------
# Input "context": float32 [N, 3, VERIFY_SIDE, VERIFY_SIDE], normalised as above: a square crop
# turned like the index, VERIFY_SCALE index extents (``crop_extent``) wide, its middle
# VERIFY_SHIFT extents from the index centre along and down the index, into the card it is
# printed on. Output "logit": float32 [N, 1], positive when the mark is an index printed on a card
# rather than a pattern of the table, a prop or a shadow.
VERIFY_SIDE = 48
VERIFY_SCALE = 3.0
VERIFY_SHIFT = 0.4
# On-card probability below which a reading touching no other card is dropped: 0.3, not 0.1,
# dropped the cloth's patterns and kept the cards (model/experiments/verifier.md).
VERIFY_BELOW = 0.3
# … unless the classifier reads it at least this sure: then it is kept and asks for a check (a
# real card lying alone on a background unlike the training tables is never silently lost)
VERIFY_ASK_FROM = 0.8

# -- the refiner (a fourth, optional model: ``refiner.onnx``) -------------------------------------
# Input "around": float32 [N, 3, REFINE_SIDE, REFINE_SIDE], normalised as above: a square crop
# centred on a mark, turned like it, REFINE_SCALE of its extent (``crop_extent``) wide, so an
# index the locator measured half or twice its size still lies inside. Output "geometry":
# float32 [N, 5]: where the index truly lies against the mark (``REFINED``): its centre along and
# down the mark in the mark's extents, the logs of its height and width over the mark's, and
# its angle less the mark's in radians.
REFINE_SIDE = 32
REFINE_SCALE = 2.5
REFINED = ("along", "down", "log_height", "log_width", "turn")

# -- the wider classifier (a fifth, optional model: ``wider.onnx``) -------------------------------
# The classifier's input and output, but its crop WIDER_SCALE index extents tall, not CROP_SCALE,
# its middle moved WIDER_ALONG extents along and WIDER_DOWN extents down the index: it holds the
# index, the suit sign and the pips or art under it, which tell a 6 from an 8 where the print
# itself is a few pixels. It is read for the marks the classifier reads as a card whose index
# measures less than WIDER_BELOW px on its short side in the frame as it came (before
# ``scale.py`` scaled it), and it only picks which card: the one most likely to both models.
WIDER_SCALE = 4.0
WIDER_ALONG = 0.8
WIDER_DOWN = 1.4
WIDER_BELOW = 14.0

# -- the face reader (a sixth, optional model: ``face.onnx``) -------------------------------------
# Input "faces": float32 [N, 3, FACE_H, FACE_W], normalised as above: a card's whole outline as
# the recogniser reads it, cut out upright (its top-left corner at the top left). Output
# "logits": float32 [N, len(CLASSES)], as the classifier's; "not an index" where the outline
# holds no whole face (a card half covered).
FACE_W = 48
FACE_H = 68


@dataclass(frozen=True)
class Contract:
    """What the locator takes and gives, what the classifier takes and gives, and the decoding
    thresholds. Field names are the lower-case names of this module's constants."""

    classes: tuple[str, ...]
    not_an_index: str
    mean: float
    std: float
    stride: int
    locator_multiple: int
    heat: int
    cos: int
    sin: int
    log_index_h: int
    log_index_w: int
    card_u: int
    card_v: int
    log_card_w: int
    log_card_h: int
    offset_x: int
    offset_y: int
    head_channels: int
    crop_h: int
    crop_w: int
    crop_scale: float
    crop_fits_width: int
    peak_threshold: float
    min_confidence: float
    scale_up_below: float
    scale_up_to: float
    scale_up_most: float
    scale_up_pixels: int
    scale_small_below: float
    scale_small_to: float
    verify_side: int
    verify_scale: float
    verify_shift: float
    verify_below: float
    verify_ask_from: float
    refine_side: int
    refine_scale: float
    wider_scale: float
    wider_along: float
    wider_down: float
    wider_below: float

    @classmethod
    def from_spec(cls) -> Contract:
        return cls.from_mapping({})

    @classmethod
    def from_mapping(cls, data: dict[str, Any], source: str = "contract.py") -> Contract:
        """Constants from ``data`` (keys in either case); the ones it lacks are this module's."""
        given = {str(key).lower(): value for key, value in data.items()}
        if data and "crop_fits_width" not in given:
            given["crop_fits_width"] = 0  # a manifest from before crops fitted the width
        values = {}
        for field in fields(cls):
            value = given.get(field.name, globals()[field.name.upper()])
            kind = {"tuple[str, ...]": tuple, "str": str, "int": int, "float": float}[field.type]
            try:
                values[field.name] = tuple(map(str, value)) if kind is tuple else kind(value)
            except (TypeError, ValueError):
                raise RecogniserError(
                    f"{source}: {field.name.upper()} is {value!r}, not a {kind.__name__}"
                ) from None
        contract = cls(**values)
        contract.check(source)
        return contract

    @classmethod
    def load(cls, model_dir: Path) -> Contract:
        """The constants in ``model_dir/recogniser.json``, or this module's when that file is
        absent."""
        path = model_dir / MANIFEST
        if not path.exists():
            log.debug("no %s in %s: using scanner/vision/contract.py", MANIFEST, model_dir)
            return cls.from_spec()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise RecogniserError(f"{path}: cannot be read as JSON ({error})") from None
        if isinstance(data, dict) and isinstance(data.get("spec"), dict):
            data = {**data["spec"], **{k: v for k, v in data.items() if k != "spec"}}
        if not isinstance(data, dict):
            raise RecogniserError(f"{path}: should hold a JSON object of the spec's constants")
        return cls.from_mapping(data, str(path))

    def check(self, source: str) -> None:
        channels = (self.heat, self.cos, self.sin, self.log_index_h, self.log_index_w)
        channels += (self.card_u, self.card_v, self.log_card_w, self.log_card_h)
        channels += (self.offset_x, self.offset_y)
        problems = []
        if not all(0 <= channel < self.head_channels for channel in channels):
            problems.append(f"a head channel lies outside 0..{self.head_channels - 1}")
        if self.not_an_index not in self.classes:
            problems.append(f"CLASSES lacks {self.not_an_index!r}")
        if self.stride < 1 or self.locator_multiple % self.stride:
            problems.append("LOCATOR_MULTIPLE is not a multiple of STRIDE")
        if min(self.crop_h, self.crop_w) < 1 or self.crop_scale <= 0 or self.std <= 0:
            problems.append("crop size, CROP_SCALE and STD must be positive")
        if self.verify_side < 1 or self.verify_scale <= 0:
            problems.append("VERIFY_SIDE and VERIFY_SCALE must be positive")
        if self.refine_side < 1 or self.refine_scale <= 0:
            problems.append("REFINE_SIDE and REFINE_SCALE must be positive")
        if self.wider_scale <= 0:
            problems.append("WIDER_SCALE must be positive")
        scales = self.scale_up_below > 0 or self.scale_small_below > 0
        if scales and not (
            self.scale_up_to > 0 and self.scale_up_most >= 1 and self.scale_up_pixels > 0
        ):
            problems.append(
                "SCALE_UP_TO and SCALE_UP_PIXELS must be positive and SCALE_UP_MOST at least 1"
            )
        if self.scale_small_below > 0 and self.scale_small_to <= 0:
            problems.append("SCALE_SMALL_TO must be positive")
        if problems:
            raise RecogniserError(f"{source}: " + "; ".join(problems))

    @property
    def playing_classes(self) -> tuple[str, ...]:
        """Every class that is a card (all but "none")."""
        return tuple(code for code in self.classes if code != self.not_an_index)
