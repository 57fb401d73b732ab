"""What the game record hands back: small frozen values built from database rows.

The dicts inside (a deal, a reading) are fresh copies decoded from the row each time, so a
caller that changes one changes nothing stored.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass

from scanner.store.errors import DamagedRow


def stored_json(row: sqlite3.Row, column: str, what: str) -> object:
    """A stored JSON value; :class:`DamagedRow` naming the row when it no longer reads."""
    try:
        return json.loads(row[column])
    except (TypeError, ValueError):
        raise DamagedRow(None, what, column) from None


def _deal_name(row: sqlite3.Row) -> str:
    return f"deal {row['number']} of game {row['game_id']}"


@dataclass(frozen=True)
class GameRecord:
    id: int
    created_at: str
    name: str
    rules_name: str
    rules_toml: str
    sides: tuple[dict, ...]
    finished_at: str | None
    deck: str | None = None  # the taught deck its scans are read with (``scanner/decks``)

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> GameRecord:
        return cls(
            id=row["id"],
            created_at=row["created_at"],
            name=row["name"],
            rules_name=row["rules_name"],
            rules_toml=row["rules_toml"],
            sides=tuple(stored_json(row, "sides", f"game {row['id']}")),  # type: ignore[arg-type]
            finished_at=row["finished_at"],
            deck=row["deck"],
        )

    def to_json(self) -> dict:
        return asdict(self) | {"sides": list(self.sides)}


@dataclass(frozen=True)
class DealRecord:
    id: int
    game_id: int
    number: int
    confirmed_at: str
    deal: dict
    result: dict
    scan_ids: tuple[int, ...]
    undone_at: str | None

    @classmethod
    def from_row(cls, row: sqlite3.Row, scan_ids: tuple[int, ...]) -> DealRecord:
        return cls(
            id=row["id"],
            game_id=row["game_id"],
            number=row["number"],
            confirmed_at=row["confirmed_at"],
            deal=stored_json(row, "deal", _deal_name(row)),  # type: ignore[arg-type]
            result=stored_json(row, "result", _deal_name(row)),  # type: ignore[arg-type]
            scan_ids=scan_ids,
            undone_at=row["undone_at"],
        )

    def to_json(self) -> dict:
        return asdict(self) | {"scan_ids": list(self.scan_ids)}


@dataclass(frozen=True)
class ScanRecord:
    """One scan: its image files (relative to the data directory) and its reading as it stands
    after any corrections. ``first_reading`` is what the scanner read before anyone corrected
    it, kept because the pair is what training needs."""

    id: int
    created_at: str
    game_id: int | None
    deal_number: int | None
    side: str | None
    mode: str
    image_file: str
    annotated_file: str | None
    reading: dict
    first_reading: dict

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> ScanRecord:
        return cls(
            id=row["id"],
            created_at=row["created_at"],
            game_id=row["game_id"],
            deal_number=row["deal_number"],
            side=row["side"],
            mode=row["mode"],
            image_file=row["image_file"],
            annotated_file=row["annotated_file"],
            reading=stored_json(row, "reading", f"scan {row['id']}"),  # type: ignore[arg-type]
            first_reading=stored_json(row, "first_reading", f"scan {row['id']}"),  # type: ignore[arg-type]
        )

    def to_json(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class CorrectionRecord:
    """One change a person made to a scan's reading. ``reading`` is the scan's whole reading
    just after this correction, so the history can be replayed step by step."""

    id: int
    scan_id: int
    created_at: str
    action: str
    detail: dict
    reading: dict

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> CorrectionRecord:
        return cls(
            id=row["id"],
            scan_id=row["scan_id"],
            created_at=row["created_at"],
            action=row["action"],
            detail=stored_json(row, "detail", f"correction {row['id']}"),  # type: ignore[arg-type]
            reading=stored_json(row, "reading", f"correction {row['id']}"),  # type: ignore[arg-type]
        )

    def to_json(self) -> dict:
        return asdict(self)
