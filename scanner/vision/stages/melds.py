"""Stage ``melds``: the cards read knowing that a meld's cards share a rank (``melds.py``),
then the cards a fan's line of indices still hides looked for (``gaps.py``). Only where the
frame's cards may lie in melds (``read(melds=True)``) and the rule ``melds`` is on.

Where the melds moved a code or found a card, the corners are paired again, each index read
as its meld read it: a top card's far corner read as another rank, which two corners read as
two codes never pair, is then paired with its own card's index, and the card counts once.

Along a meld of one rank (``of_one_rank``: cards of many ranks laid in a row are no fan), the
marks read "not an index" and the faint ones read as no card are read as the meld's cards
(rule ``strays``), then the places two or three fan steps apart between two of its cards
(rule ``gaps``): a card read there at least GAP_FLOOR sure, and at least GAP_SURE sure weighed
with its meld, counts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from scanner.vision.cards import CardReading, IndexReading, merge_cards
from scanner.vision.decode import IndexCandidate
from scanner.vision.gaps import STRAY_HEAT, fan_gaps, fan_strays, read_already
from scanner.vision.melds import of_one_rank, read_as_meld, read_with_melds
from scanner.vision.stages.classify import read_places
from scanner.vision.stages.recheck import refined
from scanner.vision.stages.records import FrameContext, Work

NAME = "melds"
GAP_SURE = 0.5  # a card found in a fan counts from this sure, weighed with its meld (gaps.md)
GAP_FLOOR = 0.2  # ... and from this sure as the classifier alone reads it (experiments/gaps.md)


def run(context: FrameContext, work: Work) -> Work:
    if not (context.melds and context.options.melds):
        return work
    cards, melds = with_melds(context, work)
    work = replace(work, cards=cards, melds=melds)
    return replace(work, cards=_fill_gaps(context, work))


def with_melds(context: FrameContext, work: Work) -> tuple[tuple[CardReading, ...], tuple]:
    """The cards read knowing a meld's cards share a rank, with the marks read "not an index"
    that their meld reads as a card (those always ask for a check), paired again where the
    melds moved a code or found a card; and the melds they were read in."""
    c, readings, cards = context.contract, list(work.readings), work.cards
    unread = [reading for reading in readings if reading.code == c.not_an_index]
    read, found, melds = read_with_melds(
        cards, c.classes, work.deck, c.not_an_index, c.min_confidence, unread
    )
    moved = {
        card.index_box: card
        for card, before in zip(read, cards, strict=True)
        if card.code != before.code
    }
    if not found and not moved:
        return read, melds
    # paired again with the found ones and the codes the melds moved; each card keeps what
    # its meld read in it
    read_again = {card.index_box: card for card in read}
    new = {reading.index.index_box() for reading in found}
    as_read = [_meld_read(reading, moved) for reading in readings] if moved else readings
    merged = merge_cards(
        as_read + list(found),
        not_an_index=c.not_an_index,
        min_confidence=c.min_confidence,
        classes=c.classes,
        bounds=work.bounds,
        faint_below=c.peak_threshold,
    )
    return tuple(
        replace(card, check=True)
        if card.index_box in new
        else _as_read(card, read_again.get(card.index_box, card))
        for card in merged
    ), melds


def _meld_read(reading: IndexReading, moved: dict[tuple, CardReading]) -> IndexReading:
    """``reading`` with the code and confidence its meld read in it, where that moved."""
    card = moved.get(reading.index.index_box())
    if card is None:
        return reading
    return replace(reading, code=card.code, confidence=card.confidence)


def _as_read(card: CardReading, read: CardReading) -> CardReading:
    """``card`` with the code and confidence of ``read``, the same index read before, asking
    for a check where either does (paired again, it may now be disputed)."""
    check = read.check or card.check
    return replace(card, code=read.code, confidence=read.confidence, check=check)


def _fill_gaps(context: FrameContext, work: Work) -> tuple[CardReading, ...]:
    """The cards and those read on a meld's line where a mark was read "not an index" or a
    faint one as no card (faint marks of at least STRAY_HEAT, and of at least WALK_HEAT along
    a fan that gained a card so), then between two of a meld's cards that lie two or three fan
    steps apart.

    A mark there may have been read and then taken for another card's (a cascade's indices of
    one rank lie one below the other, as a joker's word down its corner does), so only the
    indices counted as cards keep a place from being read."""
    cards, melds, deck, readings = work.cards, work.melds, work.deck, work.readings
    if deck is None or not melds:
        return cards
    c = context.contract
    marks = {reading.index.index_box(): reading.index for reading in readings}
    counted = [marks[card.index_box] for card in cards if card.index_box in marks]
    counted_codes = [card.code for card in cards if card.index_box in marks]
    # each meld's cards as they are now; a mark still read "not an index" is no step
    latest = {card.index_box: card for card in cards}
    fans = [
        [latest[card.index_box] for card in meld.cards if card.index_box in latest]
        for meld in melds
    ]
    fan_marks = [[marks[card.index_box] for card in fan if card.index_box in marks] for fan in fans]
    melded = [of_one_rank(fan, deck, c.min_confidence) for fan in fans]
    unread = [reading.index for reading in readings if reading.code == c.not_an_index]
    walk = unread + list(work.passed_over)
    unread += [mark for mark in work.passed_over if mark.score >= STRAY_HEAT]
    added: list[CardReading] = []

    def look(
        where: Callable[[int], list[IndexCandidate]],
        read_by: str,
        among: Iterable[int] | None = None,
    ) -> set[int]:
        """Reads the places ``where`` gives each fan (those numbered ``among``, or all); the
        fans that gained a card."""
        places, homes, grown = [], [], set()
        for n in range(len(fans)) if among is None else sorted(among):
            if not melded[n]:
                continue
            found = where(n)
            places += found
            homes += [n] * len(found)
        for home, index, card in _read_places(
            context, work, places, homes, fans, counted, counted_codes, read_by
        ):
            counted.append(index)
            counted_codes.append(card.code)
            fans[home].append(card)
            fan_marks[home].append(index)
            added.append(card)
            grown.add(home)
        return grown

    # The strays first: a card found on a fan's line is a step its gaps are measured by. A fan
    # grown so reaches further along its line, so its strays are looked for again, its fainter
    # marks too (a tight fan of Queens marked only faintly, 90° off, is walked a card at a time).
    options = context.options
    if options.strays:
        off = options.strays_where_they_lie
        grown = look(lambda n: fan_strays(fan_marks[n], unread, counted, off), "strays")
        while grown and options.walk:
            grown = look(lambda n: fan_strays(fan_marks[n], walk, counted, off), "strays", grown)
    if context.options.gaps:
        look(lambda n: fan_gaps(fan_marks[n], counted), "gaps")
    return (*cards, *added)


def _read_places(
    context: FrameContext,
    work: Work,
    places: Sequence[IndexCandidate],
    homes: Sequence[int],
    fans: Sequence[Sequence[CardReading]],
    counted: Sequence[IndexCandidate],
    counted_codes: Sequence[str],
    read_by: str,
) -> list[tuple[int, IndexCandidate, CardReading]]:
    """The cards read at ``places``, each as a card of the fan ``fans[homes[n]]``: read there
    at least GAP_FLOOR sure, at least GAP_SURE sure weighed with that fan, and not one of the
    cards read already (``counted``, read as ``counted_codes``)."""
    if not places:
        return []
    c, deck = context.contract, work.deck
    first = read_places(context, work.image, places, deck, read_by)
    # a place lies where the fan's step puts it; its index may lie a little off
    again = refined(context, work.image, first, deck, read_by)
    # each card read there weighed with its meld, as the meld reading weighs its cards
    weighed = [
        (home, reading.index, as_meld_reads(context, fans[home], reading, deck))
        for reading, home in zip(again, homes, strict=True)
        if reading.code != c.not_an_index and reading.confidence >= GAP_FLOOR
    ]
    # moved by the refiner, a place may land on a card read already, or two on one card
    found: list[tuple[int, IndexCandidate, CardReading]] = []
    for home, index, card in sorted(weighed, key=lambda item: -item[2].confidence):
        taken = [*counted, *(other for _, other, _ in found)]
        taken_codes = [*counted_codes, *(other.code for _, _, other in found)]
        if card.confidence >= GAP_SURE and not read_already(index, card.code, taken, taken_codes):
            found.append((home, index, card))
    return found


def as_meld_reads(
    context: FrameContext, meld: Sequence[CardReading], reading: IndexReading, deck: str
) -> CardReading:
    """``reading`` as a card of ``meld``, read with the meld's cards."""
    c = context.contract
    card = CardReading.from_index(reading, c.min_confidence)
    return read_as_meld([*meld, card], c.classes, deck, c.not_an_index, c.min_confidence)[-1]
