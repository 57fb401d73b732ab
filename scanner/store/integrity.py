"""The record checks itself before it is used: a file emptied by accident, a write-ahead log with
a damaged frame (SQLite would quietly stop reading it there, and the deals after it would be
gone), and rows whose stored JSON no longer reads. Each is refused with one sentence that says
what is wrong and what to do; the files are left as they are.
"""

from __future__ import annotations

import json
import sqlite3
import struct
from collections.abc import Iterator
from pathlib import Path

from scanner.store.errors import DamagedRow, NotAStore

WAL_MAGIC = (0x377F0682, 0x377F0683)  # checksums over little- or big-endian words
WAL_HEADER = 32
FRAME_HEADER = 24

# Every JSON column, how a row is named in a sentence, and what the JSON must be.
JSON_COLUMNS = (
    ("games", ("sides",), "game {id}", list),
    ("deals", ("deal", "result"), "deal {number} of game {game_id}", dict),
    ("scans", ("reading", "first_reading"), "scan {id}", dict),
    ("corrections", ("detail", "reading"), "correction {id} of scan {scan_id}", dict),
    ("drafts", ("data",), "the draft of deal {number} of game {game_id}", dict),
)


def check_not_emptied(path: Path) -> None:
    """An existing record file of no bytes is not a new record: its games were lost."""
    if path.is_file() and path.stat().st_size == 0:
        raise NotAStore(path, "it is empty: 0 bytes, though a record was kept here")


def check_log(path: Path) -> None:
    """Refuse a write-ahead log whose frames stop checking out before its last frame of the
    same generation: a damaged frame, with committed deals after it."""
    wal = path.with_name(path.name + "-wal")
    try:
        data = wal.read_bytes()
    except FileNotFoundError:
        return
    if len(data) < WAL_HEADER:
        return  # SQLite ignores a log without a whole header; nothing was committed in it
    magic, _, page_size, _, salt1, salt2 = struct.unpack(">6I", data[:24])
    if magic not in WAL_MAGIC or not 512 <= page_size <= 65536:
        raise NotAStore(path, f"its log {wal.name} is damaged (its header is not SQLite's)")
    big = magic & 1
    sums = _checksum(data[:24], (0, 0), big)
    if sums != struct.unpack(">2I", data[24:32]):
        return  # a log SQLite would ignore whole (a torn header): nothing of it was in use
    frames = list(_frames(data, page_size))
    broken, commits_after = None, 0
    for number, (header, page) in enumerate(frames, start=1):
        same_generation = struct.unpack(">2I", header[8:16]) == (salt1, salt2)
        if broken is None:
            sums = _checksum(header[:8] + page, sums, big)
            if not same_generation or sums != struct.unpack(">2I", header[16:24]):
                broken = number
        elif same_generation and struct.unpack(">I", header[4:8])[0]:
            commits_after += 1
    # One commit after the break may be the last one, torn by a power cut before it was
    # acknowledged; two or more mean commits that were acknowledged would be lost.
    if commits_after > 1:
        raise NotAStore(
            path,
            f"its log {wal.name} is damaged at frame {broken} of {len(frames)}, and "
            f"{commits_after} changes recorded after it would be lost",
        )


def _frames(data: bytes, page_size: int) -> Iterator[tuple[bytes, bytes]]:
    size = FRAME_HEADER + page_size
    for at in range(WAL_HEADER, len(data) - size + 1, size):
        yield data[at : at + FRAME_HEADER], data[at + FRAME_HEADER : at + size]


def _checksum(data: bytes, sums: tuple[int, int], big: int) -> tuple[int, int]:
    """SQLite's log checksum: two running 32-bit sums over pairs of words."""
    words = struct.unpack(f"{'>' if big else '<'}{len(data) // 4}I", data)
    s0, s1 = sums
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def check_rows(conn: sqlite3.Connection, path: Path) -> None:
    """Every stored JSON value reads, and is the kind of value it should be."""
    cursor = conn.cursor()
    cursor.row_factory = sqlite3.Row
    for table, columns, name, kind in JSON_COLUMNS:
        for row in cursor.execute(f"SELECT * FROM {table}"):  # table names from above
            for column in columns:
                try:
                    value = json.loads(row[column])
                except (TypeError, ValueError):
                    value = None
                if not isinstance(value, kind) or (table == "games" and not _sides(value)):
                    named = {key: row[key] for key in row.keys()}  # noqa: SIM118 - a Row iterates values
                    raise DamagedRow(path, name.format(**named), column)


def _sides(value: list) -> bool:
    return all(isinstance(side, dict) and isinstance(side.get("name"), str) for side in value)
