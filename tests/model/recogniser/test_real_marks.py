"""Locator samples cut from labelled real photos, and how the locator is taught with them."""

import json
import shutil

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from model.recogniser import real_marks  # noqa: E402
from model.recogniser.dataset import (  # noqa: E402
    TRUTH_FIELDS,
    cut_locator_samples,
    write_scenes_for_tests,
)
from model.recogniser.locator import (  # noqa: E402
    locator_batches,
    merge_samples,
    with_real_share,
)
from model.recogniser.nets import Locator  # noqa: E402
from model.recogniser.targets import index_truths  # noqa: E402
from scanner.vision.contract import CLASSES  # noqa: E402
from scanner.vision.images import read_image  # noqa: E402
from scanner.vision.networks import default_model_dir  # noqa: E402

trained = pytest.mark.skipif(
    not (default_model_dir() / "locator.onnx").exists(), reason="the models are not trained"
)


@pytest.mark.parametrize("angle", [0.0, 25.0, 90.0, 140.0, 270.0])
def test_the_fit_height_undoes_a_turned_index_s_bounding_box(angle):
    height, aspect = 40.0, 0.6
    c, s = abs(np.cos(np.radians(angle))), abs(np.sin(np.radians(angle)))
    box_w = height * aspect * c + height * s
    box_h = height * aspect * s + height * c
    assert real_marks._fit_height(box_w, box_h, angle, aspect) == pytest.approx(height)


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scene")
    write_scenes_for_tests(folder, count=2, size=(640, 480), seed=11)
    return folder


@trained
def test_the_search_finds_a_rendered_index_s_angle_from_its_box_and_card(scene):
    from scanner.vision import Recogniser

    recogniser = Recogniser.load()
    found = 0
    tried = 0
    for path in sorted(scene.glob("scene_*.json")):
        frame = read_image(path.with_suffix(".jpg"))
        for truth in index_truths(json.loads(path.read_text())):
            if truth.visible < 1.0 or truth.height < 12 or truth.code not in CLASSES:
                continue
            tried += 1
            turned = np.radians(truth.angle)
            c, s = abs(np.cos(turned)), abs(np.sin(turned))
            half_w = (truth.width * c + truth.height * s) / 2
            half_h = (truth.width * s + truth.height * c) / 2
            (x, y) = truth.centre
            box = (truth.code, x - half_w, y - half_h, x + half_w, y + half_h)
            place = real_marks._search(frame, box, recogniser)
            off = abs((place.angle - truth.angle + 180) % 360 - 180)
            if place.taught and off <= 20:
                found += 1
                assert np.isnan(place.card_x)  # a box says nothing of its card
    assert tried >= 5 and found >= 0.7 * tried


def test_each_photo_is_cut_at_scales_that_bring_its_indices_where_the_locator_reads():
    frame = np.full((640, 640, 3), 200, np.uint8)
    places = [
        real_marks.Place(100.0, 120.0, 0.0, 90.0, 54.0, code="5R"),
        real_marks.Place(400.0, 420.0, 180.0, 110.0, 66.0, code="KB"),
        real_marks.Place(500.0, 100.0, 0.0, 100.0, 60.0, code="AR", taught=False),
    ]
    images, rows, counts = real_marks.cut_photo(frame, places, np.random.default_rng(2))
    assert len(images) == real_marks.SCALES_PER_PHOTO * real_marks.CROPS_PER_SCALE
    assert all(image.shape == (192, 192, 3) for image in images)
    truths = np.array(rows).reshape(-1, TRUTH_FIELDS)
    assert len(truths) == sum(counts)
    lo = real_marks.HEIGHTS[0]
    taught = truths[truths[:, 10] == 1.0]
    median = float(np.median([90.0, 110.0]))
    assert np.all(taught[:, 3] >= lo * 90.0 / median - 1e-6)
    assert np.all(taught[:, 3] <= 110.0 + 1e-6)  # never larger than the photo's own
    assert np.isnan(truths[:, 5:9]).all()  # no card was known
    assert set(truths[:, 10]) <= {1.0, 0.5}


