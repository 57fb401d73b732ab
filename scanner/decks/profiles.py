"""Taught decks between the game record and the recogniser: a lesson kept as a deck's
examples, a deck's examples fitted into the profile the recogniser reads with, and a deck
written to one file and read back (to move it to another table, or keep it safe).
"""

from __future__ import annotations

import io
import json
import threading
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path

import cv2
import numpy as np

from scanner.store import Store
from scanner.store.decks import LAYOUTS, DeckRecord, Example, ExampleRecord
from scanner.vision.profile import Profile, Taught
from scanner.vision.recogniser import Recogniser

FILE_FORMAT = "handfoot deck"
FILE_VERSION = 1
MOST_FILE_BYTES = 64 * 2**20


class DeckFileError(ValueError):
    """A deck file that cannot be read as one, said in plain words."""


def png(crop: np.ndarray) -> bytes:
    """A crop [h, w, 3] RGB uint8 as PNG bytes."""
    ok, data = cv2.imencode(".png", cv2.cvtColor(crop, cv2.COLOR_RGB2BGR))
    if not ok:
        raise ValueError("the crop could not be written as PNG")
    return data.tobytes()


def crop_of(data: bytes, size: tuple[int, int]) -> np.ndarray | None:
    """PNG bytes as a crop [h, w, 3] RGB uint8 of ``size`` (h, w); None where they are not
    such an image."""
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None or image.shape[:2] != size:
        return None
    return cv2.cvtColor(image, cv2.COLOR_BGR2RGB)


def examples_of(taught: Iterable[Taught], source: str = "taught", scan_id=None) -> list[Example]:
    return [Example(t.code, png(t.crop), source, scan_id) for t in taught]


def taught_of(examples: Iterable[ExampleRecord], size: tuple[int, int]) -> list[Taught]:
    """The examples as crops; one whose crop is not of the classifier's size is left out."""
    crops = ((e, crop_of(e.crop, size)) for e in examples)
    return [
        Taught(e.code, crop, corrected=e.source == "corrected")
        for e, crop in crops
        if crop is not None
    ]


class Profiles:
    """The profiles of a record's decks for one recogniser, fitted once and kept until the
    deck changes (its ``updated_at``)."""

    def __init__(self, store: Store, recogniser: Recogniser) -> None:
        self.store, self.recogniser = store, recogniser
        self._fitted: dict[str, tuple[str, Profile]] = {}
        self._lock = threading.Lock()

    def profile(self, name: str) -> Profile:
        """Deck ``name``'s profile; :class:`scanner.store.NotFound` for no such deck."""
        deck = self.store.deck(name)
        key = deck.name.casefold()
        with self._lock:
            kept = self._fitted.get(key)
            if kept is not None and kept[0] == deck.updated_at:
                return kept[1]
        profile = fitted(self.store, self.recogniser, deck)
        with self._lock:
            self._fitted[key] = (deck.updated_at, profile)
        return profile

    def reader(self, name: str | None) -> Recogniser:
        """The recogniser reading with deck ``name``'s profile (None: with none)."""
        if name is None:
            return self.recogniser
        return self.recogniser.with_profile(self.profile(name))


def fitted(store: Store, recogniser: Recogniser, deck: DeckRecord) -> Profile:
    c = recogniser.contract
    taught = taught_of(store.deck_examples(deck.name), (c.crop_h, c.crop_w))
    return recogniser.learn(deck.name, taught)


# --- one file per deck ---------------------------------------------------------------------


def write_deck_file(store: Store, name: str, path: Path) -> DeckRecord:
    """Deck ``name`` as one file (``deck_bytes``), written whole or not at all."""
    deck, data = deck_bytes(store, name)
    temporary = path.with_name(path.name + ".part")
    temporary.write_bytes(data)
    temporary.replace(path)
    return deck


def deck_bytes(store: Store, name: str) -> tuple[DeckRecord, bytes]:
    """Deck ``name`` and the bytes of its file: a ZIP of ``deck.json`` and its crops as PNG."""
    deck = store.deck(name)
    examples = store.deck_examples(deck.name)
    listing = {
        "format": FILE_FORMAT,
        "version": FILE_VERSION,
        "name": deck.name,
        "layout": deck.layout,
        "examples": [
            {"code": e.code, "source": e.source, "file": f"crops/{n:05d}.png"}
            for n, e in enumerate(examples)
        ],
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("deck.json", json.dumps(listing, indent=1))
        for entry, example in zip(listing["examples"], examples, strict=True):
            archive.writestr(entry["file"], example.crop)
    return deck, buffer.getvalue()


def read_deck_file(
    path: Path, codes: Sequence[str], size: tuple[int, int]
) -> tuple[str, str, list[Example]]:
    """A deck file's name, layout and examples, each checked (``read_deck_bytes``). Raises
    :class:`DeckFileError` saying what is wrong."""
    try:
        if path.stat().st_size > MOST_FILE_BYTES:
            raise DeckFileError(f"{path}: larger than a deck file can be")
        data = path.read_bytes()
    except OSError as error:
        raise DeckFileError(f"{path}: not a deck file that can be read ({error})") from None
    return read_deck_bytes(data, codes, size, str(path))


def read_deck_bytes(
    data: bytes, codes: Sequence[str], size: tuple[int, int], where: str = "the deck file"
) -> tuple[str, str, list[Example]]:
    """The name, layout and examples of a deck file's bytes ``data``, each checked: a known
    code, a crop of the classifier's ``size``. Raises :class:`DeckFileError` saying what is
    wrong (of ``where``)."""
    if len(data) > MOST_FILE_BYTES:
        raise DeckFileError(f"{where}: larger than a deck file can be")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            listing = json.loads(archive.read("deck.json"))
            if not isinstance(listing, dict) or listing.get("format") != FILE_FORMAT:
                raise DeckFileError(f"{where}: not a handfoot deck file")
            if listing.get("version") != FILE_VERSION:
                raise DeckFileError(
                    f"{where}: a deck file of version {listing.get('version')!r}; this "
                    f"handfoot reads version {FILE_VERSION}"
                )
            name, layout = listing.get("name"), listing.get("layout")
            if not isinstance(name, str) or layout not in LAYOUTS:
                raise DeckFileError(f"{where}: the deck's name or layout is missing")
            examples = []
            for entry in listing.get("examples", []):
                code, source = entry.get("code"), entry.get("source", "taught")
                crop = archive.read(entry["file"])
                if code not in codes or crop_of(crop, size) is None:
                    raise DeckFileError(f"{where}: {entry['file']} is no example this reader takes")
                examples.append(Example(code, crop, source))
    except (OSError, zipfile.BadZipFile, KeyError, TypeError, AttributeError) as error:
        raise DeckFileError(f"{where}: not a deck file that can be read ({error})") from None
    except json.JSONDecodeError:
        raise DeckFileError(f"{where}: its deck.json is not JSON") from None
    return name, layout, examples
