"""Table surfaces and non-card props for the scene renderer: shapes, variety, determinism."""

import numpy as np
import pytest

from model.synth.props import PROP_KINDS, render_prop
from model.synth.surfaces import FIELD_MM, SURFACES, render_surface, surface_by_name
from model.synth.surfaces import TRAINING_ONLY as TRAINING_ONLY_SURFACES
from model.synth.types import Prop, Surface

SIZES = [(160, 120), (224, 320)]


def test_surface_names_are_unique_and_some_are_held_out():
    names = [s.name for s in SURFACES]
    assert len(names) == len(set(names)) >= 12
    held_out = [s for s in SURFACES if s.split == "test"]
    assert len(held_out) >= 3
    train_kinds = {s.kind for s in SURFACES if s.split == "train"}
    assert all(s.kind not in train_kinds for s in held_out), "held-out kinds must be new kinds"


def test_surface_by_name_finds_each_and_names_the_unknown():
    for s in SURFACES:
        assert surface_by_name(s.name) is s
    with pytest.raises(KeyError, match="'formica-pink'"):
        surface_by_name("formica-pink")
    with pytest.raises(KeyError):
        render_surface(Surface("nowhere", "wood", "train"), 0, (64, 64))


@pytest.mark.parametrize("surface", SURFACES, ids=lambda s: s.name)
def test_surface_renders_textured_and_deterministic(surface):
    for w, h in SIZES:
        img = render_surface(surface, 0, (w, h))
        assert img.shape == (h, w, 3) and img.dtype == np.uint8
        assert img.std() > 2.0, "a table surface is never perfectly flat"
        assert np.array_equal(img, render_surface(surface, 0, (w, h)))
    a, b = render_surface(surface, 1, SIZES[0]), render_surface(surface, 2, SIZES[0])
    assert not np.array_equal(a, b)
    assert np.abs(a.astype(int) - b.astype(int)).mean() > 1.0


def test_surface_refuses_a_tiny_frame():
    with pytest.raises(ValueError, match=r"\(4, 4\)"):
        render_surface(SURFACES[0], 0, (4, 4))


# Real sizes on the table, in mm: (min, max) of the longer and the shorter side.
PLAUSIBLE = {
    "score-pad": ((130, 210), (85, 135)),
    "phone": ((135, 170), (60, 85)),
    "cup": ((100, 170), (100, 170)),
    "hand": ((170, 290), (80, 180)),
    "pen": ((120, 180), (6, 16)),
    "coaster": ((80, 120), (80, 120)),
    "glasses-case": ((140, 175), (45, 75)),
    "snack-bowl": ((100, 170), (100, 170)),
    "dice": ((30, 90), (20, 60)),
    "printed-page": ((200, 300), (95, 220)),
    "keyboard": ((250, 320), (100, 130)),
}


def test_prop_kinds_cover_the_table_clutter():
    assert {"score-pad", "phone", "cup", "hand", "pen", "coaster", "glasses-case"} <= set(
        PROP_KINDS
    )
    assert set(PLAUSIBLE) == set(PROP_KINDS)
    with pytest.raises(KeyError, match="'teapot'"):
        render_prop("teapot", np.random.default_rng(0))


@pytest.mark.parametrize("kind", PROP_KINDS)
def test_prop_renders_as_a_sized_rgba_object(kind):
    for seed in range(2):
        prop = render_prop(kind, np.random.default_rng(seed))
        assert isinstance(prop, Prop) and prop.kind == kind
        rgba = prop.rgba
        assert rgba.ndim == 3 and rgba.shape[2] == 4 and rgba.dtype == np.uint8
        alpha = rgba[..., 3]
        assert (alpha > 0).mean() > 0.05
        assert 0 in alpha, "alpha is 0 outside the object"
        assert ((alpha > 0) & (alpha < 255)).any(), "edges are anti-aliased"
        (lo_long, hi_long), (lo_short, hi_short) = PLAUSIBLE[kind]
        long, short = max(prop.size_mm), min(prop.size_mm)
        assert lo_long <= long <= hi_long and lo_short <= short <= hi_short, prop.size_mm
        h, w = rgba.shape[:2]
        assert abs(w / h - prop.size_mm[0] / prop.size_mm[1]) < 0.05 * w / h