def _voc(boxes) -> str:
    objects = "".join(
        f"<object><name>{code}</name><bndbox><xmin>{x0:.0f}</xmin><ymin>{y0:.0f}</ymin>"
        f"<xmax>{x1:.0f}</xmax><ymax>{y1:.0f}</ymax></bndbox></object>"
        for code, x0, y0, x1, y1 in boxes
    )
    return f"<annotation>{objects}</annotation>"


def _index_boxes(truths):
    """Axis-aligned boxes round each wholly seen index, as a person labels a photo."""
    boxes = []
    for t in truths:
        if t.visible < 1.0 or t.code not in CLASSES or t.code == "none":
            continue
        c, s = abs(np.cos(np.radians(t.angle))), abs(np.sin(np.radians(t.angle)))
        half_w, half_h = (t.width * c + t.height * s) / 2, (t.width * s + t.height * c) / 2
        x, y = t.centre
        boxes.append((t.code, x - half_w, y - half_h, x + half_w, y + half_h))
    return boxes


@trained
def test_a_labelled_photo_becomes_locator_samples_flagged_real(scene, tmp_path):
    path = sorted(scene.glob("scene_*.json"))[0]
    boxes = _index_boxes(index_truths(json.loads(path.read_text())))
    shutil.copy(path.with_suffix(".jpg"), tmp_path / "photo.jpg")
    (tmp_path / "photo.xml").write_text(_voc(boxes))
    codes = " ".join(sorted({code for code, *_ in boxes}))
    labels = tmp_path / "labels.csv"
    labels.write_text(f"image,cards,group\nphoto.jpg,{codes},rendered\n")
    out = tmp_path / "real.npz"
    assert real_marks.main([str(tmp_path), "--labels", str(labels), "--out", str(out)]) == 0
    data = np.load(out)
    assert data["real"].all() and len(data["real"]) == len(data["counts"]) == len(data["images"])
    assert {CLASSES[int(k)] for k in data["truths"][:, 9]} <= {code for code, *_ in boxes}
    marked = data["truths"][np.isfinite(data["truths"][:, 5])]
    assert len(marked) > 0  # the recogniser's marks bring their cards
    assert (data["truths"][:, 10] == 1.0).mean() > 0.7  # most boxes are placed and taught


def test_real_crops_are_drawn_their_share_of_the_time():
    weights = np.array([0.1, 0.3, 0.2, 0.4])
    real = np.array([False, False, True, True])
    mixed = with_real_share(weights, real, 0.25)
    assert mixed.sum() == pytest.approx(1.0)
    assert mixed[real].sum() == pytest.approx(0.25)
    assert mixed[2] / mixed[3] == pytest.approx(0.5)  # within a part, as weighted before
    assert np.array_equal(with_real_share(weights, np.zeros(4, bool), 0.5), weights)
    with pytest.raises(ValueError, match="between 0 and 1"):
        with_real_share(weights, real, 1.5)


def test_an_index_without_its_card_teaches_the_heat_but_not_the_card_heads(scene, tmp_path):
    rendered = cut_locator_samples(scene, tmp_path / "rendered.npz", per_scene=2, seed=1)
    row = [96.0, 96.0, 0.0, 20.0, 12.0, *[np.nan] * 4, CLASSES.index("7R"), 1.0]
    real = tmp_path / "real.npz"
    np.savez(
        real,
        images=np.full((1, 192, 192, 3), 128, np.uint8),
        truths=np.array([row], np.float32),
        counts=np.array([1], np.int32),
        real=np.ones(1, bool),
    )
    merged = np.load(merge_samples([rendered, real], tmp_path / "merged.npz"))
    assert merged["real"].tolist() == [False] * (len(merged["counts"]) - 1) + [True]
    model = Locator()
    batches = locator_batches(tmp_path / "merged.npz", model, batch=4, real_share=1.0)
    drawn = batches.draw(0, torch.Generator().manual_seed(0))
    loss, parts = batches.loss(drawn)
    loss.backward()
    assert np.isfinite(loss.item()) and parts["regression"] > 0
    assert all(torch.isfinite(p.grad).all() for p in model.parameters() if p.grad is not None)


