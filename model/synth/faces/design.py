"""How a deck is drawn beyond what :class:`CardStyle` says: the details every design sets."""

from __future__ import annotations

from dataclasses import dataclass

from .draw import Color

WHITE: Color = (249, 248, 244)
BRIGHT: Color = (252, 252, 250)
CREAM: Color = (244, 237, 218)
IVORY: Color = (247, 243, 231)


@dataclass(frozen=True)
class Design:
    """How a deck is drawn, beyond what :class:`CardStyle` says."""

    stock: Color = WHITE
    mottle: float = 2.0  # low-frequency paper unevenness (grey levels)
    grain: float = 2.5  # per-pixel print/paper noise (sigma)
    radius: int = 14  # corner radius in px
    border: str = "none"  # "none", "line", "double"
    border_inset: int = 6
    border_color: Color = (60, 60, 70)
    red: Color = (206, 28, 40)
    black: Color = (24, 24, 28)
    suits: str = "classic"
    rank_cap: int = 30  # cap height of the index rank
    suit_h: int = 20  # height of the pip under (or beside) the rank
    layout: str = "stack"  # "stack", "stack-left", "beside"
    gap: int = 4  # between rank and pip
    margin: tuple[int, int] = (9, 11)  # x, y from the card's edge to the index
    x_scale: float = 1.0  # horizontal squeeze of the index glyphs
    ten_tracking: float = 0.02  # gap between the 1 and the 0 of "10" (fraction of cap)
    weight: float = 1.0  # stroke weight of vector typefaces
    pips: str = "classic"  # "classic", "compact", "big-center"
    pip_h: int = 40
    ace: str = "plain"  # "plain", "ornate"
    court: str = "classic"  # "classic", "modern", "diagonal"
    palette: str = "classic"
    jokers: tuple[str, str] = ("jester", "star")  # centre art of JK and JK2
    joker_index: tuple[str, str] = ("vertical", "star")
    backs: tuple[str, ...] = ("lattice", "rings", "dots")
    # special deck only
    colours: str = "rainbow"  # "rainbow", "duo", "mono", "drawn" (``hues``, in turn)
    hues: tuple[Color, ...] = ()  # the inks of "drawn" colours, given to the ranks in turn
    word_corner: str = "abbr"  # "abbr", "word", "vertical"
    word_case: str = "upper"  # "upper" (LORD, LO) or "title" (Lord, Lo)
    corners: int = 2  # corner indices printed: 2 (top left and bottom right) or 1 (top left)
    underline69: bool = False
    centre: str = "ring"  # "ring", "plain", "band"
    text_face: str = "DejaVu Sans"  # running text of non-playing cards
