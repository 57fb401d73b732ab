"""The shipped models read committed rendered scenes exactly: guards against a retrained model
or a changed pipeline losing what they read today. The scenes (seed 777, test split, held-out
designs allowed) were picked among those read exactly; accuracy itself is `handfoot eval`'s."""

import json
import math
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from scanner.vision.contract import deck_of
from scanner.vision.images import read_image
from scanner.vision.networks import default_model_dir
from scanner.vision.recogniser import Recogniser
from scanner.vision.stages import recheck

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "vision"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))

pytestmark = pytest.mark.skipif(
    not (default_model_dir() / "locator.onnx").exists(), reason="the models are not trained"
)


@pytest.fixture(scope="module")
def recogniser():
    return Recogniser.load()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_is_read_exactly(recogniser, name):
    frame = read_image(FIXTURES / name)
    cards = recogniser.read(frame).cards
    assert sorted(card.code for card in cards) == EXPECTED[name]
    assert not any(card.check for card in cards)
    height, width = frame.shape[:2]
    assert all(_on(card, (0, 0, width, height)) for card in cards)  # each in the frame


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_fixture_reads_as_its_own_deck_even_when_the_other_is_expected(recogniser, name):
    frame = read_image(FIXTURES / name)
    deck = {deck_of(code) for code in EXPECTED[name]}.pop()
    assert recogniser.read(frame).deck == deck
    assert sorted(card.code for card in recogniser.read(frame, deck=deck).cards) == EXPECTED[name]
    # a whole table of the other deck outweighs what the rules lead one to expect
    other = "special" if deck == "standard" else "standard"
    assert sorted(card.code for card in recogniser.read(frame, deck=other).cards) == EXPECTED[name]


def test_an_unknown_deck_is_refused(recogniser):
    frame = read_image(FIXTURES / sorted(EXPECTED)[0])
    with pytest.raises(ValueError, match="not 'tarot'"):
        recogniser.read(frame, deck="tarot")


def test_scan_cli_reads_a_fixture(cli):
    name = sorted(EXPECTED)[0]
    result = cli("scan", FIXTURES / name, "--json")
    line = json.loads(result.out)
    assert result.code == 0 and line["image"].endswith(name)
    assert sorted(card["code"] for card in line["cards"]) == EXPECTED[name]


def _on(card, box) -> bool:
    """Whether the card's index box lies on ``box`` (x0, y0, x1, y1): its centre inside it."""
    x0, y0, x1, y1 = card.index_box
    return box[0] <= (x0 + x1) / 2 <= box[2] and box[1] <= (y0 + y1) / 2 <= box[3]


# The crop of validation scene 86 (below) as labelled by eye: the indices in plain view, and
# the index box of the second 5B of the fan at the left, the one a plain look calls "not an
# index" (the first lies up and to its right, about (102, 81, 114, 93)).
CLOSER_CARDS = Counter({"2R": 1, "5B": 2, "5R": 1, "7B": 2, "7R": 2, "JK": 2, "QB": 1, "QR": 1})
CLOSER_5B = (90.0, 88.0, 102.0, 102.0)


@pytest.mark.xfail(
    strict=True,
    reason="versions 34 and 35, taught real photos, lose this rendered case "
    "(model/experiments/colour.md); a retrain that reads it again should drop this mark",
)
def test_a_small_index_called_not_an_index_is_read_on_a_closer_look(recogniser):
    """A crop of a busy validation scene (``handfoot synth --count 100 --seed 7777 --split
    test``, scene 86, 320×240 px from (1290, 103)): a 5B in a fan, called "not an index" by
    the locators of this writing unless the locator sees it scaled up (``closer.py``), the
    refiner says where it lies (``refine.py``) or its fan reads it (``melds.py``,
    ``gaps.py``). Each of those reads it on its index without a check, keeps every card the
    plain look read, and reads no card the crop does not show, nor one twice; with all of
    them, every card of the crop is read. A locator that marks the 5B at once leaves them
    nothing to add, and the test still holds."""
    frame = read_image(FIXTURES / "closer" / "busy-7777-86.png")
    height, width = frame.shape[:2]
    bare = Recogniser.load(closer=False, rescale=False, refine=False)
    plain = bare.read(frame, melds=False).cards
    closer = Recogniser.load(rescale=False, refine=False).read(frame, melds=False).cards
    refined = Recogniser.load(closer=False, rescale=False).read(frame, melds=False).cards
    in_fan = bare.read(frame).cards  # read with its fan, where the fan's step puts it
    for cards in (closer, refined, in_fan):
        assert not Counter(card.code for card in cards) - CLOSER_CARDS
        assert all(_on(card, (0, 0, width, height)) for card in cards)
        (new,) = [card for card in cards if _on(card, CLOSER_5B)]
        assert new.code == "5B" and not new.check
    # the closer look only adds to what the plain look read
    assert {card.index_box for card in plain} <= {card.index_box for card in closer}
    every = Counter(card.code for card in recogniser.read(frame).cards)
    assert every == CLOSER_CARDS


