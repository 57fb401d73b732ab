"""What light, lens and sensor do to a frame: uneven light and its colour, vignetting, glare,
defocus and motion blur, sensor noise and JPEG compression. All of it is drawn from the scene's
random generator, so a seed gives the same frame."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Light:
    gains: np.ndarray  # per-channel colour of the light (R, G, B)
    exposure: float
    field: np.ndarray  # (h, w) float32: how much light falls on each pixel
    glare: np.ndarray | None  # (h, w) float32 0–1: where a lamp reflects off glossy cards
    shadow: tuple[float, float]  # direction the light pushes shadows, px per mm of height


def colour_of_light(kelvin: float) -> np.ndarray:
    """Rough RGB gains of a light of ``kelvin`` (2700 K tungsten … 6500 K daylight), after a
    camera's partial white balance."""
    t = np.clip((kelvin - 2700) / (6500 - 2700), 0, 1)
    warm, cold = np.array([1.0, 0.84, 0.62]), np.array([0.94, 0.99, 1.06])
    return (1 - t) * warm + t * cold


def sample_light(rng: np.random.Generator, width: int, height: int, px_per_mm: float) -> Light:
    kelvin = rng.uniform(2700, 6500)
    balance = rng.uniform(0.3, 0.9)  # auto white balance takes out part of the cast
    gains = balance * np.ones(3) + (1 - balance) * colour_of_light(kelvin)
    gains /= gains.max()
    # Uneven light: a smooth random field, brighter under the lamp, darker in the corners.
    # Everything here is smooth, so it is computed on a coarse grid and enlarged.
    step = 8
    gw, gh = width // step + 1, height // step + 1
    coarse = rng.uniform(0.55, 1.0, (3, 4)).astype(np.float32)
    field = cv2.resize(coarse, (gw, gh), interpolation=cv2.INTER_CUBIC)
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32) * step
    cx, cy = rng.uniform(0.2, 0.8) * width, rng.uniform(0.2, 0.8) * height
    radius = rng.uniform(0.6, 1.4) * max(width, height)
    lamp = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * radius**2))
    vignette_strength = rng.uniform(0.0, 0.45)
    r2 = ((xx - width / 2) / (width / 2)) ** 2 + ((yy - height / 2) / (height / 2)) ** 2
    vignette = 1.0 - vignette_strength * np.clip(r2 / 2, 0, 1) ** 1.5
    field = np.clip(field * (0.6 + 0.4 * lamp) * vignette, 0.2, 1.2).astype(np.float32)
    field = cv2.resize(field, (width, height), interpolation=cv2.INTER_LINEAR)
    glare = None
    if rng.random() < 0.45:  # the lamp's reflection: one soft spot where glossy cards shine
        gx, gy = rng.uniform(0, width), rng.uniform(0, height)
        spot = rng.uniform(0.04, 0.18) * max(width, height)
        stretch = rng.uniform(0.5, 1.0)
        glare = np.exp(-(((xx - gx) * stretch) ** 2 + (yy - gy) ** 2) / (2 * spot**2))
        glare = cv2.resize(
            glare.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR
        )
        glare *= rng.uniform(0.4, 0.95)
    direction = rng.uniform(0, 2 * np.pi)
    length = rng.uniform(0.2, 1.0) * px_per_mm
    return Light(
        gains.astype(np.float32),
        float(rng.uniform(0.75, 1.15)),
        field,
        glare,
        (float(np.cos(direction) * length), float(np.sin(direction) * length)),
    )


def apply_light(rgb: np.ndarray, light: Light) -> np.ndarray:
    gains = (light.exposure * light.gains).astype(np.float32)
    rgb *= cv2.merge([light.field * gains[0], light.field * gains[1], light.field * gains[2]])
    return rgb


def apply_lens(rng: np.random.Generator, rgb: np.ndarray, px_per_mm: float) -> np.ndarray:
    """Defocus or motion blur (each sometimes), never both strongly."""
    roll = rng.random()
    if roll < 0.45:
        sigma = rng.uniform(0.3, 1.0) + rng.uniform(0, 1.2) * (px_per_mm / 4)
        rgb = cv2.GaussianBlur(rgb, (0, 0), sigma)
    elif roll < 0.6:
        length = int(rng.integers(3, 10))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, turn, (length, length))
        kernel /= max(kernel.sum(), 1e-6)
        rgb = cv2.filter2D(rgb, -1, kernel)
    return rgb


NOISE_SHAPE = (1088, 1952)  # a 1280×960 frame fits inside at many offsets: no copy needed


@functools.lru_cache(maxsize=1)
def _noise_bank() -> np.ndarray:
    """A fixed field of unit Gaussian noise (drawn once; seeded, so the same everywhere)."""
    return np.random.default_rng(20261129).standard_normal((*NOISE_SHAPE, 3), np.float32)


def _noise(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """Per-pixel noise for a frame: the bank read from a random offset (wrapping around for
    frames larger than it). Fresh Gaussian noise for every frame cost more than the rest of
    the effects together."""
    bank = _noise_bank()
    bank_h, bank_w = NOISE_SHAPE
    if width <= bank_w and height <= bank_h:
        dx, dy = int(rng.integers(0, bank_w - width + 1)), int(rng.integers(0, bank_h - height + 1))
        return bank[dy : dy + height, dx : dx + width]
    dx, dy = int(rng.integers(0, bank_w)), int(rng.integers(0, bank_h))
    rows = np.arange(dy, dy + height) % bank_h
    cols = np.arange(dx, dx + width) % bank_w
    return bank[rows[:, None], cols[None, :]]


def apply_sensor(rng: np.random.Generator, rgb: np.ndarray) -> np.ndarray:
    """Sensor noise: read noise plus shot noise that grows with the frame's brightness; darker
    frames look noisier after the camera's gain, so its level is drawn per frame."""
    height, width = rgb.shape[:2]
    read = rng.uniform(0.5, 5.0)
    shot = rng.uniform(0.0, 0.35)
    brightness = float(cv2.mean(cv2.resize(rgb, (64, 48), interpolation=cv2.INTER_AREA))[0])
    sigma = read + shot * np.sqrt(max(brightness, 0.0))
    rgb = cv2.scaleAdd(_noise(rng, width, height), sigma, rgb)
    if rng.random() < 0.3:  # blotchy colour noise of small sensors, at a coarser scale
        chroma = rng.standard_normal((height // 4 + 1, width // 4 + 1, 3), np.float32)
        chroma *= rng.uniform(1.0, 4.0)
        rgb += cv2.resize(chroma, (width, height), interpolation=cv2.INTER_LINEAR)
    return rgb


def encode_jpeg(rng: np.random.Generator, rgb: np.ndarray) -> bytes:
    """The frame as the camera or phone would save it: JPEG of a random quality."""
    quality = int(rng.integers(55, 96))
    np.clip(rgb, 0, 255, out=rgb)
    bgr = rgb[..., ::-1].astype(np.uint8)
    ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return data.tobytes()


def decode_jpeg(data: bytes) -> np.ndarray:
    """The RGB frame a recogniser reads from those bytes."""
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    return cv2.cvtColor(decoded, cv2.COLOR_BGR2RGB)
