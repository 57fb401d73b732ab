"""Writing a run of scenes to a folder, and contact sheets to look at them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from model.synth.deck_art.faces import available_for
from model.synth.faces.typefaces import discovered
from model.synth.scene import Scene, render_scene


@dataclass(frozen=True)
class RunSpec:
    seed: int
    split: str = "train"
    deck: str = "both"
    size: tuple[int, int] | None = None
    layout: str = "training"
    styles: tuple[str, ...] = ()
    surfaces: tuple[str, ...] = ()
    art: float = 0.0  # share of standard designs drawn as printed decks (deck_art)
    typefaces: float = 0.0  # share of designs drawn as typeset ones (faces/typeset.py)

    def render(self, index: int) -> Scene:
        return render_scene(
            self.seed,
            index,
            split=self.split,
            deck=self.deck,
            size=self.size,
            layout=self.layout,
            styles=self.styles,
            surfaces=self.surfaces,
            art=self.art,
            typefaces=self.typefaces,
        )

    def art_designs(self) -> list[str]:
        """The printed decks this run may draw (those installed), by name."""
        if self.styles:
            return [name for name in self.styles if name.startswith("art-")]
        if self.deck == "special" or self.art == 0:
            return []
        return [style.name for style in available_for(self.split)]


def scene_name(index: int) -> str:
    return f"scene_{index:06d}"


def _render_files(spec: RunSpec, index: int) -> tuple[int, bytes, str]:
    scene = spec.render(index)
    scene.labels["image"] = scene_name(index) + ".jpg"
    return index, scene.jpeg, json.dumps(scene.labels, indent=1)


def _rendered(spec: RunSpec, indices: list[int], jobs: int) -> Iterator[tuple[int, bytes, str]]:
    if jobs <= 1:
        for index in indices:
            yield _render_files(spec, index)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        # Each scene depends only on its index, so the files are the same for any worker count.
        yield from pool.map(_render_files, [spec] * len(indices), indices, chunksize=4)


def _run_description(spec: RunSpec, count: int) -> dict:
    description = {
        "seed": spec.seed,
        "split": spec.split,
        "deck": spec.deck,
        "size": list(spec.size) if spec.size else None,
        "count": count,
        "schema": "handfoot-scene/1",
    }
    if spec.layout != "training":  # a training run's run.json stays as it was
        description["layout"] = spec.layout
    if spec.styles:
        description["styles"] = list(spec.styles)
    if spec.surfaces:
        description["surfaces"] = list(spec.surfaces)
    if spec.art:
        description["art"] = spec.art
    if spec.typefaces:
        description["typefaces"] = spec.typefaces
        # a run drawn where other font packages are installed is another run
        description["typeface_count"] = len(discovered())
    designs = spec.art_designs()
    if designs:  # a run drawn where other printed decks are installed is another run
        description["art_designs"] = designs
    return description


class RunMismatchError(ValueError):
    pass


def write_run(
    out: Path,
    spec: RunSpec,
    count: int,
    *,
    jobs: int = 1,
    progress: bool = True,
    resume: bool = False,
) -> list[Path]:
    """Write ``count`` scenes (JPEG + labels JSON each) and a ``run.json`` describing the run.
    With ``resume``, scenes already in ``out`` are kept (a scene's bytes depend only on the run
    and its index) and only the missing ones are drawn; a folder of another run is refused."""
    out.mkdir(parents=True, exist_ok=True)
    description = _run_description(spec, count)
    run_file = out / "run.json"
    if resume and run_file.exists():
        before = json.loads(run_file.read_text(encoding="utf-8"))
        if {k: v for k, v in before.items() if k != "count"} != {
            k: v for k, v in description.items() if k != "count"
        }:
            raise RunMismatchError(f"{out} holds another run ({before}); use a new folder")
    run_file.write_text(json.dumps(description, indent=1) + "\n", encoding="utf-8")
    done = (
        {i for i in range(count) if (out / (scene_name(i) + ".json")).exists()} if resume else set()
    )
    todo = [i for i in range(count) if i not in done]
    bar = tqdm(total=count, initial=len(done), desc="scenes", unit="scene", disable=not progress)
    for index, jpeg, labels in _rendered(spec, todo, jobs):
        # The labels go last, so a scene with labels is a whole scene.
        (out / (scene_name(index) + ".jpg")).write_bytes(jpeg)
        (out / (scene_name(index) + ".json")).write_text(labels + "\n", encoding="utf-8")
        bar.update()
    bar.close()
    return [out / (scene_name(i) + ".jpg") for i in range(count)]


# -- contact sheets ------------------------------------------------------------------------------

GROUP_COLOURS = [
    (230, 25, 75), (60, 180, 75), (255, 225, 25), (0, 130, 200), (245, 130, 48),
    (145, 30, 180), (70, 240, 240), (240, 50, 230), (210, 245, 60), (250, 190, 212),
]  # fmt: skip


def draw_labels(image: np.ndarray, labels: dict) -> np.ndarray:
    """The frame with every label drawn: card outlines in their meld's colour, index boxes green
    when readable (≥ 90 % visible) and red when not, each card's code, other objects in grey."""
    out = image.copy()
    thick = max(1, round(max(out.shape[:2]) / 900))
    for obj in labels["objects"]:
        polygon = np.round(np.array(obj["polygon"])).astype(np.int32)
        cv2.polylines(out, [polygon], True, (160, 160, 160), thick, cv2.LINE_AA)
        x, y = polygon.min(axis=0)
        _text(out, obj["kind"], (int(x) + 3, int(y) + 14), (200, 200, 200), thick)
    for card in labels["cards"]:
        colour = GROUP_COLOURS[card["group"] % len(GROUP_COLOURS)]
        corners = np.round(np.array(card["corners"])).astype(np.int32)
        cv2.polylines(out, [corners], True, colour, thick, cv2.LINE_AA)
        for index in card["indices"]:
            quad = np.round(np.array(index["quad"])).astype(np.int32)
            seen = (0, 220, 0) if index["visible"] else (255, 40, 40)
            cv2.polylines(out, [quad], True, seen, thick, cv2.LINE_AA)
            if index["visible"]:
                x, y = quad.min(axis=0)
                _text(out, card["code"], (int(x), int(y) - 3), (255, 255, 0), thick)
    return out


