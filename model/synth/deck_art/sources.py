"""Which printed deck designs Debian installs as SVG, what each is called here, and which of
them the renderer uses.

Two packages ship complete decks: ``kdegames-card-data-kf5`` (one folder per deck under
``/usr/share/carddecks/``, ``svg-NAME/NAME.svgz``) and ``gnome-cards-data`` (AisleRiot's
themes, ``/usr/share/aisleriot/cards/NAME.svgz``). Every card is one element of the SVG, named
by id: ``king_heart`` / ``1_spade`` / ``red_joker`` in the KDE decks, ``heart_king`` /
``spade_1`` / ``joker_red`` in AisleRiot's.

Only designs that print the indices this project reads are used (``DESIGNS``): A 2–10 J Q K
with French suit signs, red and black, one index in the top-left corner and the same turned in
the bottom-right one. ``LEFT_OUT`` says why each other design is not.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

KDE_ROOT = Path("/usr/share/carddecks")
GNOME_ROOT = Path("/usr/share/aisleriot/cards")
KDE_PACKAGE = "kdegames-card-data-kf5"
GNOME_PACKAGE = "gnome-cards-data"
PACKAGES = (KDE_PACKAGE, GNOME_PACKAGE)

# Installed designs the renderer leaves out, and why: other suits or court letters than the
# classes the recogniser reads, or corner indices this code cannot label. Checked by eye on the
# contact sheet (`python -m model.synth.deck_art --all --sheet FILE.png`).
LEFT_OUT = {
    "kde-xskat-german": "German suits, skat ranks",
    "gnome-swiss-xvii": "Swiss suits",
    "gnome-tarocco": "Italian tarot",
    "gnome-atlasnye": "Russian court letters",
    "gnome-atlasnye-skat": "Russian court letters, skat ranks",
    "gnome-atlasnye-ru": "Russian court letters",
    "gnome-slavic-costumes": "Russian ace and court letters",
    "gnome-berlin": "German court letters (B D K)",
    "gnome-lattmann": "German court letters (B D K)",
    "gnome-rheinland": "German court letters (B D K)",
    "gnome-ancient-french": "French ranks (1 V D R)",
    "gnome-anglo-modern-4-color": "four suit colours (no red and black)",
    "gnome-neoclassical-4-color": "four suit colours (no red and black)",
    "gnome-guyenne-classic": "courts print no index",
    "gnome-bellot": "courts' indices run into large suit signs",
    "gnome-tango-nuevo": "indices run off the corner",
    "kde-ancient-egyptians": "second index printed upright",
    "kde-future": "no corner index",
    "gnome-dondorf": "indices at all four corners (a face's labels name two)",
    "kde-dondorf": "indices at all four corners (a face's labels name two)",
    "kde-oxygen": "rank and suit sign at different corners",
    "kde-oxygen-air": "rank and suit sign at different corners",
    "kde-oxygen-white": "rank and suit sign at different corners",
    "kde-konqi-modern": "librsvg cannot draw it (no page size)",
    "kde-xskat-french": "librsvg cannot draw it (no page size)",
}

# The designs the renderer draws, with the width their cards are drawn at (FACE_HEIGHT = 350
# px tall), measured once on their king of spades: the layout needs every card's size before
# any card is rasterised.
DESIGNS = {
    "gnome-anglo": 225,
    "gnome-anglo-bitmap": 225,
    "gnome-anglo-modern": 233,
    "gnome-anglo-poker": 251,
    "gnome-gnomangelo": 226,
    "gnome-gnomangelo-bitmap": 226,
    "gnome-neoclassical": 235,
    "gnome-orell": 210,
    "gnome-ornamental": 258,
    "gnome-paris": 225,
    "gnome-plastic": 252,
    "gnome-simplistic": 226,
    "gnome-tango": 259,
    "gnome-tigullio": 232,
    "kde-gm-paris": 225,
    "kde-jolly-royal": 262,
    "kde-nicu-ornamental": 258,
    "kde-nicu-white": 258,
    "kde-penguins": 263,
    "kde-standard": 259,
    "kde-tigullio-international": 232,
}

# Designs never drawn in training scenes: a test run may draw them, so its figures measure
# designs the recogniser has never seen. Chosen by name among those whose index typeface no
# other design shares (the Anglo, Dondorf/Paris and Nicu families stay whole in training).
HELD_OUT = (
    "gnome-neoclassical",
    "gnome-orell",
    "gnome-plastic",
    "kde-jolly-royal",
    "kde-penguins",
)

# File stems that are not ASCII, spelled out.
_ASCII = {"Атласные": "atlasnye-ru"}

RANK_WORDS = {
    "1": "A",
    "ace": "A",
    **{str(n): str(n) for n in range(2, 11)},
    "jack": "J",
    "queen": "Q",
    "king": "K",
}
SUIT_WORDS = {"heart": "H", "diamond": "D", "club": "C", "spade": "S"}


@dataclass(frozen=True)
class Source:
    """One installed deck design: its name here, its file and how its card ids are spelled."""

    name: str  # "kde-dondorf", "gnome-anglo"
    path: Path
    package: str
    scheme: str  # "kde" (rank_suit) or "gnome" (suit_rank)

    @property
    def split(self) -> str:
        return "test" if self.name in HELD_OUT else "train"

    def element(self, card: str) -> str:
        """The SVG id of card ``card`` (the renderer's name: "KH", "10S", "AC")."""
        rank, suit = card[:-1], card[-1]
        word = {"A": "1", "J": "jack", "Q": "queen", "K": "king"}.get(rank, rank)
        suit_word = {v: k for k, v in SUIT_WORDS.items()}[suit]
        return f"{word}_{suit_word}" if self.scheme == "kde" else f"{suit_word}_{word}"

    def joker_elements(self) -> tuple[str, ...]:
        """Ids a joker may have, red first: the design's own is the first that exists."""
        if self.scheme == "kde":
            return ("red_joker", "black_joker", "joker")
        return ("joker_red", "joker_black", "joker")


def _slug(stem: str) -> str:
    stem = _ASCII.get(stem, stem)
    return stem.lower().replace("_", "-").replace(" ", "-")


def roots() -> tuple[Path, Path]:
    """Where to look: the packages' own folders, or a folder named by HANDFOOT_DECK_SOURCES
    (holding ``carddecks/`` and ``aisleriot/cards/`` laid out as the packages lay them)."""
    base = os.environ.get("HANDFOOT_DECK_SOURCES")
    if base:
        return Path(base) / "carddecks", Path(base) / "aisleriot" / "cards"
    return KDE_ROOT, GNOME_ROOT


def installed() -> list[Source]:
    """Every deck design installed, usable or not, sorted by name."""
    kde, gnome = roots()
    found = []
    if kde.is_dir():
        for folder in sorted(kde.glob("svg-*")):
            for path in sorted(folder.glob("*.svgz")):
                found.append(Source(f"kde-{_slug(folder.name[4:])}", path, KDE_PACKAGE, "kde"))
    if gnome.is_dir():
        for path in sorted(gnome.glob("*.svgz")):
            found.append(Source(f"gnome-{_slug(path.stem)}", path, GNOME_PACKAGE, "gnome"))
    return sorted(found, key=lambda s: s.name)


def usable() -> list[Source]:
    """The installed designs the renderer draws from: those not in ``LEFT_OUT``."""
    return [s for s in installed() if s.name not in LEFT_OUT]
