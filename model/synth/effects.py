"""What light, lens and sensor do to a frame: uneven light and its colour, vignetting, glare,
defocus and motion blur, sensor noise and JPEG compression. All of it is drawn from the scene's
random generator, so a seed gives the same frame."""

from __future__ import annotations

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
    coarse = rng.uniform(0.55, 1.0, (3, 4)).astype(np.float32)
    field = cv2.resize(coarse, (width, height), interpolation=cv2.INTER_CUBIC)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    cx, cy = rng.uniform(0.2, 0.8) * width, rng.uniform(0.2, 0.8) * height
    radius = rng.uniform(0.6, 1.4) * max(width, height)
    lamp = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * radius**2))
    vignette_strength = rng.uniform(0.0, 0.45)
    r2 = ((xx - width / 2) / (width / 2)) ** 2 + ((yy - height / 2) / (height / 2)) ** 2
    vignette = 1.0 - vignette_strength * np.clip(r2 / 2, 0, 1) ** 1.5
    field = np.clip(field * (0.6 + 0.4 * lamp) * vignette, 0.2, 1.2).astype(np.float32)
    glare = None
    if rng.random() < 0.45:  # the lamp's reflection: one soft spot where glossy cards shine
        gx, gy = rng.uniform(0, width), rng.uniform(0, height)
        spot = rng.uniform(0.04, 0.18) * max(width, height)
        stretch = rng.uniform(0.5, 1.0)
        glare = np.exp(-(((xx - gx) * stretch) ** 2 + (yy - gy) ** 2) / (2 * spot**2)).astype(
            np.float32
        ) * rng.uniform(0.4, 0.95)
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
    rgb *= light.field[..., None] * (light.exposure * light.gains)
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


def apply_sensor(rng: np.random.Generator, rgb: np.ndarray) -> np.ndarray:
    """Shot noise grows with brightness and read noise does not; darker frames look noisier
    after the camera's gain, so noise is drawn per frame from a wide range."""
    height, width = rgb.shape[:2]
    read = rng.uniform(0.5, 5.0)
    shot = rng.uniform(0.0, 0.35)
    noise = rng.standard_normal((height, width, 3), dtype=np.float32)
    sigma = read + shot * np.sqrt(np.maximum(rgb, 0.0))
    rgb += noise * sigma
    if rng.random() < 0.3:  # blotchy colour noise of small sensors, at a coarser scale
        chroma = rng.standard_normal((height // 4 + 1, width // 4 + 1, 3), dtype=np.float32)
        chroma = cv2.resize(chroma, (width, height), interpolation=cv2.INTER_LINEAR)
        rgb += chroma * rng.uniform(1.0, 4.0)
    return rgb


def encode_jpeg(rng: np.random.Generator, rgb: np.ndarray) -> tuple[bytes, np.ndarray]:
    """The frame as the camera or phone would save it: JPEG of a random quality. Returns the
    file's bytes and the decoded RGB frame (what a recogniser would read)."""
    quality = int(rng.integers(55, 96))
    bgr = cv2.cvtColor(np.clip(rgb, 0, 255).astype(np.uint8), cv2.COLOR_RGB2BGR)
    ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return data.tobytes(), cv2.cvtColor(decoded, cv2.COLOR_BGR2RGB)
