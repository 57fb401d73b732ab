"""House rules as a form: each parameter of a rule set a labelled field with its allowed values,
checked as it is typed. The engine checks the rules (its own messages, with its parameter
names put in the form's words); the page never parses TOML. The TOML text stays, for import
and export: the form's rules are written as TOML (``engine.rules_to_toml``), and a checked
TOML text fills the form."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import HandfootError, RuleSet, get_preset, rules_to_toml
from engine.house_rules import rules_from_mapping
from engine.rules import BookRequirement, value_keys
from scanner.web.i18n import tell_part, translator


@dataclass(frozen=True)
class Field:
    key: str
    kind: str  # text, number, optional, yes_no, choice, numbers, go_out, go_out_deals, card_values
    label: str
    hint: str = ""
    choices: tuple[tuple[str, str], ...] = ()


FIELDS = (
    Field("name", "text", "Name of these rules", "such as Grandma's table"),
    Field(
        "deck",
        "choice",
        "Deck",
        choices=(
            ("standard", "standard cards (52 and 2 jokers a deck)"),
            ("special", "the Hand and Foot special deck"),
        ),
    ),
    Field(
        "play",
        "choice",
        "Who plays together",
        choices=(
            ("partnership", "partners, as teams"),
            ("individual", "each for themselves"),
            ("either", "teams or each for themselves"),
        ),
    ),
    Field("deals", "number", "Deals in a game", "1 to 100"),
    Field("hand_size", "number", "Cards in a hand"),
    Field("foot_size", "number", "Cards in a foot"),
    Field("meld_min", "number", "Fewest cards in a meld"),
    Field("book_size", "number", "Cards in a book (a complete meld)"),
    Field("meld_max", "optional", "Most cards in a meld", "empty: no limit"),
    Field(
        "wild_ratio",
        "choice",
        "Wild cards a meld may hold",
        choices=(
            ("1:1", "at least 1 natural card per wild card"),
            ("2:1", "at least 2 natural cards per wild card"),
            ("3:1", "at least 3 natural cards per wild card"),
            ("more", "more natural cards than wild cards"),
        ),
    ),
    Field("wild_max", "optional", "Most wild cards in a meld", "empty: no limit"),
    Field("wild_melds", "yes_no", "Melds of wild cards only are allowed"),
    Field("black_three_melds", "yes_no", "Black threes may be melded"),
    Field("clean_bonus", "number", "Points for a clean book"),
    Field("dirty_bonus", "number", "Points for a dirty book"),
    Field("wild_bonus", "number", "Points for a book of wild cards"),
    Field("black_three_bonus", "number", "Points for a book of black threes"),
    Field("go_out", "go_out", "Books needed to go out (every deal)"),
    Field("go_out_deals", "go_out_deals", "Books needed to go out, deal by deal"),
    Field("going_out_bonus", "number", "Points for going out"),
    Field(
        "red_threes",
        "choice",
        "Red threes",
        choices=(
            ("bonus", "points when laid down, a cost when held"),
            ("penalty", "a cost wherever they are"),
            ("none", "the deck has none"),
        ),
    ),
    Field("red_three_points", "number", "Points for each red three"),
    Field("exact_22_bonus", "number", "Points for picking up exactly 22 cards"),
    Field("lady_bonus", "number", "Points for a Lady on a clean group"),
    Field("lady_penalty", "number", "Cost of a Lady left over"),
    Field(
        "initial_minimums", "numbers", "Points the first meld needs, deal by deal", "50 90 120 150"
    ),
    Field(
        "concealed_first_meld_deals",
        "numbers",
        "Deals whose first meld must be a concealed canasta",
        "deal numbers such as 4; empty: none",
    ),
    Field(
        "melds_per_rank",
        "choice",
        "Melds of one rank",
        choices=(
            ("one-incomplete", "a second one only once the first is a book"),
            ("one", "only one of each rank"),
        ),
    ),
    Field("card_values", "card_values", "What each card is worth"),
)
BY_KEY = {field.key: field for field in FIELDS}
KINDS = ("clean", "dirty", "wild", "any")
# Only the special deck has Ladies; only the standard deck has threes.
SPECIAL_ONLY = {"lady_bonus", "lady_penalty"}
STANDARD_ONLY = {"red_threes", "red_three_points", "black_three_melds", "black_three_bonus"}


HINTS = {
    "name": "rule.hint.name",
    "deals": "rule.hint.deals",
    "meld_max": "rule.hint.no_limit",
    "wild_max": "rule.hint.no_limit",
    "initial_minimums": "rule.hint.initial_minimums",
    "concealed_first_meld_deals": "rule.hint.concealed_first_meld_deals",
}
ENGLISH = translator("en")


def label(key: str, t=ENGLISH) -> str:
    """A rule's name in the form, in the page's language (the catalogue's ``rule.KEY``; the
    English catalogue says what :data:`FIELDS` says, which a test checks)."""
    return t(f"rule.{key}")


class FormProblem(ValueError):
    def __init__(self, key: str, message: str) -> None:
        self.key = key
        self.message = message
        super().__init__(message)


def fields_for(rules: RuleSet) -> list[Field]:
    """The fields a rule set's deck has (no Ladies for the standard deck, no threes for the
    special one)."""
    special = rules.deck.value == "special"
    hidden = STANDARD_ONLY if special else SPECIAL_ONLY
    return [field for field in FIELDS if field.key not in hidden]


def form_values(rules: RuleSet) -> dict[str, Any]:
    """Every field's value for ``rules``, as the form shows it."""
    values: dict[str, Any] = {}
    for field in FIELDS:
        if field.kind == "go_out_deals":  # one row per deal: every deal's books apart
            values[field.key] = [
                {kind: str(getattr(requirement, kind)) for kind in KINDS}
                for requirement in rules.go_out
            ]
            continue
        value = getattr(rules, field.key)
        if field.kind == "optional":
            values[field.key] = "" if value is None else str(value)
        elif field.kind == "numbers":
            values[field.key] = " ".join(str(n) for n in value)
        elif field.kind == "go_out":
            first = value[0] if value else BookRequirement()
            values[field.key] = {kind: str(getattr(first, kind)) for kind in KINDS}
        elif field.kind == "card_values":
            values[field.key] = {key: str(value[key]) for key in value_keys(rules.deck)}
        elif field.kind in ("yes_no",):
            values[field.key] = bool(value)
        elif hasattr(value, "value"):
            values[field.key] = value.value
        else:
            values[field.key] = value if field.kind == "text" else str(value)
    return values


