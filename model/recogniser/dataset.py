"""Training samples cut from rendered scenes: frame crops with their indices for the locator,
upright index crops (and crops of everything else) for the classifier. Cached as .npz files so
an interrupted training run starts again without cutting them twice."""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from model.recogniser import targets
from model.recogniser.targets import CLASS_INDEX, IndexTruth, index_truths
from scanner.vision import contract as spec

TRUTH_FIELDS = 11  # centre x, y, angle, height, width, card centre x, y, card w, h, class, visible


def scene_files(folder: Path) -> list[Path]:
    scenes = sorted(folder.glob("scene_*.json"))
    if not scenes:
        raise FileNotFoundError(f"no scenes in {folder}: render some with `handfoot synth --out`")
    return scenes


def _load(label_path: Path) -> tuple[np.ndarray, dict]:
    labels = json.loads(label_path.read_text(encoding="utf-8"))
    image = cv2.imread(str(label_path.with_suffix(".jpg")), cv2.IMREAD_COLOR)
    if image is None:
        raise OSError(f"cannot read {label_path.with_suffix('.jpg')}")
    return cv2.cvtColor(image, cv2.COLOR_BGR2RGB), labels


def _truth_row(t: IndexTruth, shift: np.ndarray) -> list[float]:
    return [
        *(t.centre - shift),
        t.angle,
        t.height,
        t.width,
        *(t.card_centre - shift),
        *t.card_size,
        CLASS_INDEX[t.code],
        t.visible,
    ]


def truths_from_rows(rows: np.ndarray) -> list[IndexTruth]:
    return [
        IndexTruth(
            centre=row[0:2],
            angle=float(row[2]),
            height=float(row[3]),
            width=float(row[4]),
            card_centre=row[5:7],
            card_size=(float(row[7]), float(row[8])),
            code=spec.CLASSES[int(row[9])],
            visible=float(row[10]),
        )
        for row in rows
    ]


def cut_locator_samples(
    folder: Path,
    out: Path,
    *,
    size: int = 192,
    per_scene: int = 4,
    seed: int = 0,
    teacher: Callable[[np.ndarray], np.ndarray] | None = None,
    stride: int = 1,
    part: tuple[int, int] = (0, 1),
    progress: bool = True,
) -> Path:
    """Square crops of frames, most of them around a readable index, with the indices they
    hold (in crop px). Writes ``out`` (npz) and returns it. With ``teacher`` (an RGB frame →
    heads [1, C, H / stride, W / stride] on its grid of ``stride`` px), each crop starts on a
    multiple of ``stride`` and the teacher's heads over it, read on the whole frame, are kept
    too ("teacher", float16 [N, C, size / stride, size / stride]). ``part`` (k, n): only the
    scenes k, k + n, k + 2n … of the folder (see ``cut_locator_parts``). ``progress``: a bar
    of the scenes cut."""
    if size % stride:
        raise ValueError(f"a crop of {size} px does not fall on a grid of {stride} px")
    k, n = part
    if not 0 <= k < n:
        raise ValueError(f"part {k} of {n} is not one of the parts")
    rng = np.random.default_rng(seed)
    images, rows, counts, taught = [], [], [], []
    cells = size // stride
    bar = tqdm(scene_files(folder)[k::n], desc="locator crops", unit="scene", disable=not progress)
    for path in bar:
        frame, labels = _load(path)
        heads = None if teacher is None else teacher(frame)[0]
        truths = index_truths(labels)
        readable = [t for t in truths if t.visible >= 0.9]
        h, w = frame.shape[:2]
        for _ in range(per_scene):
            if readable and rng.random() < 0.8:
                anchor = readable[rng.integers(len(readable))].centre + rng.uniform(
                    -size / 3, size / 3, 2
                )
            else:
                anchor = rng.uniform([0, 0], [w, h])
            x0 = int(np.clip(anchor[0] - size / 2, 0, max(0, w - size))) // stride * stride
            y0 = int(np.clip(anchor[1] - size / 2, 0, max(0, h - size))) // stride * stride
            crop = frame[y0 : y0 + size, x0 : x0 + size]
            if crop.shape[:2] != (size, size):
                continue
            shift = np.array([x0, y0], dtype=np.float64)
            near = [
                _truth_row(t, shift)
                for t in truths
                if -size * 0.25 < t.centre[0] - x0 < size * 1.25
                and -size * 0.25 < t.centre[1] - y0 < size * 1.25
            ]
            images.append(crop)
            rows.extend(near)
            counts.append(len(near))
            if heads is not None:
                row, col = y0 // stride, x0 // stride
                taught.append(heads[:, row : row + cells, col : col + cells].astype(np.float16))
    arrays = {
        "images": np.stack(images),
        "truths": np.array(rows, np.float32).reshape(-1, TRUTH_FIELDS),
        "counts": np.array(counts, np.int32),
    }
    if teacher is not None:
        arrays["teacher"] = np.stack(taught)
    np.savez(out, **arrays)
    return out


