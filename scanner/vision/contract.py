"""The constants shared with training, read from the shipped ``recogniser.json`` when there is
one (so a model and its constants travel together) and from ``model/recogniser/spec.py`` else."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from model.recogniser import spec
from scanner.vision.errors import RecogniserError

log = logging.getLogger(__name__)
MANIFEST = "recogniser.json"


@dataclass(frozen=True)
class Contract:
    """What the locator takes and gives, what the classifier takes and gives, and the decoding
    thresholds. Field names are the lower-case names of ``spec.py``'s constants."""

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
    def from_mapping(cls, data: dict[str, Any], source: str = "spec.py") -> Contract:
        """Constants from ``data`` (keys in either case); the ones it lacks come from spec.py."""
        given = {str(key).lower(): value for key, value in data.items()}
        if data and "crop_fits_width" not in given:
            given["crop_fits_width"] = 0  # a manifest from before crops fitted the width
        values = {}
        for field in fields(cls):
            value = given.get(field.name, getattr(spec, field.name.upper()))
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
        """The constants in ``model_dir/recogniser.json``, or spec.py's when that file is absent."""
        path = model_dir / MANIFEST
        if not path.exists():
            log.debug("no %s in %s: using model/recogniser/spec.py", MANIFEST, model_dir)
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