def test_a_closer_reading_too_unsure_to_count_alone_is_not_taken(monkeypatch):
    """Replacing "not an index" with a closer reading below the contract's MIN_CONFIDENCE made
    a third of such readings phantoms or wrong codes on validation scenes."""
    frame = read_image(FIXTURES / "closer" / "busy-7777-86.png")
    unsure = Recogniser.load(rescale=False, refine=False)
    read = recheck.read_places
    floor = unsure.contract.min_confidence

    def less_sure(context, frame, places, deck, read_by):
        return [
            replace(reading, confidence=min(reading.confidence, floor - 0.01))
            for reading in read(context, frame, places, deck, read_by)
        ]

    # every second reading comes out less sure than a card counts alone
    monkeypatch.setattr(recheck, "read_places", less_sure)
    plain = Recogniser.load(closer=False, rescale=False, refine=False).read(frame).cards
    assert {card.index_box for card in unsure.read(frame).cards} == {c.index_box for c in plain}


def test_a_frame_of_small_indices_is_read_scaled_up(recogniser):
    """A crop of a busy validation scene (``handfoot synth --count 100 --seed 7777 --split
    test``, scene 65, 320×240 px from (0, 480)): twelve cards whose indices measure 5–7 px
    across. Scaled up (``scale.py``) so its indices measure 10 px, every card is read right
    (the eleventh version's classifier reads one of the 9s only 0.33 sure, so it asks for a
    check). Up to the thirteenth version, read as it came, some cards asked for a check or were
    read as another card; the fourteenth reads it right either way, and without scaling the
    frame stays as it comes."""
    frame = read_image(FIXTURES / "scale" / "busy-7777-65.png")
    truth = ["2B", *["9B"] * 5, *["9R"] * 3, "JB", "JB", "JR"]
    scaled = recogniser.read(frame)
    assert scaled.scale > 1.25  # clearly larger: two readings within ALIKE read about alike
    assert sorted(card.code for card in scaled.cards) == truth
    assert sum(card.check for card in scaled.cards) <= 1
    plain = Recogniser.load(rescale=False).read(frame)
    assert plain.scale == 1.0
    # what is read scaled lies where the frame as it comes shows it

    def centre(card):
        x0, y0, x1, y1 = card.index_box
        return (x0 + x1) / 2, (y0 + y1) / 2

    same = 0
    for card in scaled.cards:
        x, y = centre(card)
        near = [math.dist((x, y), centre(c)) for c in plain.cards if c.code == card.code]
        same += bool(near) and min(near) < 2.5
    # all twelve lie where the frame as it comes reads them with the models of this writing;
    # ten leaves a retrain room for a card read as it comes a little off its mark, while
    # cards mapped back to the wrong pixels would match none
    assert same >= 10


def test_two_threads_read_every_fixture_as_one_does(recogniser):
    """`handfoot serve` reads on one thread per core: the cards must not hang on how many."""
    two = Recogniser.load(threads=2)
    for name in sorted(EXPECTED):
        frame = read_image(FIXTURES / name)
        one_read, two_read = recogniser.read(frame), two.read(frame)
        assert [(c.code, c.confidence, c.index_box) for c in two_read.cards] == [
            (c.code, c.confidence, c.index_box) for c in one_read.cards
        ], name
