"""The server's log: one line per event whatever a name holds, and an error said once with a
count however often it repeats."""

import io
import logging

from scanner.cli.logs import REPEAT_WINDOW_S, OneLineFormatter, RepeatFilter


def a_log(clock):
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(OneLineFormatter("%(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RepeatFilter(clock=clock))
    log = logging.getLogger("tests.cli.logs")
    log.handlers[:] = [handler]
    log.propagate = False
    log.setLevel(logging.INFO)
    return log, out


def test_an_error_repeated_a_thousand_times_is_said_once_with_a_count():
    now = [0.0]
    log, out = a_log(lambda: now[0])
    for number in range(1000):
        try:
            raise OSError(24, "Too many open files")
        except OSError:
            log.exception("accept failed on socket %d at 0x%x", number, 1000 + number)
    assert out.getvalue().count("[Errno 24]") == 1
    now[0] += REPEAT_WINDOW_S + 1
    try:
        raise OSError(24, "Too many open files")
    except OSError:
        log.exception("accept failed on socket %d at 0x%x", 7, 7)
    assert "(and 999 more like it" in out.getvalue()
    log.info("scan %d recorded", 1)
    log.info("scan %d recorded", 2)  # information is never held back
    assert out.getvalue().count("recorded") == 2


def test_a_name_cannot_start_a_line_of_its_own():
    log, out = a_log(lambda: 0.0)
    log.info("game %d created (%s)", 1, "Ours\nERROR forged\r\x1b[2K")
    try:
        raise ValueError("bad\nERROR forged too")
    except ValueError:
        log.exception("failed")
    lines = out.getvalue().splitlines()
    assert lines[0] == "INFO tests.cli.logs: game 1 created (Ours\\nERROR forged\\r\\x1b[2K)"
    assert all(line.startswith(("INFO", "ERROR tests.cli.logs: failed", "    ")) for line in lines)
