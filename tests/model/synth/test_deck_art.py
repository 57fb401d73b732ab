"""Printed deck designs (Debian's SVG decks) as card faces: the card ids of both packages, the
index quads found on the rasterised cards, the cache, scenes drawing them (labels that agree
with the pixels, the same bytes for the same seed) and the fallback where they are missing."""

import logging

import cv2
import numpy as np
import pytest

from model.synth.deck_art import cache, corners, faces, raster
from model.synth.deck_art.sources import DESIGNS, HELD_OUT, LEFT_OUT, Source, installed
from model.synth.faces import render_face, style_by_name
from model.synth.scene import _with_art, check_styles, render_scene
from model.synth.types import FACE_HEIGHT

# The smallest of the used designs, with its own jokers: rasterised in a few seconds.
DESIGN = "gnome-simplistic"
STYLE = faces.PREFIX + DESIGN
SMALL = (640, 480)


def _installed(name: str) -> bool:
    return raster.tool() is not None and any(s.name == name for s in installed())


needs_art = pytest.mark.skipif(
    not _installed(DESIGN),
    reason="printed decks are not installed here: apt-get install librsvg2-bin "
    "kdegames-card-data-kf5 gnome-cards-data (make model installs them as root)",
)


def test_card_ids_in_each_packages_spelling():
    kde = Source("kde-x", None, "kdegames-card-data-kf5", "kde")  # type: ignore[arg-type]
    gnome = Source("gnome-x", None, "gnome-cards-data", "gnome")  # type: ignore[arg-type]
    assert [kde.element(c) for c in ("KH", "AS", "10D", "JC")] == [
        "king_heart",
        "1_spade",
        "10_diamond",
        "jack_club",
    ]
    assert [gnome.element(c) for c in ("QH", "AC", "7S")] == ["heart_queen", "club_1", "spade_7"]


def test_held_out_designs_are_used_designs_and_left_out_ones_are_not():
    assert set(HELD_OUT) <= set(DESIGNS) and len(HELD_OUT) == 5
    assert not set(LEFT_OUT) & set(DESIGNS)
    for name in DESIGNS:
        style = style_by_name(faces.PREFIX + name)
        assert style.deck == "standard" and style.split == ("test" if name in HELD_OUT else "train")
    with pytest.raises(ValueError, match=r"held out|not installed"):
        check_styles((faces.PREFIX + HELD_OUT[0],), "train", "standard")
    for split in ("train", "test"):  # what a scene of each split draws from
        drawn = {s.name.removeprefix(faces.PREFIX) for s in faces.available_for(split)}
        assert drawn <= (set(HELD_OUT) if split == "test" else set(DESIGNS) - set(HELD_OUT))


def test_art_is_drawn_for_the_share_asked_never_twice_in_a_scene():
    pool = [style_by_name(faces.PREFIX + n) for n in list(DESIGNS)[:6]]
    procedural = [style_by_name(n) for n in ("classic-sans", "casino-serif", "narrow-jumbo")]
    special = style_by_name("hnf-round")
    rng = np.random.default_rng(1)
    import model.synth.scene as scene

    original = scene.available_for
    scene.available_for = lambda split: tuple(pool)
    try:
        drawn = [_with_art(rng, procedural, "train", 0.4) for _ in range(400)]
        assert [s for s in _with_art(rng, [special], "train", 1.0)] == [special]
        assert _with_art(rng, procedural, "train", 0.0) == procedural
    finally:
        scene.available_for = original
    art = [s for scene_styles in drawn for s in scene_styles if faces.is_art(s)]
    assert 0.35 < len(art) / (3 * len(drawn)) < 0.45
    assert all(len(set(styles)) == len(styles) for styles in drawn)


@needs_art
@pytest.mark.parametrize("card", ["AH", "3S", "10D", "QC", "KH", "7S", "JD"])
def test_a_rasterised_card_shows_its_index_inside_each_labelled_quad(card):
    face = render_face(style_by_name(STYLE), card)
    rgba = np.asarray(face.rgba)
    assert face.code == card[:-1] + ("R" if card[-1] in "HD" else "B")
    assert rgba.shape[:2] == (FACE_HEIGHT, style_by_name(STYLE).width)
    ink = corners.ink_mask(rgba, corners.paper_colour(rgba))
    red = card[-1] in "HD"
    for mark in face.indices:
        x0, y0 = mark.quad.min(axis=0).astype(int)
        x1, y1 = np.ceil(mark.quad.max(axis=0)).astype(int)
        inside = ink[y0:y1, x0:x1]
        assert inside.mean() > 0.08, (card, mark.orientation)
        # the quad holds whole glyphs: every blob of ink in it no larger than the index lies
        # in it, all but the anti-aliased edge (a picture's frame beside it may run on)
        _, blobs = cv2.connectedComponents(ink.astype(np.uint8), connectivity=8)
        for blob in set(np.unique(blobs[y0:y1, x0:x1])) - {0}:
            ys, xs = np.nonzero(blobs == blob)
            if np.ptp(ys) < y1 - y0 and np.ptp(xs) < x1 - x0:
                within = (ys >= y0) & (ys < y1) & (xs >= x0) & (xs < x1)
                assert within.mean() > 0.97, (card, mark.orientation)
        pixels = rgba[y0:y1, x0:x1, :3][inside].astype(int)
        if red:
            assert (pixels[:, 0] - pixels[:, 1]).mean() > 60, card
        else:
            assert pixels.max(axis=1).mean() < 110, card
    top, bottom = (m.quad for m in face.indices)
    assert [m.orientation for m in face.indices] == [0, 180]
    assert top[:, 1].max() < FACE_HEIGHT / 3 < 2 * FACE_HEIGHT / 3 < bottom[:, 1].min()
    # reading order: the turned index's first corner is its bottom-right one on the face
    assert bottom[0, 0] > bottom[2, 0] and bottom[0, 1] > bottom[2, 1]


