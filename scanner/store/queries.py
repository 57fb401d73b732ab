"""The reads the store's methods share, as functions of an open connection inside a
transaction the caller holds."""

from __future__ import annotations

import sqlite3
from collections import defaultdict

from scanner.store.errors import NotFound
from scanner.store.records import CorrectionRecord, DealRecord, GameRecord, ScanRecord


def game(conn: sqlite3.Connection, game_id: int) -> GameRecord:
    row = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise NotFound("game", game_id)
    return GameRecord.from_row(row)


def require_game(conn: sqlite3.Connection, game_id: int) -> None:
    if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
        raise NotFound("game", game_id)


def require_scan(conn: sqlite3.Connection, scan_id: int) -> None:
    if conn.execute("SELECT 1 FROM scans WHERE id = ?", (scan_id,)).fetchone() is None:
        raise NotFound("scan", scan_id)


def deal(conn: sqlite3.Connection, deal_id: int) -> DealRecord:
    row = conn.execute("SELECT * FROM deals WHERE id = ?", (deal_id,)).fetchone()
    if row is None:
        raise NotFound("deal", deal_id)
    scan_ids = conn.execute(
        "SELECT scan_id FROM deal_scans WHERE deal_id = ? ORDER BY position", (deal_id,)
    ).fetchall()
    return DealRecord.from_row(row, tuple(r[0] for r in scan_ids))


def deals(conn: sqlite3.Connection, game_id: int, include_undone: bool) -> list[DealRecord]:
    standing = "" if include_undone else "AND undone_at IS NULL"
    rows = conn.execute(
        f"SELECT * FROM deals WHERE game_id = ? {standing} ORDER BY number, id", (game_id,)
    ).fetchall()
    scan_ids: dict[int, list[int]] = defaultdict(list)
    for deal_id, scan_id in conn.execute(
        "SELECT deal_id, scan_id FROM deal_scans JOIN deals ON deals.id = deal_id "
        "WHERE deals.game_id = ? ORDER BY deal_id, position",
        (game_id,),
    ):
        scan_ids[deal_id].append(scan_id)
    return [DealRecord.from_row(row, tuple(scan_ids[row["id"]])) for row in rows]


def scan(conn: sqlite3.Connection, scan_id: int) -> ScanRecord:
    row = conn.execute("SELECT * FROM scans WHERE id = ?", (scan_id,)).fetchone()
    if row is None:
        raise NotFound("scan", scan_id)
    return ScanRecord.from_row(row)


def scans(
    conn: sqlite3.Connection, game_id: int | None, deal_number: int | None, limit: int
) -> list[ScanRecord]:
    where, params = [], []
    if game_id is not None:
        where.append("game_id = ?")
        params.append(game_id)
    if deal_number is not None:
        where.append("deal_number = ?")
        params.append(deal_number)
    clause = f"WHERE {' AND '.join(where)}" if where else ""
    rows = conn.execute(
        f"SELECT * FROM scans {clause} ORDER BY id DESC LIMIT ?", (*params, limit)
    ).fetchall()
    return [ScanRecord.from_row(row) for row in rows]


def correction(conn: sqlite3.Connection, correction_id: int) -> CorrectionRecord:
    row = conn.execute("SELECT * FROM corrections WHERE id = ?", (correction_id,)).fetchone()
    return CorrectionRecord.from_row(row)


def corrections(conn: sqlite3.Connection, scan_id: int) -> list[CorrectionRecord]:
    rows = conn.execute(
        "SELECT * FROM corrections WHERE scan_id = ? ORDER BY id", (scan_id,)
    ).fetchall()
    return [CorrectionRecord.from_row(row) for row in rows]
