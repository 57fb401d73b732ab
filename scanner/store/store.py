"""The game record: games, confirmed deals, scans and the corrections made to them, in one
SQLite file in the data folder, with the scan images as files beside it.

Durability: every write is one transaction, committed with ``synchronous=FULL`` in WAL mode, so
when a method returns, its change is on disk; a process killed at any moment leaves each
transaction either whole or absent. Nothing is deleted: undo marks a deal undone, and a
correction is a new row next to the reading it changed.

Threads: two connections, each behind its own lock and shared by all threads: one writes,
one reads. SQLite lets one writer in at a time whatever we do, so writes queue on a Python lock (a
waiter runs as soon as it is free) instead of on SQLite's busy handler (sleeps of up to 100 ms
between retries, which gave a connection per thread a 99th-percentile write of over half a
second under load, and lower throughput).
WAL lets the reader see the last commit while the writer waits for its fsync, so a page
refresh does not queue behind a scan being saved.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import shutil
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

from scanner.store import checks, files, integrity, queries
from scanner.store import decks as deck_rows
from scanner.store.errors import (
    BadValue,
    Conflict,
    NotAStore,
    NotFound,
    StorageFault,
    StoreError,
)
from scanner.store.records import (
    CorrectionRecord,
    DealRecord,
    GameRecord,
    ScanRecord,
    stored_json,
)
from scanner.store.schema import MIGRATIONS, check_file, migrate

log = logging.getLogger(__name__)

DATABASE = "handfoot.sqlite3"
# How long a write waits for another process (say, a command-line tool) holding the file.
BUSY_TIMEOUT_S = 10.0
# Below this, health() reports trouble: a table scan writes a few megabytes of images.
LOW_SPACE_MB = 100.0


def utc_now() -> str:
    """The time as ISO 8601 in UTC, to the millisecond: ``2026-05-09T18:02:11.304Z``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Store:
    """Open one with :meth:`Store.open`; it is safe to share between threads."""

    def __init__(
        self,
        writer: sqlite3.Connection,
        reader: sqlite3.Connection | None,
        data_dir: Path,
        schema_version: int,
    ) -> None:
        """Use :meth:`Store.open`. ``reader`` None: reads share the writer and its lock."""
        self._writer = writer
        self._write_lock = threading.Lock()
        self._reader = reader or writer
        self._read_lock = threading.Lock() if reader else self._write_lock
        self._closed = False
        self.data_dir = data_dir
        self.path = data_dir / DATABASE
        self.schema_version = schema_version
        # The last storage fault a write met ("full", "read-only", "failing"), until a test
        # write succeeds again; health() reports it.
        self.fault: StorageFault | None = None

    @classmethod
    def open(cls, data_dir: Path | None = None) -> Store:
        """Open the record in ``data_dir`` (default :func:`default_data_dir`), creating the
        folder and the file and bringing an older file's schema up to date. A file that is
        not a handfoot record, is damaged or is newer than this code is refused, untouched."""
        data_dir = Path(data_dir) if data_dir is not None else files.default_data_dir()
        try:
            (data_dir / files.SCANS).mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(
                f"The data folder {data_dir} cannot be created ({error.strerror or error})."
            ) from None
        path = data_dir / DATABASE
        if path.exists() and not path.is_file():
            raise NotAStore(path, "it is not a file")
        if not os.access(data_dir, os.W_OK):
            # SQLite would say "unable to open database file" of a record in WAL mode
            raise StorageFault("read-only", data_dir)
        # Before SQLite opens it: SQLite would start an emptied file as a new record, and
        # stop reading a damaged log at the damage, both without a word.
        integrity.check_not_emptied(path)
        integrity.check_log(path)
        opened: list[sqlite3.Connection] = []
        try:
            writer = _connect(path, opened)
            check_file(writer, path, MIGRATIONS)
            wal = _configure(writer, path)
            version = migrate(writer, MIGRATIONS)
            integrity.check_rows(writer, path)
            reader = _connect(path, opened, read_only=True) if wal else None
        except BaseException as error:
            for conn in opened:
                conn.close()
            if isinstance(error, sqlite3.Error | NotAStore) and _no_room(data_dir):
                # SQLite cannot open its log on a full disk and calls it an I/O error
                raise StorageFault("full", data_dir) from None
            if isinstance(error, sqlite3.Error):
                fault = storage_fault(error, data_dir)
                if fault is not None:
                    raise fault from None
                raise StoreError(f"The game record {path} cannot be opened: {error}.") from None
            raise
        log.info("game record %s open at schema version %d", path, version)
        if removed := files.remove_stale_parts(data_dir):
            log.info("removed %d unfinished image file(s) left by an interrupted scan", removed)
        store = cls(writer, reader, data_dir, version)
        store.test_write()
        return store

    def close(self) -> None:
        with self._write_lock, contextlib.ExitStack() as stack:
            if self._read_lock is not self._write_lock:
                stack.enter_context(self._read_lock)
            if not self._closed:
                self._closed = True
                if self._reader is not self._writer:
                    self._reader.close()
                self._writer.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store.open({self.data_dir!r})"

    @contextlib.contextmanager
    def _transaction(self, doing: str, *, write: bool) -> Iterator[sqlite3.Connection]:
        """Hold a connection's lock and one transaction on it; SQLite's own errors become a
        :class:`StoreError` saying what could not be done (``doing``: "confirm deal 3 of
        game 1")."""
        lock, conn = (self._write_lock, self._writer) if write else (self._read_lock, self._reader)
        with lock:
            if self._closed:
                raise StoreError(f"The game record {self.path} is closed.")
            try:
                # IMMEDIATE takes the write lock first, so a check made inside the transaction
                # (is this deal number free?) still holds when the row goes in. A read
                # transaction sees one committed state throughout, whatever the writer does.
                conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:
                    yield conn
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        with contextlib.suppress(sqlite3.Error):
                            conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as error:
                log.error("could not %s: %s", doing, error)
                fault = storage_fault(error, self.data_dir)
                if fault is not None:
                    self.fault = fault
                    raise fault from error
                raise StoreError(f"Could not {doing}: {error}.") from error
            except OverflowError:
                # A number past SQLite's integers (2**63 and up) names no row.
                raise NotFound("such id", "in the game record") from None

    def test_write(self) -> StorageFault | None:
        """Write, sync and remove a small file in the data folder, and take the database's
        write lock: a full or read-only disk shows now, not at the first scan. The fault
        found (also kept in :attr:`fault`), or None."""
        probe = self.data_dir / ".write-test"
        try:
            files.write_atomically(probe, b"handfoot")
            probe.unlink()
            with self._transaction("test a write", write=True) as conn:
                conn.execute("PRAGMA user_version = " + str(self.schema_version))
        except OSError as error:
            self.fault = storage_fault(error, self.data_dir) or StorageFault(
                "failing", self.data_dir, error.strerror or str(error)
            )
        except StorageFault as fault:
            self.fault = fault
        else:
            self.fault = None
        if self.fault is not None:
            log.error("game record: %s", self.fault)
        return self.fault

    def backup(self, target: Path) -> None:
        """A whole copy of the record in ``target`` (a new file), through SQLite's online
        backup: the last commit, the changes still in the write-ahead log included."""
        from scanner.store.backup import copy_database

        with self._read_lock:
            self._require_open()
            try:
                copy_database(self._reader, Path(target))
            except sqlite3.Error as error:
                raise StoreError(f"The game record could not be copied: {error}.") from None
            except OSError as error:
                fault = storage_fault(error, Path(target).parent)
                raise fault or StoreError(f"{target} could not be written: {error}.") from None

    # --- health ---------------------------------------------------------------------------

    def health(self) -> dict:
        """What a status page shows: whether the record answers and has room to keep
        scans (``ok``), where it is, how much room is left, and what is wrong. Never raises."""
        report: dict = {
            "ok": False,
            "state": "ok",
            "path": str(self.path),
            "schema": self.schema_version,
            "games": 0,
            "free_mb": 0.0,
            "error": None,
        }
        try:
            report["free_mb"] = round(shutil.disk_usage(self.data_dir).free / 2**20, 1)
            with self._transaction("count the games", write=False) as conn:
                report["games"] = conn.execute("SELECT count(*) FROM games").fetchone()[0]
            if self.fault is not None and self.test_write() is not None:
                report["state"] = self.fault.kind
                report["error"] = str(self.fault)
            elif report["free_mb"] < LOW_SPACE_MB:
                report["state"] = "low"
                report["error"] = (
                    f"Only {report['free_mb']} MB is free for the game record in "
                    f"{self.data_dir}; scans may soon fail to save."
                )
            else:
                report["ok"] = True
        except (StoreError, OSError) as error:
            report["state"] = "error"
            report["error"] = str(error)
        return report

    # --- games ----------------------------------------------------------------------------

    def create_game(
        self,
        name: str,
        rules_name: str,
        rules_toml: str,
        sides: list[dict],
        deck: str | None = None,
    ) -> GameRecord:
        """A new game; ``deck``: the taught deck its scans are read with (:class:`NotFound`
        where no deck of that name is kept), kept by the name the deck has."""
        values = (
            utc_now(),
            checks.text("game name", name, empty=True),
            checks.text("rules name", rules_name),
            checks.text("rules file", rules_toml, empty=True),
            checks.sides(sides),
        )
        with self._transaction("create a game", write=True) as conn:
            taught = None if deck is None else deck_rows.find(conn, deck).name
            cursor = conn.execute(
                "INSERT INTO games (created_at, name, rules_name, rules_toml, sides, deck) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (*values, taught),
            )
            record = queries.game(conn, cursor.lastrowid)
        log.info("game %d created (%s, rules %s)", record.id, record.name, record.rules_name)
        return record

    def game(self, game_id: int) -> GameRecord:
        with self._transaction(f"read game {game_id}", write=False) as conn:
            return queries.game(conn, game_id)

    def games(self) -> list[GameRecord]:
        """Every game, newest first."""
        with self._transaction("list the games", write=False) as conn:
            rows = conn.execute("SELECT * FROM games ORDER BY id DESC").fetchall()
        return [GameRecord.from_row(row) for row in rows]

    def finish_game(self, game_id: int) -> GameRecord:
        """Mark the game finished; finishing it again keeps the first time."""
        with self._transaction(f"finish game {game_id}", write=True) as conn:
            queries.require_game(conn, game_id)
            conn.execute(
                "UPDATE games SET finished_at = ? WHERE id = ? AND finished_at IS NULL",
                (utc_now(), game_id),
            )
            return queries.game(conn, game_id)

    # --- deals ----------------------------------------------------------------------------

    def confirm_deal(
        self,
        game_id: int,
        number: int,
        deal: dict,
        result: dict,
        scan_ids: Iterable[int] = (),
    ) -> DealRecord:
        """Record deal ``number`` of the game as scored; on disk before this returns.
        :class:`Conflict` if that number already stands (undo it first); :class:`NotFound` for
        an unknown game or scan."""
        number = checks.row_id("deal number", number)
        deal_text = checks.to_json_text("deal", deal)
        result_text = checks.to_json_text("deal result", result)
        scan_list = checks.ids("scan id", scan_ids)
        with self._transaction(f"confirm deal {number} of game {game_id}", write=True) as conn:
            queries.require_game(conn, game_id)
            standing = conn.execute(
                "SELECT 1 FROM deals WHERE game_id = ? AND number = ? AND undone_at IS NULL",
                (game_id, number),
            ).fetchone()
            if standing:
                raise Conflict(
                    f"Deal {number} of game {game_id} is already confirmed; "
                    "undo it before confirming it again.",
                    game_id=game_id,
                    number=number,
                )
            for scan_id in scan_list:
                queries.require_scan(conn, scan_id)
            deal_id = conn.execute(
                "INSERT INTO deals (game_id, number, confirmed_at, deal, result) "
                "VALUES (?, ?, ?, ?, ?)",
                (game_id, number, utc_now(), deal_text, result_text),
            ).lastrowid
            conn.executemany(
                "INSERT INTO deal_scans (deal_id, position, scan_id) VALUES (?, ?, ?)",
                [(deal_id, position, scan_id) for position, scan_id in enumerate(scan_list)],
            )
            record = queries.deal(conn, deal_id)
        log.info("game %d: deal %d confirmed (row %d)", game_id, number, record.id)
        return record

    def save_draft(self, game_id: int, number: int, data: dict) -> None:
        """Keep what the players said about deal ``number`` so far (replacing what was kept);
        on disk before this returns."""
        number = checks.row_id("deal number", number)
        text = checks.to_json_text("deal draft", data)
        with self._transaction(f"keep the draft of deal {number}", write=True) as conn:
            queries.require_game(conn, game_id)
            conn.execute(
                "INSERT INTO drafts (game_id, number, updated_at, data) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, number) DO UPDATE SET "
                "updated_at = excluded.updated_at, data = excluded.data",
                (game_id, number, utc_now(), text),
            )

    def draft(self, game_id: int, number: int) -> dict | None:
        """What :meth:`save_draft` kept for deal ``number``, or None."""
        with self._transaction(f"read the draft of deal {number}", write=False) as conn:
            queries.require_game(conn, game_id)
            row = conn.execute(
                "SELECT data FROM drafts WHERE game_id = ? AND number = ?", (game_id, number)
            ).fetchone()
        if row is None:
            return None
        return stored_json(row, "data", f"the draft of deal {number} of game {game_id}")  # type: ignore[return-value]

    def deal(self, deal_id: int) -> DealRecord:
        with self._transaction(f"read deal {deal_id}", write=False) as conn:
            return queries.deal(conn, deal_id)

    def deals(self, game_id: int, include_undone: bool = False) -> list[DealRecord]:
        """The game's standing deals by number; with ``include_undone``, the undone ones too,
        each number's tries in the order they were confirmed."""
        with self._transaction(f"list the deals of game {game_id}", write=False) as conn:
            queries.require_game(conn, game_id)
            return queries.deals(conn, game_id, include_undone)

    def undo_last_deal(self, game_id: int) -> DealRecord | None:
        """Mark the highest-numbered standing deal undone and return it; None if none stands.
        The row stays: nothing confirmed is ever deleted."""
        with self._transaction(f"undo the last deal of game {game_id}", write=True) as conn:
            queries.require_game(conn, game_id)
            row = conn.execute(
                "SELECT id FROM deals WHERE game_id = ? AND undone_at IS NULL "
                "ORDER BY number DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            conn.execute("UPDATE deals SET undone_at = ? WHERE id = ?", (utc_now(), row["id"]))
            record = queries.deal(conn, row["id"])
        log.info("game %d: deal %d undone (row %d)", game_id, record.number, record.id)
        return record

    # --- scans and corrections ------------------------------------------------------------

    def add_scan(
        self,
        *,
        mode: str,
        image: bytes,
        reading: dict,
        annotated: bytes | None = None,
        game_id: int | None = None,
        deal_number: int | None = None,
        side: str | None = None,
    ) -> ScanRecord:
        """Keep a scan: its image files go to disk whole (and fsynced) before its row goes in,
        so a row never names a missing or partial file; if the row cannot go in, the files
        are removed again."""
        mode = checks.text("scan mode", mode, limit=checks.SHORT_WORD)
        image = checks.image_bytes("scan image", image)
        extra = None if annotated is None else checks.image_bytes("annotated image", annotated)
        reading_text = checks.to_json_text("scan reading", reading)
        game_id = checks.optional_id("game id", game_id)
        deal_number = checks.optional_id("deal number", deal_number)
        side = None if side is None else checks.text("side name", side)
        self._require_open()
        stem = files.new_scan_stem()
        image_file = stem + files.image_suffix(image)
        annotated_file = None if extra is None else f"{stem}-annotated{files.image_suffix(extra)}"
        written: list[str] = []
        try:
            for relative, data in ((image_file, image), (annotated_file, extra)):
                if relative is not None and data is not None:
                    self._write_image(relative, data)
                    written.append(relative)
            with self._transaction("record a scan", write=True) as conn:
                if game_id is not None:
                    queries.require_game(conn, game_id)
                scan_id = conn.execute(
                    "INSERT INTO scans (created_at, game_id, deal_number, side, mode, "
                    "image_file, annotated_file, reading, first_reading) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        utc_now(),
                        game_id,
                        deal_number,
                        side,
                        mode,
                        image_file,
                        annotated_file,
                        reading_text,
                        reading_text,
                    ),
                ).lastrowid
                record = queries.scan(conn, scan_id)
        except BaseException:
            files.remove_quietly(self.data_dir, written)
            raise
        log.info("scan %d recorded (%s, %s)", record.id, mode, image_file)
        return record

    def _write_image(self, relative: str, data: bytes) -> None:
        try:
            files.write_atomically(self.data_dir / relative, data)
        except OSError as error:
            fault = storage_fault(error, self.data_dir)
            if fault is not None:
                self.fault = fault
                raise fault from error
            raise StoreError(
                f"The scan image {relative} could not be written ({error.strerror or error})."
            ) from error

    def _require_open(self) -> None:
        if self._closed:
            raise StoreError(f"The game record {self.path} is closed.")

    def scan(self, scan_id: int) -> ScanRecord:
        with self._transaction(f"read scan {scan_id}", write=False) as conn:
            return queries.scan(conn, scan_id)

    def scans(
        self, game_id: int | None = None, deal_number: int | None = None, limit: int = 100
    ) -> list[ScanRecord]:
        """Scans, newest first, of one game (and deal) when given."""
        limit = checks.row_id("scan limit", limit)
        with self._transaction("list scans", write=False) as conn:
            if game_id is not None:
                queries.require_game(conn, game_id)
            return queries.scans(conn, game_id, deal_number, limit)

    def correct_scan(
        self, scan_id: int, action: str, detail: dict, reading: dict
    ) -> CorrectionRecord:
        """Keep a person's correction and the scan's reading after it, in one transaction."""
        action = checks.text("correction action", action, limit=checks.SHORT_WORD)
        detail_text = checks.to_json_text("correction detail", detail)
        reading_text = checks.to_json_text("scan reading", reading)
        with self._transaction(f"correct scan {scan_id}", write=True) as conn:
            queries.require_scan(conn, scan_id)
            correction_id = conn.execute(
                "INSERT INTO corrections (scan_id, created_at, action, detail, reading) "
                "VALUES (?, ?, ?, ?, ?)",
                (scan_id, utc_now(), action, detail_text, reading_text),
            ).lastrowid
            conn.execute("UPDATE scans SET reading = ? WHERE id = ?", (reading_text, scan_id))
            record = queries.correction(conn, correction_id)
        log.info("scan %d corrected (%s)", scan_id, action)
        return record

    def corrections(self, scan_id: int) -> list[CorrectionRecord]:
        """The scan's corrections, oldest first."""
        with self._transaction(f"list corrections of scan {scan_id}", write=False) as conn:
            queries.require_scan(conn, scan_id)
            return queries.corrections(conn, scan_id)

    # --- taught decks (scanner/decks) ------------------------------------------------------

    def teach_deck(
        self, name: str, layout: str, taught: Sequence[deck_rows.Example], codes: Sequence[str]
    ) -> deck_rows.DeckRecord:
        """Keep deck ``name`` with the examples ``taught`` (a new deck, or one taught again:
        its taught examples are replaced, its corrections kept), in one transaction.
        ``codes``: the classes an example may show."""
        name = deck_rows.deck_name(name)
        if layout not in deck_rows.LAYOUTS:
            raise BadValue("deck layout", layout, f"it is not one of {deck_rows.LAYOUTS}")
        items = deck_rows.check_examples(taught, codes)
        with self._transaction(f"teach deck {name!r}", write=True) as conn:
            now = utc_now()
            row = conn.execute("SELECT id, layout FROM decks WHERE name = ?", (name,)).fetchone()
            if row is None:
                deck_id = conn.execute(
                    "INSERT INTO decks (name, layout, created_at, updated_at) VALUES (?, ?, ?, ?)",
                    (name, layout, now, now),
                ).lastrowid
            else:
                deck_id = row["id"]
                conn.execute(
                    "DELETE FROM deck_examples WHERE deck_id = ? AND source = 'taught'", (deck_id,)
                )
                conn.execute("UPDATE decks SET layout = ? WHERE id = ?", (layout, deck_id))
            deck_rows.insert(conn, deck_id, items, now)
            record = deck_rows.find(conn, name)
        log.info("deck %r taught: %d examples", name, len(items))
        return record

    def add_deck_examples(
        self, name: str, examples: Sequence[deck_rows.Example], codes: Sequence[str]
    ) -> deck_rows.DeckRecord:
        """Add ``examples`` (a deal's corrections) to deck ``name``, in one transaction."""
        items = deck_rows.check_examples(examples, codes)
        with self._transaction(f"add examples to deck {name!r}", write=True) as conn:
            deck = deck_rows.find(conn, name)
            for scan_id in {e.scan_id for e in items if e.scan_id is not None}:
                queries.require_scan(conn, scan_id)
            deck_rows.insert(conn, deck.id, items, utc_now())
            return deck_rows.find(conn, name)

    def decks(self) -> list[deck_rows.DeckRecord]:
        """Every taught deck, by name."""
        with self._transaction("list decks", write=False) as conn:
            return deck_rows.listed(conn)

    def deck(self, name: str) -> deck_rows.DeckRecord:
        """Deck ``name`` (the case of its letters aside); :class:`NotFound` if none."""
        with self._transaction(f"read deck {name!r}", write=False) as conn:
            return deck_rows.find(conn, name)

    def deck_examples(self, name: str) -> list[deck_rows.ExampleRecord]:
        """Deck ``name``'s examples, oldest first."""
        with self._transaction(f"read the examples of deck {name!r}", write=False) as conn:
            return deck_rows.examples(conn, deck_rows.find(conn, name).id)

    def deck_example(self, name: str, example_id: int) -> deck_rows.ExampleRecord:
        """One example of deck ``name`` (its crop to show); :class:`NotFound` if none."""
        with self._transaction(f"read example {example_id} of deck {name!r}", write=False) as conn:
            return deck_rows.example(conn, deck_rows.find(conn, name), example_id)

    def remove_deck_example(self, name: str, example_id: int) -> deck_rows.DeckRecord:
        """Take one example out of deck ``name`` (a crop a player says is wrong)."""
        example_id = checks.row_id("example id", example_id)
        with self._transaction(f"remove example {example_id} of deck {name!r}", write=True) as conn:
            deck = deck_rows.find(conn, name)
            gone = conn.execute(
                "DELETE FROM deck_examples WHERE id = ? AND deck_id = ?", (example_id, deck.id)
            ).rowcount
            if not gone:
                raise NotFound(f"example of deck {deck.name!r}", example_id)
            conn.execute("UPDATE decks SET updated_at = ? WHERE id = ?", (utc_now(), deck.id))
            return deck_rows.find(conn, name)

    def delete_deck(self, name: str) -> None:
        """Delete deck ``name`` and its examples; :class:`NotFound` if none."""
        with self._transaction(f"delete deck {name!r}", write=True) as conn:
            deck = deck_rows.find(conn, name)
            conn.execute("DELETE FROM deck_examples WHERE deck_id = ?", (deck.id,))
            conn.execute("DELETE FROM decks WHERE id = ?", (deck.id,))
        log.info("deck %r deleted", deck.name)

    def path_of(self, relative: str) -> Path:
        """The file a scan record names; refuses any name leading outside the scan images."""
        return files.resolve_image(self.data_dir, relative)


FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
READ_ONLY_ERRNOS = {errno.EROFS, errno.EACCES, errno.EPERM}


def _no_room(folder: Path) -> bool:
    try:
        return shutil.disk_usage(folder).free < 2**20
    except OSError:
        return False


def storage_fault(error: BaseException, where: Path) -> StorageFault | None:
    """The storage fault an OS or SQLite error means, or None when it is something else.

    >>> storage_fault(OSError(28, "No space left on device"), Path("/d")).kind
    'full'
    >>> storage_fault(sqlite3.OperationalError("attempt to write a readonly database"),
    ...               Path("/d")).kind
    'read-only'
    >>> storage_fault(ValueError("x"), Path("/d")) is None
    True
    """
    if isinstance(error, OSError):
        if error.errno in FULL_ERRNOS:
            return StorageFault("full", where)
        if error.errno in READ_ONLY_ERRNOS:
            return StorageFault("read-only", where)
        if error.errno == errno.EIO:
            return StorageFault("failing", where, os.strerror(errno.EIO))
        return None
    if isinstance(error, sqlite3.Error):
        text = str(error).lower()
        if "disk is full" in text or "database or disk is full" in text:
            return StorageFault("full", where)
        if "readonly" in text or "read-only" in text:
            return StorageFault("read-only", where)
        if "disk i/o error" in text:
            return StorageFault("failing", where, str(error))
    return None


def _connect(
    path: Path, opened: list[sqlite3.Connection], *, read_only: bool = False
) -> sqlite3.Connection:
    # Autocommit mode: every transaction is an explicit BEGIN ... COMMIT in _transaction.
    # The connection crosses threads, always under its lock, hence check_same_thread=False.
    conn = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
    )
    opened.append(conn)
    conn.row_factory = sqlite3.Row
    if read_only:
        conn.execute("PRAGMA query_only = ON")
    return conn


def _configure(conn: sqlite3.Connection, path: Path) -> bool:
    """Set the file up for durable commits; True when it is in WAL mode."""
    mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if mode != "wal":
        # Some file systems (network shares) cannot hold WAL's shared memory; FULL sync keeps
        # commits durable in the older journal mode too, only slower, and reads then share
        # the writer's connection, since a reader there would block the writer.
        log.warning("game record %s is in %s journal mode, not WAL", path, mode)
    # In WAL mode FULL fsyncs the log at every commit: a confirmed deal survives a power cut,
    # not only a crash (NORMAL would survive a crash but may lose the last commits).
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    return mode == "wal"
