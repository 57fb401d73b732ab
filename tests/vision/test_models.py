"""The shipped models on a few rendered scenes: these check that the models and the pipeline
fit together, with thresholds a retrain keeps; `handfoot eval` measures how well they read."""

import numpy as np
import pytest

from model.evaluate.scenes import held_out_styles, score_scene, summarise
from scanner.vision.networks import CLASSIFIER_FILE, LOCATOR_FILE, default_model_dir
from scanner.vision.recogniser import STAGE_NAMES

SHIPPED = default_model_dir()
if not ((SHIPPED / LOCATOR_FILE).is_file() and (SHIPPED / CLASSIFIER_FILE).is_file()):
    pytest.skip(
        "the recogniser's models are not trained yet (model/locator.onnx, "
        "model/classifier.onnx); run `make model`",
        allow_module_level=True,
    )

# (seed, index, deck, split): small frames, both decks, and held-out designs on a held-out table
FIXTURES = [(101, 0, "standard", "train"), (101, 1, "special", "train"), (6, 0, "both", "test")]
SIZE = (960, 720)
# The three scenes hold 100 countable cards, and the models of this writing find and read every
# one right (recall, precision and accuracy 1.0). 0.9 leaves a retrain room for a few misses on
# frames this small, not for a locator or classifier that fits the pipeline badly.
ENOUGH = 0.9


@pytest.fixture(scope="module")
def recogniser():
    from scanner.vision import Recogniser

    return Recogniser.load()


@pytest.fixture(scope="module")
def scores(recogniser):
    from model.synth.scene import render_scene

    held_out = held_out_styles()
    results = []
    for seed, index, deck, split in FIXTURES:
        scene = render_scene(seed, index, split=split, deck=deck, size=SIZE)
        results.append(score_scene(scene.labels, recogniser.read(scene.image).cards, held_out))
    return results


def test_the_models_find_most_cards(scores):
    assert [score.held_out for score in scores] == [False, False, True]
    figures = summarise(scores)
    assert figures["countable"] > 0
    assert figures["recall"] >= ENOUGH, figures
    assert figures["precision"] >= ENOUGH, figures


def test_the_models_read_most_codes_right(scores):
    figures = summarise(scores)
    assert figures["accuracy"]["all"] >= ENOUGH, figures


def test_a_bare_table_shows_no_cards(recogniser):
    reading = recogniser.read(np.full((480, 640, 3), (120, 90, 60), np.uint8))
    assert len(reading.cards) <= 1
    assert list(reading.timing_ms) == [*STAGE_NAMES, "total"]
