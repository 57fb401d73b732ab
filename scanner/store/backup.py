"""Whole copies of the game record: SQLite's online backup reads the record as one committed
state, the changes still in its write-ahead log included, while the table keeps playing. A
copy of the ``.sqlite3`` file alone would miss those changes (after a crash, all of them).

``handfoot backup FILE`` and ``handfoot restore FILE`` use these; ``handfoot serve`` keeps a
copy a day in ``backups/`` of the data folder, the last :data:`KEEP_DAYS`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path

from scanner.store import files, integrity
from scanner.store.errors import NotAStore, StoreError
from scanner.store.schema import MIGRATIONS, check_file
from scanner.store.store import DATABASE, Store, storage_fault

log = logging.getLogger(__name__)

BACKUPS = "backups"
KEEP_DAYS = 7
DAY_S = 24 * 3600.0


def copy_database(source: sqlite3.Connection, target: Path) -> None:
    """Copy the database ``source`` is connected to into the new file ``target``, whole or
    not at all (a temporary file, synced, then renamed)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(f".{target.name}.part")
    part.unlink(missing_ok=True)
    try:
        copy = sqlite3.connect(part)
        try:
            source.backup(copy)
            copy.execute("PRAGMA journal_mode = DELETE")  # one file, nothing beside it
        finally:
            copy.close()
        with open(part, "rb+") as out:
            os.fsync(out.fileno())
        os.replace(part, target)
    except BaseException:
        with contextlib.suppress(OSError):
            part.unlink()
        raise


def backup(data_dir: Path, target: Path) -> dict:
    """Copy the record in ``data_dir`` to ``target`` (a server may be running on it); what
    the copy holds: ``{"games": n, "deals": n}``."""
    path = Path(data_dir) / DATABASE
    if not path.is_file():
        raise StoreError(f"There is no game record in {data_dir} to back up.")
    integrity.check_not_emptied(path)
    integrity.check_log(path)
    source = sqlite3.connect(path, timeout=10.0)
    try:
        check_file(source, path, MIGRATIONS)
        copy_database(source, Path(target))
    except sqlite3.Error as error:
        raise StoreError(f"The game record {path} could not be copied: {error}.") from None
    except OSError as error:
        fault = storage_fault(error, Path(target).parent)
        raise fault or StoreError(f"{target} could not be written: {error}.") from None
    finally:
        source.close()
    return counts(Path(target))


def counts(path: Path) -> dict:
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
        deals = conn.execute("SELECT count(*) FROM deals WHERE undone_at IS NULL").fetchone()[0]
    return {"games": games, "deals": deals}


def check_copy(path: Path) -> None:
    """Refuse ``path`` unless it is a whole handfoot record this code can open."""
    if not path.is_file():
        raise StoreError(f"There is no file {path} to restore.")
    integrity.check_not_emptied(path)
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise NotAStore(path, str(error)) from None
    try:
        if not check_file(conn, path, MIGRATIONS):
            raise NotAStore(path, "it holds no handfoot games")
        integrity.check_rows(conn, path)
    finally:
        conn.close()


def restore(copy: Path, data_dir: Path) -> dict:
    """Put the record ``copy`` in ``data_dir``'s place (no server may hold the folder: see
    :mod:`scanner.store.lock`). The record it replaces is kept beside it as
    ``handfoot.sqlite3.before-restore-TIME``. What the restored record holds."""
    copy, data_dir = Path(copy), Path(data_dir)
    check_copy(copy)
    path = data_dir / DATABASE
    if path.exists():
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        with Store.open(data_dir) as current:
            current.backup(data_dir / f"{DATABASE}.before-restore-{stamp}")
    else:
        (data_dir / files.SCANS).mkdir(parents=True, exist_ok=True)
    source = contextlib.closing(sqlite3.connect(f"file:{copy}?mode=ro", uri=True))
    target = contextlib.closing(sqlite3.connect(path, timeout=10.0))
    with source as reading, target as writing:
        reading.backup(writing)  # into the live file: its log is rewritten with it
    with Store.open(data_dir):  # opens, checks and brings the schema up to date
        pass
    return counts(path)


def daily_copy(store: Store, day: str | None = None, keep: int = KEEP_DAYS) -> Path:
    """Today's copy in ``backups/`` (replaced if there is one), keeping the newest ``keep``."""
    day = day or datetime.now(UTC).strftime("%Y-%m-%d")
    folder = store.data_dir / BACKUPS
    target = folder / f"handfoot-{day}.sqlite3"
    store.backup(target)
    for old in sorted(folder.glob("handfoot-*.sqlite3"))[:-keep]:
        old.unlink(missing_ok=True)
    log.info("daily copy of the game record: %s", target)
    return target


class DailyCopies:
    """A thread that makes :func:`daily_copy` at start and once a day while serving."""

    def __init__(self, store: Store, every_s: float = DAY_S) -> None:
        self.store = store
        self.every_s = every_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="daily-copy", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(10)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                daily_copy(self.store)
            except (StoreError, OSError, sqlite3.Error) as error:
                log.error("the daily copy of the game record failed: %s", error)
            self._stop.wait(self.every_s)
