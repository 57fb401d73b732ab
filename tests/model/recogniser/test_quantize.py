"""The classifier, verifier and wider classifier in int8: calibrated on crops cut as inference
cuts them, checked against the float models before they are written, and read in their place by
the recogniser."""

import shutil

import numpy as np
import pytest

pytest.importorskip("onnx")
pytest.importorskip("torch")  # the quantize stage runs through the training command

from model.recogniser import quantize as quantize_module
from model.recogniser.dataset import write_scenes_for_tests
from model.recogniser.train import main as train
from scanner.vision.errors import RecogniserError
from scanner.vision.images import read_image
from scanner.vision.networks import INT8_FILES, SAFE_WEIGHT_BITS, WEIGHT_BITS, default_model_dir
from scanner.vision.recogniser import Recogniser

SHIPPED = default_model_dir()
FLOAT_FILES = ("locator.onnx", "classifier.onnx", "verifier.onnx", "wider.onnx", "recogniser.json")

pytestmark = pytest.mark.skipif(
    not all((SHIPPED / name).is_file() for name in FLOAT_FILES), reason="the models are not trained"
)


@pytest.fixture(scope="module")
def scenes(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scenes")
    write_scenes_for_tests(folder, count=6, size=(640, 480))
    return folder


@pytest.fixture
def float_models(tmp_path):
    folder = tmp_path / "models"
    folder.mkdir()
    for name in FLOAT_FILES:
        shutil.copy(SHIPPED / name, folder / name)
    return folder


def _int8_weights(path) -> list[np.ndarray]:
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    return [
        numpy_helper.to_array(tensor)
        for tensor in model.graph.initializer
        if tensor.data_type == onnx.TensorProto.INT8
    ]


def _weight_bits(path) -> str | None:
    import onnx

    return {p.key: p.value for p in onnx.load(str(path)).metadata_props}.get(WEIGHT_BITS)


def _largest_weight_of_7_bits(path) -> int:
    """The largest int8 weight of the twin at ``path``, which holds 7 bits and says so: no
    CPU's 16-bit sums of u8 × s8 pairs overflow."""
    largest = max(int(np.abs(w.astype(int)).max()) for w in _int8_weights(path))
    assert largest <= 64, path.name
    assert _weight_bits(path) == SAFE_WEIGHT_BITS, path.name
    return largest


def test_calibration_crops_are_the_crops_inference_cuts(scenes):
    crops = quantize_module.calibration_crops(scenes, SHIPPED, 2)
    classifier, verifier = crops["classifier.onnx"], crops["verifier.onnx"]
    assert classifier.shape[1:] == (3, 48, 32) and verifier.shape[1:] == (3, 48, 48)
    assert classifier.dtype == np.float32 and len(classifier) > len(verifier) > 0
    # the wider classifier reads crops of the classifier's size, only of the small indices
    wider = crops["wider.onnx"]
    assert wider.shape[1:] == (3, 48, 32) and 0 < len(wider) < len(classifier)
    # normalised as the models read them, not raw pixels, and no blank warm-up crop among them
    assert classifier.min() < 0 < classifier.max() < 10
    assert not np.all(classifier == classifier[:, :1, :1, :1], axis=(1, 2, 3)).any()
    more = quantize_module.calibration_crops(scenes, SHIPPED, 4)
    assert len(more["classifier.onnx"]) > len(classifier)


def test_the_quantize_stage_writes_int8_twins_that_read_as_the_float_models(
    scenes, float_models, capsys, monkeypatch
):
    # ranges set on six small scenes' crops are coarser than on the 40 large ones `make
    # model` calibrates on (where both decide alike on every crop that decides)
    monkeypatch.setattr(quantize_module, "MIN_AGREEMENT", 0.9)
    monkeypatch.setattr(quantize_module, "MAX_CHANGE", 1.0)
    common = ["--scenes", str(scenes), "--work", str(float_models.parent / "work")]
    assert train(["quantize", *common, "--out", str(float_models), "--threads", "1"]) == 0
    printed = capsys.readouterr().out
    for float_name, int8_name in INT8_FILES.items():
        assert f"{int8_name}: decides as the float model on" in printed
        size = (float_models / int8_name).stat().st_size
        assert size < (float_models / float_name).stat().st_size / 2  # int8 weights
        # 7 bits of them, all used, not fewer
        assert _largest_weight_of_7_bits(float_models / int8_name) >= 60
    image = read_image(sorted(scenes.glob("scene_*.jpg"))[-1])
    int8 = Recogniser.load(float_models).read(image).cards
    floats = Recogniser.load(float_models, int8=False).read(image).cards
    assert len(floats) > 3 and abs(len(int8) - len(floats)) <= 1
    sure = {card.code for card in floats if card.confidence > 0.9}
    assert len(sure & {card.code for card in int8}) >= len(sure) - 1


def test_the_shipped_int8_models_read_every_fixture_as_the_float_ones():
    from tests.vision.test_fixtures import EXPECTED, FIXTURES

    if not all((SHIPPED / name).is_file() for name in INT8_FILES.values()):
        pytest.skip("no int8 models shipped")
    int8, floats = Recogniser.load(), Recogniser.load(int8=False)
    for name in EXPECTED:
        frame = read_image(FIXTURES / name)
        a, b = (sorted(r.read(frame).cards, key=lambda c: c.index_box) for r in (int8, floats))
        assert [card.code for card in a] == [card.code for card in b], name
        for x, y in zip(a, b, strict=True):
            assert x.index_box == pytest.approx(y.index_box, abs=0.5), name
            assert x.confidence == pytest.approx(y.confidence, abs=0.1), name


def test_the_shipped_twins_hold_7_bit_weights():
    """8-bit weights overflow the 16-bit pair sums of a CPU without VNNI: on one, the first
    shipped twins read 3 % of the classifier's crops as another class. Checked on the weights,
    this fails on any CPU."""
    twins = [SHIPPED / name for name in INT8_FILES.values() if (SHIPPED / name).is_file()]
    if not twins:
        pytest.skip("no int8 models shipped")
    for twin in twins:
        _largest_weight_of_7_bits(twin)


def test_a_twin_of_8_bit_weights_is_passed_over_for_its_float_model(float_models, caplog):
    import onnx

    twin = SHIPPED / "classifier.int8.onnx"
    if not twin.is_file():
        pytest.skip("no int8 models shipped")
    model = onnx.load(str(twin))
    kept = [p for p in model.metadata_props if p.key != WEIGHT_BITS]
    del model.metadata_props[:]
    model.metadata_props.extend(kept)
    onnx.save(model, str(float_models / twin.name))
    with caplog.at_level("WARNING"):
        recogniser = Recogniser.load(float_models)
    assert not _reads_twin(recogniser)
    assert "classifier.int8.onnx holds 8-bit weights" in caplog.text
    assert "reading classifier.onnx" in caplog.text
    # without the float model beside it, the twin is all there is to read, and it says so
    (float_models / "classifier.onnx").unlink()
    caplog.clear()
    with caplog.at_level("WARNING"):
        assert _reads_twin(Recogniser.load(float_models))
    assert "8-bit weights" in caplog.text and "no classifier.onnx lies beside it" in caplog.text


def test_an_int8_model_that_decides_otherwise_is_not_written(scenes, float_models, monkeypatch):
    crops = quantize_module.calibration_crops(scenes, float_models, 6)["classifier.onnx"]
    monkeypatch.setattr(quantize_module, "MIN_AGREEMENT", 1.01)
    target = float_models / "classifier.int8.onnx"
    with pytest.raises(ValueError, match=r"decides as in floats on .* \(at least 101%\)"):
        quantize_module.quantize(float_models / "classifier.onnx", target, crops, seed=3)
    assert not target.exists()
    with pytest.raises(ValueError, match=r"too few to calibrate classifier\.onnx"):
        quantize_module.quantize(float_models / "classifier.onnx", target, crops[:40], seed=3)


def test_the_recogniser_reads_the_int8_twin_where_it_lies(float_models):
    (float_models / "classifier.int8.onnx").write_bytes(b"not a model")
    with pytest.raises(RecogniserError, match=r"classifier\.int8\.onnx: not a model"):
        Recogniser.load(float_models)
    Recogniser.load(float_models, int8=False)  # the float one alone is read


def _reads_twin(recogniser: Recogniser) -> bool:
    return "classifier.int8.onnx" in recogniser.files


def test_a_twin_is_read_only_beside_the_float_model_it_was_made_from(float_models, caplog):
    import onnx

    twin = SHIPPED / "classifier.int8.onnx"
    if not twin.is_file():
        pytest.skip("no int8 models shipped")
    shutil.copy(twin, float_models / twin.name)
    assert _reads_twin(Recogniser.load(float_models))
    assert not _reads_twin(Recogniser.load(float_models, int8=False))
    # the float classifier trained again (here: only its metadata changed): the twin is stale
    model = onnx.load(str(float_models / "classifier.onnx"))
    model.metadata_props.add(key="trained", value="again")
    onnx.save(model, str(float_models / "classifier.onnx"))
    with caplog.at_level("WARNING"):
        recogniser = Recogniser.load(float_models)
    assert not _reads_twin(recogniser)
    assert "classifier.int8.onnx was not made from classifier.onnx as it is now" in caplog.text
    # a twin alone, without its float model, is read, and quietly: it holds 7-bit weights
    (float_models / "classifier.onnx").unlink()
    caplog.clear()
    with caplog.at_level("WARNING"):
        assert _reads_twin(Recogniser.load(float_models))
    assert "classifier.int8.onnx" not in caplog.text
