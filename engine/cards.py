"""Cards in the notation of RULES.md §6, for the standard decks and the special "Hand 'N Foot" deck.

A card is a rank and, for the standard deck's ranks that have one, a colour. The game never
needs the suit, so suit letters are accepted on input and folded into their colour.

>>> Card.from_code("QH")
Card('QR')
>>> Card.from_code("lady", Deck.SPECIAL)
Card('LADY')
>>> [c.code for c in parse_cards("8r, 8S 2d jk")]
['8R', '8B', '2R', 'JK']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from engine.errors import UnknownCardError


class Deck(Enum):
    STANDARD = "standard"
    SPECIAL = "special"

    @property
    def title(self) -> str:
        return {
            Deck.STANDARD: "standard deck",
            Deck.SPECIAL: "special Hand 'N Foot deck",
        }[self]


class Colour(Enum):
    RED = "R"
    BLACK = "B"


class Rank(Enum):
    """Every rank of both decks. The value is the rank's token in the notation."""

    # Standard deck.
    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    JOKER = "JK"
    # The special deck: numbers 1–12 replace 4 to King, plus five named cards.
    N1 = "S1"
    N2 = "S2"
    N3 = "S3"
    N4 = "S4"
    N5 = "S5"
    N6 = "S6"
    N7 = "S7"
    N8 = "S8"
    N9 = "S9"
    N10 = "S10"
    N11 = "S11"
    N12 = "S12"
    LORD = "LORD"
    LADY = "LADY"
    VILLAIN = "VILLAIN"
    JESTER = "JESTER"
    SPECIAL_JOKER = "JOKER"

    @property
    def deck(self) -> Deck:
        return Deck.SPECIAL if self in _SPECIAL_RANKS else Deck.STANDARD

    @property
    def token(self) -> str:
        """The rank as written in the notation: ``K``, ``10``, ``JK``, ``7`` (special), ``LORD``."""
        return self.value.removeprefix("S") if self.name.startswith("N") else self.value

    @property
    def has_colour(self) -> bool:
        return self.deck is Deck.STANDARD and self is not Rank.JOKER

    @property
    def is_wild(self) -> bool:
        return self in _WILD_RANKS

    @property
    def is_meldable_natural(self) -> bool:
        """A natural card that can form an ordinary meld (threes and the special deck's
        Villains and Ladies cannot)."""
        return not self.is_wild and self not in _NEVER_MELDED

    @property
    def plural(self) -> str:
        return _PLURALS.get(self, f"{self.token}s")


_SPECIAL_RANKS = frozenset(
    [Rank[f"N{n}"] for n in range(1, 13)]
    + [Rank.LORD, Rank.LADY, Rank.VILLAIN, Rank.JESTER, Rank.SPECIAL_JOKER]
)
_WILD_RANKS = frozenset({Rank.TWO, Rank.JOKER, Rank.JESTER, Rank.SPECIAL_JOKER})
_NEVER_MELDED = frozenset({Rank.THREE, Rank.LADY, Rank.VILLAIN})
_PLURALS = {
    Rank.ACE: "aces",
    Rank.TWO: "twos",
    Rank.THREE: "threes",
    Rank.FOUR: "fours",
    Rank.FIVE: "fives",
    Rank.SIX: "sixes",
    Rank.SEVEN: "sevens",
    Rank.EIGHT: "eights",
    Rank.NINE: "nines",
    Rank.TEN: "tens",
    Rank.JACK: "jacks",
    Rank.QUEEN: "queens",
    Rank.KING: "kings",
    Rank.JOKER: "jokers",
    Rank.LORD: "Lords",
    Rank.LADY: "Ladies",
    Rank.VILLAIN: "Villains",
    Rank.JESTER: "Jesters",
    Rank.SPECIAL_JOKER: "Jokers",
}

