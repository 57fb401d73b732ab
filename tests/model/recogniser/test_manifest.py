"""recogniser.json says which models it travels with: their version, the date they were trained
and the commit (the model card's Model details), and the export writes the same three."""

import datetime
import json
import re
from pathlib import Path

import pytest

import model
from scanner.vision.contract import Contract

MODELS = Path(model.__file__).resolve().parent


def test_shipped_recogniser_json_names_its_version_date_and_commit():
    manifest = json.loads((MODELS / "recogniser.json").read_text(encoding="utf-8"))
    assert manifest["version"] == "35"
    assert datetime.date.fromisoformat(manifest["trained_at"]) == datetime.date(2026, 12, 7)
    assert re.fullmatch(r"[0-9a-f]{7,40}", manifest["commit"])
    # the contract reads past them: they describe the models, they are no constant of theirs
    assert Contract.load(MODELS).classes[-1] == "none"


def test_the_export_records_the_version_given_today_and_the_commit():
    pytest.importorskip("torch")
    from model.recogniser.export import DEFAULT_VERSION, provenance

    made = provenance("34")
    assert made["version"] == "34" and provenance()["version"] == DEFAULT_VERSION
    assert (
        datetime.date.fromisoformat(made["trained_at"])
        <= datetime.datetime.now(datetime.UTC).date()
    )
    assert made["commit"] is None or re.fullmatch(r"[0-9a-f]{4,40}", made["commit"])
