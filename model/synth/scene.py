"""One synthetic overhead photograph of a Hand and Foot table, with exact labels.

>>> scene = render_scene(7, size=(640, 480))  # doctest: +SKIP
>>> scene.image.shape, scene.labels["cards"][0]["code"]  # doctest: +SKIP
((480, 640, 3), 'KR')
"""

from __future__ import annotations

import dataclasses
import functools
import zlib
from collections.abc import Callable, Sequence

import cv2
import numpy as np

from model.synth import effects
from model.synth.camera import Camera, apply_homography, sample_camera, stand_camera
from model.synth.clutter import (
    BACK_VARIANTS,
    NONPLAYING,
    NONPLAYING_VARIANTS,
    plan_clutter,
    plan_tidy_clutter,
)
from model.synth.compose import Canvas, placement_matrix, prepare_mips
from model.synth.deck_art.faces import available_for, is_art
from model.synth.faces import (
    ALL_STYLES,
    TRAINING_ONLY_STYLES,
    VARIED_STYLES,
    render_back,
    render_face,
    render_nonplaying,
    style_by_name,
)
from model.synth.faces.typeset import styles_for
from model.synth.labels import SCHEMA_ID, camera_label, card_label, object_label
from model.synth.layout import (
    MM_PER_FACE_PX,
    Layout,
    ObjectSpot,
    card_outlines,
    card_size_mm,
    plan_leftovers,
    plan_side,
    plan_table,
    plan_teach,
)
from model.synth.props import PROP_KINDS, prop_kinds, render_prop
from model.synth.surfaces import (
    FIELD_MM,
    SURFACES,
    TRAINING_ONLY,
    render_surface,
    surface_by_name,
)
from model.synth.types import CardStyle, Surface

SPLITS = ("train", "test")
DECKS = ("standard", "special", "both")
# "training": busy tables with players on every side (the recogniser's data); "side": one
# side's melds as a camera on a stand above them sees them; "leftovers": a hand's cards spread
# out for counting.
LAYOUTS = ("training", "side", "leftovers", "teach")
TEXTURE_SIZE = (1536, 1152)  # the table texture, drawn once per surface and variant
TEXTURE_PX_PER_MM = TEXTURE_SIZE[0] / FIELD_MM  # the surfaces draw FIELD_MM across a texture
HELD_OUT_SHARE = 0.6  # in test scenes, how often the held-out designs are used
VARIED_SHARE = 0.5  # in training scenes, how often the varied designs are (faces/varied.py)
# A training run's share of standard-deck designs drawn as a printed deck (model/synth/deck_art:
# Debian's SVG decks) instead of a procedural one, as `handfoot synth` draws it; a scene drawn
# without ``art=`` (the simulated camera, the tests) and a test run draw none unless asked.
ART_SHARE = 0.4
# A training run's share of designs (both decks) drawn as a typeset design: one printed in a
# typeface found in the font packages (faces/typeset.py); a test run draws none unless asked, and
# then only held-out typefaces.
TYPESET_SHARE = 0.3


class Scene:
    """A rendered frame and its labels. ``image`` is the frame as a camera would deliver it
    ((h, w, 3) uint8 RGB); ``jpeg`` the same frame as a file (None when ``photographic`` was
    off). The JPEG is decoded only when ``image`` is asked for: writing a data set never is."""

    def __init__(self, image: np.ndarray | None, jpeg: bytes | None, labels: dict) -> None:
        self._image, self.jpeg, self.labels = image, jpeg, labels

    @property
    def image(self) -> np.ndarray:
        if self._image is None:
            self._image = effects.decode_jpeg(self.jpeg)
        return self._image


def scene_rng(
    seed: int, index: int, split: str, deck: str, layout: str = "training"
) -> np.random.Generator:
    key = [seed, index, SPLITS.index(split), DECKS.index(deck)]
    if layout != "training":  # training scenes keep the keys they always had
        key += [0, LAYOUTS.index(layout)]
    return np.random.default_rng(np.random.SeedSequence(key))


