"""How ``handfoot serve`` writes its log: one line per event that no input can break into two
(a name with a new line in it cannot forge a line of its own), and an error that repeats said
once, with a count, instead of thousands of times (a flood of connections must not fill the
disk with the same traceback)."""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable

FORMAT = "%(levelname)s %(name)s: %(message)s"
REPEAT_WINDOW_S = 60.0
REMEMBERED = 256  # distinct messages whose repeats are counted
_VARYING = re.compile(r"0x[0-9a-fA-F]+|\d+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def escape(text: str) -> str:
    r"""Control characters written as escapes, so a message stays on its line.

    >>> print(escape("Ours\nERROR forged\x1b[31m"))
    Ours\nERROR forged\x1b[31m
    """
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


class OneLineFormatter(logging.Formatter):
    """The message escaped onto one line; a traceback, when there is one, follows indented,
    so no line of it can read as a log line."""

    def format(self, record: logging.LogRecord) -> str:
        record.message = escape(record.getMessage())
        line = self.formatMessage(record)
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line += "\n" + "\n".join("    " + part for part in record.exc_text.splitlines())
        return line


class RepeatFilter(logging.Filter):
    """Pass a message (by logger, level and text before its arguments) once per
    :data:`REPEAT_WINDOW_S`; the next one passed says how many were held back."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._clock = clock
        self._lock = threading.Lock()
        self._seen: dict[tuple, list] = {}  # key: [first time, held back]

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        kind = type(record.exc_info[1]).__name__ if record.exc_info else ""
        # numbers and addresses differ between repeats of one error (asyncio's handles)
        key = (record.name, record.levelno, _VARYING.sub("#", str(record.msg))[:120], kind)
        now = self._clock()
        with self._lock:
            seen = self._seen.get(key)
            if seen is not None and now - seen[0] < REPEAT_WINDOW_S:
                seen[1] += 1
                return False
            held = seen[1] if seen else 0
            if len(self._seen) >= REMEMBERED and key not in self._seen:
                del self._seen[next(iter(self._seen))]
            self._seen[key] = [now, 0]
        if held:
            record.msg = f"{record.msg} (and {held} more like it in the last minute or more)"
        return True


def configure(level: int = logging.INFO) -> None:
    """The log of ``handfoot serve``: one handler on the root logger, on standard error, that
    every logger (uvicorn's and asyncio's too) writes through."""
    import sys

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLineFormatter(FORMAT))
    handler.addFilter(RepeatFilter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)
    logging.getLogger("uvicorn.error").setLevel(logging.WARNING)
