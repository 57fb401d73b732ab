"""A minute of training on a few rendered scenes: the whole loop runs, resumes from its
checkpoint, and exports ONNX files that onnxruntime runs exactly as PyTorch does."""

import json

import numpy as np
import pytest

# Trains networks, a few steps each.
pytestmark = pytest.mark.slow

torch = pytest.importorskip("torch")

from model.recogniser.dataset import write_scenes_for_tests  # noqa: E402
from model.recogniser.loop import load_trained  # noqa: E402
from model.recogniser.train import main as train  # noqa: E402
from scanner.vision import contract as spec  # noqa: E402


@pytest.fixture(scope="module")
def scenes(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scenes")
    # a seed whose three small frames show a card whole, for the face reader to learn (seed
    # 3's showed none once the training split scattered printed pages)
    write_scenes_for_tests(folder, count=3, size=(320, 240), seed=5)
    return folder


def test_smoke_training_runs_resumes_and_exports(scenes, tmp_path):
    work, out = tmp_path / "work", tmp_path / "out"
    common = ["--scenes", str(scenes), "--work", str(work), "--out", str(out), "--threads", "1"]
    steps = ["--locator-steps", "4", "--locator-more", "--classifier-steps", "4", "--batch", "2"]
    assert train(["cut", *common]) == 0
    assert train(["locator", *common, *steps]) == 0
    first = torch.load(work / "locator.ckpt", weights_only=False)
    assert first["step"] == 4 and len(first["history"]) == 4
    # A warm restart of 2 more steps resumes at step 4 instead of starting again.
    more = ["--locator-steps", "4", "--locator-more", "2", "--batch", "2"]
    assert train(["locator", *common, *more]) == 0
    resumed = torch.load(work / "locator.ckpt", weights_only=False)
    assert resumed["step"] == 6 and [h["step"] for h in resumed["history"]] == list(range(6))
    # The classifier also learns from the crops where the trained locator marks.
    assert train(["mine", *common]) == 0
    mined = np.load(work / "classifier-mined.npz")
    assert mined["crops"].shape[1:] == (spec.CROP_H, spec.CROP_W, 3)
    assert len(mined["crops"]) == len(mined["classes"])
    assert all(0 <= c < len(spec.CLASSES) for c in mined["classes"])
    assert train(["classifier", *common, *steps]) == 0
    assert train(["export", *common]) == 0
    meta = json.loads((out / "recogniser.json").read_text())
    assert meta["CLASSES"] == list(spec.CLASSES)
    # A shipped classifier trains on from its ONNX file (a new work folder: no checkpoint).
    tuned = ["--work", str(tmp_path / "tuned"), "--classifier-from", str(out / "classifier.onnx")]
    assert train(["cut", *common[:2], *tuned[:2], "--threads", "1"]) == 0
    assert train(["classifier", *common[:2], *tuned, "--threads", "1", *steps]) == 0
    history = json.loads((tmp_path / "tuned" / "classifier-history.json").read_text())
    assert len(history) == 4 and "drift" not in history[0]
    # with --distil the loss also weighs how far the model's readings move from the start's
    distilled = ["--work", str(tmp_path / "distilled"), *tuned[2:], "--distil", "1.0"]
    distilled += ["--recolour", "0.5"]  # dulled crops; the divergence on them as they were
    assert train(["cut", *common[:2], *distilled[:2], "--threads", "1"]) == 0
    assert train(["classifier", *common[:2], *distilled, "--threads", "1", *steps]) == 0
    history = json.loads((tmp_path / "distilled" / "classifier-history.json").read_text())
    assert len(history) == 4 and all(0.0 <= h["drift"] < 10.0 for h in history)
    with pytest.raises(SystemExit):  # nothing to keep near
        train(["classifier", *common[:2], "--work", str(tmp_path / "none"), "--distil", "1.0"])

    import onnxruntime

    locator = onnxruntime.InferenceSession(str(out / "locator.onnx"))
    heads = locator.run(None, {"image": np.zeros((1, 3, 96, 128), np.float32)})[0]
    assert heads.shape == (1, spec.HEAD_CHANNELS, 24, 32)
    assert heads[0, spec.HEAT].min() >= 0.0 and heads[0, spec.HEAT].max() <= 1.0
    classifier = onnxruntime.InferenceSession(str(out / "classifier.onnx"))
    logits = classifier.run(None, {"crops": np.zeros((5, 3, 48, 32), np.float32)})[0]
    assert logits.shape == (5, len(spec.CLASSES))
    # the classifier gives its feature maps beside the logits, for deck profiles
    crops = np.zeros((2, 3, spec.CROP_H, spec.CROP_W), np.float32)
    logits, features = classifier.run(["logits", "features"], {"crops": crops})
    assert logits.shape == (2, len(spec.CLASSES)) and features.ndim == 4 and len(features) == 2


def blank_locator(path) -> None:
    """A locator whose every head is 0 everywhere: it marks nothing."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    zero = numpy_helper.from_array(np.array(0, np.float32), "zero")
    nodes = [
        helper.make_node("AveragePool", ["image"], ["pooled"], kernel_shape=[4, 4], strides=[4, 4]),
        helper.make_node("ReduceMean", ["pooled"], ["grey"], axes=[1], keepdims=1),
        helper.make_node("Mul", ["grey", "zero"], ["nothing"]),
        helper.make_node("Concat", ["nothing"] * spec.HEAD_CHANNELS, ["heads"], axis=1),
    ]
    graph = helper.make_graph(
        nodes,
        "blank locator",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, "H", "W"])],
        [helper.make_tensor_value_info("heads", TensorProto.FLOAT, None)],
        [zero],
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))


def stage_args(scenes, work, out) -> list[str]:
    return ["--scenes", str(scenes), "--work", str(work), "--out", str(out), "--threads", "1"]


def test_the_verifier_learns_from_a_locator_s_marks_and_exports(scenes, shipped, tmp_path):
    work, out = tmp_path / "work", tmp_path / "out"
    args = stage_args(scenes, work, out)
    steps = ["--verifier-steps", "4", "--batch", "2", "--verify-with", str(shipped)]
    assert train(["verifier", *args, *steps]) == 0
    samples = np.load(work / "verifier-samples.npz")
    side = spec.VERIFY_SIDE
    assert samples["crops"].shape[1:] == (side, side, 3)
    assert set(samples["labels"]) == {0, 1}  # marks on labelled indices and off every card
    assert torch.load(work / "verifier.ckpt", weights_only=False)["step"] == 4
    import onnxruntime

    verifier = onnxruntime.InferenceSession(str(out / "verifier.onnx"))
    logits = verifier.run(None, {"context": np.zeros((3, 3, side, side), np.float32)})[0]
    assert logits.shape == (3, 1)
    # a locator that marks nothing leaves no samples behind, and says why
    blank, untrained = tmp_path / "blank.onnx", tmp_path / "untrained"
    blank_locator(blank)
    again = [*args[:2], "--work", str(untrained), "--out", str(out), "--verify-with", str(blank)]
    with pytest.raises(ValueError, match="the verifier cannot learn from it"):
        train(["verifier", *again, "--verifier-steps", "4"])
    assert not (untrained / "verifier-samples.npz").exists()
    # run again: the samples are kept, the training is done
    stamp = (work / "verifier-samples.npz").stat().st_mtime_ns
    assert train(["verifier", *args, *steps]) == 0
    assert (work / "verifier-samples.npz").stat().st_mtime_ns == stamp


def test_the_face_reader_learns_the_faces_of_cards_in_plain_view_and_exports(scenes, tmp_path):
    from model.recogniser.faces import cut_face_samples

    work, out = tmp_path / "work", tmp_path / "out"
    args = stage_args(scenes, work, out)
    assert train(["face", *args, "--face-steps", "4", "--batch", "2"]) == 0
    samples = np.load(work / "face-samples.npz")
    assert samples["faces"].shape[1:] == (spec.FACE_H, spec.FACE_W, 3)
    assert len(samples["faces"]) == len(samples["labels"]) > 0
    assert all(0 <= label < len(spec.CLASSES) for label in samples["labels"])
    assert torch.load(work / "face.ckpt", weights_only=False)["step"] == 4
    import onnxruntime

    reader = onnxruntime.InferenceSession(str(out / "face.onnx"))
    shape = (3, 3, spec.FACE_H, spec.FACE_W)
    logits = reader.run(None, {"faces": np.zeros(shape, np.float32)})[0]
    assert logits.shape == (3, len(spec.CLASSES))
    # the same seed cuts the same faces
    cut_face_samples(scenes, tmp_path / "again.npz", seed=7)
    again = np.load(tmp_path / "again.npz")
    assert np.array_equal(again["faces"], samples["faces"])
    assert np.array_equal(again["labels"], samples["labels"])


def test_the_wider_classifier_learns_from_its_own_crops_and_exports(scenes, shipped, tmp_path):
    from model.recogniser.dataset import cut_classifier_samples

    work, out = tmp_path / "work", tmp_path / "out"
    args = stage_args(scenes, work, out)
    steps = ["--wider-steps", "4", "--batch", "2", "--verify-with", str(shipped)]
    assert train(["wider", *args, *steps]) == 0
    samples, mined = np.load(work / "wider-samples.npz"), np.load(work / "wider-mined.npz")
    for crops in (samples, mined):
        assert crops["crops"].shape[1:] == (spec.CROP_H, spec.CROP_W, 3)
        assert len(crops["crops"]) == len(crops["classes"]) > 0
    # its crops are its own, not the classifier's, cut around the same indices
    plain = np.load(cut_classifier_samples(scenes, tmp_path / "plain.npz", seed=7, aside=0.0))
    assert np.array_equal(plain["classes"], samples["classes"])
    assert not np.array_equal(plain["crops"], samples["crops"])
    assert torch.load(work / "wider.ckpt", weights_only=False)["step"] == 4
    assert len(json.loads((work / "wider-history.json").read_text())) == 4
    assert not (work / "classifier.ckpt").exists()
    import onnxruntime

    wider = onnxruntime.InferenceSession(str(out / "wider.onnx"))
    logits = wider.run(None, {"crops": np.zeros((3, 3, spec.CROP_H, spec.CROP_W), np.float32)})
    assert logits[0].shape == (3, len(spec.CLASSES))


def test_the_refiner_learns_from_drawn_misses_and_a_locator_s_marks_and_exports(
    scenes, shipped, tmp_path
):
    from model.recogniser.refine import TURN_LIMIT

    work, out = tmp_path / "work", tmp_path / "out"
    args = stage_args(scenes, work, out)
    steps = ["--refiner-steps", "4", "--batch", "2", "--verify-with", str(shipped)]
    assert train(["refiner", *args, *steps]) == 0
    side = spec.REFINE_SIDE
    for name in ("refiner-samples.npz", "refiner-mined.npz"):
        samples = np.load(work / name)
        assert samples["crops"].shape[1:] == (side, side, 3)
        assert samples["targets"].shape == (len(samples["crops"]), len(spec.REFINED))
        assert np.abs(samples["targets"][:, 4]).max() <= np.radians(TURN_LIMIT) + 1e-6
    drawn = np.load(work / "refiner-samples.npz")["targets"]
    assert np.abs(drawn).mean(axis=0)[2] > 0.1  # the drawn marks are measured wrong
    state = torch.load(work / "refiner.ckpt", weights_only=False)
    assert state["step"] == 4 and {"along", "turn"} <= set(state["history"][-1])
    import onnxruntime

    refiner = onnxruntime.InferenceSession(str(out / "refiner.onnx"))
    geometry = refiner.run(None, {"around": np.zeros((3, 3, side, side), np.float32)})[0]
    assert geometry.shape == (3, len(spec.REFINED))
    # a locator that marks nothing leaves no mined samples behind, and says why
    blank, untrained = tmp_path / "blank.onnx", tmp_path / "untrained"
    blank_locator(blank)
    again = [*args[:2], "--work", str(untrained), "--out", str(out), "--verify-with", str(blank)]
    with pytest.raises(ValueError, match="marks no labelled index"):
        train(["refiner", *again, "--refiner-steps", "4"])
    assert not (untrained / "refiner-mined.npz").exists()


def convolutions(path) -> int:
    import onnx

    return sum(node.op_type == "Conv" for node in onnx.load(str(path)).graph.node)


def test_all_mines_with_the_first_round_s_locator_then_restarts_and_grows_it(scenes, tmp_path):
    work, out = tmp_path / "work", tmp_path / "out"
    args = stage_args(scenes, work, out)
    steps = ["--locator-steps", "3", "--locator-more", "2", "--classifier-steps", "2"]
    steps += ["--grow-steps", "2", "--verifier-steps", "0", "--refiner-steps", "0"]
    steps += ["--wider-steps", "2", "--face-steps", "2", "--calibration-scenes", "0"]
    # (a 5-step locator marks nothing: nothing to learn from or to calibrate on)
    assert train(["all", *args, *steps, "--batch", "2"]) == 0
    assert torch.load(work / "locator.ckpt", weights_only=False)["step"] == 5
    assert torch.load(work / "locator-grown.ckpt", weights_only=False)["step"] == 2
    # the wider classifier learns from the finished locator's marks: none, from 5 steps
    assert torch.load(work / "wider.ckpt", weights_only=False)["step"] == 2
    assert len(np.load(work / "wider-mined.npz")["classes"]) == 0
    assert (out / "wider.onnx").is_file()
    # the face reader learns from the labels alone
    assert torch.load(work / "face.ckpt", weights_only=False)["step"] == 2
    assert (out / "face.onnx").is_file()
    mined_with = work / "located" / "locator.onnx"
    assert mined_with.read_bytes() != (work / "restarted" / "locator.onnx").read_bytes()
    # the shipped locator is the grown one: the restarted locator plus six convolutions
    assert convolutions(out / "locator.onnx") == convolutions(mined_with) + 6
    # run again, everything is done: nothing is trained or mined again
    stamp = (work / "classifier-mined.npz").stat().st_mtime_ns
    assert train(["all", *args, *steps, "--batch", "2"]) == 0
    assert (work / "classifier-mined.npz").stat().st_mtime_ns == stamp
    assert torch.load(work / "locator.ckpt", weights_only=False)["step"] == 5


def test_a_locator_read_back_from_onnx_and_grown_computes_the_same(tmp_path):
    import onnxruntime

    from model.recogniser.export import legacy_export
    from model.recogniser.grow import grown, locator_from_onnx
    from model.recogniser.nets import Locator

    torch.manual_seed(0)
    plain = Locator()
    for layer in plain.modules():  # batch norms that do something, to be folded on export
        if isinstance(layer, torch.nn.BatchNorm2d):
            layer.running_mean.uniform_(-0.5, 0.5)
            layer.running_var.uniform_(0.5, 2.0)
            layer.weight.data.uniform_(0.5, 1.5)
            layer.bias.data.uniform_(-0.2, 0.2)
    path = tmp_path / "plain.onnx"
    x = torch.randn(1, 3, 96, 128)
    legacy_export(plain.eval(), x, path, input_names=["image"])
    expected = onnxruntime.InferenceSession(str(path)).run(None, {"image": x.numpy()})[0]
    with torch.no_grad():
        read_back = locator_from_onnx(path)(x).numpy()
        fine = grown(locator_from_onnx(path))
        assert fine.fine
        np.testing.assert_allclose(read_back, expected, atol=1e-4)
        np.testing.assert_allclose(fine(x).numpy(), expected, atol=1e-4)
    with pytest.raises(ValueError, match="not the same architecture"):
        locator_from_onnx(path, fine=True)  # a plain file is not a fine locator


def test_a_classifier_read_back_from_onnx_computes_the_same(tmp_path):
    import onnxruntime

    from model.recogniser.export import legacy_export
    from model.recogniser.nets import Classifier
    from model.recogniser.onnx_weights import load_folded

    torch.manual_seed(1)
    trained = Classifier()
    for layer in trained.modules():
        if isinstance(layer, torch.nn.BatchNorm2d):
            layer.running_mean.uniform_(-0.5, 0.5)
            layer.running_var.uniform_(0.5, 2.0)
    x = torch.randn(4, 3, spec.CROP_H, spec.CROP_W)
    path = tmp_path / "classifier.onnx"
    legacy_export(trained.eval(), x, path, input_names=["crops"], dynamic_axes={"crops": {0: "n"}})
    expected = onnxruntime.InferenceSession(str(path)).run(None, {"crops": x.numpy()})[0]
    read_back = load_folded(Classifier(), path, x[:1])
    with torch.no_grad():
        np.testing.assert_allclose(read_back(x).numpy(), expected, atol=1e-4)


def test_training_is_reproducible_from_its_seed(scenes, tmp_path):
    losses = []
    for run in ("a", "b"):
        work = tmp_path / run
        args = ["--scenes", str(scenes), "--work", str(work), "--threads", "1", "--batch", "2"]
        train(["cut", *args])
        train(["classifier", *args, "--classifier-steps", "3"])
        history = json.loads((work / "classifier-history.json").read_text())
        losses.append([round(h["loss"], 6) for h in history])
    assert losses[0] == losses[1]


@pytest.mark.parametrize("stage", ["locator", "classifier", "verifier", "refiner", "wider", "face"])
def test_every_model_s_batches_drawn_by_workers_are_those_drawn_in_one_process(
    stage, scenes, shipped, tmp_path
):
    steps = {"locator": ["--locator-steps", "3", "--locator-more"]}.get(
        stage, [f"--{stage}-steps", "3"]
    )
    runs = {}
    for workers in ("0", "2"):
        work = tmp_path / workers
        args = [*stage_args(scenes, work, tmp_path / f"out{workers}"), "--batch", "2"]
        train(["cut", *args])
        given = [*steps, "--verify-with", str(shipped), "--workers", workers]
        assert train([stage, *args, *given]) == 0
        runs[workers] = torch.load(work / f"{stage}.ckpt", weights_only=False)
    assert runs["0"]["step"] == 3
    assert runs["2"]["history"] == runs["0"]["history"]
    for name, weights in runs["0"]["model"].items():
        assert torch.equal(weights, runs["2"]["model"][name]), name


def test_a_device_that_is_not_one_or_absent_is_refused(tmp_path, capsys):
    common = ["locator", "--scenes", str(tmp_path), "--work", str(tmp_path)]
    with pytest.raises(SystemExit):
        train([*common, "--device", "abacus"])
    assert "--device 'abacus' is not a device" in capsys.readouterr().err
    if not torch.cuda.is_available():
        with pytest.raises(SystemExit):
            train([*common, "--device", "cuda"])
        assert "this machine has no CUDA accelerator" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        train([*common, "--workers", "-1"])
    assert "--workers is a count of 0 or more" in capsys.readouterr().err


def test_crops_cut_in_parts_are_each_part_s_crops_in_order_however_many_cut_them(tmp_path):
    from model.recogniser.dataset import cut_locator_parts, cut_locator_samples

    scenes = tmp_path / "scenes"
    write_scenes_for_tests(scenes, count=5, size=(320, 240))
    # each part by hand: its scenes linked into a folder of their own, cut with seed + k
    expected = []
    for k in range(2):
        own = tmp_path / f"own{k}"
        own.mkdir()
        for label in sorted(scenes.glob("scene_*.json"))[k::2]:
            for path in (label, label.with_suffix(".jpg")):
                (own / path.name).symlink_to(path)
        cut = cut_locator_samples(own, tmp_path / f"own{k}.npz", per_scene=4, seed=40 + k)
        expected.append(np.load(cut))
    options = {"per_scene": 4, "seed": 40}
    one = np.load(cut_locator_parts(scenes, tmp_path / "one.npz", 2, processes=1, **options))
    two = np.load(cut_locator_parts(scenes, tmp_path / "two.npz", 2, processes=2, **options))
    for key in ("images", "truths", "counts"):
        whole = np.concatenate([part[key] for part in expected])
        assert np.array_equal(one[key], whole) and np.array_equal(two[key], whole), key
    assert sorted(path.name for path in tmp_path.glob("*.npz")) == [
        "one.npz",
        "own0.npz",
        "own1.npz",
        "two.npz",
    ]  # no part left behind
    # one part is the plain cut with the seed itself
    plain = np.load(cut_locator_samples(scenes, tmp_path / "plain.npz", per_scene=4, seed=40))
    alone = np.load(cut_locator_parts(scenes, tmp_path / "alone.npz", 1, **options))
    assert np.array_equal(plain["images"], alone["images"])
    with pytest.raises(ValueError, match="leave parts empty"):
        cut_locator_parts(scenes, tmp_path / "six.npz", 6, **options)


def test_a_part_cut_before_an_interruption_is_kept(tmp_path, monkeypatch):
    from model.recogniser import dataset

    scenes = tmp_path / "scenes"
    write_scenes_for_tests(scenes, count=3, size=(320, 240))
    out = tmp_path / "samples.npz"
    options = {"per_scene": 2, "seed": 3}
    first = np.load(dataset.cut_locator_parts(scenes, out, 3, **options))["images"]
    out.unlink()
    dataset.cut_locator_samples(
        scenes, tmp_path / "samples.part1.npz", per_scene=2, seed=4, part=(1, 3)
    )
    cut = []
    real = dataset.cut_locator_samples
    monkeypatch.setattr(
        dataset, "cut_locator_samples", lambda *a, **k: cut.append(k["part"]) or real(*a, **k)
    )
    again = np.load(dataset.cut_locator_parts(scenes, out, 3, **options))["images"]
    assert cut == [(0, 3), (2, 3)] and np.array_equal(again, first)


def test_cut_parts_that_are_not_a_count_are_refused(tmp_path, capsys):
    with pytest.raises(SystemExit):
        train(["cut", "--scenes", str(tmp_path), "--work", str(tmp_path), "--cut-parts", "0"])
    assert "--cut-parts is a count of 1 or more" in capsys.readouterr().err


def test_export_refuses_a_model_onnx_disagrees_with(tmp_path):
    from model.recogniser.export import ParityError, check_parity, legacy_export

    class Flaky(torch.nn.Module):
        def forward(self, x):
            return x + torch.rand(1)  # never the same twice

    path = tmp_path / "flaky.onnx"
    legacy_export(Flaky(), torch.zeros(1, 3), path, input_names=["x"])
    with pytest.raises(ParityError):
        check_parity(Flaky(), path, "x", torch.zeros(1, 3))
    assert not path.exists()


def test_locator_marks_are_labelled_against_the_truth():
    from model.recogniser.mine import label_mark
    from model.recogniser.targets import CLASS_INDEX, IndexTruth

    def truth(x, y, code, visible=1.0, angle=0.0):
        centre = np.array([x, y], float)
        return IndexTruth(centre, angle, 20.0, 12.0, centre, (60.0, 84.0), code, visible)

    class Mark:
        def __init__(self, x, y, angle=0.0):
            self.x, self.y, self.angle = x, y, angle

    truths = [truth(100, 100, "KR"), truth(300, 100, "7B", visible=0.5)]
    none = CLASS_INDEX[spec.NOT_AN_INDEX]
    assert label_mark(Mark(102, 103), truths) == CLASS_INDEX["KR"]  # on the index
    assert label_mark(Mark(101, 99, angle=180), truths) == none  # read upside down
    assert label_mark(Mark(100, 112), truths) is None  # half beside it: left out
    assert label_mark(Mark(100, 160), truths) == none  # three index heights away
    assert label_mark(Mark(300, 100), truths) is None  # a half-hidden index: left out
    assert label_mark(Mark(100, 100, angle=15), truths) == CLASS_INDEX["KR"]


def test_tune_goes_on_from_a_shipped_locator_and_ships_the_tuned_one(scenes, tmp_path, monkeypatch):
    from model.recogniser import locator as training

    taught = []  # the heat peak shape each batch's targets were taught with

    def recorded(truths, width, height, peaks="round"):
        taught.append(peaks)
        return locator_targets(truths, width, height, peaks)

    locator_targets = training.locator_targets
    monkeypatch.setattr(training, "locator_targets", recorded)
    work, out = tmp_path / "work", tmp_path / "out"
    args = stage_args(scenes, work, out)
    steps = ["--locator-steps", "2", "--locator-more", "--classifier-steps", "2", "--batch", "2"]
    nothing_else = ["--verifier-steps", "0", "--refiner-steps", "0", "--wider-steps", "0"]
    nothing_else += ["--face-steps", "0"]
    assert train(["all", *args, *steps, *nothing_else]) == 0
    assert not (out / "wider.onnx").exists()
    assert set(taught) == {"round"}
    taught.clear()
    shipped = out / "locator.onnx"
    start = shipped.read_bytes()
    tune = [
        "--tune-from",
        str(shipped),
        "--tune-steps",
        "3",
        "--small-focus",
        "2",
        "--peaks",
        "oval",
        "--recolour",
        "0.5",
    ]
    assert train(["tune", *args, *tune, "--batch", "2"]) == 0
    assert torch.load(work / "locator-tuned.ckpt", weights_only=False)["step"] == 3
    assert taught and set(taught) == {"oval"}
    assert shipped.read_bytes() != start
    image = np.random.default_rng(0).random((1, 3, 64, 64), np.float32)
    with torch.no_grad():
        tuned = load_trained("locator-tuned", work)(torch.from_numpy(image)).numpy()
    # `tune` writes the locator it tuned, as `fold` does; `export` ships that one too
    np.testing.assert_allclose(onnx_heads(shipped, image), tuned, atol=1e-4)
    assert train(["export", *args]) == 0
    np.testing.assert_allclose(onnx_heads(shipped, image), tuned, atol=1e-4)


def onnx_heads(path, image):
    import onnxruntime

    return onnxruntime.InferenceSession(str(path)).run(None, {"image": image})[0]


def test_crops_holding_a_readable_wide_index_are_drawn_more_often():
    from model.recogniser.dataset import TRUTH_FIELDS
    from model.recogniser.locator import WIDE_FOCUS, crop_weights

    def index(height, width, visible):
        row = np.zeros(TRUTH_FIELDS, np.float32)
        row[3], row[4], row[10] = height, width, visible
        return row

    tall, word, hidden_word = index(20, 12, 1.0), index(10, 34, 1.0), index(10, 34, 0.5)
    truths = np.stack([tall, word, tall, hidden_word, tall])
    weights = crop_weights(truths, np.array([2, 1, 2, 0]))  # the last crop holds nothing
    assert weights.sum() == pytest.approx(1.0)
    assert weights[0] == pytest.approx(WIDE_FOCUS * weights[1])
    assert weights[1] == weights[2] == weights[3]


def test_crops_holding_a_small_readable_index_are_drawn_small_focus_times_as_often():
    from model.recogniser.dataset import TRUTH_FIELDS
    from model.recogniser.locator import SMALL_INDEX, WIDE_FOCUS, crop_weights

    def index(height, width, visible=1.0):
        row = np.zeros(TRUTH_FIELDS, np.float32)
        row[3], row[4], row[10] = height, width, visible
        return row

    tall, small = index(20, 12), index(SMALL_INDEX + 2, SMALL_INDEX - 1)
    small_word, hidden_small = index(SMALL_INDEX - 1, 20), index(4, 3, visible=0.5)
    truths = np.stack([tall, small, small_word, hidden_small, tall])
    weights = crop_weights(truths, np.array([1, 1, 1, 2]), small_focus=2.0)
    assert weights.sum() == pytest.approx(1.0)
    assert weights[1] == pytest.approx(2 * weights[0])  # a small index alone
    assert weights[2] == pytest.approx(2 * WIDE_FOCUS * weights[0])  # a small word: both
    assert weights[3] == pytest.approx(weights[0])  # a hidden small one is not readable
    plain = np.array([1, 1, WIDE_FOCUS, 1]) / (3 + WIDE_FOCUS)
    np.testing.assert_allclose(crop_weights(truths, np.array([1, 1, 1, 2])), plain)
    with pytest.raises(ValueError, match="positive"):
        crop_weights(truths, np.array([1, 1, 1, 2]), small_focus=0.0)


def test_a_small_focus_that_is_not_positive_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit):
        train(["tune", "--scenes", str(tmp_path), "--work", str(tmp_path), "--small-focus", "0"])
    assert "--small-focus is a positive factor" in capsys.readouterr().err


def test_a_peak_shape_not_known_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit):
        train(["tune", "--scenes", str(tmp_path), "--work", str(tmp_path), "--peaks", "square"])
    assert "--peaks: invalid choice" in capsys.readouterr().err


def test_two_classifiers_of_one_network_average_weight_by_weight(tmp_path):
    import onnx
    import onnxruntime
    from onnx import numpy_helper

    from model.recogniser.average import average_onnx, kind_of
    from model.recogniser.export import legacy_export
    from model.recogniser.nets import Classifier, Locator

    x = torch.randn(4, 3, spec.CROP_H, spec.CROP_W)
    paths = []
    for seed in (1, 2):
        torch.manual_seed(seed)
        paths.append(tmp_path / f"classifier-{seed}.onnx")
        legacy_export(
            Classifier().eval(),
            x,
            paths[-1],
            input_names=["crops"],
            dynamic_axes={"crops": {0: "n"}},
        )

    def weights(path):
        return {t.name: numpy_helper.to_array(t) for t in onnx.load(str(path)).graph.initializer}

    def logits(path):
        return onnxruntime.InferenceSession(str(path)).run(None, {"crops": x.numpy()})[0]

    first, second = weights(paths[0]), weights(paths[1])
    half = average_onnx(paths[0], paths[1], tmp_path / "half.onnx", 0.5)
    for name, value in weights(half).items():
        np.testing.assert_allclose(value, (first[name] + second[name]) / 2, atol=1e-6)
    assert any(not np.allclose(first[name], second[name]) for name in first)
    for share, end in ((0.0, paths[0]), (1.0, paths[1])):
        same = average_onnx(paths[0], paths[1], tmp_path / f"share-{share}.onnx", share)
        np.testing.assert_allclose(logits(same), logits(end), atol=1e-5)

    other = tmp_path / "locator.onnx"
    legacy_export(Locator().eval(), torch.randn(1, 3, 64, 64), other, input_names=["image"])
    with pytest.raises(ValueError, match="not one network"):
        average_onnx(paths[0], other, tmp_path / "mixed.onnx")
    with pytest.raises(ValueError, match="between 0 and 1"):
        average_onnx(paths[0], paths[1], tmp_path / "wild.onnx", 1.5)
    assert (kind_of(paths[0]), kind_of(other)) == ("classifier", "locator")


def test_the_average_stage_averages_each_model_with_the_one_it_went_on_from(tmp_path):
    import shutil

    import onnx
    from onnx import numpy_helper

    from model.recogniser.export import legacy_export
    from model.recogniser.nets import Classifier

    out, start = tmp_path / "out", tmp_path / "start.onnx"
    out.mkdir()
    x = torch.randn(2, 3, spec.CROP_H, spec.CROP_W)
    for seed, path in ((1, start), (2, out / "classifier.onnx")):
        torch.manual_seed(seed)
        legacy_export(Classifier().eval(), x, path, input_names=["crops"])
    shutil.copy(out / "classifier.onnx", tmp_path / "trained.onnx")

    def weights(path):
        return {t.name: numpy_helper.to_array(t) for t in onnx.load(str(path)).graph.initializer}

    assert (
        train(
            [
                "average",
                "--scenes",
                str(tmp_path),
                "--work",
                str(tmp_path / "w"),
                "--out",
                str(out),
                "--average-from",
                str(start),
            ]
        )
        == 0
    )
    before, after, first = (
        weights(tmp_path / "trained.onnx"),
        weights(out / "classifier.onnx"),
        weights(start),
    )
    for name in after:
        np.testing.assert_allclose(after[name], (before[name] + first[name]) / 2, atol=1e-6)


def test_mining_cuts_the_marks_the_recogniser_makes(scenes, tmp_path):
    from model.recogniser.dataset import _load, scene_files
    from model.recogniser.mine import MINE_PEAK, label_mark, mine_classifier_samples
    from model.recogniser.targets import index_truths
    from scanner.vision.cards import suppress_duplicates
    from scanner.vision.decode import decode_heads
    from scanner.vision.networks import default_model_dir
    from scanner.vision.preprocess import index_crops, normalise, wider_crops
    from scanner.vision.recogniser import Recogniser

    if not (default_model_dir() / "locator.onnx").exists():
        pytest.skip("the models are not trained")
    recogniser = Recogniser.load()  # four turns, as every scan reads
    contract = recogniser.contract
    expected, expected_wider = [], []
    for path in scene_files(scenes):
        frame, labels = _load(path)
        height, width = frame.shape[:2]
        heads = recogniser.heads(frame)
        marks = suppress_duplicates(
            decode_heads(heads, (width, height), contract, threshold=MINE_PEAK)
        )
        truths = index_truths(labels)
        labelled = [mark for mark in marks if label_mark(mark, truths) is not None]
        expected.append(index_crops(frame, labelled, contract))
        expected_wider.append(wider_crops(frame, labelled, contract))
    locator = default_model_dir() / "locator.onnx"
    mined = np.load(mine_classifier_samples(scenes, locator, tmp_path / "m.npz", every=1, offset=0))
    expected = np.concatenate(expected)
    assert len(expected) > 0
    np.testing.assert_array_equal(normalise(mined["crops"], contract), expected)
    # the wider classifier's crops, at the same marks
    wider = mine_classifier_samples(
        scenes, locator, tmp_path / "w.npz", every=1, offset=0, wider=True
    )
    wider = np.load(wider)
    np.testing.assert_array_equal(wider["classes"], mined["classes"])
    np.testing.assert_array_equal(wider["crops"], np.concatenate(expected_wider))