@needs_art
def test_without_glyphs_only_the_quads_change_and_no_index_ink_is_left():
    style = style_by_name(STYLE)
    for card in ("5H", "KS", "JK", "JK2"):
        on, off = render_face(style, card), render_face(style, card, glyphs=False)
        changed = np.abs(on.rgba.astype(int) - off.rgba.astype(int)).max(axis=2) > 0
        inside = np.zeros(changed.shape, np.uint8)
        for mark in on.indices:
            cv2.fillConvexPoly(inside, np.round(mark.quad).astype(np.int32), 1)
        assert changed.any() and not (changed & (inside == 0)).any(), card
        ink = corners.ink_mask(off.rgba, corners.paper_colour(off.rgba))
        assert ink[inside == 1].mean() < 0.02, card


@needs_art
def test_the_cache_is_kept_by_design_and_size_and_drawn_once(tmp_path, monkeypatch):
    monkeypatch.setenv("HANDFOOT_DECK_ART", str(tmp_path))
    source = next(s for s in installed() if s.name == DESIGN)
    index = cache.build(source, 140)
    folder = tmp_path / f"{DESIGN}-h140"
    assert cache.folder(source, 140) == folder and (folder / "cards.json").is_file()
    assert index["height"] == 140 and len(index["cards"]) >= 52
    assert sum(e["quads"] is not None for e in index["cards"].values()) >= 48  # small: a few lost
    torn = [p for p in folder.iterdir() if p.name.startswith(".") and p.name != ".lock"]
    assert not torn  # every file written whole, through a temporary name
    card = cache.load_card(source, 140, index["cards"]["QH"])
    assert card.shape == (140, index["width"], 4)

    def refuse(*_args, **_kwargs):
        raise AssertionError("drawn again")

    monkeypatch.setattr(raster, "_render", refuse)
    assert cache.build(source, 140) == index


def _labels_agree_with_pixels(with_glyphs, without) -> None:
    changed = np.abs(with_glyphs.image.astype(int) - without.image.astype(int)).max(axis=2) > 8
    inside = np.zeros(changed.shape, np.uint8)
    for card in with_glyphs.labels["cards"]:
        for mark in card["indices"]:
            quad = np.round(np.array(mark["quad"]) * 16).astype(np.int32)
            cv2.fillConvexPoly(inside, quad, 1, shift=4)
            if mark["visible"]:
                one = np.zeros(changed.shape, np.uint8)
                cv2.fillConvexPoly(one, quad, 1, shift=4)
                assert np.count_nonzero(changed & (one == 1)) > 0, card["code"]
    grown = cv2.dilate(inside, np.ones((5, 5), np.uint8))
    assert np.count_nonzero(changed & (grown == 0)) == 0


@needs_art
@pytest.mark.slow
@pytest.mark.parametrize("layout", ["training", "side"])
def test_a_scene_of_printed_cards_has_labels_that_agree_with_its_pixels(layout):
    kwargs = {
        "deck": "standard",
        "styles": (STYLE,),
        "size": SMALL,
        "photographic": False,
        "layout": layout,
    }
    for index in range(3):
        with_glyphs = render_scene(31, index, **kwargs)
        assert {c["style"] for c in with_glyphs.labels["cards"]} == {STYLE}
        assert with_glyphs.labels["styles"] == [STYLE]
        _labels_agree_with_pixels(with_glyphs, render_scene(31, index, glyphs=False, **kwargs))


@needs_art
@pytest.mark.slow
def test_a_scene_of_printed_cards_is_the_same_for_the_same_seed():
    kwargs = {"deck": "standard", "styles": (STYLE,), "size": SMALL}
    first = [render_scene(12, index, **kwargs) for index in range(3)]
    faces.forget()  # drawn again from the cache, not from memory
    again = [render_scene(12, index, **kwargs) for index in range(3)]
    assert [s.jpeg for s in first] == [s.jpeg for s in again]
    assert [s.labels for s in first] == [s.labels for s in again]


@pytest.mark.slow
def test_without_the_packages_scenes_draw_procedural_faces_and_say_so_once(
    tmp_path, monkeypatch, caplog
):
    monkeypatch.setenv("HANDFOOT_DECK_SOURCES", str(tmp_path))  # an empty install
    faces.forget()
    try:
        with caplog.at_level(logging.WARNING, logger="model.synth.deck_art.faces"):
            scenes = [render_scene(4, i, deck="standard", size=SMALL, art=1.0) for i in range(3)]
        plain = [render_scene(4, i, deck="standard", size=SMALL) for i in range(3)]
    finally:
        monkeypatch.delenv("HANDFOOT_DECK_SOURCES")
        faces.forget()
    assert [s.labels for s in scenes] == [s.labels for s in plain]
    assert [s.jpeg for s in scenes] == [s.jpeg for s in plain]
    warnings = [r for r in caplog.records if "printed deck designs unused" in r.getMessage()]
    assert len(warnings) == 1


def test_a_run_names_its_share_and_the_printed_decks_it_may_draw(cli, tmp_path):
    from model.synth.dataset import RunSpec, _run_description

    assert "art" not in _run_description(RunSpec(3), 10)  # a run as it always was
    training = _run_description(RunSpec(3, art=0.4), 10)
    assert training["art"] == 0.4
    names = [s.name for s in faces.available_for("train")]
    assert training.get("art_designs", []) == names
    assert "art_designs" not in _run_description(RunSpec(3, deck="special", art=0.4), 10)
    bad = cli("synth", "--out", tmp_path, "--art", "1.5")
    assert bad.code != 0 and "--art" in bad.err
