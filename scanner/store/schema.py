"""The database's shape and how a file gets from any older shape to this one.

The schema version is SQLite's ``PRAGMA user_version``. ``MIGRATIONS[n]`` takes a file from
version ``n`` to ``n + 1``; each runs in its own transaction together with the version bump, so
a file is always at exactly one version, whatever moment the process dies. To change the
schema, append a migration; never edit one that has shipped.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from scanner.store.errors import NewerSchema, NotAStore

log = logging.getLogger(__name__)

# Written into the file header so a handfoot record is told apart from any other SQLite file
# (sqlite3 command-line users see it with `PRAGMA application_id`). ASCII "HnFt".
APPLICATION_ID = 0x486E4674

V1 = f"""
PRAGMA application_id = {APPLICATION_ID};

CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    created_at  TEXT NOT NULL,
    name        TEXT NOT NULL,
    rules_name  TEXT NOT NULL,
    rules_toml  TEXT NOT NULL,
    sides       TEXT NOT NULL,          -- JSON list of {{"name": ..., "players": [...]}}
    finished_at TEXT
);

CREATE TABLE deals (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games (id),
    number       INTEGER NOT NULL CHECK (number >= 1),
    confirmed_at TEXT NOT NULL,
    deal         TEXT NOT NULL,         -- the engine's deal-file JSON
    result       TEXT NOT NULL,         -- the engine's scored deal JSON
    undone_at    TEXT
);
-- Undo keeps the row, so a number may recur, but only one of its rows may be standing.
CREATE UNIQUE INDEX deals_standing ON deals (game_id, number) WHERE undone_at IS NULL;

CREATE TABLE scans (
    id             INTEGER PRIMARY KEY,
    created_at     TEXT NOT NULL,
    game_id        INTEGER REFERENCES games (id),
    deal_number    INTEGER,
    side           TEXT,
    mode           TEXT NOT NULL,
    image_file     TEXT NOT NULL,      -- relative to the data directory
    annotated_file TEXT,
    reading        TEXT NOT NULL,      -- JSON, as corrected
    first_reading  TEXT NOT NULL       -- JSON, as the scanner read it
);
CREATE INDEX scans_by_game ON scans (game_id, deal_number);

CREATE TABLE deal_scans (
    deal_id  INTEGER NOT NULL REFERENCES deals (id),
    position INTEGER NOT NULL,
    scan_id  INTEGER NOT NULL REFERENCES scans (id),
    PRIMARY KEY (deal_id, position)
);

CREATE TABLE corrections (
    id         INTEGER PRIMARY KEY,
    scan_id    INTEGER NOT NULL REFERENCES scans (id),
    created_at TEXT NOT NULL,
    action     TEXT NOT NULL,
    detail     TEXT NOT NULL,          -- JSON
    reading    TEXT NOT NULL           -- JSON: the scan's reading after this correction
);
CREATE INDEX corrections_by_scan ON corrections (scan_id);
"""

# Version 2: what players tell the page about the deal in progress (who went out, an exact 22,
# cards typed in), kept until the deal is confirmed so a restart mid-deal loses none of it.
V2 = """
CREATE TABLE drafts (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    number     INTEGER NOT NULL CHECK (number >= 1),
    updated_at TEXT NOT NULL,
    data       TEXT NOT NULL,          -- JSON
    PRIMARY KEY (game_id, number)
);
"""

# Version 3: taught decks (``scanner/decks``): a deck's examples are rows, PNG crops of a few
# kilobytes, so a deck taught again goes in whole or not at all..
V3 = """
CREATE TABLE decks (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE COLLATE NOCASE,
    layout     TEXT NOT NULL,          -- "standard" or "special"
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE deck_examples (
    id         INTEGER PRIMARY KEY,
    deck_id    INTEGER NOT NULL REFERENCES decks (id),
    code       TEXT NOT NULL,          -- a classifier class: "QR", "LADY", "none"
    crop       BLOB NOT NULL,          -- PNG, as the classifier reads it
    source     TEXT NOT NULL,          -- "taught" or "corrected"
    scan_id    INTEGER REFERENCES scans (id),
    created_at TEXT NOT NULL
);
CREATE INDEX deck_examples_by_deck ON deck_examples (deck_id);
"""

# Version 4: the taught deck a game is read with (``scanner/decks``), by name; none for the
# games before, and for a game played with no taught deck.
V4 = """
ALTER TABLE games ADD COLUMN deck TEXT;
"""

MIGRATIONS: tuple[str, ...] = (V1, V2, V3, V4)


def schema_version(conn: sqlite3.Connection) -> int:
    return conn.execute("PRAGMA user_version").fetchone()[0]


def check_file(conn: sqlite3.Connection, path: Path, migrations: Sequence[str]) -> int:
    """The file's schema version, after making sure it is a handfoot record this code may
    write to. Reads only; raises :class:`NotAStore` or :class:`NewerSchema`."""
    try:
        version = schema_version(conn)
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
    except sqlite3.DatabaseError as error:
        raise NotAStore(path, str(error)) from None
    if version == 0 and tables:
        raise NotAStore(path, "it is an SQLite database of some other program")
    if version and app_id != APPLICATION_ID:
        raise NotAStore(path, f"it is an SQLite database of some other program (id {app_id})")
    if version > len(migrations):
        raise NewerSchema(path, version, len(migrations))
    if version:
        _quick_check(conn, path)
    return version


def _quick_check(conn: sqlite3.Connection, path: Path) -> None:
    # Damage inside a file whose header is fine only shows when a damaged page is read; finding
    # it at start-up means the page says so before a game starts, not in the middle of one.
    try:
        problems = [row[0] for row in conn.execute("PRAGMA quick_check(5)")]
    except sqlite3.DatabaseError as error:
        raise NotAStore(path, str(error)) from None
    if problems != ["ok"]:
        raise NotAStore(path, "it is damaged: " + "; ".join(problems))


def migrate(conn: sqlite3.Connection, migrations: Sequence[str] = MIGRATIONS) -> int:
    """Apply the migrations the file has not had yet, each in one transaction; returns the
    version reached. ``conn`` must be in autocommit mode (``isolation_level=None``)."""
    version = schema_version(conn)
    while version < len(migrations):
        script = migrations[version]
        conn.execute("BEGIN IMMEDIATE")
        try:
            # executescript() would commit first; running statement by statement keeps the
            # whole step, version bump included, inside this one transaction.
            for statement in _statements(script):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        version += 1
        log.info("game record migrated to schema version %d", version)
    return version


def _statements(script: str) -> list[str]:
    r"""Split a migration into statements at the semicolons SQLite itself says end one (not
    those inside strings or trigger bodies).

    >>> _statements("CREATE TABLE a (x TEXT DEFAULT ';'); -- a\nCREATE TABLE b (y);")
    ["CREATE TABLE a (x TEXT DEFAULT ';');", '-- a\nCREATE TABLE b (y);']
    """
    statements, current = [], ""
    for piece in re.split(r"(?<=;)", script):
        current += piece
        if sqlite3.complete_statement(current):
            statements.append(current.strip())
            current = ""
    if current.strip():
        statements.append(current.strip())  # a comment, or an unfinished statement SQLite rejects
    return statements