def form_json(spec: str, t=ENGLISH) -> dict:
    """The form for a preset: its fields (with labels and choices in the page's language)
    and their values."""
    rules = get_preset(spec)
    return {
        "base": spec,
        "deck": rules.deck.value,
        "fields": [
            {
                "key": field.key,
                "kind": field.kind,
                "label": label(field.key, t),
                "hint": t(HINTS[field.key]) if field.key in HINTS else "",
                "choices": [[value, t(f"rule.choice.{value}")] for value, _ in field.choices],
                "yes_no": [t("rule.yes"), t("rule.no")],
            }
            for field in fields_for(rules)
        ],
        "values": form_values(rules),
        "summary": summary(rules, t),
    }


def _whole(key: str, text: Any, what: str | None = None, t=ENGLISH) -> int:
    name = what or label(key, t)
    cleaned = "" if isinstance(text, bool) else str(text).strip().replace(" ", "")
    if not re.fullmatch(r"-?\d+", cleaned):
        raise FormProblem(key, t("rule.whole_number", label=name, text=text))
    return int(cleaned)


def to_mapping(base: str, changed: Mapping[str, Any], t=ENGLISH) -> dict[str, Any]:
    """The house-rules mapping (as a TOML file would give it) for the form's changed fields."""
    # unnamed, the rules are the base preset's with changes (not "these rules")
    data: dict[str, Any] = {"base": base, "name": f"{base}, house rules"}
    for key, value in changed.items():
        field = BY_KEY.get(key)
        if field is None:
            raise FormProblem(key, f"“{key}” is not a rule the form knows")
        if field.kind == "text":
            data[key] = str(value).strip() or base
        elif field.kind == "number":
            data[key] = _whole(key, value, t=t)
        elif field.kind == "optional":
            data[key] = "none" if not str(value).strip() else _whole(key, value, t=t)
        elif field.kind == "yes_no":
            data[key] = bool(value)
        elif field.kind == "choice":
            data[key] = str(value)
        elif field.kind == "numbers":
            parts = [part for part in re.split(r"[\s,;]+", str(value)) if part]
            data[key] = [_whole(key, part, t=t) for part in parts]
        elif field.kind == "go_out" and "go_out_deals" not in changed:
            data[key] = _books(key, value, label(key, t), t)
        elif field.kind == "go_out_deals":
            rows = value if isinstance(value, list) else []
            if not rows:
                raise FormProblem(key, t("rule.whole_number", label=label(key, t), text=""))
            data["go_out"] = [
                _books(key, row, t("rule.deal_n", label=label(key, t), deal=number), t)
                for number, row in enumerate(rows, start=1)
            ]
        elif field.kind == "card_values":
            worth = value if isinstance(value, Mapping) else {}
            data[key] = {
                card: _whole(key, points, f"{label(key, t)}: {card}", t)
                for card, points in worth.items()
            }
    if isinstance(data.get("go_out"), list):
        data["go_out"] = _one_per_deal(data["go_out"], data.get("deals"), base)
    return data