def _text(image, text, origin, colour, thick) -> None:
    scale = 0.45 * thick
    cv2.putText(
        image, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thick + 2, cv2.LINE_AA
    )
    cv2.putText(image, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)


def contact_sheet(scenes: list[Scene], *, columns: int = 3, tile_width: int = 800) -> np.ndarray:
    """Scenes side by side, labels drawn, each scaled to ``tile_width`` (RGB)."""
    tiles = []
    for scene in scenes:
        drawn = draw_labels(scene.image, scene.labels)
        h, w = drawn.shape[:2]
        tile = cv2.resize(
            drawn, (tile_width, round(h * tile_width / w)), interpolation=cv2.INTER_AREA
        )
        caption = (
            f"#{scene.labels['index']} {scene.labels['surface']} {'/'.join(scene.labels['styles'])}"
        )
        _text(tile, caption, (8, tile.shape[0] - 10), (255, 255, 255), 1)
        tiles.append(tile)
    tile_height = max(tile.shape[0] for tile in tiles)
    rows = []
    for start in range(0, len(tiles), columns):
        row = [
            np.pad(t, ((0, tile_height - t.shape[0]), (0, 0), (0, 0)))
            for t in tiles[start : start + columns]
        ]
        row += [np.zeros((tile_height, tile_width, 3), np.uint8)] * (columns - len(row))
        rows.append(np.hstack(row))
    return np.vstack(rows)


def write_preview(path: Path, spec: RunSpec, count: int, *, columns: int = 3) -> None:
    scenes = [spec.render(index) for index in range(count)]
    sheet = contact_sheet(scenes, columns=columns)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), cv2.cvtColor(sheet, cv2.COLOR_RGB2BGR)):
        raise OSError(f"cannot write {path}")