def shot_rng(
    seed: int, index: int, split: str, deck: str, shot: int, layout: str = "training"
) -> np.random.Generator:
    """The generator of a later shot's photographic effects; shot 0 uses the scene's own."""
    key = [seed, index, SPLITS.index(split), DECKS.index(deck), shot]
    if layout != "training":  # shot is 1 or more here, so never a scene's key
        key.append(LAYOUTS.index(layout))
    return np.random.default_rng(np.random.SeedSequence(key))


def art_rng(
    seed: int, index: int, split: str, deck: str, layout: str = "training"
) -> np.random.Generator:
    """The generator that picks a scene's printed decks: its own, so the rest of the scene is
    drawn from the same numbers whether or not printed decks are installed or asked for."""
    key = [seed, index, SPLITS.index(split), DECKS.index(deck), LAYOUTS.index(layout), 0xA27]
    return np.random.default_rng(np.random.SeedSequence(key))


def default_art(split: str) -> float:
    """The share of printed decks a run of ``split`` draws unless told otherwise."""
    return ART_SHARE if split == "train" else 0.0


def default_typefaces(split: str) -> float:
    """The share of typeset designs a run of ``split`` draws unless told otherwise."""
    return TYPESET_SHARE if split == "train" else 0.0


def typeset_rng(
    seed: int, index: int, split: str, deck: str, layout: str = "training"
) -> np.random.Generator:
    """The generator that picks a scene's typeset designs: its own, as :func:`art_rng`."""
    key = [seed, index, SPLITS.index(split), DECKS.index(deck), LAYOUTS.index(layout), 0x7E7]
    return np.random.default_rng(np.random.SeedSequence(key))


def _swapped(
    rng: np.random.Generator,
    picked: list[CardStyle],
    share: float,
    pool_for: Callable[[CardStyle], Sequence[CardStyle]],
) -> list[CardStyle]:
    """Each design of ``picked`` turned, with probability ``share``, into one of
    ``pool_for(design)`` (none: kept), never the same one twice. Two draws a design whatever
    happens, so the designs after it are drawn alike."""
    out: list[CardStyle] = []
    for style in picked:
        left = [s for s in pool_for(style) if s not in out] if share > 0 else []
        draw, pick = rng.random(), rng.integers(1 << 30)
        if left and draw < share:
            style = left[int(pick) % len(left)]
        out.append(style)
    return out


def _with_typeset(
    rng: np.random.Generator, picked: list[CardStyle], split: str, share: float
) -> list[CardStyle]:
    """Each procedural design of ``picked`` turned, with probability ``share``, into a typeset
    design of its deck and of ``split`` (held-out typefaces in a test scene), never twice."""
    return _swapped(
        rng, picked, share, lambda style: () if is_art(style) else styles_for(split, style.deck)
    )


def _with_art(
    rng: np.random.Generator, picked: list[CardStyle], split: str, share: float
) -> list[CardStyle]:
    """Each standard design of ``picked`` turned, with probability ``share``, into a printed
    deck of ``split`` (held-out ones in a test scene), never the same one twice."""
    pool = available_for(split) if share > 0 else ()
    return _swapped(rng, picked, share, lambda style: pool if style.deck == "standard" else ())


def _later_light(rng: np.random.Generator, light: effects.Light) -> effects.Light:
    """The same lamp seconds later, as the camera meters it: exposure and white balance
    wander a little; where the light falls (field, glare, shadows) does not move."""
    return dataclasses.replace(
        light,
        gains=(light.gains * rng.uniform(0.98, 1.02, 3)).astype(np.float32),
        exposure=light.exposure * float(rng.uniform(0.97, 1.03)),
    )


