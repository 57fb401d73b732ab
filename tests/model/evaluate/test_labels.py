"""Scoring on photos labelled by the cards each shows (``handfoot eval DIR --labels FILE``): the
notation, the matching of cards and readings as bags, and the command on two real photos."""

import json
from pathlib import Path

import pytest

from model.evaluate.labels import Label, LabelsError, Tally, match, read_labels
from scanner.vision.networks import default_model_dir

PHOTOS = Path(__file__).resolve().parents[2] / "fixtures" / "vision" / "second_look"


def labels(text: str) -> list[Label]:
    return [Label.from_token(token) for token in text.split()]


def reads(text: str) -> list[Label]:
    return [Label.from_code(code) for code in text.split()]


@pytest.mark.parametrize(
    ("token", "rank", "colour"),
    [
        ("10H", "10", "R"),
        ("ks", "K", "B"),
        ("2C", "2", "B"),
        ("AD", "A", "R"),
        ("QR", "Q", "R"),
        ("5B", "5", "B"),
        ("JK", "JK", None),
        ("Q", "Q", None),
        ("7", "7", None),
        ("LADY", "LADY", None),
        ("jester", "JESTER", None),
        ("LORD", "LORD", None),
    ],
)
def test_cards_are_read_in_rules_notation_with_or_without_the_suit(token, rank, colour):
    assert Label.from_token(token) == Label(rank, colour)


@pytest.mark.parametrize("token", ["ZZ", "11H", "KX", "QUEEN", ""])
def test_a_token_that_is_no_card_is_refused_by_name(token):
    with pytest.raises(LabelsError, match="is no card"):
        Label.from_token(token)


def test_cards_and_readings_are_matched_as_bags_colour_apart():
    outcome = match(labels("10H 10H KS Q 7"), reads("10R 10B KB QR JK 7"))
    assert outcome["right"] == labels("10H KS Q 7")
    assert outcome["colour"] == [(Label("10", "R"), Label("10", "B"))]
    assert outcome["missed"] == []
    assert outcome["extra"] == [Label("JK")]


def test_a_reading_counts_for_one_card_only():
    outcome = match(labels("5C 5C"), reads("5B"))
    assert outcome["right"] == [Label("5", "B")] and outcome["missed"] == [Label("5", "B")]


def test_figures_count_rank_colour_and_precision():
    tally = Tally()
    tally.add(labels("3H 3H QS"), reads("3R 3B 5B"))
    tally.add(labels("7"), reads("7R"))
    figures = tally.figures()
    assert figures["cards"] == 4 and figures["readings"] == 4
    assert figures["rank_recall"] == 0.75  # 3, 3, 7 found; the Queen missed
    assert figures["recall"] == 0.5  # one 3 read black
    assert figures["precision"] == 0.5  # 3R and 7R right; 3B the wrong colour, 5B no card there
    assert figures["colour_errors"] == 1
    assert figures["per_rank"]["3"] == {"cards": 2, "rank_recall": 1.0, "recall": 0.5}
    assert list(figures["per_rank"]) == ["3", "7", "Q"]


def test_a_labels_file_names_its_problems(tmp_path):
    (tmp_path / "a.jpg").write_bytes(b"")
    bad = tmp_path / "bad.csv"
    bad.write_text("photo,cards\na.jpg,KS\n")
    with pytest.raises(LabelsError, match="columns image,cards"):
        read_labels(bad, tmp_path)
    wrong = tmp_path / "wrong.csv"
    wrong.write_text("image,cards\na.jpg,KS\nb.jpg,KS ZZ\n")
    with pytest.raises(LabelsError, match="line 3: 'ZZ' is no card"):
        read_labels(wrong, tmp_path)
    gone = tmp_path / "gone.csv"
    gone.write_text("\ufeffimage,cards,group\na.jpg,KS,phone\nb.jpg,2H,phone\n")
    photos, missing = read_labels(gone, tmp_path)
    assert [p.image.name for p in photos] == ["a.jpg"] and photos[0].group == "phone"
    assert missing == ["b.jpg"]


@pytest.mark.skipif(
    not (default_model_dir() / "locator.onnx").exists(), reason="the models are not trained"
)
def test_eval_scores_real_photos_by_their_labels(cli, tmp_path):
    # a nine and an ace of hearts; a King and an ace of hearts (the recogniser reads both)
    right = tmp_path / "right.csv"
    right.write_text("image,cards,group\nIMG_2598.JPG,9H AH,a\nIMG_2640.JPG,KH AH,b\n")
    done = cli("eval", PHOTOS, "--labels", right, "--json")
    figures = json.loads(done.out)
    assert done.code == 0 and figures["photos"] == 2 and figures["cards"] == 4
    assert figures["recall"] == 1.0 and figures["precision"] == 1.0
    assert set(figures["by_group"]) == {"a", "b"}
    # labelled black and with a card that is not there, a missing photo named
    wrong = tmp_path / "wrong.csv"
    wrong.write_text("image,cards\nIMG_2598.JPG,9S AH 4D\nnot-here.jpg,5C\n")
    errors = tmp_path / "errors.jsonl"
    done = cli("eval", PHOTOS, "--labels", wrong, "--errors", errors)
    assert done.code == 0
    assert "rank read 66.7%, rank and colour 33.3%" in done.out
    assert "1 colour errors" in done.out and "not-here.jpg" in done.out
    (line,) = [json.loads(text) for text in errors.read_text().splitlines()]
    assert line == {
        "image": "IMG_2598.JPG",
        "missed": ["4R"],
        "colour": [["9B", "9R"]],
        "extra": [],
    }
    bad = tmp_path / "bad.csv"
    bad.write_text("image,cards\nIMG_2598.JPG,9X\n")
    refused = cli("eval", PHOTOS, "--labels", bad)
    assert refused.code == 2 and "'9X' is no card" in refused.err