def test_a_window_of_each_crop_keeps_its_indices_where_its_pixels_are(tmp_path):
    image = np.zeros((1, 192, 192, 3), np.uint8)
    image[0, 96:100, 120:124] = 255  # the index's centre cell, bright
    row = [122.0, 98.0, 0.0, 16.0, 10.0, 122.0, 140.0, 60.0, 84.0, CLASSES.index("7R"), 1.0]
    samples = tmp_path / "one.npz"
    np.savez(
        samples,
        images=image,
        truths=np.array([row], np.float32),
        counts=np.array([1], np.int32),
    )
    batches = locator_batches(samples, Locator(), batch=8, window=128)
    x, target = batches.draw(0, torch.Generator().manual_seed(4))[:2]
    assert x.shape == (8, 3, 128, 128) and target.shape[2:] == (32, 32)
    for pixels, heads in zip(x, target, strict=True):
        bright = (pixels[0] == pixels[0].max()).nonzero()
        peaks = (heads[0] == 1.0).nonzero()
        if len(peaks):  # the index fell inside this window
            assert tuple(peaks[0].tolist()) == tuple((bright[0] // 4).tolist())
    with pytest.raises(ValueError, match="window"):
        locator_batches(samples, Locator(), batch=2, window=130)


@trained
def test_whole_cards_teach_the_marks_read_as_their_rank_and_leave_the_rest_of_each_card(scene):
    from scanner.vision import Recogniser

    path = sorted(scene.glob("scene_*.json"))[0]
    labels = json.loads(path.read_text())
    boxes = []
    for card in labels["cards"]:
        if card["code"][-1:] not in "RB" or card["code"] == "JK":
            continue
        corners = np.array(card["corners"])
        boxes.append((card["code"][:-1], *corners.min(axis=0), *corners.max(axis=0)))
    frame = read_image(path.with_suffix(".jpg"))
    places = real_marks.place_cards(frame, boxes, Recogniser.load())
    taught = [p for p in places if p.taught]
    assert len(taught) >= len(boxes) // 2  # most cards' indices are read as their rank
    ranks = {rank for rank, *_ in boxes}
    assert all(p.code[:-1] in ranks for p in taught)
    untaught = [p for p in places if not p.taught]
    assert len(untaught) == len(boxes)
    for p, (_, x0, y0, x1, y1) in zip(untaught, boxes, strict=True):
        assert p.index_h >= max(x1 - x0, y1 - y0)  # its untaught disc covers the card


def test_a_locator_trained_from_scratch_draws_the_real_photos_from_its_first_step(scene, tmp_path):
    """`train locator --real FILE` (and so `all`) mixes the real samples in as `tune` does:
    merged beside the scenes' crops, flagged real, drawn their share of every batch."""
    from model.recogniser.train import main as train

    real = tmp_path / "real.npz"
    row = [96.0, 96.0, 0.0, 20.0, 12.0, *[np.nan] * 4, CLASSES.index("7R"), 1.0]
    np.savez(
        real,
        images=np.full((2, 192, 192, 3), 128, np.uint8),
        truths=np.array([row, row], np.float32),
        counts=np.array([1, 1], np.int32),
        real=np.ones(2, bool),
    )
    work = tmp_path / "work"
    common = ["--scenes", str(scene), "--work", str(work), "--threads", "1"]
    assert train(["cut", *common, "--crops-per-scene", "2"]) == 0
    steps = ["--locator-steps", "2", "--locator-more", "--batch", "2", "--real", str(real)]
    steps += ["--real-share", "0.5"]
    assert train(["locator", *common, *steps]) == 0
    merged = np.load(work / "locator-real.npz")
    assert merged["real"].sum() == 2 and (~merged["real"]).sum() == len(merged["counts"]) - 2
    assert torch.load(work / "locator.ckpt", weights_only=False)["step"] == 2
