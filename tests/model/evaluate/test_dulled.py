"""The dulled measuring set: colour weakened and cast warm, the same files from the same photos,
and a split naming a photo that is not there refused."""

import csv

import cv2
import numpy as np
import pytest

from model.evaluate.dulled import main


def _photo(path, bgr):
    image = np.full((64, 64, 3), 255, np.uint8)
    image[16:48, 16:48] = bgr
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 98])


def _split(path, images):
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["image", "cards"])
        writer.writerows([image, "QH"] for image in images)


def test_a_split_s_photos_come_out_duller_warmer_and_the_same_each_time(tmp_path):
    source = tmp_path / "source"
    _photo(source / "photos" / "red.jpg", (30, 20, 220))  # BGR: a red patch on white paper
    _split(tmp_path / "split.csv", ["photos/red.jpg"])
    for out in ("once", "again"):
        assert (
            main(
                [str(source), "--labels", str(tmp_path / "split.csv"), "--out", str(tmp_path / out)]
            )
            == 0
        )
    once = (tmp_path / "once" / "photos" / "red.jpg").read_bytes()
    assert once == (tmp_path / "again" / "photos" / "red.jpg").read_bytes()
    assert (tmp_path / "once" / "labels.csv").read_text() == (tmp_path / "split.csv").read_text()

    before = cv2.imread(str(source / "photos" / "red.jpg")).astype(float)
    after = cv2.imread(str(tmp_path / "once" / "photos" / "red.jpg")).astype(float)
    red_before, red_after = before[32, 32], after[32, 32]
    chroma = lambda bgr: bgr[2] - bgr[:2].mean()  # noqa: E731
    assert chroma(red_after) < 0.5 * chroma(red_before)  # the red is washed out
    paper = after[4, 4]
    assert paper[0] < paper[1] < paper[2]  # white paper turned warm: blue lowest, red highest


def test_a_photo_missing_from_its_folder_is_named(tmp_path):
    _split(tmp_path / "split.csv", ["photos/gone.jpg"])
    with pytest.raises(SystemExit, match=r"gone\.jpg"):
        main([str(tmp_path), "--labels", str(tmp_path / "split.csv"), "--out", str(tmp_path / "o")])
