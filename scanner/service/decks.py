"""Teaching the table a deck from the page: one photo of the deck laid out, taken by the
camera the scans use and read on the scan thread (so a scan and a lesson never use the camera
or the recogniser at once), shown to the players, and kept as the deck only once they say it
is right. The taught decks, their examples, and taking one out or forgetting a deck.

A lesson waiting for the players' word lives in memory, one per deck name and a few in all:
nothing confirmed is lost with it, and a photo is quickly taken again.
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from scanner.camera import CameraError
from scanner.decks.layouts import LAYOUTS, layout_codes
from scanner.decks.profiles import (
    DeckFileError,
    Profiles,
    deck_bytes,
    examples_of,
    read_deck_bytes,
)
from scanner.decks.teach import NONE, Lesson, from_layout
from scanner.service.camera import TableCamera
from scanner.service.errors import (
    BadInput,
    Busy,
    CannotScan,
    NoSuchThing,
    NotNow,
    ServiceError,
)
from scanner.service.images import decode_upload, encode_jpeg
from scanner.service.said import Said
from scanner.service.worker import Worker
from scanner.store import BadValue, NotFound, Store
from scanner.store.decks import NAME_LIMIT, DeckRecord, Example, deck_name
from scanner.vision.errors import RecogniserError

log = logging.getLogger(__name__)

TEACH_TIMEOUT_S = 120.0
MOST_LESSONS = 4  # lessons waiting at once; the oldest is forgotten first
MOST_PHOTOS = 3  # photos one lesson reads together (a layout too long for one, a card missed)


class NothingToTeach(ServiceError):
    """The photo was taken, but no card's index was found in it."""

    status = 422


class NoSuchDeck(NoSuchThing):
    """No deck of that name (or no lesson of that number) is kept."""

    def __init__(self, kind: str, key: object, said: Said) -> None:
        self.kind, self.key = kind, key
        ServiceError.__init__(self, said)


@dataclass(frozen=True)
class Waiting:
    """A lesson the players have not said yes to yet: the deck it teaches, what it found, and
    its examples (``crops``: the card crops to show, as indices into ``examples``)."""

    id: int
    name: str
    layout: str
    again: bool  # teaching a kept deck again
    lesson: Lesson
    examples: tuple[Example, ...]
    # the photos read, as JPEG (a few hundred kilobytes each): another photo is read with them
    photos: tuple[bytes, ...] = field(default=(), compare=False, repr=False)

    def to_json(self) -> dict:
        cards: dict[str, list[int]] = {}
        for n, example in enumerate(self.examples):
            if example.code != NONE:
                cards.setdefault(example.code, []).append(n)
        return {
            "id": self.id,
            "name": self.name,
            "layout": self.layout,
            "again": self.again,
            "found": [{"code": code, "crops": cards.get(code, [])} for code in self.lesson.found],
            "missing": list(self.lesson.missing),
            "extra": self.lesson.extra,
            "cards": self.lesson.cards,
            "photos": len(self.photos),
            "more": len(self.photos) < MOST_PHOTOS,
            "page": f"/teach/{self.id}",
        }


class Lessons:
    """The lessons waiting, by id: one per deck name (a new photo replaces the last), at most
    :data:`MOST_LESSONS` in all. Safe to share between threads."""

    def __init__(self) -> None:
        self._waiting: OrderedDict[int, Waiting] = OrderedDict()
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def add(
        self, name: str, layout: str, again: bool, lesson: Lesson, photos: tuple[bytes, ...] = ()
    ) -> Waiting:
        examples = tuple(examples_of(lesson.taught))
        with self._lock:
            waiting = Waiting(next(self._ids), name, layout, again, lesson, examples, photos)
            for old in [w.id for w in self._waiting.values() if same(w.name, name)]:
                del self._waiting[old]
            self._waiting[waiting.id] = waiting
            while len(self._waiting) > MOST_LESSONS:
                self._waiting.popitem(last=False)
        return waiting

    def get(self, lesson_id: int) -> Waiting:
        with self._lock:
            waiting = self._waiting.get(lesson_id)
        if waiting is None:
            raise NoSuchDeck("lesson", lesson_id, Said.of("no_lesson"))
        return waiting

    def done(self, lesson_id: int) -> None:
        with self._lock:
            self._waiting.pop(lesson_id, None)


def same(a: str, b: str) -> bool:
    """Two deck names the record takes for one (it compares them ignoring case)."""
    return a.casefold() == b.casefold()


