"""The locator taught to read in one pass what it reads as the mean of its four turns: the
teacher's heads cut with each crop on the crop's own cells, the divergence the loss adds, and
the `fold` stage end to end."""

import json

import numpy as np
import pytest

# Trains the shipped locator a pass.
pytestmark = pytest.mark.slow

torch = pytest.importorskip("torch")

from model.recogniser.dataset import (  # noqa: E402
    cut_locator_samples,
    write_scenes_for_tests,
)
from model.recogniser.locator import locator_batches, turns_divergence  # noqa: E402
from model.recogniser.nets import Locator  # noqa: E402
from model.recogniser.train import main as train  # noqa: E402


@pytest.fixture(scope="module")
def scenes(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scenes")
    write_scenes_for_tests(folder, count=3, size=(320, 240))
    return folder


def _red_every_fourth_pixel(frame: np.ndarray) -> np.ndarray:
    """A teacher whose one head is the frame's red plane on a grid of 4 px."""
    return frame[None, None, ::4, ::4, 0].astype(np.float32)


def _red_every_pixel(frame: np.ndarray) -> np.ndarray:
    return frame[None, None, :, :, 0].astype(np.float32)


def test_each_crop_keeps_the_teacher_s_heads_over_its_own_cells(scenes, tmp_path):
    out = cut_locator_samples(
        scenes,
        tmp_path / "samples.npz",
        size=64,
        per_scene=6,
        seed=3,
        teacher=_red_every_fourth_pixel,
        stride=4,
    )
    data = np.load(out)
    images, teacher = data["images"], data["teacher"]
    assert teacher.shape == (len(images), 1, 16, 16) and teacher.dtype == np.float16
    # a crop that started off the grid would hold another pixel's heads than its own
    assert np.array_equal(teacher[:, 0], images[:, ::4, ::4, 0].astype(np.float16))


def test_crops_without_a_teacher_are_cut_as_before(scenes, tmp_path):
    plain = np.load(cut_locator_samples(scenes, tmp_path / "a.npz", size=64, per_scene=3, seed=5))
    assert "teacher" not in plain
    # a teacher on a grid of 1 px moves no crop: the same seed cuts the same crops
    taught = cut_locator_samples(
        scenes, tmp_path / "t.npz", size=64, per_scene=3, seed=5, teacher=_red_every_pixel
    )
    assert np.array_equal(np.load(taught)["images"], plain["images"])
    with pytest.raises(ValueError, match="grid"):
        cut_locator_samples(scenes, tmp_path / "b.npz", size=66, teacher=np.zeros_like, stride=4)


def test_the_divergence_is_zero_where_one_pass_gives_the_turns_heat_and_grows_away_from_it():
    taught = torch.tensor([0.02, 0.3, 0.7, 0.95]).view(1, 1, 2, 2)
    same = torch.log(taught / (1 - taught))
    assert abs(turns_divergence(same, taught).item()) < 1e-5
    farther = [turns_divergence(same + shift, taught).item() for shift in (0.5, 1.0, 2.0)]
    assert 0 < farther[0] < farther[1] < farther[2]


def test_folding_needs_samples_cut_with_a_teacher(scenes, tmp_path):
    samples = cut_locator_samples(scenes, tmp_path / "plain.npz", per_scene=2, seed=1)
    with pytest.raises(ValueError, match="teacher"):
        locator_batches(samples, Locator(), batch=2, fold=1.0)


def test_fold_teaches_the_shipped_locator_one_pass_and_writes_it(scenes, shipped, tmp_path):
    work, out = tmp_path / "work", tmp_path / "out"
    start = shipped.read_bytes()
    args = ["--scenes", str(scenes), "--work", str(work), "--out", str(out), "--threads", "1"]
    fold = ["--tune-from", str(shipped), "--tune-steps", "3", "--batch", "2"]
    assert train(["fold", *args, *fold, "--crops-per-scene", "2", "--fold", "0.5"]) == 0
    samples = np.load(work / "locator-folded-samples.npz")
    taught = samples["teacher"]
    assert taught.shape == (len(samples["images"]), 11, 48, 48)
    assert taught[:, 0].min() >= 0.0 and taught[:, 0].max() <= 1.0  # the heat, a probability
    assert torch.load(work / "locator-folded.ckpt", weights_only=False)["step"] == 3
    history = json.loads((work / "locator-folded-history.json").read_text())
    assert len(history) == 3 and all(h["turns"] >= 0.0 for h in history)
    assert (out / "locator.onnx").read_bytes() != start
    assert shipped.read_bytes() == start  # the teacher is left as it was


def test_the_teacher_is_a_locator_beside_its_recogniser(scenes, tmp_path):
    from model.recogniser.locator import cut_folded_samples

    with pytest.raises(ValueError, match=r"locator\.onnx"):
        cut_folded_samples(scenes, tmp_path / "s.npz", tmp_path / "other.onnx", 2, 1)


def test_a_negative_fold_weight_is_refused(scenes, tmp_path, capsys):
    with pytest.raises(SystemExit):
        train(["fold", "--scenes", str(scenes), "--work", str(tmp_path), "--fold", "-1"])
    assert "--fold is a weight of 0 or more" in capsys.readouterr().err
