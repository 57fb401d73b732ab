"""``handfoot deck`` and ``--deck`` through the command line, with the shipped models on
rendered photos of decks laid out: taught, listed, shown, carried in a file, read with, and
refused in plain words where it cannot be done."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from model.synth.scene import render_scene
from scanner.cli import main
from scanner.vision.contract import SPECIAL_CLASSES

pytestmark = pytest.mark.slow


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def photo(folder: Path, name: str, scene) -> Path:
    path = folder / f"{name}.jpg"
    path.write_bytes(scene.jpeg)
    return path


@pytest.fixture(scope="module")
def layouts(tmp_path_factory):
    """A rendered photo of each deck laid out to teach it, and its labels."""
    folder = tmp_path_factory.mktemp("layouts")
    special = render_scene(31, 0, split="test", deck="special", layout="teach")
    standard = render_scene(31, 1, split="test", deck="standard", layout="teach")
    return {
        "special": (photo(folder, "special", special), special.labels),
        "standard": (photo(folder, "standard", standard), standard.labels),
    }


def test_a_special_deck_laid_out_is_taught_listed_shown_and_deleted(capsys, tmp_path, layouts):
    picture, _ = layouts["special"]
    code, out, _ = run(
        capsys, "deck", "teach", "Aunt May's", picture, "--layout", "special",
        "--data", tmp_path, "--json",
    )  # fmt: skip
    assert code == 0
    taught = json.loads(out)
    assert taught["deck"]["name"] == "Aunt May's" and taught["deck"]["layout"] == "special"
    found = set(taught["lesson"]["found"])
    # most of the deck is found, and nothing but the special deck's cards
    assert found <= set(SPECIAL_CLASSES) and len(found) >= 12
    assert taught["lesson"]["crops"] >= len(found)
    code, out, _ = run(capsys, "deck", "list", "--data", tmp_path)
    assert code == 0 and "Aunt May's: special deck" in out
    code, out, _ = run(capsys, "deck", "show", "aunt may's", "--data", tmp_path, "--json")
    shown = json.loads(out)
    assert set(shown["codes"]) - {"none"} == found
    code, out, _ = run(capsys, "deck", "delete", "Aunt May's", "--data", tmp_path)
    assert code == 0 and "deleted" in out
    code, _, err = run(capsys, "deck", "show", "Aunt May's", "--data", tmp_path)
    assert code == 2 and "There is no deck called Aunt May's." in err


def test_a_taught_deck_is_read_with_and_carried_to_another_table(capsys, tmp_path, layouts):
    picture, _ = layouts["standard"]
    run(capsys, "deck", "teach", "blue", picture, "--data", tmp_path / "a")
    code, _, _ = run(
        capsys, "deck", "export", "blue", tmp_path / "blue.hfdeck", "--data", tmp_path / "a"
    )
    assert code == 0
    code, out, _ = run(
        capsys, "deck", "import", tmp_path / "blue.hfdeck", "--name", "club blue",
        "--data", tmp_path / "b", "--json",
    )  # fmt: skip
    assert code == 0 and json.loads(out)["name"] == "club blue"
    scene = render_scene(31, 2, split="test", deck="standard", layout="side")
    shot = photo(tmp_path, "side", scene)
    plain = run(capsys, "scan", shot, "--json")
    taught = run(capsys, "scan", shot, "--json", "--deck", "club blue", "--data", tmp_path / "b")
    assert plain[0] in (0, 1) and taught[0] in (0, 1)
    # the cards are found where they were: a profile changes which card a mark is, not
    # where the marks are (a card read otherwise may pair with its other corner otherwise)
    plain_boxes, taught_boxes = (
        {tuple(card["index_box"]) for card in json.loads(line)["cards"]}
        for line in (plain[1], taught[1])
    )
    assert len(plain_boxes & taught_boxes) >= 0.9 * len(plain_boxes)


def test_a_deck_taught_from_boxes(capsys, tmp_path, layouts):
    """Photos labelled with Pascal VOC boxes, one per corner index, named by code."""
    picture, labels = layouts["special"]
    folder = tmp_path / "voc"
    folder.mkdir()
    (folder / "laid.jpg").write_bytes(picture.read_bytes())
    objects = "".join(
        f"<object><name>{card['code']}</name><bndbox><xmin>{x0}</xmin><ymin>{y0}</ymin>"
        f"<xmax>{x1}</xmax><ymax>{y1}</ymax></bndbox></object>"
        for card in labels["cards"]
        for index in card["indices"]
        if index["visible"]
        for x0, y0, x1, y1 in [index["box"]]
    )
    (folder / "laid.xml").write_text(f"<annotation>{objects}</annotation>")
    code, out, _ = run(
        capsys, "deck", "teach", "boxed", "--voc", folder, "--data", tmp_path, "--json"
    )
    assert code == 0
    lesson = json.loads(out)["lesson"]
    assert set(lesson["found"]) <= set(SPECIAL_CLASSES) and len(lesson["found"]) >= 12


def test_what_cannot_teach_a_deck_is_said_in_plain_words(capsys, tmp_path, layouts):
    picture, _ = layouts["special"]
    code, _, err = run(capsys, "deck", "teach", "x", picture, "--voc", tmp_path, "--data", tmp_path)
    assert code == 2 and "not both" in err
    code, _, err = run(capsys, "deck", "teach", "x", "--data", tmp_path)
    assert code == 2 and "give a PHOTO" in err
    code, _, err = run(capsys, "deck", "teach", "x", tmp_path / "nope.jpg", "--data", tmp_path)
    assert code == 2 and "nope.jpg" in err and "Traceback" not in err
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 90, np.uint8))
    code, _, err = run(capsys, "deck", "teach", "x", blank, "--data", tmp_path)
    assert code == 2 and "nothing to teach" in err
    code, _, err = run(capsys, "scan", picture, "--deck", "nobody's", "--data", tmp_path)
    assert code == 2 and "There is no deck" in err
    code, _, err = run(capsys, "deck", "import", picture, "--data", tmp_path)
    assert code == 2 and "not a deck file" in err
