"""Scoring the recogniser on anyone's photos, labelled by the cards each shows (pure, but for
reading the files).

A labels file is a CSV with a header and at least the columns ``image`` (a path under the
photos' folder) and ``cards``: the cards whose corner index can be seen, space-separated, in
RULES.md notation with or without the suit letter (``10H KS AD 2C``, ``QR 5B``, ``LADY 7``).
A ``group`` column, where there is one, splits the figures (phone, webcam, …).

With no boxes, a photo's readings are matched to its cards as two bags: first each reading of
a card's rank and colour, then each reading of its rank alone (a colour error). A card given
without a colour is matched by its rank. What is left over is a card missed, or a reading of a
card that is not there (a wrong rank or a phantom).
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from scanner.decks.voc import card_of
from scanner.vision.contract import SPECIAL_CLASSES, STANDARD_CLASSES
from scanner.vision.images import read_image


class LabelsError(ValueError):
    """A labels file that cannot be read as one, naming the line and what is wrong."""


@dataclass(frozen=True)
class Label:
    """One card as labelled: the rank as the classifier names it ("10", "Q", "JK", "LADY")
    and its colour ("R" or "B"), None where the label gives none or the card has none."""

    rank: str
    colour: str | None = None

    @classmethod
    def from_token(cls, token: str) -> Label:
        """``token`` in RULES.md notation, the suit letter optional.

        >>> Label.from_token("10H"), Label.from_token("ks"), Label.from_token("Q")
        (Label(rank='10', colour='R'), Label(rank='K', colour='B'), Label(rank='Q', colour=None))
        >>> Label.from_token("LADY"), Label.from_token("7")
        (Label(rank='LADY', colour=None), Label(rank='7', colour=None))
        """
        try:
            rank, colour = card_of(token)
        except ValueError as error:
            raise LabelsError(str(error)) from None
        return cls(rank, colour)

    @property
    def code(self) -> str:
        """As written with a colour letter where it has one: ``10R``, ``Q``, ``LADY``."""
        return self.rank + (self.colour or "")

    @classmethod
    def from_code(cls, code: str) -> Label:
        """A classifier's class ("KR", "JK", "LADY") as a label."""
        if code in STANDARD_CLASSES and code != "JK":
            return cls(code[:-1], code[-1])
        return cls(code)


@dataclass
class Tally:
    """Counts over a set of photos."""

    photos: int = 0
    cards: int = 0
    readings: int = 0
    right: int = 0  # cards read with their rank and (where labelled) colour
    rank_right: int = 0  # … with their rank, whatever the colour
    colour_errors: int = 0  # read with their rank, in the other colour
    by_rank: dict[str, Counter] = field(default_factory=dict)

    def add(self, labels: Sequence[Label], read: Sequence[Label]) -> dict:
        """One photo's cards and readings; what was wrong in it."""
        outcome = match(labels, read)
        self.photos += 1
        self.cards += len(labels)
        self.readings += len(read)
        self.right += len(outcome["right"])
        self.rank_right += len(outcome["right"]) + len(outcome["colour"])
        self.colour_errors += len(outcome["colour"])
        for label in labels:
            self.by_rank.setdefault(label.rank, Counter())["cards"] += 1
        for label in outcome["right"]:
            self.by_rank[label.rank]["right"] += 1
        for label, _ in outcome["colour"]:
            self.by_rank[label.rank]["colour"] += 1
        return outcome

    def figures(self) -> dict:
        share = lambda a, b: round(a / b, 4) if b else None  # noqa: E731
        return {
            "photos": self.photos,
            "cards": self.cards,
            "readings": self.readings,
            "rank_recall": share(self.rank_right, self.cards),
            "recall": share(self.right, self.cards),
            "precision": share(self.right, self.readings),
            "colour_errors": self.colour_errors,
            "colour_error_share": share(self.colour_errors, self.rank_right),
            "per_rank": {
                rank: {
                    "cards": counts["cards"],
                    "rank_recall": share(counts["right"] + counts["colour"], counts["cards"]),
                    "recall": share(counts["right"], counts["cards"]),
                }
                for rank, counts in sorted(self.by_rank.items(), key=lambda item: _order(item[0]))
            },
        }


