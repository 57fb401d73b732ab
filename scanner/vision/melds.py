"""A meld's cards share one rank: each card of a meld read again knowing what the rest of the
meld reads (pure numpy).

The classifier reads every index on its own. Where an index is a few pixels across it is often
unsure, and its best guess is another rank of the same shape (a 6 for a 5, a 10 for a LORD),
while the cards around it in the same fan read their rank plainly. On a table, a meld is cards
of one rank and wild cards (RULES.md §1), so those neighbours are strong evidence. The cards of
each meld (``grouping.py``) are read as a small Bayesian model:

- the meld has one natural rank *r*, unknown, one of the deck's ranks that may be melded; each
  of its cards is a natural of *r* (share NATURAL), a wild card (share WILD) or, because
  grouping may join two melds or a player may lay a wrong card, any card of the deck (share
  ANY where two cards lie together, ANY_IN_MELD, less, where three or more were read: a meld
  is three cards or more, and two cards together are as often a hand's mixed cards held in a
  fan; marks read "not an index" and offered as cards make no meld);
- the other cards' class probabilities give how likely each *r* is, the card's own reading
  left out, so that a card never confirms itself;
- that prior, over the card's classes and against every class being as likely, multiplies the
  classifier's probabilities, and the best class wins.

A card the classifier reads at least KEEP_SURE sure keeps its code, so a wrong card laid in a
meld and read plainly stays for the rules to see. A card the meld reads as another code asks
for a check, as a card of a rank nobody expected there may be a player's mistake the rules
should see, and a check is never lifted. A card read as a rank never melded (a three, a Lady
on top of its group, a Villain) keeps its reading, and no card is read into one. "Not an index"
keeps its own probability, so the meld takes no card away. A mark read "not an index" whose
meld makes a card of it the likelier reading is counted, and asks for a check. A frame whose
deck is unknown, and cards without the classifier's probabilities, are left as read.

The shares below were chosen among others that did about as well on the busy validation scenes,
near what the training scenes' labels count (model/experiments/melds.md).
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import replace
from functools import cache

import numpy as np

from engine import Card, Deck
from scanner.vision.cards import CardReading, IndexReading, weighed_reading
from scanner.vision.contract import deck_of
from scanner.vision.grouping import CardGroup, group_cards

# Each chosen in model/experiments/melds.md:
NATURAL = 0.75
WILD = 0.3
ANY = 0.5
# A meld is three cards or more (RULES.md §1): where MELD_SIZE or more are read, any card of
# the deck weighs ANY_IN_MELD instead (given to pairs too, it read a real photo's Queen held
# beside an Ace as the Ace).
ANY_IN_MELD = 0.2
MELD_SIZE = 3
# A card read this sure keeps its code whatever its meld reads, so a wrong card laid in a meld
# and read plainly is left for the rules to see.
KEEP_SURE = 0.9
# A mark read "not an index" is weighed with the meld it lies in when the classifier gives its
# likeliest card at least this much, and counts as a card read at least UNREAD_SURE sure so
# (0.7 found fewer cards for fewer phantoms).
UNREAD_FLOOR = 0.05
UNREAD_SURE = 0.5


@cache
def _ranks(
    classes: tuple[str, ...], deck: str, any_share: float = ANY
) -> tuple[np.ndarray, np.ndarray, frozenset[str]]:
    """For ``deck``: the positions in ``classes`` of its cards, the prior [ranks, cards] a
    meld of each natural rank puts on them (``any_share`` on any card of the deck), and the
    codes of the ranks never melded."""
    positions, ranks, apart = [], [], set()
    for k, code in enumerate(classes):
        if deck_of(code) != deck:  # the other deck's cards, and "not an index"
            continue
        card = Card.from_code(code, Deck(deck))
        positions.append(k)
        ranks.append(None if card.is_wild else card.rank)
        if not card.is_wild and not card.rank.is_meldable_natural:
            apart.add(code)
    # a meld's rank is one of the deck's meldable naturals; a rank never melded gets any_share
    # alone
    naturals = sorted(
        {rank for rank in ranks if rank is not None and rank.is_meldable_natural},
        key=lambda rank: rank.value,
    )
    rank_of = np.array([naturals.index(rank) if rank in naturals else -1 for rank in ranks])
    wild = np.array([rank is None for rank in ranks])
    count = len(positions)
    prior = np.full((len(naturals), count), any_share / count)
    for r in range(len(naturals)):
        own = rank_of == r
        prior[r, own] += NATURAL / own.sum()
        prior[r, wild] += WILD / max(1, wild.sum())
    prior /= prior.sum(axis=1, keepdims=True)
    return np.array(positions), prior, frozenset(apart)


def meld_posteriors(probabilities: np.ndarray, prior: np.ndarray) -> np.ndarray:
    """For each card of one meld (``probabilities``: [n, cards] over the deck's cards, rows
    summing to 1), the prior its meld-mates put on its classes [n, cards]: the meld's rank as
    the others read it, the card's own reading left out."""
    likelihood = np.log(np.maximum(probabilities @ prior.T, 1e-12))  # [n, ranks]
    others = likelihood.sum(axis=0, keepdims=True) - likelihood
    rank = np.exp(others - others.max(axis=1, keepdims=True))
    rank /= rank.sum(axis=1, keepdims=True)
    return rank @ prior


