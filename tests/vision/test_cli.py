"""`handfoot scan` and `handfoot eval` through the real command line.

They run on the shipped models when ``model/locator.onnx`` and ``model/classifier.onnx`` exist,
else on two tiny stand-ins built here with the ``onnx`` package (skipped without it): a
"locator" that marks every bright red 4×4 cell and a "classifier" that reads a crop's mean green
as a class. The stand-ins follow the contract in ``scanner/vision/contract.py``, so the whole
pipeline runs and its output can be checked exactly.
"""

import json
import math
import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from model.evaluate.scenes import FATES
from scanner.vision import contract as spec
from scanner.vision.images import write_image
from scanner.vision.networks import CLASSIFIER_FILE, LOCATOR_FILE, default_model_dir

SHIPPED = default_model_dir()
HAVE_SHIPPED = (SHIPPED / LOCATOR_FILE).is_file() and (SHIPPED / CLASSIFIER_FILE).is_file()
INDEX_H, INDEX_W, CARD_U, CARD_V, CARD_W, CARD_H = 16.0, 8.0, 1.2, 2.0, 4.0, 5.5


def stand_in_locator(path: Path) -> None:
    """heat = a 4×4 cell's mean red, 0 (black) to 1 (full red); the other heads are constant:
    upright indices 16 × 8 px on cards 64 × 88 px, centres in the middle of their cell. It
    marks them upright however the frame is turned, so it is read one way (``--turns 1``)."""
    onnx = pytest.importorskip("onnx", reason="the stand-in models are built with onnx")
    from onnx import TensorProto, helper, numpy_helper

    rest = [1, 0, math.log(INDEX_H), math.log(INDEX_W), CARD_U, CARD_V]
    rest += [math.log(CARD_W), math.log(CARD_H), 0.5, 0.5]
    constants = {
        "s0": np.array([0], np.int64),
        "s1": np.array([1], np.int64),
        "two": np.array(2, np.float32),
        "quarter": np.array(0.25, np.float32),
        "zero": np.array(0, np.float32),
        "rest": np.array(rest, np.float32).reshape(1, -1, 1, 1),
    }
    nodes = [
        helper.make_node("AveragePool", ["image"], ["pooled"], kernel_shape=[4, 4], strides=[4, 4]),
        helper.make_node("Slice", ["pooled", "s0", "s1", "s1"], ["red"]),
        helper.make_node("Add", ["red", "two"], ["lifted"]),
        helper.make_node("Mul", ["lifted", "quarter"], ["heat"]),
        helper.make_node("Mul", ["heat", "zero"], ["zeros"]),
        helper.make_node("Add", ["zeros", "rest"], ["others"]),
        helper.make_node("Concat", ["heat", "others"], ["heads"], axis=1),
    ]
    _save(onnx, helper, nodes, constants, numpy_helper, TensorProto, path, "locator")


def stand_in_classifier(path: Path) -> None:
    """Class k when the crop's mean green is nearest the k-th of evenly spaced levels."""
    onnx = pytest.importorskip("onnx", reason="the stand-in models are built with onnx")
    from onnx import TensorProto, helper, numpy_helper

    constants = {
        "s1": np.array([1], np.int64),
        "s2": np.array([2], np.int64),
        "shape": np.array([-1, 1], np.int64),
        "levels": np.linspace(-2, 2, len(spec.CLASSES), dtype=np.float32)[None],
        "gain": np.array(-400, np.float32),
    }
    nodes = [
        helper.make_node("GlobalAveragePool", ["crops"], ["pooled"]),
        helper.make_node("Slice", ["pooled", "s1", "s2", "s1"], ["green"]),
        helper.make_node("Reshape", ["green", "shape"], ["g"]),
        helper.make_node("Sub", ["g", "levels"], ["gap"]),
        helper.make_node("Mul", ["gap", "gap"], ["gap2"]),
        helper.make_node("Mul", ["gap2", "gain"], ["logits"]),
    ]
    _save(onnx, helper, nodes, constants, numpy_helper, TensorProto, path, "classifier")


def _save(onnx, helper, nodes, constants, numpy_helper, TensorProto, path, kind):
    if kind == "locator":
        inputs = [("image", [1, 3, "H", "W"])]
        outputs = [("heads", [1, spec.HEAD_CHANNELS, "h", "w"])]
    else:
        inputs = [("crops", ["N", 3, spec.CROP_H, spec.CROP_W])]
        outputs = [("logits", ["N", len(spec.CLASSES)])]
    save_stand_in(path, f"stand-in {kind}", nodes, constants, inputs, outputs)