def cut_locator_parts(
    folder: Path, out: Path, parts: int, *, per_scene: int, seed: int, processes: int = 1
) -> Path:
    """``cut_locator_samples`` of the folder's scenes dealt into ``parts`` parts (scene i to
    part i mod ``parts``), part k cut with seed ``seed + k``, the parts concatenated in order
    into ``out``: the same crops however many ``processes`` cut them (one part: the crops
    ``cut_locator_samples`` cuts with ``seed``)."""
    if parts < 1:
        raise ValueError(f"the scenes are cut in one part or more, not {parts}")
    if parts == 1:
        return cut_locator_samples(folder, out, per_scene=per_scene, seed=seed)
    count = len(scene_files(folder))
    if parts > count:
        raise ValueError(f"{parts} parts of {count} scenes leave parts empty")
    names = [out.with_name(f"{out.stem}.part{k}.npz") for k in range(parts)]
    options = {"per_scene": per_scene, "progress": False}
    jobs = [
        (folder, names[k], options | {"seed": seed + k, "part": (k, parts)})
        for k in range(parts)
        if not names[k].exists()  # a part cut before an interruption is kept
    ]
    bar = tqdm(total=len(jobs), desc="locator crops", unit="part")
    if processes > 1 and len(jobs) > 1:
        # forked, not spawned: the children need no fresh import of torch to cut crops
        with multiprocessing.get_context("fork").Pool(min(processes, len(jobs))) as pool:
            for _ in pool.imap_unordered(_cut_part, jobs):
                bar.update()
    else:
        for job in jobs:
            _cut_part(job)
            bar.update()
    bar.close()
    loaded = [np.load(name) for name in names]
    save_whole(out, joined(loaded, loaded[0].files))
    for part, name in zip(loaded, names, strict=True):
        part.close()
        name.unlink()
    return out


def joined(parts: Sequence[Mapping[str, np.ndarray]], keys: Iterable[str]) -> dict:
    """The arrays of ``parts`` joined key by key, in the parts' order."""
    return {key: np.concatenate([part[key] for part in parts]) for key in keys}


def save_whole(out: Path, arrays: Mapping[str, np.ndarray]) -> Path:
    """``arrays`` saved as ``out``, written under a temporary name first: a cut-off never
    leaves half a file where a resumed run would take it as whole."""
    partial = out.with_suffix(".partial.npz")
    np.savez(partial, **arrays)
    partial.rename(out)
    return out


def _cut_part(job: tuple[Path, Path, dict]) -> None:
    folder, out, options = job
    # written under a temporary name first, so an interrupted part is cut again, not kept
    partial = out.with_suffix(".partial.npz")
    cut_locator_samples(folder, partial, **options)
    partial.rename(out)


def cut_classifier_samples(
    folder: Path,
    out: Path,
    *,
    negatives: float = 0.35,
    seed: int = 0,
    every: int = 2,
    crop: dict | None = None,
    aside: float = 0.2,
) -> Path:
    """Upright crops of every index at least 70 % visible, jittered as a locator would miss
    the centre, size and angle a little; plus crops of anything else ("none"): of the index
    turned, of ``aside`` of the indices from half beside them, and of the table. ``crop``:
    the crop's settings (``upright_crop``; None: the classifier's)."""
    rng = np.random.default_rng(seed)
    crop = crop or {}

    def cut(*place) -> np.ndarray:
        return targets.upright_crop(*place, **crop)

    crops, classes = [], []
    none = CLASS_INDEX[spec.NOT_AN_INDEX]
    for path in tqdm(scene_files(folder)[::every], desc="index crops", unit="scene"):
        frame, labels = _load(path)
        truths = index_truths(labels)
        h, w = frame.shape[:2]
        for t in truths:
            if t.visible < 0.7:
                continue
            # As the locator misses: its angle is off by 8° half the time and 30° at worst.
            centre = t.centre + rng.normal(0, 0.08, 2) * t.height
            size = float(np.exp(rng.normal(0, 0.12)))
            height, width = t.height * size, t.width * size * float(np.exp(rng.normal(0, 0.08)))
            angle = t.angle + float(np.clip(rng.normal(0, 10), -30, 30))
            crops.append(cut(frame, centre, angle, height, width))
            classes.append(CLASS_INDEX[t.code])
            if rng.random() < 0.25:  # the same index read at a wrong angle is not a reading
                turn = float(rng.choice([90.0, 180.0, 270.0]) + rng.normal(0, 10))
                crops.append(cut(frame, centre, angle + turn, height, width))
                classes.append(none)
            if rng.random() < aside:  # nor is a crop half beside it (a duplicate mark)
                beside = rng.normal(0, 1, 2)
                beside = beside / np.linalg.norm(beside) * t.height * rng.uniform(0.7, 1.2)
                crops.append(cut(frame, t.centre + beside, angle, height, width))
                classes.append(none)
        sizes = [t.height for t in truths] or [30.0]
        centres = np.array([t.centre for t in truths]) if truths else np.zeros((0, 2))
        wanted = int(max(4, negatives * len(truths)))
        for _ in range(wanted):
            height = float(rng.choice(sizes)) * float(np.exp(rng.normal(0, 0.3)))
            centre = rng.uniform([0, 0], [w, h])
            if len(centres) and np.min(np.linalg.norm(centres - centre, axis=1)) < 0.6 * height:
                continue
            crops.append(cut(frame, centre, float(rng.uniform(0, 360)), height))
            classes.append(none)
    temporary = out.with_suffix(".tmp.npz")
    np.savez(temporary, crops=np.stack(crops), classes=np.array(classes, np.int16))
    temporary.replace(out)
    return out


def write_scenes_for_tests(folder: Path, count: int, size: tuple[int, int], seed: int = 3) -> None:
    """A few small scenes of the training split, for the smoke-training tests."""
    from model.synth.dataset import RunSpec, write_run

    write_run(folder, RunSpec(seed=seed, size=size), count, progress=False)
