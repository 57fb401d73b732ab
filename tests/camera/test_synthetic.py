"""Rendered tables as a camera: later shots of a scene, and the synthetic source built on them,
showing one side's table, a hand's leftovers or a training table."""

import doctest

import numpy as np
import pytest

from model.synth.scene import render_scene
from scanner.camera import CameraError, SyntheticSource, open_source, specs, synthetic_source

SMALL = (480, 360)


@pytest.mark.parametrize("index", [0, 3])
def test_later_shots_are_the_same_table_with_fresh_noise(index):
    first = render_scene(9, index, split="test", size=SMALL)
    again = render_scene(9, index, split="test", size=SMALL, shot=0)
    assert again.jpeg == first.jpeg  # shot 0 is the scene as it always was
    later = [render_scene(9, index, split="test", size=SMALL, shot=k) for k in (1, 2)]
    for shot in later:
        assert shot.labels == first.labels
        difference = np.abs(shot.image.astype(np.int16) - first.image.astype(np.int16))
        assert 0.3 < difference.mean() < 15, difference.mean()  # different, but barely
        assert abs(float(shot.image.mean()) - float(first.image.mean())) < 8
    assert later[0].jpeg != later[1].jpeg
    repeat = render_scene(9, index, split="test", size=SMALL, shot=1)
    assert repeat.jpeg == later[0].jpeg  # a shot is as reproducible as a scene


def test_a_shot_needs_photographic_effects_to_differ_and_cannot_be_negative():
    plain = render_scene(9, 1, size=SMALL, photographic=False)
    assert np.array_equal(
        render_scene(9, 1, size=SMALL, photographic=False, shot=3).image, plain.image
    )
    with pytest.raises(ValueError, match="shot"):
        render_scene(9, 1, size=SMALL, shot=-1)


def test_the_source_shows_one_table_until_advanced():
    source = open_source("synthetic:7", size=SMALL)
    assert isinstance(source, SyntheticSource)
    first, second = source.capture(), source.capture()
    assert first.truth == second.truth and first.truth["schema"] == "handfoot-scene/1"
    assert (first.truth["seed"], first.truth["index"], first.truth["split"]) == (7, 0, "test")
    assert not np.array_equal(first.image, second.image)
    assert first.image.shape == (SMALL[1], SMALL[0], 3)
    assert (first.name, second.name) == ("synthetic table 0 shot 0", "synthetic table 0 shot 1")
    assert (first.source, first.number, second.number) == ("synthetic:7", 0, 1)
    source.advance()
    third = source.capture()
    assert third.truth["index"] == 1 and third.truth["cards"] != first.truth["cards"]
    assert third.name == "synthetic table 1 shot 0" and third.number == 2
    assert source.describe() | {"last_error": None} == {
        "spec": "synthetic:7",
        "kind": "synthetic",
        "open": True,
        "frames": 3,
        "last_error": None,
        "seed": 7,
        "table": 1,
        "next_shot": 1,
        "layout": "side",
    }


def test_a_seed_gives_the_same_frames_and_another_seed_others():
    def shots(spec: str) -> list[np.ndarray]:
        with open_source(spec, size=SMALL, deck="special") as source:
            return [source.capture().image for _ in range(2)]

    a, b, c = shots("synthetic:3"), shots("synthetic:3"), shots("synthetic:4")
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(a[0], c[0])


def test_the_first_shot_is_the_rendered_scene():
    """By default the camera looks at one side's table, as a camera above a real one does."""
    frame = open_source("synthetic", size=SMALL, split="train").capture()
    scene = render_scene(0, 0, split="train", size=SMALL, layout="side")
    assert np.array_equal(frame.image, scene.image) and frame.truth == scene.labels
    assert frame.truth["layout"] == "side"


def test_the_training_layout_shows_the_scenes_it_always_showed():
    frame = open_source("synthetic:2", size=SMALL, layout="training").capture()
    scene = render_scene(2, 0, split="test", size=SMALL)
    assert np.array_equal(frame.image, scene.image) and frame.truth == scene.labels


def test_advance_can_lay_the_next_table_in_another_layout():
    source = open_source("synthetic:5", size=SMALL, deck="standard")
    side = source.capture().truth
    assert side["layout"] == "side" and source.layout == "side"
    source.advance(layout="leftovers")
    first, second = source.capture(), source.capture()
    assert (first.truth["layout"], first.truth["index"], source.table) == ("leftovers", 1, 1)
    assert first.truth == second.truth and 3 <= len(first.truth["cards"]) <= 15
    assert (
        first.truth
        == render_scene(5, 1, split="test", deck="standard", size=SMALL, layout="leftovers").labels
    )
    source.advance()  # the layout stays until changed
    assert source.capture().truth["layout"] == "leftovers"
    source.advance(layout="training")
    assert "layout" not in source.capture().truth
    assert source.describe()["layout"] == "training"
    with pytest.raises(CameraError, match="layout must be one of"):
        source.advance(layout="poker")
    assert source.table == 3  # a refused layout lays no table


@pytest.mark.parametrize("module", [synthetic_source, specs])
def test_the_camera_modules_examples_run(module):
    failed, tried = doctest.testmod(module)
    assert tried and not failed


def test_bad_options_are_camera_errors():
    with pytest.raises(CameraError, match="split must be one of"):
        open_source("synthetic", split="validation")
    with pytest.raises(CameraError, match="layout must be one of"):
        open_source("synthetic", layout="poker")
