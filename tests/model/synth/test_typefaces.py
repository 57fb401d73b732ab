"""Index typefaces found in the font packages and the designs printed in them: every found
typeface draws an index, families never straddle the split, a design stays as drawn, the special
deck's mixed case, drawn inks and one-corner layouts, and scenes that draw them."""

import json
from dataclasses import replace

import numpy as np
import pytest

from model.synth.faces import fonts, render_face, style_by_name, typefaces, typeset
from model.synth.faces.special import colour_of
from model.synth.faces.styles import design_of
from model.synth.scene import _with_typeset, check_styles, render_scene

SMALL = (640, 480)


def _found(split: str) -> tuple[typefaces.Typeface, ...]:
    faces = typefaces.for_split(split)
    if not faces:
        pytest.skip(
            f"no {split} typefaces found here beyond the named ones (make model installs them)"
        )
    return faces


def test_every_found_typeface_draws_each_character_an_index_prints():
    for face in _found("train")[:12] + _found("test")[:12]:
        assert fonts.resolve(face.name) == face.name  # drawn from its own file, no fallback
        for text in ("10", "Q", "Lord", "JOKER", "Vi"):
            mask = fonts.text_mask(face.name, text, 30)
            assert mask.max() > 0 and mask.shape[0] >= 20, (face.name, text)


def test_a_family_and_its_kin_fall_on_one_side_and_the_named_designs_keep_theirs():
    faces = typefaces.discovered()
    sides: dict[str, set[str]] = {}
    for face in faces:
        sides.setdefault(face.family.split()[0].lower(), set()).add(face.split)
    assert all(len(s) == 1 for kin, s in sides.items() if kin not in ("dejavu", "urw")), sides
    for face in faces:
        full = f"{face.family} {face.style}"
        if full.startswith(("FreeSans", "P052", "URW Gothic", "DejaVu Serif Condensed")):
            assert face.split == "test", full
        elif face.family in typefaces.NAMED_TRAINING:
            assert face.split == "train", full
    assert [f.name for f in faces] == sorted(f.name for f in faces)


def test_slanted_thin_and_symbol_fonts_are_left_out():
    for face in typefaces.discovered():
        words = f"{face.family} {face.style}".lower()
        assert not any(w in words for w in ("italic", "oblique", "thin", "symbol", "keyboard"))
        assert face.family not in typefaces.SKIPPED_FAMILIES, face.family


def test_a_typeset_design_is_its_typefaces_own_whatever_else_is_installed():
    face = _found("train")[0]
    style, design = typeset._design(face, "special")
    assert (style, design) == typeset._design(face, "special")
    assert style.typeface == face.name and style.split == "train" and style.deck == "special"
    assert style_by_name(style.name) == style and design_of(style) == design
    check_styles((style.name,), "train", "special")
    held = _found("test")[0]
    held_style = typeset._design(held, "standard")[0]
    with pytest.raises(ValueError, match="held out"):
        check_styles((held_style.name,), "train", "standard")


def _special_style():
    face = _found("train")[0]
    return typeset._design(face, "special")


def test_words_in_mixed_case_change_the_word_cards_index_and_nothing_else():
    style, design = _special_style()
    upper = replace(design, word_case="upper", corners=2)
    title = replace(design, word_case="title", corners=2)
    from model.synth.faces.special import special_face

    lord_upper, _ = special_face(style, upper, "LORD", True)
    lord_title, _ = special_face(style, title, "LORD", True)
    seven_upper, _ = special_face(style, upper, "7", True)
    seven_title, _ = special_face(style, title, "7", True)
    assert not np.array_equal(lord_upper, lord_title)
    assert np.array_equal(seven_upper, seven_title)


def test_one_corner_designs_label_and_print_the_top_left_index_only():
    style, design = _special_style()
    one = replace(design, corners=1)
    from model.synth.faces.special import special_face

    inked, marks = special_face(style, one, "9", True)
    bare, _ = special_face(style, one, "9", False)
    assert [m.orientation for m in marks] == [0]
    h, w = inked.shape[:2]
    assert np.array_equal(inked[h // 2 + 60 :, w // 2 + 40 :], bare[h // 2 + 60 :, w // 2 + 40 :])
    assert not np.array_equal(inked[: h // 5, : w // 3], bare[: h // 5, : w // 3])
    two, _ = special_face(style, replace(design, corners=2), "9", True)
    assert not np.array_equal(two[h // 2 + 60 :, w // 2 + 40 :], bare[h // 2 + 60 :, w // 2 + 40 :])


def test_drawn_inks_are_given_to_the_ranks_in_turn():
    _, design = _special_style()
    hues = ((10, 20, 30), (200, 40, 40))
    drawn = replace(design, colours="drawn", hues=hues)
    assert [colour_of(drawn, n) for n in ("1", "2", "3", "LORD")] == [
        hues[0],
        hues[1],
        hues[0],
        hues[12 % 2],
    ]


def test_scenes_draw_typeset_designs_of_their_split_for_the_share_asked():
    _found("test")
    _found("train")
    held = render_scene(5, 0, split="test", deck="special", size=SMALL, typefaces=1.0)
    assert held.labels["styles"] and all(
        n.startswith(typeset.PREFIX) for n in held.labels["styles"]
    )
    assert all(style_by_name(n).split == "test" for n in held.labels["styles"])
    plain = render_scene(5, 0, split="test", deck="special", size=SMALL)
    assert not any(n.startswith(typeset.PREFIX) for n in plain.labels["styles"])
    # the rest of the scene is drawn from the same numbers: the same table, seen the same way
    assert plain.labels["surface"] == held.labels["surface"]
    assert plain.labels["camera"] == held.labels["camera"]
    again = render_scene(5, 0, split="test", deck="special", size=SMALL, typefaces=1.0)
    assert again.jpeg == held.jpeg
    rng = np.random.default_rng(0)
    picked = [style_by_name("classic-sans"), style_by_name("hnf-bold")]
    trained = _with_typeset(rng, picked, "train", 1.0)
    assert all(s.split == "train" and s.name.startswith(typeset.PREFIX) for s in trained)
    assert [s.deck for s in trained] == ["standard", "special"]
    assert _with_typeset(rng, picked, "train", 0.0) == picked


def test_a_run_names_its_typeface_share_and_refuses_a_share_out_of_range(cli, tmp_path):
    out = tmp_path / "run"
    made = cli("synth", "--out", out, "--count", "1", "--size", "320x240",
               "--split", "test", "--typefaces", "0.5", "--quiet")  # fmt: skip
    assert made.code == 0
    run = json.loads((out / "run.json").read_text())
    assert run["typefaces"] == 0.5 and run["typeface_count"] == len(typefaces.discovered())
    bad = cli("synth", "--out", tmp_path / "x", "--typefaces", "1.5")
    assert bad.code != 0 and "--typefaces must be a share from 0 to 1" in bad.err


def test_a_found_typeface_renders_a_whole_face():
    style, _ = typeset._design(_found("train")[0], "standard")
    face = render_face(style, "QH")
    assert face.code == "QR" and len(face.indices) == 2


def test_eval_counts_scenes_of_held_out_typefaces_as_held_out_designs():
    from model.evaluate.scenes import held_out_styles

    held = held_out_styles()
    assert typeset._design(_found("test")[0], "special")[0].name in held
    assert typeset._design(_found("train")[0], "special")[0].name not in held