def save_stand_in(path, name, nodes, constants, inputs, outputs, opset: int = 17) -> None:
    """An ONNX file of ``nodes``: float ``inputs`` and ``outputs`` as (name, shape) pairs, the
    ``constants`` (name → array) as its initialisers."""
    from onnx import TensorProto, helper, numpy_helper, save

    graph = helper.make_graph(
        nodes,
        name,
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, shape) for n, shape in inputs],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, shape) for n, shape in outputs],
        [numpy_helper.from_array(value, key) for key, value in constants.items()],
    )
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)]), str(path))


def green_for(code: str) -> int:
    """The green level the stand-in classifier reads as ``code``."""
    level = np.linspace(-2, 2, len(spec.CLASSES))[spec.CLASSES.index(code)]
    return round((level * spec.STD + spec.MEAN) * 255)


def stand_in_folders(tmp_path_factory, name: str, make_extra) -> tuple[Path, Path]:
    """A folder of the stand-in locator and classifier, and its copy with one more model,
    ``name``, written by ``make_extra(path)``."""
    plain = tmp_path_factory.mktemp("two-models")
    stand_in_locator(plain / LOCATOR_FILE)
    stand_in_classifier(plain / CLASSIFIER_FILE)
    more = tmp_path_factory.mktemp("three-models")
    for model in (LOCATOR_FILE, CLASSIFIER_FILE):
        shutil.copy(plain / model, more / model)
    make_extra(more / name)
    return plain, more