def _pools(
    rng: np.random.Generator,
    split: str,
    deck: str,
    only: tuple[str, ...] = (),
    tables: tuple[str, ...] = (),
) -> tuple[str, list[CardStyle], Surface]:
    chosen = deck if deck != "both" else ("special" if rng.random() < 0.3 else "standard")
    held_out = split == "test" and rng.random() < HELD_OUT_SHARE
    wanted = "test" if held_out else "train"
    # a training scene draws its decks from the named designs or, as often, the varied ones
    varied = split == "train" and rng.random() < VARIED_SHARE
    styles = [
        s
        for s in ALL_STYLES
        if s.deck == chosen
        and s.split == wanted
        and (split == "train" or s not in TRAINING_ONLY_STYLES)
        and (s in VARIED_STYLES) == varied
    ]
    count = min(len(styles), int(rng.choice([1, 1, 1, 2, 2, 3])))
    picked = [styles[i] for i in rng.choice(len(styles), size=count, replace=False)]
    surfaces_wanted = "test" if split == "test" and rng.random() < HELD_OUT_SHARE else "train"
    surfaces = [
        s
        for s in SURFACES
        if s.split == surfaces_wanted and (split == "train" or s not in TRAINING_ONLY)
    ]
    drawn = int(rng.integers(len(surfaces)))
    surface = surfaces[drawn]
    if tables:  # the surfaces asked for, from the same draw: the rest of the scene stays as it was
        surface = surface_by_name(tables[drawn % len(tables)])
    if only:  # the designs asked for, as many as would have been drawn
        named = [s for s in ALL_STYLES if s.name in only]
        named += [style_by_name(name) for name in only if name.startswith(("art-", "type-"))]
        picked = [
            named[i] for i in rng.choice(len(named), size=min(count, len(named)), replace=False)
        ]
    return chosen, picked, surface


def check_surfaces(names: tuple[str, ...], split: str) -> None:
    """Refuses surfaces a run of ``split`` may not draw alone: unknown ones, held-out ones in a
    training run, training-only ones in a test run."""
    for name in names:
        surface = surface_by_name(name)
        if split == "train" and surface.split == "test":
            raise ValueError(f"{name} is held out for test scenes: a training run never draws it")
        if split == "test" and surface in TRAINING_ONLY:
            raise ValueError(f"{name} was added for training: a test run never draws it")


def check_styles(names: tuple[str, ...], split: str, deck: str) -> None:
    """Refuses designs a run of ``split`` and ``deck`` may not draw alone: unknown ones, designs
    of another deck, held-out designs in a training run, training-only ones in a test run."""
    for name in names:
        style = style_by_name(name)
        if is_art(style) and not any(s.name == name for s in available_for(style.split)):
            raise ValueError(f"{name} is a printed deck that is not installed here")
        if style.deck != deck:
            raise ValueError(
                f"{name} is a design of the {style.deck} deck: use --deck {style.deck}"
            )
        if split == "train" and style.split == "test":
            raise ValueError(f"{name} is held out for test scenes: a training run never draws it")
        if split == "test" and style in TRAINING_ONLY_STYLES:
            raise ValueError(f"{name} was added for training: a test run never draws it")


# Textures per surface: training sees more of each surface's variety (colours, scales,
# patterns); the test split keeps the two its figures were first measured on.
TRAIN_LOOKS, TEST_LOOKS = 12, 2
PROP_VARIANTS = 8  # props are drawn once per variant and cached: a hand takes ~0.1 s


@functools.lru_cache(maxsize=256)
def _prop(kind: str, variant: int):
    return render_prop(kind, np.random.default_rng([zlib.crc32(kind.encode()), variant]))


@functools.lru_cache(maxsize=48)
def _texture(surface: Surface, variant: int) -> np.ndarray:
    rgb = render_surface(surface, variant, TEXTURE_SIZE)
    return np.dstack([rgb, np.full(rgb.shape[:2], 255, np.uint8)])  # RGBA, as the canvas is


def _table(rng: np.random.Generator, surface: Surface, camera: Camera, looks: int) -> np.ndarray:
    """The table as the camera sees it: one of the surface's first ``looks`` textures (cached),
    turned, scaled, shifted and tinted."""
    texture = _texture(surface, int(rng.integers(looks)))
    # Stretch the pattern a little, and more for wide views, so mirrored edges stay rare.
    seen_mm = np.ptp(camera.visible_table(), axis=0).max()
    scale = max(rng.uniform(0.8, 1.25), 0.7 * seen_mm / FIELD_MM) / TEXTURE_PX_PER_MM
    angle = np.radians(rng.uniform(0, 360))
    c, s = np.cos(angle) * scale, np.sin(angle) * scale
    w, h = TEXTURE_SIZE
    shift = rng.uniform(-0.2, 0.2, 2) * np.array([w, h]) * scale
    to_table = np.array([[c, -s, shift[0]], [s, c, shift[1]], [0, 0, 1]]) @ np.array(
        [[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]]
    )
    frame = cv2.warpPerspective(
        texture,
        camera.homography @ to_table,
        (camera.width, camera.height),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REFLECT_101,
    )
    tint = np.append(rng.uniform(0.85, 1.12, 3), 1.0)
    levels = np.arange(256, dtype=np.float32)[:, None] * tint[None, :]
    lut = np.clip(levels, 0, 255).astype(np.uint8).reshape(256, 1, 4)
    return cv2.LUT(frame, lut)


