"""The real sets' split: by scene, reproducible, and what is committed is what it makes."""

import csv
from pathlib import Path

from model.evaluate.split import sessions, split

SPLITS = Path(__file__).resolve().parents[3] / "model" / "evaluate" / "splits"


def test_photos_of_one_scene_stay_together():
    photos = {
        "IMG_20220921_193915.jpg": "5C",
        "IMG_20220921_193918.jpg": "5C 4H",
        "IMG_20220921_193925.jpg": "KD",
        "IMG_20220921_194500.jpg": "KD",
        "IMG_7702.jpg": "7H",
        "IMG_7703.jpg": "7H",
    }
    runs = sessions(photos)
    assert ["IMG_20220921_193915.jpg", "IMG_20220921_193918.jpg"] in runs
    assert ["IMG_20220921_193925.jpg"] in runs and ["IMG_20220921_194500.jpg"] in runs
    assert ["IMG_7702.jpg", "IMG_7703.jpg"] in runs


def test_the_split_is_reproducible_and_holds_whole_scenes():
    photos = {f"IMG_{7000 + 10 * n + k}.jpg": f"{n % 9 + 2}H" for n in range(40) for k in (0, 1)}
    held = split({"g": photos}, seed=5)
    assert held == split({"g": photos}, seed=5) and held != split({"g": photos}, seed=6)
    assert 0.3 * len(photos) <= len(held) <= 0.3 * len(photos) + 2
    for run in sessions(photos):
        assert len(set(run) & held) in (0, len(run))


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_the_committed_parts_of_each_set_do_not_overlap():
    for name in ("real-train", "real-photos"):
        parts = [
            {row["image"] for row in csv.DictReader(_lines(SPLITS / f"{name}-{part}.csv"))}
            for part in ("training", "held-out")
        ]
        assert parts[0] and parts[1] and not parts[0] & parts[1]