def _one_per_deal(rows: list, deals: Any, base: str) -> list:
    """The form's rows, one per deal of the game: a deal past the last row asks what the last
    row asks (the number of deals may have changed after the rows were drawn)."""
    if not isinstance(deals, int):
        try:
            deals = get_preset(base).deals
        except HandfootError:
            return rows
    if not 1 <= deals <= 100:
        return rows  # the engine names the number of deals
    return (rows + rows[-1:] * deals)[:deals]


def _books(key: str, value: Any, name: str, t=ENGLISH) -> dict[str, int]:
    counts = value if isinstance(value, Mapping) else {}
    return {
        kind: _whole(key, counts.get(kind, "0") or "0", f"{name} ({kind})", t) for kind in KINDS
    }


def base_of(text: str) -> str | None:
    """The base preset a house-rules text names (None when it names none or does not read)."""
    try:
        base = tomllib.loads(text).get("base")
    except tomllib.TOMLDecodeError:
        return None
    return base if isinstance(base, str) else None


def in_words(message: str) -> str:
    """An engine message with its parameter names put in the form's words."""
    for field in FIELDS:
        if "_" in field.key:  # a parameter's name; "deals" is also a word of the sentence
            message = re.sub(rf"\b{field.key}\b", f"“{field.label}”", message)
    return message


def check(base: str, changed: Mapping[str, Any], t=ENGLISH) -> dict:
    """The form's rules checked: ``ok``, each problem by field in players' words, and for
    rules that can be played their summary and TOML (ready for a new game or to keep)."""
    try:
        rules = rules_from_mapping(to_mapping(base, changed, t), source="these rules")
    except FormProblem as problem:
        return {"ok": False, "problems": [{"key": problem.key, "message": problem.message}]}
    except HandfootError as error:
        key = getattr(error, "key", None) or "base"
        field = BY_KEY.get(key.split(".")[0])
        name = label(field.key, t) if field else key
        reason = in_words(getattr(error, "reason", str(error)))
        return {
            "ok": False,
            "problems": [{"key": key.split(".")[0], "message": f"{name}: {reason}"}],
        }
    return {
        "ok": True,
        "problems": [],
        "name": rules.name,
        "summary": summary(rules, t),
        "toml": rules_to_toml(rules),
    }


def summary(rules: RuleSet, t=ENGLISH) -> list[str]:
    """The rules in a few sentences, always of the values now in the form, in the page's
    language (``summary.*`` in the catalogues)."""
    per_deal = ", ".join(str(n) for n in rules.initial_minimums)
    go_out = [str(tell_part(req.phrase().to_json(), t)) for req in rules.go_out]
    out = go_out[0] if len(set(go_out)) == 1 else t("summary.by_deal", books=" / ".join(go_out))
    most = t("summary.meld_max", max=rules.meld_max) if rules.meld_max is not None else ""
    wild = t("summary.bonus_wild", wild=rules.wild_bonus) if rules.wild_melds else ""
    lines = [
        t("summary.deals", deals=rules.deals, hand=rules.hand_size, foot=rules.foot_size),
        t("summary.meld", min=rules.meld_min, max=most, book=rules.book_size),
        t("summary.bonus", clean=rules.clean_bonus, dirty=rules.dirty_bonus, wild=wild),
        t("summary.first", points=per_deal),
        t("summary.go_out", books=out, bonus=rules.going_out_bonus),
    ]
    if rules.concealed_first_meld_deals:
        deals = ", ".join(str(n) for n in rules.concealed_first_meld_deals)
        lines.append(t("summary.concealed", deals=deals))
    if rules.red_threes.value != "none":
        how = t(f"summary.red_{rules.red_threes.value}")
        lines.append(t("summary.red_threes", points=rules.red_three_points, how=how))
    if rules.lady_bonus or rules.lady_penalty:
        lines.append(t("summary.lady", bonus=rules.lady_bonus, penalty=rules.lady_penalty))
    return lines
