"""The scaled measuring set: each photo of a split scaled by the factor, its labels kept, the
same files from the same photos, and a factor out of range refused."""

import cv2
import numpy as np
import pytest

from model.evaluate.scaled import main
from tests.model.evaluate.test_dulled import _photo, _split


def test_a_split_s_photos_come_out_scaled_with_their_labels(tmp_path):
    source = tmp_path / "source"
    _photo(source / "photos" / "red.jpg", (30, 20, 220))
    _split(tmp_path / "split.csv", ["photos/red.jpg"])
    for out in ("once", "again"):
        args = [str(source), "--labels", str(tmp_path / "split.csv"), "--factor", "2"]
        assert main([*args, "--out", str(tmp_path / out)]) == 0
    once = tmp_path / "once" / "photos" / "red.jpg"
    assert once.read_bytes() == (tmp_path / "again" / "photos" / "red.jpg").read_bytes()
    assert (tmp_path / "once" / "labels.csv").read_text() == (tmp_path / "split.csv").read_text()
    big = cv2.imread(str(once))
    assert big.shape == (128, 128, 3)
    # the patch lies where it lay, twice as far in: red at the centre, paper at the corner
    assert big[64, 64, 2] > 150 > big[64, 64, 0] and np.all(big[4, 4] > 200)


def test_a_factor_out_of_range_is_refused(tmp_path, capsys):
    _split(tmp_path / "split.csv", [])
    with pytest.raises(SystemExit):
        main(
            [str(tmp_path), "--labels", str(tmp_path / "split.csv"), "--factor", "0", "--out", "x"]
        )
    assert "--factor is between" in capsys.readouterr().err
