"""`handfoot scan` with modes, frames and cameras, through the real command line and the
shipped models, on rendered tables whose true cards and groups are known."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine import get_preset
from model.evaluate.tables import rules_for, signature, true_grouping
from model.synth.scene import render_scene
from scanner.table.modes import read_table
from scanner.vision.networks import default_model_dir
from tests.vision.test_fixtures import EXPECTED, FIXTURES

pytestmark = pytest.mark.skipif(
    not (default_model_dir() / "locator.onnx").exists(), reason="the models are not trained"
)


def fixture_labels(name: str) -> dict:
    _, seed, index = Path(name).stem.split("-")
    return render_scene(int(seed), int(index), split="test", size=(960, 720), photographic=False)


def truth_signature(name: str) -> dict:
    labels = fixture_labels(name).labels
    from engine import Deck

    deck = Deck.SPECIAL if labels["deck"] == "special" else Deck.STANDARD
    rules = rules_for(deck, get_preset("pagat"))
    return signature(read_table((), rules, grouping=true_grouping(labels))), rules.name


def scan_signature(line: dict) -> dict:
    return {
        "melds": sorted(tuple(sorted(meld["cards"])) for meld in line["melds"]),
        "red_threes": sorted(line["red_threes"]),
        "unplaced": sorted(item["code"] for item in line["unplaced"]),
        "total": line["totals"]["total"],
    }


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_table_mode_on_a_rendered_table_matches_the_engine_on_the_true_cards(cli, name):
    want, rules = truth_signature(name)
    result = cli("scan", FIXTURES / name, "--json", "--mode", "table", "--rules", rules)
    assert result.code == 0, result.err
    line = json.loads(result.out)
    assert line["mode"] == "table" and line["frames"] == 1
    assert line["deck"] == ("special" if rules == "handnfoot" else "standard")
    assert scan_signature(line) == want
    for meld in line["melds"]:
        assert set(meld) >= {"cards", "kind", "legal", "problems", "points"}


def test_frames_of_one_scan_are_voted_over(cli, tmp_path):
    name = sorted(EXPECTED)[0]
    result = cli("scan", *[FIXTURES / name] * 3, "--frames", "3", "--json")
    (line,) = [json.loads(text) for text in result.out.splitlines()]
    assert result.code == 0 and line["frames"] == 3 and line["frames_read"] == 3
    assert all(card["seen"] == 3 for card in line["cards"])
    assert sorted(card["code"] for card in line["cards"]) == EXPECTED[name]


def test_meld_mode_with_initial_reports_the_minimum(cli):
    name = sorted(EXPECTED)[0]
    result = cli("scan", FIXTURES / name, "--json", "--mode", "meld", "--initial", "--deal", "3")
    line = json.loads(result.out)
    assert line["mode"] == "meld" and line["totals"]["initial_minimum"] == 120
    assert isinstance(line["totals"]["opens"], bool)


def test_leftovers_mode_counts_against(cli):
    name = sorted(EXPECTED)[0]
    line = json.loads(cli("scan", FIXTURES / name, "--json", "--mode", "leftovers").out)
    assert line["melds"] == [] and line["totals"]["total"] < 0
    assert len(line["leftovers"]) + len(line["unplaced"]) == len(line["cards"])


def test_the_synthetic_camera_scans_a_table(cli, tmp_path):
    result = cli(
        "scan", "--camera", "synthetic:3", "--frames", "2", "--json", "--annotate", tmp_path
    )
    assert result.code == 0, result.err
    line = json.loads(result.out)
    assert line["frames"] == 2 and line["mode"] == "table" and line["cards"]
    (written,) = tmp_path.glob("*.annotated.jpg")
    assert cv2.imread(str(written)) is not None


def test_the_same_table_scanned_twice_gives_the_same_answer(cli):
    runs = [cli("scan", "--camera", "synthetic:11", "--json") for _ in range(2)]
    first, second = (json.loads(run.out) for run in runs)
    first.pop("timing_ms"), second.pop("timing_ms")
    assert first == second


def test_a_files_camera_reads_a_folder(cli):
    result = cli("scan", "--camera", f"files:{FIXTURES}", "--frames", "1", "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["image"].endswith(sorted(EXPECTED)[0])


def test_a_dark_frame_says_more_light_instead_of_reading(cli, tmp_path):
    dark = tmp_path / "dark.jpg"
    image = cv2.imread(str(FIXTURES / sorted(EXPECTED)[0]))
    cv2.imwrite(str(dark), (image * 0.05).astype(np.uint8))
    result = cli("scan", dark, "--json")
    line = json.loads(result.out)
    assert result.code == 2 and line["quality"]["kind"] == "dark"
    assert "light" in line["quality"]["message"].lower() and line["cards"] == []
    assert "melds" not in line


def test_an_empty_table_reads_as_nothing(cli, tmp_path):
    empty = tmp_path / "felt.jpg"
    rng = np.random.default_rng(1)
    felt = np.full((720, 960, 3), (40, 110, 60), np.uint8)
    felt = np.clip(felt + rng.normal(0, 12, felt.shape), 0, 255).astype(np.uint8)
    cv2.imwrite(str(empty), cv2.GaussianBlur(felt, (3, 3), 0))
    line = json.loads(cli("scan", empty, "--json").out)
    assert line["melds"] == [] and line["totals"]["total"] == 0


def test_an_unreadable_file_is_one_line_and_the_rest_are_scanned(cli, tmp_path):
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a picture")
    result = cli("scan", broken, FIXTURES / sorted(EXPECTED)[0], "--json")
    assert result.code == 2 and result.err.count("\n") == 1 and "broken.jpg" in result.err
    assert len(result.out.splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--camera", "nonsense"], "nonsense"),
        (["--camera", "webcam:57"], "webcam"),
        (["--camera", "files:/nowhere/at/all"], "/nowhere/at/all"),
        (["--initial"], "--mode meld"),
        (["--frames", "0"], "--frames"),
        (["--deal", "7"], "deal"),
        ([], "IMAGE"),
    ],
)
def test_bad_requests_are_one_line(cli, args, says):
    if "--camera" not in args and args:
        args = [str(FIXTURES / sorted(EXPECTED)[0]), *args]
    result = cli("scan", *args)
    assert result.code == 2 and result.out == ""
    assert result.err.startswith("handfoot: ") and says in result.err
    assert result.err.count("\n") == 1 and "Traceback" not in result.err


def test_eval_in_table_mode_scores_the_fixtures_right(cli, tmp_path):
    for n, name in enumerate(sorted(EXPECTED)):
        labels = dict(fixture_labels(name).labels, image=f"scene_{n:06d}.jpg")
        (tmp_path / labels["image"]).write_bytes((FIXTURES / name).read_bytes())
        (tmp_path / f"scene_{n:06d}.json").write_text(json.dumps(labels), encoding="utf-8")
    result = cli("eval", tmp_path, "--mode", "table", "--json")
    assert result.code == 0, result.err
    figures = json.loads(result.out)
    assert figures["scenes"] == len(EXPECTED)
    assert figures["right"] == 1.0 and figures["grouping_right"] == 1.0
    assert figures["points_right"] == 1.0


def test_a_reading_set_aside_costs_the_scene_but_not_its_points():
    from engine import Deck
    from model.evaluate.tables import score_scene
    from model.evaluate.truth import is_seen, reading_from_label
    from scanner.vision.cards import CardReading

    labels = fixture_labels(sorted(EXPECTED)[0]).labels
    deck = Deck.SPECIAL if labels["deck"] == "special" else Deck.STANDARD
    rules = rules_for(deck, get_preset("pagat"))
    perfect = [reading_from_label(card) for card in labels["cards"] if is_seen(card)]
    code = perfect[0].code
    corners = ((5.0, 5.0), (45.0, 5.0), (45.0, 61.0), (5.0, 61.0))
    alone = CardReading(code, 0.95, (7.0, 7.0, 15.0, 21.0), corners, 0.0, False)
    assert score_scene(labels, perfect, rules, "x").right
    scored = score_scene(labels, [*perfect, alone], rules, "x")
    assert not scored.right and scored.points_right