def read_with_melds(
    cards: Sequence[CardReading],
    classes: Sequence[str],
    deck: str | None,
    not_an_index: str,
    min_confidence: float,
    unread: Sequence[IndexReading] = (),
) -> tuple[tuple[CardReading, ...], list[IndexReading], tuple[CardGroup, ...]]:
    """``cards`` with each meld's cards read again with their meld-mates' readings (see the
    module's docstring), in the order given; the marks of ``unread`` (read "not an index")
    that lie in a meld and, weighed with it, read as a card at least ``min_confidence`` sure,
    as those cards (their likeliest card at least UNREAD_FLOOR to start with); and the melds
    the cards were grouped into (with those marks offered as cards), for a caller that looks
    at them again: grouping is most of the time this takes. No melds where ``deck`` is
    None."""
    if deck is None:
        return tuple(cards), [], ()
    positions = _ranks(tuple(classes), deck)[0]
    guesses = []  # (a mark read "not an index", its likeliest card)
    for reading in unread:
        if reading.code != not_an_index or reading.probabilities is None:
            continue
        best = int(positions[np.argmax(reading.probabilities[positions])])
        if reading.probabilities[best] >= UNREAD_FLOOR:
            guess = replace(reading, code=classes[best], confidence=0.0)
            guesses.append((reading, CardReading.from_index(guess, min_confidence)))
    every = [*cards, *(guess for _, guess in guesses)]
    offered = {id(guess) for _, guess in guesses}
    none = list(classes).index(not_an_index)
    kept = {id(card): card for card in every}
    melds = group_cards(every).melds
    for meld in melds:
        kept.update(_read_meld(meld.cards, classes, deck, none, min_confidence, offered))
    found = []
    for reading, guess in guesses:
        card = kept[id(guess)]  # itself where "not an index" stayed the likelier
        if card is not guess and card.confidence >= UNREAD_SURE:
            found.append(replace(reading, code=card.code, confidence=card.confidence))
    return tuple(kept[id(card)] for card in cards), found, melds


def read_as_meld(
    cards: Sequence[CardReading],
    classes: Sequence[str],
    deck: str,
    not_an_index: str,
    min_confidence: float,
) -> tuple[CardReading, ...]:
    """``cards``, known to lie in one meld, each read again with the others' readings (as
    ``read_with_melds`` reads a meld it groups), in the order given."""
    none = list(classes).index(not_an_index)
    again = _read_meld(cards, classes, deck, none, min_confidence)
    return tuple(again.get(id(card), card) for card in cards)


def _read_meld(
    cards: Sequence[CardReading],
    classes: Sequence[str],
    deck: str,
    none: int,
    min_confidence: float,
    offered: Set[int] = frozenset(),
) -> dict[int, CardReading]:
    """Each card of one meld that its mates read, by ``id`` of the card as given; the cards
    whose ``id`` is ``offered`` are marks read "not an index", which make no meld."""
    apart = _ranks(tuple(classes), deck)[2]
    members = [card for card in cards if card.probabilities is not None and card.code not in apart]
    if len(members) < 2:
        return {}
    read = sum(id(card) not in offered for card in members)
    share = ANY_IN_MELD if read >= MELD_SIZE else ANY
    positions, prior, _ = _ranks(tuple(classes), deck, share)
    rows = np.array([card.probabilities for card in members], dtype=np.float64)
    own = rows[:, positions]
    own /= np.maximum(own.sum(axis=1, keepdims=True), 1e-12)
    expected = meld_posteriors(own, prior) * len(positions)
    return {
        id(card): _read_again(card, row, weight, positions, classes, none, min_confidence)
        for card, row, weight in zip(members, rows, expected, strict=True)
    }


def _read_again(
    card: CardReading,
    row: np.ndarray,
    weight: np.ndarray,
    positions: np.ndarray,
    classes: Sequence[str],
    none: int,
    min_confidence: float,
) -> CardReading:
    """``card`` with its probabilities weighed by its meld's prior (``weight``, 1 where the meld
    says nothing), its none kept as read."""
    if card.confidence >= KEEP_SURE:
        return card
    weighed = np.zeros_like(row)
    weighed[positions] = row[positions] * weight
    weighed[none] = row[none]
    return weighed_reading(card, weighed, classes, none, min_confidence)


# A meld is cards of one rank and wild cards (RULES.md §1), and its cards are looked for where
# the fan's step puts them (gaps.py) and read weighed with it. Cards of many ranks laid side by
# side are grouped as a fan too, and their gaps so read: a real photo's 10, King and Ace laid in
# a row had a 9 read on the 10's pips. Only a fan whose naturals read at least the recogniser's
# ``min_confidence`` sure are, more than half of them, of one rank is looked along so
# (model/experiments/gaps.md).
def of_one_rank(cards: Sequence[CardReading], deck: str, sure: float) -> bool:
    """Whether the natural cards of ``cards`` (of ``deck``) read at least ``sure`` sure are,
    more than half of them, of one rank, wild cards aside; true where none are."""
    ranks = []
    for card in cards:
        if card.confidence < sure or deck_of(card.code) != deck:
            continue
        read = Card.from_code(card.code, Deck(deck))
        if not read.is_wild:
            ranks.append(read.rank)
    if not ranks:
        return True
    most = max(ranks.count(rank) for rank in set(ranks))
    return 2 * most > len(ranks)