RANK_ORDER = (*(code[:-1] for code in STANDARD_CLASSES[:-1:2]), "JK", *SPECIAL_CLASSES)


def _order(rank: str) -> int:
    return RANK_ORDER.index(rank) if rank in RANK_ORDER else len(RANK_ORDER)


def match(labels: Sequence[Label], read: Sequence[Label]) -> dict[str, list]:
    """``labels`` (one photo's cards) matched with what was ``read`` in it, as bags: "right"
    (labels read so), "colour" ((label, reading) pairs of one rank, the other colour),
    "missed" (labels) and "extra" (readings of no card there)."""
    left = list(read)
    right, colour, missed = [], [], []
    pending = []
    for label in labels:  # the rank and colour first
        if label.colour is not None and label in left:
            left.remove(label)
            right.append(label)
        else:
            pending.append(label)
    for label in pending:  # then the rank alone
        same = next((r for r in left if r.rank == label.rank), None)
        if same is None:
            missed.append(label)
            continue
        left.remove(same)
        if label.colour is None or same.colour is None:
            right.append(label)
        else:
            colour.append((label, same))
    return {"right": right, "colour": colour, "missed": missed, "extra": left}


@dataclass(frozen=True)
class LabelledPhoto:
    image: Path
    cards: tuple[Label, ...]
    group: str | None = None


def read_labels(path: Path, folder: Path) -> tuple[list[LabelledPhoto], list[str]]:
    """The photos ``path`` labels, under ``folder``, and the images it names that are not
    there. Raises :class:`LabelsError` naming the line of a card that is no card, or a file
    without the ``image`` and ``cards`` columns."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise LabelsError(f"{path}: cannot be read ({error})") from None
    rows = csv.DictReader(text.splitlines())
    if not rows.fieldnames or not {"image", "cards"} <= set(rows.fieldnames):
        raise LabelsError(f"{path}: the first line must name the columns image,cards")
    photos, missing = [], []
    for line, row in enumerate(rows, start=2):
        name = (row.get("image") or "").strip()
        if not name:
            continue
        try:
            cards = tuple(Label.from_token(t) for t in (row.get("cards") or "").split())
        except LabelsError as error:
            raise LabelsError(f"{path}, line {line}: {error}") from None
        image = folder / name
        if not image.is_file():
            missing.append(name)
            continue
        photos.append(LabelledPhoto(image, cards, (row.get("group") or "").strip() or None))
    return photos, missing


def evaluate_labelled(
    photos: Iterable[LabelledPhoto], read: Callable[[np.ndarray], Sequence[str]]
) -> tuple[dict, list[dict]]:
    """The figures over ``photos`` (and by group, where they name one), ``read`` giving the
    codes read in a frame; and one line per photo with anything wrong."""
    total, groups, errors = Tally(), {}, []
    for photo in photos:
        read_as = [Label.from_code(code) for code in read(read_image(photo.image))]
        outcome = total.add(photo.cards, read_as)
        if photo.group is not None:
            groups.setdefault(photo.group, Tally()).add(photo.cards, read_as)
        if outcome["colour"] or outcome["missed"] or outcome["extra"]:
            errors.append(
                {
                    "image": photo.image.name,
                    "missed": [label.code for label in outcome["missed"]],
                    "colour": [[a.code, b.code] for a, b in outcome["colour"]],
                    "extra": [label.code for label in outcome["extra"]],
                }
            )
    figures = total.figures()
    if groups:
        figures["by_group"] = {
            name: {k: v for k, v in tally.figures().items() if k != "per_rank"}
            for name, tally in sorted(groups.items())
        }
    return figures, errors
