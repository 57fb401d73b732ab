"""How often a table scan gives what the engine gives for the true cards (``handfoot eval
--mode table``).

For each labelled scene the truth is the engine's table-mode result for the cards a perfect
reader would see (every card with an index at least 90 % visible), in the groups the renderer
laid them in. The scan is the same function applied to what the recogniser read and the
grouping found. A scene is *right* when both give the same melds (as multisets of codes), the
same red threes, the same cards left unplaced and the same total. A wrong scene either said
"check" (a person is asked to look: honest) or did not (a silent error: the one that matters
most). Its *points* are right when the melds, red threes and total are, whatever else the scan
set aside as not counted (a phantom reading left unplaced asks for a check but costs nothing).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine import Deck, RuleSet, get_preset
from model.evaluate.scenes import scene_files
from model.evaluate.truth import groups_from_labels, is_seen, reading_from_label
from scanner.table.modes import TableResult, outline, read_table
from scanner.vision.cards import CardReading
from scanner.vision.grouping import CardGroup, Grouping
from scanner.vision.images import read_image

DEFAULT_PRESETS = {Deck.STANDARD: "pagat", Deck.SPECIAL: "handnfoot"}


def true_grouping(labels: dict) -> Grouping:
    """The renderer's groups as a :class:`Grouping` of perfect readings: groups of two or
    more seen cards are melds, a lone red three is a red three, any other lone card a single."""
    cards = labels["cards"]
    melds, threes, singles = [], [], []
    for group in groups_from_labels(labels):
        readings = tuple(reading_from_label(cards[n]) for n in group if is_seen(cards[n]))
        if len(readings) >= 2:
            melds.append(CardGroup(readings, outline(readings)))
        elif readings[0].code == "3R":
            threes.append(readings[0])
        else:
            singles.append(readings[0])
    return Grouping(tuple(melds), tuple(threes), tuple(singles))


def signature(result: TableResult) -> dict:
    """What must agree between the truth and a scan."""
    return {
        "melds": sorted(tuple(sorted(meld.verdict.to_dict()["cards"])) for meld in result.melds),
        "red_threes": sorted(card.code for card in result.red_threes),
        "unplaced": sorted(item.card.code for item in result.unplaced),
        "total": result.totals["total"],
    }


@dataclass(frozen=True)
class TableScore:
    scene: str
    right: bool
    flagged: bool  # the scan said "check"
    melds_true: int
    melds_found: int  # true melds (2+ cards) the scan reproduced exactly
    total_true: int
    total_scanned: int
    grouped_right: bool  # perfect readings grouped by layout give the truth
    points_right: bool  # the melds and points right, whatever else is reported aside


def rules_for(deck: Deck, chosen: RuleSet) -> RuleSet:
    return chosen if chosen.deck is deck else get_preset(DEFAULT_PRESETS[deck])


def score_scene(
    labels: dict, cards: Sequence[CardReading], rules: RuleSet, name: str
) -> TableScore:
    deck = Deck.SPECIAL if labels["deck"] == "special" else Deck.STANDARD
    rules = rules_for(deck, rules)
    truth = read_table((), rules, grouping=true_grouping(labels))
    scanned = read_table(cards, rules)
    want, got = signature(truth), signature(scanned)
    perfect = [reading_from_label(card) for card in labels["cards"] if is_seen(card)]
    grouped = signature(read_table(perfect, rules))
    found = Counter(got["melds"])
    matched = 0
    for meld in want["melds"]:
        if found[meld] > 0:
            found[meld] -= 1
            matched += 1
    return TableScore(
        name,
        want == got,
        scanned.needs_check,
        len(want["melds"]),
        matched,
        int(want["total"]),
        int(got["total"]),
        grouped == want,
        all(want[key] == got[key] for key in ("melds", "red_threes", "total")),
    )


def evaluate_tables(
    folder: Path,
    read: Callable[[np.ndarray, str], Sequence[CardReading]],
    rules: RuleSet,
    limit: int | None = None,
) -> list[TableScore]:
    """Score every scene in ``folder``; ``read`` (frame, the deck the rules play → cards) is
    told the deck as a scan is: the players chose rules for the deck on the table."""
    scores = []
    for path in scene_files(folder, limit):
        labels = json.loads(path.read_text(encoding="utf-8"))
        image_path = path.parent / labels.get("image", path.with_suffix(".jpg").name)
        deck = Deck.SPECIAL if labels["deck"] == "special" else Deck.STANDARD
        cards = read(read_image(image_path), rules_for(deck, rules).deck.value)
        scores.append(score_scene(labels, cards, rules, image_path.name))
    return scores


def report(scores: Sequence[TableScore]) -> dict:
    count = len(scores)
    right = sum(score.right for score in scores)
    wrong_flagged = sum(not score.right and score.flagged for score in scores)
    silent = sum(not score.right and not score.flagged for score in scores)
    melds = sum(score.melds_true for score in scores)
    errors = [abs(score.total_scanned - score.total_true) for score in scores]

    def share(part: int, whole: int) -> float | None:
        return part / whole if whole else None

    return {
        "scenes": count,
        "right": share(right, count),
        "points_right": share(sum(score.points_right for score in scores), count),
        "wrong_but_flagged": share(wrong_flagged, count),
        "silent_errors": share(silent, count),
        "flagged": share(sum(score.flagged for score in scores), count),
        "grouping_right": share(sum(score.grouped_right for score in scores), count),
        "melds": melds,
        "melds_exact": share(sum(score.melds_found for score in scores), melds),
        "total_error_median": float(np.median(errors)) if errors else None,
    }