@pytest.fixture(scope="module")
def stand_ins(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("stand-in-models")
    stand_in_locator(folder / LOCATOR_FILE)
    stand_in_classifier(folder / CLASSIFIER_FILE)
    return folder


@pytest.fixture(scope="module")
def models(request) -> Path:
    return SHIPPED if HAVE_SHIPPED else request.getfixturevalue("stand_ins")


def marked_frame() -> np.ndarray:
    """Two red cells (index centres (202, 102) and (102, 202)) on fields the stand-in reads as
    KR and 7B."""
    frame = np.zeros((300, 400, 3), np.uint8)
    frame[..., 1] = green_for("KR")
    frame[180:230, 80:130, 1] = green_for("7B")
    frame[100:104, 200:204, 0] = 255
    frame[200:204, 100:104, 0] = 255
    # a fine texture in the blue channel, which neither stand-in looks at, so the frame is not
    # refused as blurred the way a flat, edgeless picture is
    frame[..., 2] = np.random.default_rng(0).integers(0, 256, frame.shape[:2])
    return frame


@pytest.fixture
def images(tmp_path) -> dict[str, Path]:
    good = tmp_path / "table.png"
    write_image(good, marked_frame())
    text = tmp_path / "notes.jpg"
    text.write_text("not a picture")
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    return {"good": good, "text": text, "empty": empty, "missing": tmp_path / "gone.jpg"}


def test_scan_prints_one_json_line_per_image(cli, models, images, tmp_path):
    result = cli("scan", images["good"], images["good"], "--json", "--models", models)
    assert result.code == 0 and result.err == ""
    lines = [json.loads(line) for line in result.out.splitlines()]
    assert len(lines) == 2 and lines[0] == {**lines[1], "timing_ms": lines[0]["timing_ms"]}
    assert set(lines[0]) >= {"image", "cards", "timing_ms", "melds", "red_threes", "unplaced"}
    assert lines[0]["image"] == str(images["good"])
    assert set(lines[0]["timing_ms"]) >= {"locate", "classify", "decode", "total"}
    for card in lines[0]["cards"]:
        assert card["code"] in spec.CLASSES and card["code"] != spec.NOT_AN_INDEX
        assert 0 <= card["confidence"] <= 1 and isinstance(card["check"], bool)
        x0, y0, x1, y1 = card["index_box"]
        assert x0 <= x1 and y0 <= y1
        assert len(card["polygon"]) == 4 and all(len(point) == 2 for point in card["polygon"])


def test_scan_reads_what_the_stand_in_models_mark(cli, stand_ins, images, tmp_path):
    result = cli(
        "scan",
        images["good"],
        "--json",
        "--models",
        stand_ins,
        "--turns",
        "1",
        # the stand-in frame marks indices with red cells, no ink: the colour rule stays off
        "--without",
        "ink_colour",
        "--annotate",
        tmp_path,
    )
    assert result.code == 0
    cards = {card["code"]: card for card in result.json["cards"]}
    assert set(cards) == {"KR", "7B"}
    assert cards["KR"]["index_box"] == [198.0, 94.0, 206.0, 110.0]  # 8 × 16 around (202, 102)
    # card centre: 1.2 index heights right, 2 down; 4 × 5.5 index heights in size
    centre = (202 + CARD_U * INDEX_H, 102 + CARD_V * INDEX_H)
    half = (CARD_W * INDEX_H / 2, CARD_H * INDEX_H / 2)
    expected = [
        [centre[0] + sx * half[0], centre[1] + sy * half[1]]
        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    ]
    assert np.allclose(cards["KR"]["polygon"], expected, atol=0.1)
    assert cards["KR"]["angle"] == 0 and not cards["KR"]["check"]
    assert (tmp_path / "table.annotated.jpg").stat().st_size > 0

    readable = cli("scan", images["good"], "--models", stand_ins, "--turns", "1")
    assert readable.code == 0 and readable.out.startswith(f"{images['good']}: 2 cards")
    assert "KR" in readable.out and "not counted" in readable.out


def test_unreadable_images_get_an_error_line_and_the_others_are_scanned(cli, models, images):
    order = [
        images["missing"],
        images["good"],
        images["text"],
        images["empty"],
        images["good"].parent,
    ]
    result = cli("scan", *order, "--json", "--models", models)
    assert result.code == 2
    assert [json.loads(line)["image"] for line in result.out.splitlines()] == [str(images["good"])]
    errors = result.err.splitlines()
    assert len(errors) == 4 and all(line.startswith("handfoot: ") for line in errors)
    assert f"{images['missing']}: no such file" in errors[0]
    assert str(images["text"]) in errors[1] and "not an image" in errors[1]
    assert str(images["empty"]) in errors[2] and "is a folder" in errors[3]


def test_scan_without_models_says_how_to_get_them(cli, images, tmp_path):
    result = cli("scan", images["good"], "--models", tmp_path)
    assert result.code == 2 and result.out == ""
    assert "locator.onnx: no such model file" in result.err and "make model" in result.err
    assert cli("scan", "--json").code == 2  # no image: a usage error
    assert cli("scan", images["good"], "--threads", "0", "--models", tmp_path).code == 2


def test_eval_scores_a_synth_folder(cli, models, tmp_path):
    scenes = tmp_path / "scenes"
    assert cli("synth", "--out", scenes, "--count", "2", "--size", "320x240", "--quiet").code == 0
    result = cli("eval", scenes, "--models", models, "--json")
    assert result.code == 0, result.err
    figures = result.json
    assert figures["scenes"] == 2 and figures["confusion"] == str(scenes / "confusion.png")
    assert (scenes / "confusion.png").stat().st_size > 0
    assert figures["countable"] == figures["found"] + figures["missed"]
    assert set(figures["by_styles"]) == {"seen", "held_out"}
    told = figures["by_legibility"]
    assert told["small_cards"]["scenes"] + told["readable"]["scenes"] == 2
    assert sum(part["scenes"] for part in figures["by_table"].values()) == 2
    assert "unknown" not in figures["by_table"]  # each rendered scene names its table
    by_smallest = figures["exact_by_smallest_index"]
    assert list(by_smallest) == list(figures["recall_by_index_size"])  # the same bins
    labels = [json.loads(path.read_text()) for path in scenes.glob("scene_*.json")]
    with_cards = [s for s in labels if any(i["visible"] for c in s["cards"] for i in c["indices"])]
    assert sum(part["scenes"] for part in by_smallest.values()) == len(with_cards)
    assert set(figures["accuracy"]) == {"all", "standard", "special"}
    for key in ("recall", "precision", "exact_scenes"):
        assert figures[key] is None or 0 <= figures[key] <= 1

    shown = cli(
        "eval", scenes, "--models", models, "--limit", "1", "--confusion", tmp_path / "c.png"
    )
    assert shown.code == 0 and "1 scene," in shown.out and "recall" in shown.out
    assert "recall by index size (its short side): " in shown.out
    assert "scenes read exactly, by their smallest card's index: " in shown.out
    assert (tmp_path / "c.png").exists()


def test_eval_reads_cards_in_melds_unless_told_they_lie_loose(cli, models, tmp_path, monkeypatch):
    """By default a meld's unsure cards are read as the rest of it reads (melds.py); photos of
    loose cards, or a hand, are read with ``--no-melds``."""
    from scanner.vision import Recogniser

    told = []
    read = Recogniser.read

    def recorded(self, frame, deck=None, *, melds=True):
        told.append(melds)
        return read(self, frame, deck, melds=melds)

    monkeypatch.setattr(Recogniser, "read", recorded)
    scenes = tmp_path / "scenes"
    assert cli("synth", "--out", scenes, "--count", "2", "--size", "320x240", "--quiet").code == 0
    assert cli("eval", scenes, "--models", models, "--json").code == 0
    assert told == [True, True]
    told.clear()
    assert cli("eval", scenes, "--models", models, "--json", "--no-melds").code == 0
    assert told == [False, False]


def add_a_scene_read_badly(scenes: Path) -> None:
    """A labelled scene in the stand-ins' marked frame whose one card lies where nothing is
    marked: it is missed, and the two cards read are phantoms."""
    write_image(scenes / "scene_000099.png", marked_frame())
    index = {"quad": [[290, 230], [306, 230], [306, 254], [290, 254]], "visible": True}
    card = {"code": "9B", "indices": [{**index, "visible_fraction": 1.0}]}
    labels = {"image": "scene_000099.png", "deck": "standard", "styles": [], "cards": [card]}
    (scenes / "scene_000099.json").write_text(json.dumps(labels))


def test_eval_lists_every_error_a_line_each(cli, stand_ins, tmp_path):
    """The stand-in models read rendered scenes badly: every kind of error is there to list."""
    scenes = tmp_path / "scenes"
    assert cli("synth", "--out", scenes, "--count", "2", "--size", "640x480", "--quiet").code == 0
    add_a_scene_read_badly(scenes)
    listing = tmp_path / "errors.jsonl"
    figures = cli("eval", scenes, "--models", stand_ins, "--json", "--errors", listing).json
    lines = [json.loads(line) for line in listing.read_text().splitlines()]
    kinds = Counter(line["kind"] for line in lines)
    assert figures["errors"] == str(listing)
    assert kinds["missed"] == figures["missed"] and kinds["phantom"] == figures["phantoms"]
    assert kinds["double count"] == figures["double_counts"]
    assert kinds["wrong code"] == figures["found"] - figures["read_right"]
    assert kinds["missed"] and kinds["phantom"]
    names = {json.loads(label.read_text())["image"] for label in scenes.glob("scene_*.json")}
    for line in lines:
        assert line["scene"] in names and len(line["at"]) == 2
        assert (line["truth"] is None) == (line["kind"] == "phantom")
        assert (line["read"] is None) == (line["kind"] == "missed")
        assert ("fate" in line) == (line["kind"] == "missed")
        assert line.get("fate", FATES[0]) in FATES
    (unmarked,) = [line for line in lines if line["scene"] == "scene_000099.png" and line["truth"]]
    assert unmarked["fate"] == "no reading"

    shown = cli("eval", scenes, "--models", stand_ins, "--errors", listing)
    assert f"every error, a line each: {listing}" in shown.out
    unwritable = cli("eval", scenes, "--models", stand_ins, "--errors", tmp_path / "no" / "e.jsonl")
    assert unwritable.code == 2 and "cannot write the error listing" in unwritable.err
    table = cli("eval", scenes, "--mode", "table", "--errors", listing)
    assert table.code == 2 and "use it in cards mode" in table.err


def test_eval_refuses_what_it_cannot_use(cli, tmp_path):
    assert "no such folder" in cli("eval", tmp_path / "nowhere").err
    empty = cli("eval", tmp_path)
    assert empty.code == 2 and "no scene_*.json" in empty.err
    (tmp_path / "scene_000000.json").write_text("{}")
    assert "must be a .png" in cli("eval", tmp_path, "--confusion", tmp_path / "c.txt").err


def test_a_faint_mark_counts_only_where_a_card_is_read_surely(stand_ins):
    from scanner.vision.faint import FAINT_HEAT
    from scanner.vision.recogniser import Recogniser

    recogniser = Recogniser.load(stand_ins, turns=1, ink_colour=False)  # red cells, no ink
    frame = np.zeros((300, 400, 3), np.uint8)
    frame[..., 1] = green_for("none")
    for x0, code in ((40, "KR"), (160, "7B"), (280, "9B")):
        frame[100:160, x0 : x0 + 60, 1] = green_for(code)
    faint = round(255 * (FAINT_HEAT + 0.1))  # heat between FAINT_HEAT and PEAK_THRESHOLD
    frame[128:132, 68:72, 0] = 255  # a clear mark on the KR field
    frame[128:132, 188:192, 0] = faint  # a faint one on the 7B field: a card read surely
    frame[128:132, 308:312, 0] = round(255 * FAINT_HEAT * 0.5)  # too faint to be a mark
    frame[228:232, 188:192, 0] = faint  # a faint one where no card is read
    cards = recogniser.read(frame).cards
    assert sorted(card.code for card in cards) == ["7B", "KR"]
