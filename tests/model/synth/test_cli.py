"""`handfoot synth` and `handfoot bench synth` through the real command line."""

import hashlib
import json

import jsonschema
import pytest

from tests.model.synth.test_scenes import SCHEMA


def digests(folder):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def test_synth_writes_the_same_bytes_for_the_same_arguments(cli, tmp_path):
    args = ["synth", "--count", "3", "--seed", "4", "--size", "480x360", "--quiet"]
    assert cli(*args, "--out", tmp_path / "a").code == 0
    assert cli(*args, "--out", tmp_path / "b", "--jobs", "2").code == 0
    first = digests(tmp_path / "a")
    assert first == digests(tmp_path / "b")
    assert sorted(first) == [
        "run.json",
        "scene_000000.jpg",
        "scene_000000.json",
        "scene_000001.jpg",
        "scene_000001.json",
        "scene_000002.jpg",
        "scene_000002.json",
    ]
    labels = json.loads((tmp_path / "a" / "scene_000001.json").read_text())
    jsonschema.validate(labels, SCHEMA)
    assert labels["image"] == "scene_000001.jpg" and labels["width"] == 480
    assert cli(*args[:-1], "--out", tmp_path / "c", "--seed", "5").code == 0
    assert digests(tmp_path / "c") != first


def test_synth_preview_draws_a_contact_sheet(cli, tmp_path):
    import cv2

    sheet_args = ["--count", "2", "--size", "320x240", "--art", "0"]
    result = cli("synth", "--preview", tmp_path / "sheet.png", *sheet_args)
    assert result.code == 0
    sheet = cv2.imread(str(tmp_path / "sheet.png"))
    assert sheet is not None and sheet.shape[1] == 3 * 800


def test_synth_refuses_what_it_cannot_do(cli, tmp_path):
    assert "needs --out" in cli("synth").err
    assert cli("synth", "--out", tmp_path, "--count", "0").code == 2
    bad_size = cli("synth", "--out", tmp_path, "--size", "big")
    assert bad_size.code == 2 and "1280x960" in bad_size.err
    (tmp_path / "file").write_text("x")
    assert "not a folder" in cli("synth", "--out", tmp_path / "file").err
    assert ".png" in cli("synth", "--preview", tmp_path / "sheet.gif").err


# Renders and times scenes several times over.
@pytest.mark.slow
def test_bench_synth_reports_a_median(cli):
    result = cli("bench", "synth", "--count", "2", "--warmup", "0", "--size", "320x240", "--json")
    figures = json.loads(result.out)
    assert result.code == 0 and figures["scenes_per_s"] > 0 and figures["median_ms"] > 0


def test_synth_resumes_an_interrupted_run(cli, tmp_path):
    args = ["synth", "--seed", "4", "--size", "320x240", "--quiet", "--art", "0"]
    args += ["--out", tmp_path / "run"]
    assert cli(*args, "--count", "3").code == 0
    whole = digests(tmp_path / "run")
    (tmp_path / "run" / "scene_000001.json").unlink()  # cut off before its labels were written
    (tmp_path / "run" / "scene_000002.jpg").write_bytes(b"")
    (tmp_path / "run" / "scene_000002.json").unlink()
    assert cli(*args, "--count", "3", "--resume").code == 0
    assert digests(tmp_path / "run") == whole
    other = cli("synth", "--seed", "5", "--quiet", "--out", tmp_path / "run", "--resume")
    assert other.code == 2 and "another run" in other.err


def test_synth_draws_the_cards_from_the_designs_asked_for(cli, tmp_path):
    # printed decks (--art) are left out here: the same-bytes test above draws them
    args = ["synth", "--count", "4", "--seed", "6", "--size", "480x360", "--art", "0"]
    args += ["--deck", "standard"]
    asked = ["--styles", "pale-serif,pale-dejavu", "--quiet"]
    assert cli(*args, *asked, "--out", tmp_path / "pale").code == 0
    run = json.loads((tmp_path / "pale" / "run.json").read_text())
    assert run["styles"] == ["pale-serif", "pale-dejavu"]
    for n in range(4):
        labels = json.loads((tmp_path / "pale" / f"scene_{n:06d}.json").read_text())
        assert set(labels["styles"]) <= {"pale-serif", "pale-dejavu"}
        styles = {card["style"] for card in labels["cards"] if card.get("style")}
        assert styles <= {"pale-serif", "pale-dejavu"}
    # The rest of a scene is drawn as the run would draw it: another run keeps its table.
    assert cli(*args, "--quiet", "--out", tmp_path / "plain").code == 0
    plain = json.loads((tmp_path / "plain" / "scene_000000.json").read_text())
    pale = json.loads((tmp_path / "pale" / "scene_000000.json").read_text())
    assert plain["surface"] == pale["surface"] and plain["styles"] != pale["styles"]
    wrong_deck = cli(*args[:-2], "--deck", "special", "--styles", "pale-serif", "--out", tmp_path)
    assert wrong_deck.code != 0 and "--deck standard" in wrong_deck.err
    held_out = cli(*args, "--styles", "gothic-jumbo", "--out", tmp_path / "x")
    assert held_out.code != 0 and "held out" in held_out.err
    added = cli(*args, "--split", "test", "--styles", "pale-serif", "--out", tmp_path / "y")
    assert added.code != 0 and "added for training" in added.err
    assert "not a card style" in cli(*args, "--styles", "nosuch", "--out", tmp_path / "z").err


def test_synth_lays_the_cards_on_the_surfaces_asked_for(cli, tmp_path):
    args = ["synth", "--count", "3", "--seed", "6", "--size", "480x360", "--quiet", "--art", "0"]
    asked = ["--surfaces", "mesh-see-through,felt-red"]
    assert cli(*args, *asked, "--out", tmp_path / "mesh").code == 0
    run = json.loads((tmp_path / "mesh" / "run.json").read_text())
    assert run["surfaces"] == ["mesh-see-through", "felt-red"]
    surfaces = set()
    for n in range(3):
        labels = json.loads((tmp_path / "mesh" / f"scene_{n:06d}.json").read_text())
        surfaces.add(labels["surface"])
    assert surfaces <= {"mesh-see-through", "felt-red"}
    # the cards are those the run would lay on any table
    assert cli(*args, "--out", tmp_path / "plain").code == 0
    plain = json.loads((tmp_path / "plain" / "scene_000000.json").read_text())
    mesh = json.loads((tmp_path / "mesh" / "scene_000000.json").read_text())
    assert [c["code"] for c in plain["cards"]] == [c["code"] for c in mesh["cards"]]
    held_out = cli(*args, "--surfaces", "lace-over-wood", "--out", tmp_path / "x")
    assert held_out.code != 0 and "held out" in held_out.err
    added = cli(*args, "--split", "test", *asked, "--out", tmp_path / "y")
    assert added.code != 0 and "added for training" in added.err
    unknown = cli(*args, "--surfaces", "nosuch", "--out", tmp_path / "z")
    assert unknown.code != 0 and "not a table surface" in unknown.err