def _in_view(camera: Camera):
    """Draws table points that the frame shows, away from its border."""
    inverse = np.linalg.inv(camera.homography)
    size = np.array([camera.width, camera.height])

    def draw(rng: np.random.Generator) -> np.ndarray:
        return apply_homography(inverse, rng.uniform(0.1, 0.9, 2) * size)[0]

    return draw


def _frame_edges(camera: Camera) -> list[tuple[np.ndarray, np.ndarray]]:
    """For each side of the frame: a random-free point (its middle) on the table and the
    outward direction, so hands can reach in from any border."""
    w, h = camera.width, camera.height
    inverse = np.linalg.inv(camera.homography)
    edges = []
    for inside, outside in (
        ((w / 2, 0), (w / 2, -50)),
        ((w / 2, h), (w / 2, h + 50)),
        ((0, h / 2), (-50, h / 2)),
        ((w, h / 2), (w + 50, h / 2)),
    ):
        a, b = apply_homography(inverse, np.array([inside, outside]))
        direction = (b - a) / np.linalg.norm(b - a)
        edges.append((a, direction))
    return edges


@functools.lru_cache(maxsize=4096)
def _index_reach(style: CardStyle, name: str) -> np.ndarray:
    """Where the face's top-left index ends, mm from its top-left corner (the face the painter
    will draw, so the cache serves both)."""
    face = render_face(style, name, glyphs=True)
    return face.indices[0].quad.max(axis=0).astype(np.float64) * MM_PER_FACE_PX


@functools.lru_cache(maxsize=32)
def _prop_reach(kind: str) -> float:
    """How far a prop of ``kind`` may reach from its centre, any variant turned any way."""
    return max(0.5 * float(np.hypot(*_prop(kind, v).size_mm)) for v in range(PROP_VARIANTS))


def _plan_tidy(
    rng: np.random.Generator,
    layout: str,
    deck: str,
    styles: list[CardStyle],
    size: tuple[int, int] | None,
) -> tuple[Layout, Camera, effects.Light]:
    """A side's table or a hand's leftovers, the camera on a stand that shows all of it, its
    light, and a few things beside the cards."""
    plan = {"side": plan_side, "leftovers": plan_leftovers, "teach": plan_teach}[layout]
    table = plan(rng, styles, deck, _index_reach)
    camera = stand_camera(rng, size, np.vstack(card_outlines(table)))
    light = effects.sample_light(rng, camera.width, camera.height, camera.px_per_mm)
    area = camera.visible_table(margin_px=0.05 * max(camera.width, camera.height))
    plan_tidy_clutter(rng, table, area, styles, _prop_reach)
    return table, camera, light