@pytest.mark.parametrize("kind", PROP_KINDS)
def test_prop_is_deterministic_for_a_seed_and_varies_between_seeds(kind):
    a = render_prop(kind, np.random.default_rng(7))
    b = render_prop(kind, np.random.default_rng(7))
    c = render_prop(kind, np.random.default_rng(8))
    assert np.array_equal(a.rgba, b.rgba) and a.size_mm == b.size_mm
    assert a.rgba.shape != c.rgba.shape or not np.array_equal(a.rgba, c.rgba)


def test_hand_enters_from_the_bottom_edge():
    for seed in range(4):
        hand = render_prop("hand", np.random.default_rng(seed))
        assert hand.edge
        alpha = hand.rgba[..., 3]
        assert (alpha[-1] > 200).sum() > 0.2 * alpha.shape[1], "the forearm leaves at the bottom"
        assert alpha[0].max() == 0 and alpha[:, 0].max() == 0 and alpha[:, -1].max() == 0
    assert not render_prop("cup", np.random.default_rng(0)).edge


def test_surfaces_added_for_training_never_lie_under_a_test_scene():
    from model.synth.scene import _pools
    from model.synth.surfaces import TRAINING_ONLY

    def drawn(split: str) -> set[str]:
        rng = np.random.default_rng(5)
        return {_pools(rng, split, "both")[2].name for _ in range(400)}

    added = {surface.name for surface in TRAINING_ONLY}
    assert added <= drawn("train")
    assert not added & drawn("test")


def test_designs_added_for_training_never_lie_in_a_test_scene():
    from model.synth.faces import TRAINING_ONLY_STYLES
    from model.synth.scene import _pools

    def drawn(split: str) -> set[str]:
        rng = np.random.default_rng(6)
        decks = ("standard", "special")
        return {s.name for _ in range(600) for deck in decks for s in _pools(rng, split, deck)[1]}

    added = {style.name for style in TRAINING_ONLY_STYLES}
    assert len(added) >= 5 and added <= drawn("train")
    assert not added & drawn("test")


def test_a_see_through_top_repeats_a_hole_every_few_millimetres():
    # its holes, at the scale of an index's strokes, are what the held-out lace taught us
    surface = surface_by_name("mesh-see-through")
    assert surface in TRAINING_ONLY_SURFACES and surface.split == "train"
    px_per_mm = 1536 / FIELD_MM
    for variant in range(6):
        grey = render_surface(surface, variant, (1536, 1152))[320:832, 512:1024].mean(axis=2)
        power = np.abs(np.fft.fftshift(np.fft.fft2(grey - grey.mean()))) ** 2
        yy, xx = np.indices(power.shape) - 256
        radius = np.hypot(yy, xx)
        power[radius < 8] = 0  # shading and solid patches, not the lattice
        peak = np.unravel_index(np.argmax(power), power.shape)
        period_mm = 512 / radius[peak] / px_per_mm
        assert 0.8 * 2.0 * 0.866 <= period_mm <= 1.25 * 8.0, (variant, period_mm)
        assert power[peak] > 1e6 * np.median(power[radius >= 8]), "a regular lattice, not noise"


def test_printed_pages_lie_on_training_tables_alone():
    from model.synth.props import TRAINING_ONLY_PROPS, prop_kinds

    assert "printed-page" in TRAINING_ONLY_PROPS
    assert prop_kinds("train") == PROP_KINDS
    # the test split draws the chances of the kinds it always drew, in their order, so its
    # scenes render as they did before a training prop was added
    assert prop_kinds("test") == tuple(k for k in PROP_KINDS if k not in TRAINING_ONLY_PROPS)
    assert "printed-page" not in prop_kinds("test")
    assert "keyboard" in TRAINING_ONLY_PROPS and "keyboard" not in prop_kinds("test")


def test_a_printed_page_holds_lines_of_small_type():
    for seed in range(4):
        page = render_prop("printed-page", np.random.default_rng(seed))
        grey = page.rgba[..., :3].mean(axis=2)
        inked = (grey < 140) & (page.rgba[..., 3] > 250)
        assert 0.01 < inked.mean() < 0.3, seed
        # rows of type: the inked share of each pixel row rises and falls line by line
        rows = inked.mean(axis=1)
        rises = np.count_nonzero(np.diff((rows > 0.02).astype(np.int8)) == 1)
        assert rises >= 8, (seed, rises)
