"""Scoring on real photographs labelled in Pascal VOC (whole-card boxes, rank names)."""

from model.evaluate.photos import _boxes, photo_files, score_photo
from scanner.vision.cards import CardReading

VOC = """<annotation><object><name>king</name><bndbox><xmin>0</xmin><ymin>0</ymin>
<xmax>100</xmax><ymax>150</ymax></bndbox></object><object><name>nine</name><bndbox>
<xmin>200</xmin><ymin>0</ymin><xmax>300</xmax><ymax>150</ymax></bndbox></object></annotation>"""


def card(code, x, y):
    return CardReading(code, 0.9, (x - 5, y - 5, x + 5, y + 5), ((0, 0),) * 4, 0.0, False)


def test_found_right_and_extra_readings(tmp_path):
    (tmp_path / "a.xml").write_text(VOC)
    (tmp_path / "a.jpg").write_bytes(b"")
    assert photo_files(tmp_path) == [(tmp_path / "a.jpg", tmp_path / "a.xml")]
    boxes = _boxes(tmp_path / "a.xml")
    assert [b[0] for b in boxes] == ["K", "9"]
    readings = [card("KR", 20, 20), card("KB", 80, 130), card("6B", 250, 20), card("QR", 500, 20)]
    assert score_photo(boxes, readings) == {
        "cards": 2,
        "found": 2,
        "right": 1,  # the king; the nine was read as a six
        "readings": 4,
        "on_a_card": 2,  # the second reading of the king and the one off every card count against
    }
