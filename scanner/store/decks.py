"""Taught decks in the game record: each deck's name and layout, and its examples (index crops
with the codes they show, taught from a photo or from a player's correction).

A crop is a few kilobytes of PNG, so the examples are rows, not files: a deck taught again, or
a deal's corrections joining it, go in whole in one transaction or not at all.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scanner.store import checks
from scanner.store.errors import BadValue, NotFound

LAYOUTS = ("standard", "special")
SOURCES = ("taught", "corrected")
NAME_LIMIT = 60
MOST_EXAMPLES = 5000  # a deck's examples: a layout photo teaches about 60, a deal adds a few


@dataclass(frozen=True)
class Example:
    """One example to keep: its code, its crop as PNG bytes, where it came from."""

    code: str
    crop: bytes
    source: str = "taught"
    scan_id: int | None = None


@dataclass(frozen=True)
class ExampleRecord(Example):
    id: int = 0
    created_at: str = ""


@dataclass(frozen=True)
class DeckRecord:
    id: int
    name: str
    layout: str
    created_at: str
    updated_at: str
    taught: int  # examples taught from photos
    corrected: int  # examples from players' corrections

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "name": self.name,
            "layout": self.layout,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "taught": self.taught,
            "corrected": self.corrected,
        }


def deck_name(value: object) -> str:
    """A deck's name as given, trimmed; refused empty, too long or with control characters."""
    name = checks.text("deck name", value, limit=NAME_LIMIT).strip()
    if any(ord(ch) < 32 for ch in name):
        raise BadValue("deck name", value, "it holds control characters")
    return name


def check_examples(examples: Iterable[Example], codes: Sequence[str]) -> list[Example]:
    checked = []
    for example in examples:
        if example.code not in codes:
            raise BadValue("example code", example.code, "it is no card the reader knows")
        if example.source not in SOURCES:
            raise BadValue("example source", example.source, f"it is not one of {SOURCES}")
        checks.image_bytes("example crop", example.crop)
        checked.append(example)
    return checked


def _record(conn: sqlite3.Connection, row: sqlite3.Row) -> DeckRecord:
    counts = dict(
        conn.execute(
            "SELECT source, COUNT(*) FROM deck_examples WHERE deck_id = ? GROUP BY source",
            (row["id"],),
        ).fetchall()
    )
    return DeckRecord(
        row["id"],
        row["name"],
        row["layout"],
        row["created_at"],
        row["updated_at"],
        counts.get("taught", 0),
        counts.get("corrected", 0),
    )


def find(conn: sqlite3.Connection, name: str) -> DeckRecord:
    row = conn.execute("SELECT * FROM decks WHERE name = ?", (name,)).fetchone()
    if row is None:
        raise NotFound("deck called", name)
    return _record(conn, row)


def listed(conn: sqlite3.Connection) -> list[DeckRecord]:
    rows = conn.execute("SELECT * FROM decks ORDER BY name COLLATE NOCASE").fetchall()
    return [_record(conn, row) for row in rows]


def examples(conn: sqlite3.Connection, deck_id: int) -> list[ExampleRecord]:
    rows = conn.execute(
        "SELECT * FROM deck_examples WHERE deck_id = ? ORDER BY id", (deck_id,)
    ).fetchall()
    return [_example(row) for row in rows]


def _example(row: sqlite3.Row) -> ExampleRecord:
    return ExampleRecord(
        row["code"],
        bytes(row["crop"]),
        row["source"],
        row["scan_id"],
        id=row["id"],
        created_at=row["created_at"],
    )


def example(conn: sqlite3.Connection, deck: DeckRecord, example_id: int) -> ExampleRecord:
    row = conn.execute(
        "SELECT * FROM deck_examples WHERE id = ? AND deck_id = ?", (example_id, deck.id)
    ).fetchone()
    if row is None:
        raise NotFound(f"example of deck {deck.name!r}", example_id)
    return _example(row)


def insert(conn: sqlite3.Connection, deck_id: int, items: Sequence[Example], now: str) -> None:
    held = conn.execute(
        "SELECT COUNT(*) FROM deck_examples WHERE deck_id = ?", (deck_id,)
    ).fetchone()[0]
    if held + len(items) > MOST_EXAMPLES:
        raise BadValue("deck examples", held + len(items), f"a deck keeps at most {MOST_EXAMPLES}")
    conn.executemany(
        "INSERT INTO deck_examples (deck_id, code, crop, source, scan_id, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [(deck_id, e.code, e.crop, e.source, e.scan_id, now) for e in items],
    )
    conn.execute("UPDATE decks SET updated_at = ? WHERE id = ?", (now, deck_id))
