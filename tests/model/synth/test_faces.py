"""Card faces for the synthetic scenes: every style, every card, honest index quads."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from model.synth.faces import (
    ALL_STYLES,
    CARD_NAMES,
    NONPLAYING_KINDS,
    SPECIAL_STYLES,
    STANDARD_STYLES,
    TRAINING_ONLY_STYLES,
    VARIED_STYLES,
    fonts,
    render_back,
    render_face,
    render_nonplaying,
    style_by_name,
)
from model.synth.faces.glyphs import glyph_mask
from model.synth.faces.styles import design_of
from model.synth.faces.varied import HELD_OUT_FAMILIES, varied_table
from model.synth.types import FACE_HEIGHT, CardStyle

# a spread of cards whose index differs in shape: two-digit, courts, jokers, words, 6 and 9
SAMPLE = {
    "standard": ("AS", "4H", "6C", "9D", "10S", "10H", "QD", "KC", "JK", "JK2"),
    "special": ("1", "6", "9", "10", "12", "LORD", "VILLAIN", "JESTER", "JOKER"),
}


def _ids(styles):
    return [s.name for s in styles]


@pytest.mark.parametrize("style", ALL_STYLES, ids=_ids(ALL_STYLES))
def test_every_card_renders_with_two_indices_in_bounds(style: CardStyle) -> None:
    for name in CARD_NAMES[style.deck]:
        face = render_face(style, name)
        assert face.rgba.shape == (FACE_HEIGHT, style.width, 4)
        assert face.rgba.dtype == np.uint8
        assert face.style == style.name
        alpha = face.rgba[..., 3]
        assert alpha[0, 0] == 0 and alpha[-1, -1] == 0 and alpha[FACE_HEIGHT // 2, 5] == 255
        assert [m.orientation for m in face.indices] == [0, 180]
        for m in face.indices:
            q = m.quad
            assert q.shape == (4, 2) and q.dtype == np.float32
            assert q[:, 0].min() >= 0 and q[:, 0].max() <= style.width
            assert q[:, 1].min() >= 0 and q[:, 1].max() <= FACE_HEIGHT
            assert 8 < np.ptp(q[:, 0]) < style.width / 2 and 8 < np.ptp(q[:, 1]) < FACE_HEIGHT / 2
        top, bottom = (m.quad for m in face.indices)
        # read-order corners: the upright index starts top-left, the turned one bottom-right
        assert tuple(top[0]) == (top[:, 0].min(), top[:, 1].min())
        assert tuple(bottom[0]) == (bottom[:, 0].max(), bottom[:, 1].max())
        assert top[:, 0].max() < style.width / 2 and top[:, 1].max() < FACE_HEIGHT / 2
        assert bottom[:, 0].min() > style.width / 2 and bottom[:, 1].min() > FACE_HEIGHT / 2


def test_card_names_and_codes() -> None:
    std = CARD_NAMES["standard"]
    assert len(std) == 54 and std[0] == "AH" and std[51] == "KS" and std[52:] == ("JK", "JK2")
    assert CARD_NAMES["special"] == (
        *(str(n) for n in range(1, 13)),
        *("LORD", "LADY", "VILLAIN", "JESTER", "JOKER"),
    )
    s, p = STANDARD_STYLES[0], SPECIAL_STYLES[0]
    expected = {"KH": "KR", "10S": "10B", "3D": "3R", "AC": "AB", "JK": "JK", "JK2": "JK"}
    for name, code in expected.items():
        assert render_face(s, name).code == code
    for name in CARD_NAMES["special"]:
        assert render_face(p, name).code == name
    with pytest.raises(ValueError, match="LORD"):
        render_face(s, "LORD")


def _diff_outside(style: CardStyle, name: str) -> None:
    face = render_face(style, name)
    bare = render_face(style, name, glyphs=False)
    assert [m.quad.tolist() for m in bare.indices] == [m.quad.tolist() for m in face.indices]
    diff = np.any(face.rgba != bare.rgba, axis=2).astype(np.uint8)
    inside = np.zeros_like(diff)
    for m in face.indices:
        cv2.fillConvexPoly(inside, np.round(m.quad).astype(np.int32), 1)
        x0, y0 = np.floor(m.quad.min(0)).astype(int)
        x1, y1 = np.ceil(m.quad.max(0)).astype(int)
        assert diff[y0:y1, x0:x1].sum() > 20, f"{style.name} {name}: no index drawn"
    inside = cv2.dilate(inside, np.ones((3, 3), np.uint8))
    assert not np.any(diff & (1 - inside)), f"{style.name} {name}: ink outside the quads"


@pytest.mark.parametrize("style", ALL_STYLES, ids=_ids(ALL_STYLES))
def test_without_glyphs_only_the_index_quads_change(style: CardStyle) -> None:
    for name in SAMPLE[style.deck]:
        _diff_outside(style, name)


def test_rendering_is_deterministic() -> None:
    cards = [(STANDARD_STYLES[1], "KH"), (STANDARD_STYLES[-1], "JK2"), (SPECIAL_STYLES[0], "LADY")]
    first = [render_face(s, n).rgba.tobytes() for s, n in cards]
    assert first == [render_face(s, n).rgba.tobytes() for s, n in cards]
    render_face.cache_clear()
    assert first == [render_face(s, n).rgba.tobytes() for s, n in cards]
    backs = render_back(SPECIAL_STYLES[1], 3).rgba.tobytes()
    render_back.cache_clear()
    assert backs == render_back(SPECIAL_STYLES[1], 3).rgba.tobytes()


def test_styles_cover_what_real_decks_vary() -> None:
    assert len(STANDARD_STYLES) >= 12 and len(SPECIAL_STYLES) >= 5
    assert sum(s.split == "test" for s in STANDARD_STYLES) >= 3
    assert sum(s.jumbo for s in STANDARD_STYLES) >= 3
    assert {s.width for s in STANDARD_STYLES} == {224, 250}
    assert all(0.1 <= s.glossy <= 0.9 for s in ALL_STYLES)
    assert len({s.name for s in ALL_STYLES}) == len(ALL_STYLES)
    designs = [design_of(s) for s in STANDARD_STYLES]
    assert len({d.suits for d in designs}) >= 4
    assert sum(s.typeface.startswith("Vector") for s in STANDARD_STYLES) >= 2
    assert style_by_name("classic-sans") is STANDARD_STYLES[0]
    with pytest.raises(ValueError, match="no-such-deck"):
        style_by_name("no-such-deck")


def test_held_out_styles_use_unseen_typefaces_suits_and_courts() -> None:
    for deck in (STANDARD_STYLES, SPECIAL_STYLES):
        assert any(s.split == "test" for s in deck)
    train = [s for s in ALL_STYLES if s.split == "train"]
    test = [s for s in ALL_STYLES if s.split == "test"]
    assert not {s.typeface for s in test} & {s.typeface for s in train}
    std_train = [design_of(s) for s in STANDARD_STYLES if s.split == "train"]
    std_test = [design_of(s) for s in STANDARD_STYLES if s.split == "test"]
    assert {d.suits for d in std_test} - {d.suits for d in std_train}
    assert {d.court for d in std_test} - {d.court for d in std_train}


def test_varied_designs_are_for_training_and_draw_nothing_held_out() -> None:
    test = [s for s in ALL_STYLES if s.split == "test"]
    # every held-out typeface belongs to a family the varied designs stay clear of
    assert all(s.typeface.startswith(HELD_OUT_FAMILIES) for s in test)
    assert VARIED_STYLES and set(VARIED_STYLES) <= set(TRAINING_ONLY_STYLES)
    for style in VARIED_STYLES:
        design = design_of(style)
        assert style.split == "train" and style.name.startswith(f"varied-{style.deck}-")
        assert not style.typeface.startswith(HELD_OUT_FAMILIES)
        assert style.typeface in fonts.TYPEFACES or style.typeface.startswith("Vector")
        assert design.suits != "deco" and design.court != "diagonal"
        assert style_by_name(style.name) is style
    assert [s for s, _ in varied_table()] == list(VARIED_STYLES)  # drawn from a fixed seed


def test_varied_designs_vary_what_the_named_ones_hold_together() -> None:
    standard = [s for s in VARIED_STYLES if s.deck == "standard"]
    special = [s for s in VARIED_STYLES if s.deck == "special"]
    assert len(standard) >= 20 and len(special) >= 12
    assert len({s.typeface for s in VARIED_STYLES}) >= 15
    assert {s.jumbo for s in standard} == {True, False} == {s.jumbo for s in special}
    designs = [design_of(s) for s in standard]
    assert {d.layout for d in designs} == {"stack", "stack-left", "beside"}
    assert len({d.rank_cap for d in designs}) >= 12 and len({d.red for d in designs}) >= 4
    assert {d.word_corner for d in map(design_of, special)} == {"abbr", "word", "vertical"}
    named = {(s.typeface, design_of(s).layout) for s in ALL_STYLES if s not in VARIED_STYLES}
    assert {(s.typeface, design_of(s).layout) for s in standard} - named


def test_some_varied_designs_stack_the_suit_sign_far_under_the_rank() -> None:
    # many printed decks leave half the rank's height between rank and suit sign; the named
    # designs never leave a quarter
    named = [design_of(s) for s in STANDARD_STYLES if s not in VARIED_STYLES]
    assert max(d.gap / d.rank_cap for d in named) < 0.25
    gapped = [(s, design_of(s)) for s in VARIED_STYLES]
    gapped = [(s, d) for s, d in gapped if d.gap >= 0.25 * d.rank_cap]
    assert len(gapped) >= 6 and max(d.gap / d.rank_cap for _, d in gapped) > 0.5
    assert all(d.layout in ("stack", "stack-left") for _, d in gapped)
    # the suit sign really is drawn that far under the rank: the index is that much taller
    style, design = max(gapped, key=lambda pair: pair[1].gap)
    quad = render_face(style, "9H").indices[0].quad
    assert np.ptp(quad[:, 1]) >= design.rank_cap + design.gap + 0.8 * design.suit_h


def test_training_designs_print_indices_as_narrow_as_a_bridge_decks() -> None:
    # a bridge-size deck's Queen is half as wide as it is tall; the named designs of the test
    # split never go below 0.88 of a typeface's width
    test_split = [design_of(s).x_scale for s in ALL_STYLES if s not in TRAINING_ONLY_STYLES]
    standard = [design_of(s).x_scale for s in VARIED_STYLES if s.deck == "standard"]
    assert min(test_split) >= 0.85 and sum(x < 0.7 for x in standard) >= 3
    assert min(standard) >= 0.6
    bridge = style_by_name("bridge-classic")
    assert bridge in TRAINING_ONLY_STYLES and bridge.typeface == "Vector Bridge"
    # its Queen: narrower than the serif's, its tail reaching further below the bowl
    serif, narrow = (glyph_mask("Q", face, 60) for face in ("Vector Serif", "Vector Bridge"))
    assert narrow.shape[1] < 0.8 * serif.shape[1] and narrow.shape[0] > serif.shape[0]
    assert (glyph_mask("K", "Vector Bridge", 60) > 0).sum() < (
        glyph_mask("K", "Vector Serif", 60) > 0
    ).sum()


def _index_crop(style: CardStyle, name: str) -> np.ndarray:
    face = render_face(style, name)
    q = face.indices[0].quad
    x0, y0 = q.min(0).astype(int)
    x1, y1 = q.max(0).astype(int)
    grey = face.rgba[y0:y1, x0:x1, :3].mean(axis=2).astype(np.float32)
    return cv2.resize(grey, (32, 48), interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize("pair", [("6", "9"), ("A", "4"), ("3", "5"), ("7", "9")])
def test_look_alike_ranks_have_different_indices(pair: tuple[str, str]) -> None:
    for style in STANDARD_STYLES:
        a, b = (_index_crop(style, r + "S") for r in pair)
        assert np.abs(a - b).mean() > 8, f"{style.name}: {pair} look the same"
    for style in SPECIAL_STYLES:
        if pair[0].isdigit() and pair[1].isdigit():
            a, b = (_index_crop(style, r) for r in pair)
            assert np.abs(a - b).mean() > 8, f"{style.name}: {pair} look the same"


@pytest.mark.parametrize("style", ALL_STYLES, ids=_ids(ALL_STYLES))
def test_backs_and_box_cards_have_no_index(style: CardStyle) -> None:
    for variant in range(4):
        back = render_back(style, variant)
        assert back.indices == () and back.code is None
        assert back.rgba.shape == (FACE_HEIGHT, style.width, 4)
    for kind in NONPLAYING_KINDS[style.deck]:
        card = render_nonplaying(style, kind)
        assert card.indices == () and card.code is None
        assert card.rgba.shape == (FACE_HEIGHT, style.width, 4)
    assert render_back(style, 0).rgba.tobytes() != render_back(style, 1).rgba.tobytes()
    with pytest.raises(ValueError, match="coupon"):
        render_nonplaying(style, "coupon")


def test_missing_fonts_fall_back_and_never_fail() -> None:
    assert isinstance(fonts.missing(), list)
    assert fonts.missing(dirs=()) == sorted(fonts.TYPEFACES)
    assert fonts.resolve("DejaVu Serif Bold", dirs=()) == "Vector Serif"
    assert fonts.resolve("URW Gothic Demi", dirs=()) == "Vector Sans"
    unknown = CardStyle("homemade", "standard", "train", "No Such Typeface", jumbo=True)
    face = render_face(unknown, "10H")
    assert face.code == "10R" and len(face.indices) == 2
    mask = fonts.text_mask("Vector Sans", "VILLAIN", 20)
    assert mask.shape[0] >= 19 and mask.max() == 255
