"""What a reading may do: one frozen record that names every optional stage and rule.

The recogniser, ``handfoot scan``/``eval``/``bench`` and the tests switch rules through it, so
each rule can be measured by reading a set of frames with it off (``handfoot eval DIR --without
closer,wider``). A rule stays only while it pays on real photos.

>>> ReadOptions().without("closer", "wider").closer
False
>>> ReadOptions.parse_without("rescale").second_look
False
>>> ReadOptions.parse_without("speed")
Traceback (most recent call last):
...
scanner.vision.errors.RecogniserError: no rule is called 'speed'; the rules are: ...
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from scanner.vision.errors import RecogniserError
from scanner.vision.turns import TURN_CHOICES

# one name for several switches: the old ``rescale=False`` turned every size rule off at once
GROUPS = {
    "rescale": (
        "preview",
        "smaller",
        "close_up",
        "scale_up",
        "second_look",
        "look_smaller",
        "negative",
    )
}


@dataclass(frozen=True)
class ReadOptions:
    """Every switch of a reading, by stage; all on by default. The models' switches (int8,
    refine, wider, faces, verify) read as if the model folder did not hold that model."""

    # networks
    turns: int = 4  # the locator reads each frame this many quarter turns (1, 2 or 4)
    int8: bool = True  # the int8 twins where they lie beside their float files
    # size: the scales a frame is read at (``stages/size.py``)
    preview: bool = True  # a frame larger than the locator learnt first read as a preview
    smaller: bool = True  # a frame of large indices read smaller as well
    close_up: bool = True  # a frame that reads few cards read smaller too: it may be a close-up
    scale_up: bool = True  # a frame of small indices read again scaled up
    second_look: bool = True  # a frame with no card read again at other scales
    look_smaller: bool = True  # ... a small one smaller too, before it is read larger
    negative: bool = True  # ... and as its negative: light print on dark cards
    dark_cards: bool = True  # a frame with dark surface enough for a card: its negative's too
    dark_cards_sure: bool = True  # ... its doubtful marks not read again: only sure cards count
    # locate
    faint: bool = True  # the locator's faint marks read (once), kept where a card reads surely
    faint_large: bool = True  # a large faint mark counts from a lower bar (``faint.py``)
    # classify
    suits_below: bool = True  # a bare number read again where a suit sign would lie
    wider: bool = True  # a small index read by the wider classifier too
    ink_colour: bool = True  # ink clearly redder than its paper read red (``ink_colour.py``)
    # recheck: entries of ``stages/recheck.py`` RECHECKS, by name
    turned: bool = True  # a doubtful mark read again turned
    refine: bool = True  # a doubtful mark read again where the refiner puts its index
    refine_rounds: int = 2  # the refiner asked again from its last answer (experiments/refiner.md)
    closer: bool = True  # a small unread mark located again scaled up
    corners_agree: bool = True  # two unread corners of one card that agree, read as that card
    # verify
    verify: bool = True  # marks the verifier says lie on the table, dropped
    # faces
    faces: bool = True  # a court card's face read beside its index
    # melds
    melds: bool = True  # a meld's cards read knowing they share a rank
    strays: bool = True  # unread marks on a meld's line read as the meld's cards
    strays_where_they_lie: bool = True  # ... also where they lie, a little off the line
    walk: bool = True  # a fan grown by a stray looked along again, its fainter marks too
    gaps: bool = True  # cards looked for between a fan's read ones
    # tidy
    proportion: bool = True  # a card far smaller than the sure cards around it, dropped

    def __post_init__(self) -> None:
        if self.turns not in TURN_CHOICES:
            raise RecogniserError(f"turns is one of {sorted(TURN_CHOICES)}, not {self.turns}")

    @classmethod
    def switches(cls) -> tuple[str, ...]:
        """The names of the rules that can be switched off, groups included."""
        return (*(f.name for f in fields(cls) if f.type == "bool"), *GROUPS)

    def without(self, *names: str) -> ReadOptions:
        """These options with the named rules (or groups of them) switched off."""
        known = self.switches()
        off: dict[str, bool] = {}
        for name in names:
            if name not in known:
                raise RecogniserError(
                    f"no rule is called {name!r}; the rules are: {', '.join(known)}"
                )
            off.update(dict.fromkeys(GROUPS.get(name, (name,)), False))
        return replace(self, **off)

    def changed(self, **switches: int | bool) -> ReadOptions:
        """These options with single ones set (``turns=1``, ``closer=False``; a group such as
        ``rescale`` sets each of its rules)."""
        known = {f.name for f in fields(self)} | set(GROUPS)
        unknown = sorted(set(switches) - known)
        if unknown:
            raise RecogniserError(
                f"no option is called {', '.join(map(repr, unknown))}; the options are: "
                + ", ".join(sorted(known))
            )
        spelt = {}
        for name, value in switches.items():
            spelt.update(dict.fromkeys(GROUPS.get(name, (name,)), value))
        return replace(self, **spelt)

    @classmethod
    def parse_without(cls, text: str, turns: int = 4) -> ReadOptions:
        """The options with the rules named in ``text`` ("closer,wider") switched off."""
        names = [name.strip() for name in text.split(",") if name.strip()]
        return cls(turns=turns).without(*names)
