"""Writing the trained models as ONNX, after checking onnxruntime computes what PyTorch does,
plus the JSON the inference code reads and an image of the training curves."""

from __future__ import annotations

import json
import subprocess
import warnings
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np
import torch

from model.recogniser.features import add_features
from scanner.vision import contract as spec

PARITY_TOLERANCE = 1e-4
# A trained model is a development model until someone names its version (model/README.md).
DEFAULT_VERSION = "dev"


class ParityError(RuntimeError):
    pass


def _export(model: torch.nn.Module, example: torch.Tensor, path: Path, names, dynamic) -> None:
    temporary = path.with_suffix(".tmp.onnx")
    legacy_export(
        model,
        example,
        temporary,
        input_names=[names[0]],
        output_names=[names[1]],
        dynamic_axes=dynamic,
    )
    check_parity(model, temporary, names[0], example)
    temporary.replace(path)


def legacy_export(model: torch.nn.Module, example: torch.Tensor, path: Path, **options) -> None:
    """The TorchScript exporter: it handles these plain CNNs with dynamic sizes and needs no
    extra packages; torch warns that it is no longer the default, which we know."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(model, (example,), str(path), opset_version=17, dynamo=False, **options)


def check_parity(model: torch.nn.Module, path: Path, input_name: str, example: torch.Tensor):
    """onnxruntime and PyTorch must agree to 1e-4 on the same inputs, or nothing is written."""
    import onnxruntime

    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    generator = torch.Generator().manual_seed(0)
    worst = 0.0
    for trial in range(3):
        x = torch.randn(example.shape, generator=generator) if trial else example
        with torch.no_grad():
            expected = model(x).numpy()
        got = session.run(None, {input_name: x.numpy()})[0]
        worst = max(worst, float(np.max(np.abs(expected - got))))
    if worst > PARITY_TOLERANCE:
        path.unlink(missing_ok=True)
        raise ParityError(f"{path.name}: onnxruntime differs from PyTorch by {worst:.2e}")
    return worst


def _export_locator(locator, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    locator.eval()
    _export(
        locator,
        torch.randn(1, 3, 256, 320),
        out / "locator.onnx",
        ("image", "heads"),
        {"image": {2: "height", 3: "width"}, "heads": {2: "rows", 3: "cols"}},
    )


def export_locator(work: Path, out: Path, kind: str = "locator") -> Path:
    """The locator trained in ``work`` alone (``kind``: its checkpoint's name, see
    ``load_trained``), as ``out/locator.onnx``: for mining the classifier's samples before the
    classifier exists, or the locator the `tune` or `fold` stage taught ("locator-tuned",
    "locator-folded")."""
    from model.recogniser.loop import load_trained

    _export_locator(load_trained(kind, work), out)
    return out / "locator.onnx"


def provenance(version: str = DEFAULT_VERSION) -> dict:
    """What ``recogniser.json`` says of the models beside it: ``version``, ``trained_at``
    (today's date, ISO) and ``commit`` (the repository's ``git rev-parse --short HEAD``, None
    without git or a repository)."""
    try:
        run = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
        commit = run.stdout.strip() if run.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        commit = None
    today = datetime.now(UTC).date().isoformat()
    return {"version": version, "trained_at": today, "commit": commit or None}


def export_models(locator, classifier, out: Path, version: str = DEFAULT_VERSION) -> dict:
    _export_locator(locator, out)
    classifier.eval()
    _export(
        classifier,
        torch.randn(8, 3, spec.CROP_H, spec.CROP_W),
        out / "classifier.onnx",
        ("crops", "logits"),
        {"crops": {0: "n"}, "logits": {0: "n"}},
    )
    # the features beside the logits, for deck profiles (features.py)
    add_features(out)
    meta = {
        name: getattr(spec, name)
        for name in dir(spec)
        if name.isupper() and isinstance(getattr(spec, name), int | float | str | tuple)
    }
    meta = {k: list(v) if isinstance(v, tuple) else v for k, v in meta.items()}
    meta = {**provenance(version), **meta}
    (out / "recogniser.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return meta


def _export_crops(
    kind: str, size: tuple[int, int], names: tuple[str, str], work: Path, out: Path
) -> Path:
    """The trained ``kind`` model, which reads crops of ``size`` (height, width) px, as
    ``out/<kind>.onnx`` (``names``: its input and output)."""
    from model.recogniser.loop import load_trained

    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{kind}.onnx"
    dynamic = {name: {0: "n"} for name in names}
    _export(load_trained(kind, work), torch.randn(8, 3, *size), path, names, dynamic)
    return path


def export_verifier(work: Path, out: Path) -> Path:
    """The trained verifier as ``out/verifier.onnx`` ("context" → "logit")."""
    side = spec.VERIFY_SIDE
    return _export_crops("verifier", (side, side), ("context", "logit"), work, out)


def export_face_reader(work: Path, out: Path) -> Path:
    """The trained face reader as ``out/face.onnx`` ("faces" → "logits")."""
    return _export_crops("face", (spec.FACE_H, spec.FACE_W), ("faces", "logits"), work, out)


def export_refiner(work: Path, out: Path) -> Path:
    """The trained refiner as ``out/refiner.onnx`` ("around" → "geometry")."""
    side = spec.REFINE_SIDE
    return _export_crops("refiner", (side, side), ("around", "geometry"), work, out)


def export_wider(work: Path, out: Path) -> Path:
    """The trained wider classifier as ``out/wider.onnx`` ("crops" → "logits", as the
    classifier)."""
    size = (spec.CROP_H, spec.CROP_W)
    return _export_crops("wider", size, ("crops", "logits"), work, out)


def export_all(work: Path, out: Path, version: str = DEFAULT_VERSION) -> None:
    from model.recogniser.loop import load_trained

    # the fine locator where it was grown, else one tuned from a shipped one, else the plain one
    kinds = ("locator-grown", "locator-tuned", "locator")
    locator = next((k for k in kinds if (work / f"{k}.ckpt").exists()), "locator")
    export_models(load_trained(locator, work), load_trained("classifier", work), out, version)
    if (work / "verifier.ckpt").exists():
        export_verifier(work, out)
    if (work / "refiner.ckpt").exists():
        export_refiner(work, out)
    if (work / "wider.ckpt").exists():
        export_wider(work, out)
    if (work / "face.ckpt").exists():
        export_face_reader(work, out)
    curves = draw_curves(work)
    if curves is not None:
        (out / "docs").mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(out / "docs" / "training-curves.png"), curves)


def draw_curves(work: Path) -> np.ndarray | None:
    """Loss (and accuracy) against step for both models, smoothed, on one image."""
    panels = []
    for name, keys in (
        ("locator", ("loss", "heat", "regression")),
        ("locator-grown", ("loss", "heat", "regression")),
        ("locator-tuned", ("loss", "heat", "regression")),
        ("classifier", ("loss", "accuracy")),
        ("wider", ("loss", "accuracy")),
        ("verifier", ("loss", "accuracy")),
        ("face", ("loss", "accuracy")),
    ):
        path = work / f"{name}-history.json"
        if not path.exists():
            continue
        history = json.loads(path.read_text())
        panels.append(_panel(name, history, keys))
    return np.vstack(panels) if panels else None


def _panel(name: str, history: list[dict], keys: tuple[str, ...]) -> np.ndarray:
    w, h, pad = 900, 300, 40
    image = np.full((h, w, 3), 255, np.uint8)
    colours = [(200, 60, 30), (30, 140, 30), (30, 60, 200)]
    cv2.putText(image, name, (pad, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 0), 2)
    steps = np.array([row["step"] for row in history], dtype=float)
    for key, colour in zip(keys, colours, strict=False):
        values = np.array([row.get(key, np.nan) for row in history], dtype=float)
        if len(values) < 2:
            continue
        k = max(1, len(values) // 60)
        smooth = np.convolve(values, np.ones(k) / k, mode="valid")
        xs = steps[: len(smooth)]
        top = np.nanmax(smooth) if key != "accuracy" else 1.0
        ys = smooth / max(top, 1e-9)
        points = np.stack(
            [
                pad + (xs - xs.min()) / max(np.ptp(xs), 1) * (w - 2 * pad),
                h - pad - ys * (h - 2 * pad),
            ],
            1,
        ).astype(np.int32)
        cv2.polylines(image, [points], False, colour, 2, cv2.LINE_AA)
        label = f"{key} {smooth[-1]:.4f}"
        cv2.putText(
            image,
            label,
            (230 + 220 * keys.index(key), 24),  # on the title's row, clear of the curves
            cv2.FONT_HERSHEY_SIMPLEX,
            0.55,
            colour,
            1,
        )
    cv2.rectangle(image, (pad, pad), (w - pad, h - pad), (120, 120, 120), 1)
    return image
