"""What ``make pi-check`` compares between this machine and an aarch64 Debian root run under
emulation: the recogniser's readings of the committed fixture frames and the engine's totals of
the golden deals, as one JSON document on standard output.

    python -m tests.pi_readings > readings.json

Cards are kept with their code, check flags, index box (to 0.01 px) and confidence (to 1e-4):
the same models on the same frame must give the same cards on any CPU.
"""

from __future__ import annotations

import json
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
FRAMES = sorted((HERE / "fixtures" / "vision").glob("*.jpg"))
GOLDEN = sorted((HERE / "golden").glob("*.json"))


def frame_readings(recogniser) -> dict:
    import cv2

    out = {}
    for path in FRAMES:
        image = cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2RGB)
        reading = recogniser.read(image)
        out[path.name] = [
            {
                "code": card.code,
                "check": card.check,
                "confidence": round(float(card.confidence), 4),
                "index_box": [round(float(v), 2) for v in card.index_box],
            }
            for card in reading.cards
        ]
    return out


def golden_totals() -> dict:
    """Each golden deal as ``handfoot score --json`` scores it: exit code and totals."""
    import contextlib
    import io

    from scanner.cli import main as handfoot

    out = {}
    for path in GOLDEN:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(io.StringIO()):
            code = handfoot(["score", str(path), "--json"])
        try:
            teams = json.loads(printed.getvalue()).get("teams", [])
        except ValueError:
            teams = []
        out[path.name] = [code, {team["name"]: team["total"] for team in teams}]
    return out


def main() -> int:
    from scanner.vision import Recogniser

    started = time.monotonic()
    recogniser = Recogniser.load(threads=1)
    document = {
        "machine": platform.machine(),
        "frames": frame_readings(recogniser),
        "golden": golden_totals(),
    }
    document["seconds"] = round(time.monotonic() - started, 1)
    json.dump(document, sys.stdout, indent=1, sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
