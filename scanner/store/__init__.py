"""The game record: games, confirmed deals, scans and corrections in SQLite, scan images as
files beside it. ``Store.open()`` is the way in; every error is a :class:`StoreError`."""

from scanner.store.errors import (
    BadValue,
    Conflict,
    DamagedRow,
    FolderInUse,
    NewerSchema,
    NotAStore,
    NotFound,
    StorageFault,
    StoreError,
    UnsafePath,
)
from scanner.store.files import default_data_dir
from scanner.store.records import CorrectionRecord, DealRecord, GameRecord, ScanRecord
from scanner.store.store import DATABASE, Store

__all__ = [
    "DATABASE",
    "BadValue",
    "Conflict",
    "CorrectionRecord",
    "DamagedRow",
    "DealRecord",
    "FolderInUse",
    "GameRecord",
    "NewerSchema",
    "NotAStore",
    "NotFound",
    "ScanRecord",
    "StorageFault",
    "Store",
    "StoreError",
    "UnsafePath",
    "default_data_dir",
]
