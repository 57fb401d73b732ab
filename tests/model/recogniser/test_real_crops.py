"""Classifier crops cut from a labelled real photo where the recogniser marks its indices."""

import shutil
from pathlib import Path

import numpy as np
import pytest

from model.recogniser.real_crops import VARIANTS, cut, main
from scanner.vision.contract import CLASSES, CROP_H, CROP_W
from scanner.vision.networks import default_model_dir

PHOTOS = Path(__file__).resolve().parents[2] / "fixtures" / "vision" / "second_look"

pytestmark = pytest.mark.skipif(
    not (default_model_dir() / "locator.onnx").exists(), reason="the models are not trained"
)


@pytest.fixture
def labelled(tmp_path):
    """The real photo of a nine and an ace of hearts, its whole-card boxes named by code."""
    shutil.copy(PHOTOS / "IMG_2598.JPG", tmp_path / "IMG_2598.JPG")
    xml = (PHOTOS / "IMG_2598.xml").read_text(encoding="utf-8")
    xml = xml.replace("<name>nine</name>", "<name>9H</name>")
    (tmp_path / "IMG_2598.xml").write_text(xml.replace("<name>ace</name>", "<name>AH</name>"))
    labels = tmp_path / "labels.csv"
    labels.write_text("image,cards,group\nIMG_2598.JPG,9H AH,phone\n")
    return tmp_path, labels


def test_each_mark_in_a_labelled_box_is_cut_as_its_card(labelled):
    folder, labels = labelled
    data = cut(folder, labels, [], seed=1)
    crops, classes = data["crops"], data["classes"]
    assert crops.dtype == np.uint8 and crops.shape[1:] == (CROP_H, CROP_W, 3)
    assert len(crops) == len(classes) and len(classes) % (VARIANTS + 1) == 0
    named = {CLASSES[k] for k in classes}
    assert {"9R", "AR"} <= named and named <= {"9R", "AR", "none"}
    assert cut(folder, labels, [], seed=1)["crops"].tobytes() == crops.tobytes()  # seeded


def test_only_the_groups_asked_for_are_cut(labelled, tmp_path):
    folder, labels = labelled
    with pytest.raises(ValueError, match="no labelled index was marked"):
        cut(folder, labels, ["iphone"], seed=1)
    out = tmp_path / "out" / "crops.npz"
    assert main([str(folder), "--labels", str(labels), "--out", str(out)]) == 0
    assert len(np.load(out)["classes"]) > 0


def test_real_crops_weigh_their_share_and_their_marks_on_no_index_a_fifth_of_it():
    from model.recogniser.classifier import REAL_NONE, _real_weights

    none = CLASSES.index("none")
    classes = np.array([none] * 10 + [0] * 30 + [1] * 5)
    weights = _real_weights(classes)
    assert weights.sum() == pytest.approx(1.0)
    assert weights[classes == none].sum() == pytest.approx(REAL_NONE)
    assert weights[classes == 1][0] > weights[classes == 0][0]  # the rarer card drawn more


def test_the_classifier_goes_on_from_the_shipped_one_with_real_crops_mixed_in(tmp_path):
    torch = pytest.importorskip("torch")
    from model.recogniser.classifier import train_classifier

    rng = np.random.default_rng(0)
    crops = rng.integers(0, 255, (40, CROP_H, CROP_W, 3), dtype=np.uint8)
    np.savez(tmp_path / "rendered.npz", crops=crops, classes=rng.integers(0, 5, 40))
    np.savez(tmp_path / "real.npz", crops=crops[:12], classes=np.arange(12) % 3)
    work = tmp_path / "work"
    work.mkdir()
    start = default_model_dir() / "classifier.onnx"
    model = train_classifier(
        tmp_path / "rendered.npz", work, steps=3, batch=16, seed=1, start=start, distil=0.5,
        real=tmp_path / "real.npz", real_share=0.5,
    )  # fmt: skip
    assert isinstance(model, torch.nn.Module)
    history = (work / "classifier-history.json").read_text()
    assert '"drift"' in history  # the rendered crops of each batch kept near the start model


def test_whole_card_boxes_give_only_the_marks_beside_every_card_as_not_an_index(tmp_path):
    """The nine's box alone is kept: the ace beside it stands for what lies beside the cards
    of a photo labelled by whole cards, and only its marks are cut, each as not an index."""
    shutil.copy(PHOTOS / "IMG_2598.JPG", tmp_path / "IMG_2598.JPG")
    xml = (PHOTOS / "IMG_2598.xml").read_text(encoding="utf-8")
    nine, ace = xml.index("<object>"), xml.rindex("<object>")
    (tmp_path / "IMG_2598.xml").write_text(xml[:ace] + "</annotation>" if ace > nine else xml)
    labels = tmp_path / "labels.csv"
    labels.write_text("image,cards,group\nIMG_2598.JPG,9,test\n")
    data = cut(tmp_path, labels, [], seed=1, whole_cards=True)
    assert len(data["classes"]) > 0
    assert {CLASSES[k] for k in data["classes"]} == {"none"}


def test_several_files_of_real_crops_are_read_as_one(tmp_path):
    from model.recogniser.classifier import merge_crops

    rng = np.random.default_rng(1)
    parts = []
    for n, count in enumerate((3, 5)):
        part = tmp_path / f"part{n}.npz"
        crops = rng.integers(0, 255, (count, CROP_H, CROP_W, 3), dtype=np.uint8)
        np.savez(part, crops=crops, classes=np.full(count, n))
        parts.append(part)
    assert merge_crops([], tmp_path / "none.npz") is None
    assert merge_crops(parts[:1], tmp_path / "one.npz") == parts[0]
    merged = np.load(merge_crops(parts, tmp_path / "both.npz"))
    assert merged["classes"].tolist() == [0] * 3 + [1] * 5
    assert np.array_equal(merged["crops"][3:], np.load(parts[1])["crops"])