def render_scene(
    seed: int,
    index: int = 0,
    *,
    split: str = "train",
    deck: str = "both",
    size: tuple[int, int] | None = None,
    photographic: bool = True,
    glyphs: bool = True,
    shot: int = 0,
    layout: str = "training",
    styles: tuple[str, ...] = (),
    surfaces: tuple[str, ...] = (),
    art: float = 0.0,
    typefaces: float = 0.0,
) -> Scene:
    """Render scene ``index`` of the run seeded ``seed``. ``photographic=False`` leaves out
    light, blur, noise and JPEG (the labels are the same); ``glyphs=False`` draws every card
    without its corner indices. Both exist so tests can check the labels against the pixels.

    ``shot`` photographs the same table again: the same cards in the same places seen by the
    same camera, with fresh sensor noise, JPEG, lens blur and a slightly different exposure
    (a simulated camera's repeated captures). Shot 0 is the scene as it always was.

    ``layout`` (one of ``LAYOUTS``) says what lies on the table. ``"training"``: players on
    one to four sides, many groups, cards off the frame, props over them. ``"side"``: one
    side's table at the end of a deal, 3–8 legal melds of distinct ranks and its red threes,
    seen whole from a stand above with every top-left index readable. ``"leftovers"``: 3–15
    cards of any rank spread out for counting, every index readable. ``"teach"``: a whole deck
    laid out in rows to teach it, in one design (``scanner/decks/layouts.py``). Their labels
    name the layout; scene ``index`` of one layout has nothing to do with the same index of another.

    ``styles`` (names of card designs, all of ``deck``) draws the cards from those designs alone,
    for a run that teaches them: the rest of the scene is drawn as the run would draw it;
    ``surfaces`` (names of table surfaces) the same for the table.

    ``art`` is the share of the scene's standard designs drawn as printed decks (Debian's SVG
    decks, ``model.synth.deck_art``; a training run draws ``ART_SHARE``): a training scene
    draws the training ones, a test scene the held-out ones. Where none are installed the
    scene draws its procedural designs, and the log says so once.

    ``typefaces`` is the share of the scene's procedural designs (both decks) drawn as typeset
    designs (``faces/typeset.py``: printed in the typefaces the font packages offer, the special
    deck's words in either case, its inks and corners drawn), of the scene's split."""
    if split not in SPLITS or deck not in DECKS:
        raise ValueError(f"split must be one of {SPLITS} and deck one of {DECKS}")
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}, not {layout!r}")
    check_styles(styles, split, deck)
    check_surfaces(surfaces, split)
    if shot < 0:
        raise ValueError(f"shot must be 0 or more, not {shot}")
    rng = scene_rng(seed, index, split, deck, layout)
    if not 0.0 <= art <= 1.0:
        raise ValueError(f"art must be a share from 0 to 1, not {art}")
    if not 0.0 <= typefaces <= 1.0:
        raise ValueError(f"typefaces must be a share from 0 to 1, not {typefaces}")
    chosen_deck, designs, surface = _pools(rng, split, deck, styles, surfaces)
    if not styles:
        designs = _with_art(art_rng(seed, index, split, deck, layout), designs, split, art)
        typeset = typeset_rng(seed, index, split, deck, layout)
        designs = _with_typeset(typeset, designs, split, typefaces)
    if layout == "training":
        camera = sample_camera(rng, size)
        light = effects.sample_light(rng, camera.width, camera.height, camera.px_per_mm)
        area = camera.visible_table(margin_px=0.12 * max(camera.width, camera.height))
        table = plan_table(rng, area, designs, chosen_deck, _in_view(camera))
        plan_clutter(rng, table, area, _frame_edges(camera), designs, prop_kinds(split))
    else:
        table, camera, light = _plan_tidy(rng, layout, chosen_deck, designs, size)
    canvas = Canvas(_table(rng, surface, camera, TRAIN_LOOKS if split == "train" else TEST_LOOKS))
    painter = _Painter(rng, canvas, camera, light if photographic else None, glyphs)
    drawn = [painter.object(spot) for spot in table.objects_below]
    laid = painter.cards(table)
    drawn += [painter.object(spot) for spot in table.objects_above]
    # Labels wait for the last object: later ones hide parts of earlier ones.
    cards = [card_label(canvas.ids, *card, deck=chosen_deck) for card in laid]
    objects = [object_label(*item, canvas.ids) for item in drawn if item is not None]
    labels = {
        "schema": SCHEMA_ID,
        "seed": seed,
        "index": index,
        "split": split,
        "width": camera.width,
        "height": camera.height,
        "deck": chosen_deck,
        "styles": [style.name for style in designs],
        "surface": surface.name,
        "camera": camera_label(camera),
        "cards": cards,
        "melds": [
            {"id": group.id, "kind": group.kind, "cards": group.cards} for group in table.groups
        ],
        "objects": objects,
    }
    if layout != "training":  # training labels stay as they always were
        labels["layout"] = layout
    if not photographic:
        return Scene(canvas.rgb, None, labels)
    if shot:
        # Its own generator, so a later shot leaves everything drawn above untouched.
        rng = shot_rng(seed, index, split, deck, shot, layout)
        light = _later_light(rng, light)
    rgb = effects.apply_light(canvas.rgba[..., :3].astype(np.float32), light)
    rgb = effects.apply_lens(rng, rgb, camera.px_per_mm)
    rgb = effects.apply_sensor(rng, rgb)
    return Scene(None, effects.encode_jpeg(rng, rgb), labels)