_SUIT_COLOURS = {"R": Colour.RED, "B": Colour.BLACK, "H": Colour.RED, "D": Colour.RED}
_SUIT_COLOURS |= {"C": Colour.BLACK, "S": Colour.BLACK}

_STANDARD_RANKS_BY_TOKEN = {r.token: r for r in Rank if r.deck is Deck.STANDARD}
_SPECIAL_RANKS_BY_TOKEN = {r.token: r for r in _SPECIAL_RANKS}
_SPECIAL_RANKS_BY_TOKEN |= {
    "LO": Rank.LORD,
    "LA": Rank.LADY,
    "VI": Rank.VILLAIN,
    "JE": Rank.JESTER,
    "JK": Rank.SPECIAL_JOKER,
}
_SEPARATORS = re.compile(r"[\s,]+")


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card: a rank and, for standard ranks other than the joker, a colour."""

    rank: Rank
    colour: Colour | None = None

    def __post_init__(self) -> None:
        if self.rank.has_colour != (self.colour is not None):
            needs = "needs" if self.rank.has_colour else "has no"
            raise ValueError(f"the rank {self.rank.token} {needs} a colour")

    @classmethod
    def from_code(cls, token: str, deck: Deck = Deck.STANDARD) -> Card:
        """Parse one token (case-insensitive; suit letters mean their colour)."""
        text = token.strip().upper()
        if deck is Deck.SPECIAL:
            return cls._special_from_code(token, text)
        return cls._standard_from_code(token, text)

    @classmethod
    def _standard_from_code(cls, token: str, text: str) -> Card:
        if text == "JK":
            return cls(Rank.JOKER)
        rank = _STANDARD_RANKS_BY_TOKEN.get(text[:-1])
        colour = _SUIT_COLOURS.get(text[-1:])
        if rank is None or rank is Rank.JOKER or colour is None:
            hint = ""
            if text in _STANDARD_RANKS_BY_TOKEN:
                hint = "a rank needs its colour, R or B: KR, 10B"
            elif text in _SPECIAL_RANKS_BY_TOKEN:
                hint = "it belongs to the special Hand 'N Foot deck"
            raise UnknownCardError(token, Deck.STANDARD.title, hint)
        return cls(rank, colour)

    @classmethod
    def _special_from_code(cls, token: str, text: str) -> Card:
        rank = _SPECIAL_RANKS_BY_TOKEN.get(text)
        if rank is None:
            hint = "its cards are 1–12, LORD, LADY, VILLAIN, JESTER and JOKER"
            raise UnknownCardError(token, Deck.SPECIAL.title, hint)
        return cls(rank)

    @property
    def code(self) -> str:
        """The canonical token: ``KR``, ``10B``, ``JK``; special deck ``7``, ``LORD``."""
        return self.rank.token + (self.colour.value if self.colour else "")

    @property
    def deck(self) -> Deck:
        return self.rank.deck

    @property
    def is_wild(self) -> bool:
        return self.rank.is_wild

    @property
    def is_red_three(self) -> bool:
        return self.rank is Rank.THREE and self.colour is Colour.RED

    @property
    def is_black_three(self) -> bool:
        return self.rank is Rank.THREE and self.colour is Colour.BLACK

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code


def parse_cards(text: str, deck: Deck = Deck.STANDARD) -> tuple[Card, ...]:
    """Parse tokens separated by spaces or commas. Raises :class:`UnknownCardError` naming the
    first bad token and the deck."""
    return tuple(Card.from_code(token, deck) for token in _SEPARATORS.split(text) if token)


def format_cards(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(card.code for card in cards)


def all_cards(deck: Deck) -> tuple[Card, ...]:
    """One card of every distinct code of the deck (both colours of each standard rank)."""
    cards: list[Card] = []
    for rank in Rank:
        if rank.deck is not deck:
            continue
        if rank.has_colour:
            cards.extend(Card(rank, colour) for colour in Colour)
        else:
            cards.append(Card(rank))
    return tuple(cards)
