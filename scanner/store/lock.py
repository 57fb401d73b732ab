"""One server per data folder: a lock file that the kernel releases when its process ends,
however it ends, holding the process id so that a second server can say who has the folder."""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from scanner.store.errors import FolderInUse, StoreError

LOCK = "handfoot.lock"


class FolderLock:
    """``FolderLock.take(data_dir)``; :class:`FolderInUse` when another process holds it."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def take(cls, data_dir: Path) -> FolderLock:
        data_dir = Path(data_dir)
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
            fd = os.open(data_dir / LOCK, os.O_RDWR | os.O_CREAT, 0o640)
        except OSError as error:
            from scanner.store.store import storage_fault

            raise storage_fault(error, data_dir) or StoreError(
                f"The data folder {data_dir} cannot be used ({error.strerror or error})."
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip()
            os.close(fd)
            shown = f"process {holder}" if holder.isdigit() else "another process"
            raise FolderInUse(data_dir, shown) from None
        with contextlib.suppress(OSError):  # a full disk: the lock holds, unnamed
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return cls(data_dir / LOCK, fd)

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, 0)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> FolderLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