class _Painter:
    """Draws a layout's objects in order and labels them from the finished id map."""

    CARD_LIFT_MM = 0.4

    def __init__(self, rng, canvas: Canvas, camera: Camera, light, glyphs: bool) -> None:
        self.rng, self.canvas, self.camera, self.light, self.glyphs = (
            rng,
            canvas,
            camera,
            light,
            glyphs,
        )
        self.next_id = 1

    def _shadow(self, lift_mm: float, blur_mm: float):
        if self.light is None:
            return None
        dx, dy = self.light.shadow
        ppm = self.camera.px_per_mm
        return (dx * lift_mm, dy * lift_mm, max(0.5, blur_mm * ppm))

    def _draw(self, rgba, size_mm, centre, angle, *, convex, lift_mm, glossy=0.0):
        h, w = rgba.shape[:2]
        homography = self.camera.homography @ placement_matrix((w, h), size_mm, centre, angle)
        object_id = self.next_id
        self.next_id += 1
        drawn = self.canvas.draw(
            rgba,
            homography,
            object_id=object_id,
            convex=convex,
            shadow=self._shadow(lift_mm, 0.3 + lift_mm * 0.15),
            glare=None if self.light is None else self.light.glare,
            glossy=glossy,
        )
        return object_id, homography, drawn

    def _card(self, face, spot):
        """Anything card-shaped, face up or down: the style gives its size and gloss."""
        return self._draw(
            face.rgba,
            card_size_mm(spot.style),
            spot.centre,
            spot.angle,
            convex=True,
            lift_mm=self.CARD_LIFT_MM,
            glossy=spot.style.glossy,
        )

    def cards(self, layout: Layout) -> list[tuple]:
        """Draw the face-up cards in order; returns what each card's label needs."""
        laid = []
        for card_id, spot in enumerate(layout.cards):
            face = render_face(spot.style, spot.name, glyphs=self.glyphs)
            object_id, homography, _ = self._card(face, spot)
            laid.append((object_id, face, homography, card_id, spot.group, spot.name))
        return laid

    def object(self, spot: ObjectSpot) -> tuple | None:
        """Draw one non-card object; returns what its label needs, or None if out of view."""
        if spot.kind == "back" or spot.kind.startswith("nonplaying:"):
            if spot.kind == "back":
                face, kind = render_back(spot.style, spot.variant), "card-back"
            else:
                sub = spot.kind.split(":", 1)[1]
                face = render_nonplaying(spot.style, sub, spot.variant)
                kind = sub if sub.endswith("card") else f"{sub}-card"
            object_id, _, drawn = self._card(face, spot)
            return None if drawn.box is None else (kind, drawn.quad, object_id, True)
        prop = _prop(spot.kind, int(self.rng.integers(PROP_VARIANTS)))
        lift = {"cup": 60.0, "glasses-case": 25.0, "phone": 6.0, "hand": 30.0}.get(spot.kind, 2.0)
        object_id, _, drawn = self._draw(
            prop.rgba, prop.size_mm, spot.centre, spot.angle, convex=False, lift_mm=lift
        )
        return None if drawn.box is None else (prop.kind, drawn.quad, object_id, False)


def warm_up() -> float:
    """Draw every face, table texture and prop variant once, so later scenes only compose.
    Returns the seconds it took (a bulk run or a benchmark pays this once per process)."""
    import time

    from model.synth.faces import CARD_NAMES

    started = time.perf_counter()
    for style in ALL_STYLES:
        for name in CARD_NAMES[style.deck]:
            # The painter's exact call, so this is the cache entry it will find.
            prepare_mips(render_face(style, name, glyphs=True).rgba)
        for variant in range(BACK_VARIANTS):
            render_back(style, variant)
        for kind in NONPLAYING[style.deck]:
            for variant in range(NONPLAYING_VARIANTS):
                render_nonplaying(style, kind, variant)
    for surface in SURFACES:
        for variant in range(2):
            _texture(surface, variant)
    for kind in PROP_KINDS:
        for variant in range(PROP_VARIANTS):
            _prop(kind, variant)
    return time.perf_counter() - started