class Decks(Worker):
    """The decks a table is taught from the page."""

    store: Store
    recogniser: Any
    camera: TableCamera
    _scanner: ThreadPoolExecutor
    _lessons: Lessons
    _profiles: Profiles  # the decks' profiles for the recogniser, each fitted once a change

    def decks(self) -> list[dict]:
        """Every taught deck, by name."""
        return [deck_json(deck) for deck in self.store.decks()]

    def deck(self, name: str) -> dict:
        """A taught deck with its examples (without their crops), by code in the layout's
        order, the marks that are no card's last."""
        record = self._deck(name)
        examples = self.store.deck_examples(record.name)
        order = {code: n for n, code in enumerate(layout_codes(record.layout))}
        codes: dict[str, list[dict]] = {}
        for example in sorted(examples, key=lambda e: order.get(e.code, len(order))):
            codes.setdefault(example.code, []).append(
                {"id": example.id, "source": example.source, "created_at": example.created_at}
            )
        groups = [{"code": code, "examples": shown} for code, shown in codes.items()]
        return deck_json(record) | {"codes": groups}

    def deck_crop(self, name: str, example_id: int) -> bytes:
        """The PNG crop of one of a deck's examples."""
        record = self._deck(name)
        try:
            return self.store.deck_example(record.name, example_id).crop
        except NotFound:
            raise NoSuchThing(f"example of deck {record.name!r}", example_id) from None

    def teach(
        self, name: str, layout: str, again: bool = False, photo: bytes | None = None
    ) -> dict:
        """Take a photo of deck ``name`` laid out as ``layout`` and read it: the lesson, to be
        kept (:meth:`keep_lesson`) once the players say it is right. A new deck's name must be
        free; ``again``: teach a kept deck again (its taught examples replaced once kept);
        ``photo``: a phone's photo of the deck laid out, read instead of the camera's (checked
        before anything else: :class:`BadUpload` for one that is not a picture)."""
        name = checked_name(name)
        if layout not in LAYOUTS:
            raise BadInput("deck layout", layout, f"it is {' or '.join(LAYOUTS)}")
        if again:
            name = self._deck(name).name
        else:
            self._refuse_taken(name)
        image = decode_upload(photo) if photo is not None else None
        lesson, photos = self._read_lesson(layout, image, ())
        waiting = self._lessons.add(name, layout, again, lesson, photos)
        log.info(
            "deck %r photographed: %d cards found, %d not", name, lesson.cards, len(lesson.missing)
        )
        return waiting.to_json()

    def another_photo(self, lesson_id: int, photo: bytes | None = None) -> dict:
        """One more photo of a waiting lesson's deck (the camera's, or ``photo``, a phone's),
        read together with its photos before: the new lesson replaces it. Refused in plain
        words once it holds MOST_PHOTOS."""
        waiting = self._lessons.get(lesson_id)
        if len(waiting.photos) >= MOST_PHOTOS:
            raise NotNow(Said.of("lesson_full", most=MOST_PHOTOS))
        image = decode_upload(photo) if photo is not None else None
        lesson, photos = self._read_lesson(waiting.layout, image, waiting.photos)
        kept = self._lessons.add(waiting.name, waiting.layout, waiting.again, lesson, photos)
        return kept.to_json()

    def _read_lesson(
        self, layout: str, image: Any, before: tuple[bytes, ...]
    ) -> tuple[Lesson, tuple[bytes, ...]]:
        """A new photo (the camera's, or ``image``) read with the photos ``before``, on the
        scan thread: the lesson and every photo read; :class:`NothingToTeach` where no card was
        found."""
        done: Future = Future()

        def start() -> None:
            if self._state.panel.busy:
                raise Busy()
            self._scanner.submit(self._teach_thread, layout, done, image, before)

        self._call(start)
        lesson, photos = done.result(timeout=TEACH_TIMEOUT_S)
        if not lesson.cards:
            raise NothingToTeach(Said.of("nothing_to_teach"))
        return lesson, photos

    def _teach_thread(
        self, layout: str, done: Future, image: Any = None, before: tuple[bytes, ...] = ()
    ) -> None:
        """On the scan thread: one frame (the camera's, or ``image``, a phone's photo), read
        with the photos ``before`` as the layout says."""
        try:
            if image is not None:
                frame = image
            else:
                try:
                    frame = self.camera.photo_to_teach(layout)
                except CameraError as error:
                    self.camera.captured(str(error))
                    raise CannotScan(Said.of("camera_silent", error=str(error)), code=1) from None
                self.camera.captured(None)
            photos = (*before, encode_jpeg(frame))
            frames = [*(decode_upload(data) for data in before), frame]
            done.set_result((from_layout(self.recogniser, frames, layout), photos))
        except ServiceError as error:
            done.set_exception(error)
        except Exception as error:
            log.exception("teaching a deck failed")
            done.set_exception(
                CannotScan(Said.of("teach_failed", error=type(error).__name__), code=1)
            )

    def lesson(self, lesson_id: int) -> dict:
        return self._lessons.get(lesson_id).to_json()

    def lesson_crop(self, lesson_id: int, number: int) -> bytes:
        examples = self._lessons.get(lesson_id).examples
        if not 0 <= number < len(examples):
            raise NoSuchThing("crop of lesson", number)
        return examples[number].crop

    def retake(self, lesson_id: int) -> dict:
        """Take the photo of a waiting lesson's deck again: a new lesson replaces it."""
        waiting = self._lessons.get(lesson_id)
        return self.teach(waiting.name, waiting.layout, waiting.again)

    def keep_lesson(self, lesson_id: int) -> dict:
        """Keep a waiting lesson as its deck (a deck taught again keeps its corrections)."""
        waiting = self._lessons.get(lesson_id)
        if not waiting.again:
            self._refuse_taken(waiting.name)
        codes = self.recogniser.contract.classes
        record = self.store.teach_deck(waiting.name, waiting.layout, waiting.examples, codes)
        self._lessons.done(lesson_id)
        return deck_json(record)

    def remove_deck_example(self, name: str, example_id: int) -> dict:
        record = self._deck(name)
        try:
            return deck_json(self.store.remove_deck_example(record.name, example_id))
        except NotFound:
            raise NoSuchThing(f"example of deck {record.name!r}", example_id) from None

    def delete_deck(self, name: str) -> dict:
        record = self._deck(name)
        self.store.delete_deck(record.name)
        return {"deleted": record.name, "page": "/decks"}

    def deck_file(self, name: str) -> tuple[str, bytes]:
        """Deck ``name`` as one file to keep or take to another table (``handfoot deck
        export``'s): its name and its bytes."""
        record, data = deck_bytes(self.store, self._deck(name).name)
        return record.name, data

    def import_deck(self, data: bytes) -> dict:
        """Keep the deck in ``data`` (a file :meth:`deck_file` wrote, at this table or
        another), under its own name, which must be free; refused in plain words where the
        file is no deck file this reader takes."""
        c = self.recogniser.contract
        try:
            name, layout, examples = read_deck_bytes(data, c.classes, (c.crop_h, c.crop_w))
        except DeckFileError:
            said = Said.of("deck_file_bad")
            raise BadInput("deck file", "", str(said), said) from None
        self._refuse_taken(name)
        return deck_json(self.store.teach_deck(name, layout, examples, c.classes))

    # --- a game's deck: its scans read with it, its deal's corrections joining it ------------

    def deck_reader(self, name: str | None) -> Any:
        """The recogniser reading with deck ``name``'s profile; the recogniser as it is where
        ``name`` is None, or the deck is gone or cannot be read (said in the log: a scan is
        never refused for its deck)."""
        if name is None or self.recogniser is None:
            return self.recogniser
        try:
            return self._profiles.reader(name)
        except NotFound:
            log.warning("deck %r is no longer kept: scans read without it", name)
        except (RecogniserError, ValueError) as error:
            log.warning("deck %r cannot be read with (%s): scans read without it", name, error)
        return self.recogniser

    def learn_corrections(self, name: str, scan_ids: list[int]) -> Future:
        """Once a deal is confirmed: the cards players corrected in its scans (``scan_ids``)
        join deck ``name`` (``scanner/decks/corrections.py``), on the scan thread, after the
        deal is kept. The future's result: the examples added (a failure is logged: the deal
        stands whatever becomes of it)."""
        done: Future = Future()
        self._scanner.submit(self._learn_thread, name, list(scan_ids), done)
        return done

    def _learn_thread(self, name: str, scan_ids: list[int], done: Future) -> None:
        from scanner.decks.corrections import corrected_cards, corrected_examples
        from scanner.vision.images import read_image

        added = 0
        try:
            classes = self.recogniser.contract.classes
            for scan_id in scan_ids:
                record = self.store.scan(scan_id)
                corrected = corrected_cards(record.first_reading, record.reading, classes)
                if not corrected:
                    continue
                frame = read_image(self.store.path_of(record.image_file))
                examples = corrected_examples(self.recogniser, frame, corrected, scan_id)
                if examples:
                    self.store.add_deck_examples(name, examples, classes)
                    added += len(examples)
            if added:
                log.info("deck %r learnt %d corrected cards", name, added)
            done.set_result(added)
        except Exception as error:  # the deal is kept already; only the lesson is lost
            log.warning("deck %r did not learn the deal's corrections: %s", name, error)
            done.set_result(added)

    def _refuse_taken(self, name: str) -> None:
        """A new deck's name must not be a kept deck's (the record ignores case)."""
        taken = next((deck for deck in self.store.decks() if same(deck.name, name)), None)
        if taken is not None:
            raise NotNow(Said.of("deck_taken", name=taken.name))

    def _deck(self, name: str) -> DeckRecord:
        """Deck ``name``; :class:`NoSuchDeck`, said plainly, where none is kept."""
        try:
            return self.store.deck(name)
        except NotFound:
            raise NoSuchDeck("deck called", name, Said.of("no_deck", name=name)) from None


def checked_name(name: str) -> str:
    """A new deck's name as the record keeps it; :class:`BadInput`, said plainly, if none."""
    try:
        return deck_name(name)
    except BadValue:
        said = Said.of("deck_name_bad", most=NAME_LIMIT)
        raise BadInput("deck name", name, str(said), said) from None


def deck_json(record) -> dict:
    return record.to_json() | {
        "examples": record.taught + record.corrected,
        "page": f"/decks/{quote_name(record.name)}",
    }


def quote_name(name: str) -> str:
    """A deck's name as a part of its page's address.

    >>> quote_name("Grandma's blue #2")
    'Grandma%27s%20blue%20%232'
    """
    from urllib.parse import quote

    return quote(name, safe="")
