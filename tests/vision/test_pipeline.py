"""The frame pipeline: the stages a frame goes through, their timings, and every rule switched
off through ReadOptions, as ``handfoot eval --without`` measures it. What is asserted holds for
any trained model: which stage or rule gave a reading, never what today's model reads."""

import json
from pathlib import Path

import pytest

from scanner.vision import ReadOptions, Recogniser, RecogniserError
from scanner.vision.images import read_image
from scanner.vision.networks import FACE_FILE, Networks, default_model_dir
from scanner.vision.recogniser import STAGE_NAMES
from scanner.vision.stages.recheck import RECHECKS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "vision"
# frames on which rechecks read cards: turned, refined, two corners agreeing
FRAMES = ("outside/frame-53-2.jpg", "outside/frame-53-8.jpg", "faint/edge-6161-61.jpg")
# the rules whose readings carry their name (``IndexReading.read_by``)
NAMED = (*(entry.name for entry in RECHECKS),)

pytestmark = pytest.mark.skipif(
    not (default_model_dir() / "locator.onnx").exists(), reason="the models are not trained"
)


@pytest.fixture(scope="module")
def networks():
    return Networks.load(default_model_dir(), 1, ReadOptions())


@pytest.fixture(scope="module")
def frames():
    return {name: read_image(FIXTURES / name) for name in FRAMES}


def reading(networks, frame, *off, **kwargs):
    return Recogniser(networks, ReadOptions().without(*off)).read(frame, **kwargs)


def test_the_stages_run_in_the_documented_order():
    assert STAGE_NAMES == (
        "size",
        "locate",
        "classify",
        "recheck",
        "verify",
        "pair",
        "faces",
        "melds",
        "tidy",
    )


def test_timing_is_keyed_by_stage(networks, frames):
    timing = reading(networks, frames[FRAMES[0]]).timing_ms
    assert list(timing) == [*STAGE_NAMES, "total"]
    assert all(ms >= 0 for ms in timing.values())
    assert sum(timing[stage] for stage in STAGE_NAMES) <= timing["total"] + 1e-6
    assert timing["locate"] > 0 and timing["classify"] > 0


@pytest.mark.parametrize("rule", NAMED)
def test_a_recheck_switched_off_reads_nothing(networks, frames, rule):
    for frame in frames.values():
        read = reading(networks, frame, rule)
        assert rule not in {index.read_by for index in read.indices}
        assert read.cards  # the frame is still read


def test_rechecks_name_what_they_read(networks, frames):
    names = {index.read_by for f in frames.values() for index in reading(networks, f).indices}
    assert "classify" in names
    assert names <= {"classify", *NAMED}


@pytest.mark.parametrize("rule", ReadOptions.switches())
def test_every_rule_can_be_switched_off(networks, frames, rule):
    frame = frames[FRAMES[0]]
    read = reading(networks, frame, rule)
    line = json.loads(json.dumps(read.as_json()))
    assert set(line) >= {"cards", "deck", "scale", "timing_ms"}
    assert all(card["code"] in networks.contract.classes for card in line["cards"])
    boxes = [tuple(card.index_box) for card in read.cards]
    assert len(boxes) == len(set(boxes))  # no index counted twice


def test_melds_off_reads_as_loose_cards(networks, frames):
    frame = frames[FRAMES[0]]
    off = reading(networks, frame, "melds")
    loose = reading(networks, frame, melds=False)
    assert [c.as_json() for c in off.cards] == [c.as_json() for c in loose.cards]


def test_verify_off_doubts_nothing(networks, frames):
    for frame in frames.values():
        read = reading(networks, frame, "verify")
        assert not any(index.doubted for index in read.indices)


def test_rescale_off_reads_the_frame_as_it_came(networks):
    frame = read_image(FIXTURES / "scale" / "busy-7777-65.png")
    assert reading(networks, frame, "rescale").scale == 1.0


def test_unknown_rules_and_options_are_refused_by_name():
    with pytest.raises(RecogniserError, match=r"no rule is called 'fast'; the rules are: .*closer"):
        ReadOptions().without("fast")
    with pytest.raises(RecogniserError, match="turns is one of"):
        ReadOptions(turns=3)
    with pytest.raises(RecogniserError, match="no option is called 'look_closer'"):
        Recogniser.load(look_closer=False)


def test_a_model_switched_off_is_not_loaded():
    recogniser = Recogniser.load(faces=False, turns=1)
    assert FACE_FILE not in recogniser.files
    assert not recogniser.options.faces


def test_eval_without_reads_with_those_rules_off(cli, tmp_path):
    scenes = tmp_path / "scenes"
    assert cli("synth", "--out", scenes, "--count", "2", "--seed", "5", "--split", "test").code == 0
    readings = tmp_path / "readings.jsonl"
    args = ("eval", scenes, "--json", "--turns", "1", "--readings", readings)
    done = cli(*args, "--without", "closer,wider,faces")
    assert done.code == 0 and json.loads(done.out)["scenes"] == 2
    lines = [json.loads(line) for line in readings.read_text().splitlines()]
    assert len(lines) == 2 and all("timing_ms" not in line for line in lines)
    refused = cli(*args, "--without", "closer,fast")
    assert refused.code == 2 and "no rule is called 'fast'" in refused.err
