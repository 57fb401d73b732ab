"""Where the game record lives, and the scan images beside it.

Images are files, not database rows: the database stays small enough to check at every start
and to copy in a moment, and a picture can be looked at with any viewer.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

from scanner.store.errors import NotFound, UnsafePath

SCANS = "scans"


def default_data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The folder for the game record: systemd's ``StateDirectory=`` when the service runs under
    it, else the XDG data folder, else ``~/.local/share/handfoot``.

    >>> default_data_dir({"STATE_DIRECTORY": "/var/lib/handfoot"})
    PosixPath('/var/lib/handfoot')
    >>> default_data_dir({"XDG_DATA_HOME": "/home/ann/.data", "HOME": "/home/ann"})
    PosixPath('/home/ann/.data/handfoot')
    >>> default_data_dir({"XDG_DATA_HOME": "relative", "HOME": "/home/ann"})
    PosixPath('/home/ann/.local/share/handfoot')
    """
    env = os.environ if environ is None else environ
    # systemd joins several StateDirectory= entries with colons; the first is ours.
    state = env.get("STATE_DIRECTORY", "").split(":")[0]
    if state:
        return Path(state)
    # The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
    xdg = env.get("XDG_DATA_HOME", "")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "handfoot"
    home = Path(env["HOME"]) if env.get("HOME") else Path.home()
    return home / ".local" / "share" / "handfoot"


def image_suffix(data: bytes) -> str:
    """A file suffix from the image's first bytes, so a viewer opens the file.

    >>> image_suffix(b"\\xff\\xd8\\xff\\xe0..."), image_suffix(b"\\x89PNG\\r\\n\\x1a\\n...")
    ('.jpg', '.png')
    >>> image_suffix(b"not an image")
    '.bin'
    """
    if data.startswith(b"\xff\xd8\xff"):
        return ".jpg"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return ".png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return ".webp"
    return ".bin"


def new_scan_stem(now: datetime | None = None) -> str:
    """A fresh relative name (no suffix) for a scan's files: one folder per UTC day, a time and
    a random part so two scans in the same millisecond never share a name."""
    now = now or datetime.now(UTC)
    return f"{SCANS}/{now:%Y-%m-%d}/{now:%H%M%S}-{secrets.token_hex(4)}"


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` so that ``path`` is either absent or whole, even if the process or the
    power dies half-way: a hidden temporary file, fsync, rename, fsync of the folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.part")
    try:
        with open(temp, "xb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    _fsync_folder(path.parent)


def _fsync_folder(folder: Path) -> None:
    # The rename itself lives in the folder's entry list; without this a power cut can lose it.
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def remove_quietly(data_dir: Path, relatives: list[str]) -> None:
    for relative in relatives:
        with contextlib.suppress(OSError):
            (data_dir / relative).unlink()


def remove_stale_parts(data_dir: Path, older_than_s: float = 3600.0) -> int:
    """Delete the temporary files of image writes a killed process never finished; returns
    how many. Only old ones: a younger one may be another process's write in progress."""
    removed = 0
    cutoff = time.time() - older_than_s
    for part in (data_dir / SCANS).glob("*/.*.part"):
        with contextlib.suppress(OSError):
            if part.stat().st_mtime < cutoff:
                part.unlink()
                removed += 1
    return removed


def resolve_image(data_dir: Path, relative: str) -> Path:
    """The scan image ``relative`` names, refusing anything outside ``data_dir/scans``, the
    database among them; :class:`NotFound` when there is no such file."""
    scans = (data_dir / SCANS).resolve()
    if not relative or "\0" in relative or Path(relative).is_absolute():
        raise UnsafePath(relative)
    # resolve() follows links and "..", so a link pointing out of the folder is caught too.
    path = (data_dir / relative).resolve()
    if not path.is_relative_to(scans) or path == scans:
        raise UnsafePath(relative)
    if not path.is_file():
        raise NotFound("image file", repr(relative))
    return path
