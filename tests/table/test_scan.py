"""A scan tells the recogniser which deck the rules play, and whether the cards lie in melds
(scanner/table/scan.py)."""

import numpy as np
import pytest

from engine import get_preset
from scanner.camera import Frame
from scanner.table.modes import Mode
from scanner.table.scan import ScanSettings, read_frames
from scanner.vision import Reading


class DeckRecorder:
    """Stands in for the recogniser and keeps the deck each read was told to expect, and
    whether it was told the cards lie in melds."""

    def __init__(self) -> None:
        self.decks: list[str | None] = []
        self.melds: list[bool] = []

    def read(self, image: np.ndarray, deck: str | None = None, *, melds: bool = True) -> Reading:
        self.decks.append(deck)
        self.melds.append(melds)
        timing = dict.fromkeys(("locate", "decode", "classify", "total"), 0.0)
        return Reading((), timing, deck)


def textured_frame() -> Frame:
    # fine texture, so the quality gate reads it instead of calling it blurred
    image = np.random.default_rng(3).integers(40, 255, (240, 320, 3)).astype(np.uint8)
    return Frame(image=image, source="test", number=0, captured_at=0.0, name="noise")


@pytest.mark.parametrize(
    ("preset", "deck"), [("pagat", "standard"), ("handnfoot", "special"), (None, None)]
)
def test_the_rules_deck_is_what_the_recogniser_expects(preset, deck):
    recorder = DeckRecorder()
    rules = get_preset(preset) if preset else None
    settings = ScanSettings(mode=Mode.LEFTOVERS, rules=rules, frames=2)
    scan = read_frames([textured_frame(), textured_frame()], recorder, settings)
    assert recorder.decks == [deck, deck]
    assert scan.deck == deck and scan.as_json()["deck"] == deck


@pytest.mark.parametrize(
    ("mode", "melds"), [(Mode.MELD, True), (Mode.TABLE, True), (Mode.LEFTOVERS, False)]
)
def test_only_a_hands_leftovers_are_read_as_lying_apart(mode, melds):
    """A meld's cards share a rank and are read so (scanner/vision/melds.py); the cards left
    in a hand need not, even where they lie fanned."""
    recorder = DeckRecorder()
    read_frames([textured_frame()], recorder, ScanSettings(mode=mode, rules=get_preset("pagat")))
    assert recorder.melds == [melds]
