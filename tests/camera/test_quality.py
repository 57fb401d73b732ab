"""check_quality on rendered scenes: every clean one passes (the renderer's mild blur and dim
light are readable), darkened ones are dark, strongly blurred ones blurred, uniform ones blank.
The thresholds were set on other scenes (see scanner/camera/quality.py); these are fresh."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from model.synth.scene import render_scene
from scanner.camera import QualityProblem, check_quality
from scanner.camera.quality import BLURRED_MESSAGE, DARK_MESSAGE, measure

SIZES = [(1280, 960)] * 10 + [(2304, 1296), (1640, 1232)]


# Rendering these twelve scenes takes seconds: the tests that use them are marked slow.
@pytest.fixture(scope="module")
def scenes() -> list[np.ndarray]:
    return [
        render_scene(31, index, split="test", size=size).image for index, size in enumerate(SIZES)
    ]


def motion_blur(image: np.ndarray, length: int, degrees: float) -> np.ndarray:
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0
    turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), degrees, 1.0)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    return cv2.filter2D(image, -1, kernel / kernel.sum())


@pytest.mark.slow
def test_clean_scenes_pass(scenes):
    problems = [(i, check_quality(image)) for i, image in enumerate(scenes)]
    assert [(i, p) for i, p in problems if p is not None] == []


@pytest.mark.slow
def test_darkened_scenes_are_dark(scenes):
    for image in scenes:
        problem = check_quality((image * 0.1).astype(np.uint8))
        assert problem is not None and problem.kind == "dark", problem
        assert problem.message == DARK_MESSAGE and problem.value < problem.limit


@pytest.mark.slow
@pytest.mark.parametrize("blur", ["gaussian", "motion"])
def test_strongly_blurred_scenes_are_blurred(scenes, blur):
    rng = np.random.default_rng(1)
    for image in scenes:
        scale = image.shape[1] / 1280  # the same blur for the frame, whatever its size
        if blur == "gaussian":
            blurred = cv2.GaussianBlur(image, (0, 0), 6 * scale)
        else:
            blurred = motion_blur(image, int(31 * scale) | 1, rng.uniform(0, 180))
        problem = check_quality(blurred)
        assert problem is not None and problem.kind == "blurred", problem
        assert problem.message == BLURRED_MESSAGE


@pytest.mark.slow
def test_sharpness_does_not_depend_on_resolution(scenes):
    image = scenes[0]
    larger = cv2.resize(image, (2560, 1920), interpolation=cv2.INTER_CUBIC)
    assert measure(larger).sharpness == pytest.approx(measure(image).sharpness, rel=0.15)


@pytest.mark.parametrize("level", [0, 3, 128, 255])
def test_a_uniform_frame_is_blank(level):
    rng = np.random.default_rng(level)
    noise = rng.normal(0, 1.0, (960, 1280, 3))  # a covered lens still has sensor noise
    image = np.clip(level + noise, 0, 255).astype(np.uint8)
    problem = check_quality(image)
    assert problem == QualityProblem("blank", problem.message, problem.value, problem.limit)
    assert "lens" in problem.message


def test_a_noisy_black_frame_is_flagged():
    image = np.random.default_rng(0).normal(4, 4, (960, 1280, 3)).clip(0, 255).astype(np.uint8)
    assert check_quality(image).kind in ("blank", "dark")


@pytest.mark.slow
def test_grey_frames_and_bad_input(scenes):
    grey = cv2.cvtColor(scenes[0], cv2.COLOR_RGB2GRAY)
    assert check_quality(grey) is None
    with pytest.raises(ValueError, match="uint8"):
        check_quality(scenes[0].astype(np.float32))
    with pytest.raises(ValueError, match="RGB"):
        check_quality(np.zeros((10, 10, 4), np.uint8))


REAL_PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "data" / "real-photos"


@pytest.mark.skipif(not REAL_PHOTOS.is_dir(), reason="the real photographs are not here")
def test_real_photographs_of_cards_all_pass():
    """Phone and webcam photos of one or a few cards on wood, cloth or a dark case: readable
    pictures, none of them may be refused as dark or blurred."""
    from scanner.vision.images import read_image

    photos = sorted(
        path for path in REAL_PHOTOS.rglob("*") if path.suffix.lower() in (".jpg", ".jpeg", ".png")
    )
    assert len(photos) > 300
    refused = [(path.name, check_quality(read_image(path))) for path in photos]
    assert [item for item in refused if item[1] is not None] == []
