"""The page's words in the players' languages: English, Danish, Swedish and Norwegian (bokmål),
the home languages of the rules. Each language is one message catalogue
(``locales/<code>.json``, a key and its sentence); English is the reference every other
catalogue must match key for key (a test checks). A phone gets its own language unless the
person picked another on the page (kept in a cookie)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from engine import Card, Deck, UnknownCardError

LOCALES = Path(__file__).resolve().parent / "locales"
LANGUAGES = {"en": "English", "da": "Dansk", "sv": "Svenska", "nb": "Norsk"}
DEFAULT = "en"
COOKIE = "handfoot-lang"
# Languages a phone may ask for that one of ours serves.
ALIASES = {"no": "nb", "nn": "nb"}


@cache
def catalogue(language: str) -> dict[str, str]:
    """The sentences of one language, by key."""
    return json.loads((LOCALES / f"{language}.json").read_text(encoding="utf-8"))


def best_language(cookie: str | None, accept_language: str | None) -> str:
    """The picked language, else the first the phone asks for that we have, else English.

    >>> best_language(None, "sv-SE,sv;q=0.9,en;q=0.8")
    'sv'
    >>> best_language("da", "sv")
    'da'
    >>> best_language(None, "nn-NO, de")
    'nb'
    >>> best_language(None, "fr, de;q=0.5")
    'en'
    """
    if cookie in LANGUAGES:
        return cookie
    asked = []
    for part in (accept_language or "").split(","):
        tag, _, quality = part.strip().partition(";q=")
        try:
            weight = float(quality) if quality else 1.0
        except ValueError:
            weight = 0.0
        code = tag.split("-")[0].strip().lower()
        code = ALIASES.get(code, code)
        if code in LANGUAGES and weight > 0:
            asked.append((-weight, len(asked), code))
    return min(asked)[2] if asked else DEFAULT


def translator(language: str) -> Callable[..., str]:
    """``t(key, **values)``: the sentence in ``language`` (English where a key is missing,
    which a test keeps from happening), its ``{name}`` fields filled in."""
    words = catalogue(language)
    english = catalogue(DEFAULT)

    def t(key: str, **values: object) -> str:
        text = words.get(key) or english.get(key)
        if text is None:
            raise KeyError(f"no sentence {key!r} in the message catalogue")
        return text.format(**values) if values else text

    # what a template needs to say the engine's problems, reachable wherever t is handed on
    t.problem = lambda said: tell_problem(said, t)  # type: ignore[attr-defined]
    t.where = lambda problem: tell_where(problem, t)  # type: ignore[attr-defined]
    t.say = lambda text: say_again(text, t)  # type: ignore[attr-defined]
    t.reason = lambda text: why_not_counted(text, t)  # type: ignore[attr-defined]
    t.say_all = lambda texts: " ".join(say_again(text, t) for text in texts)  # type: ignore[attr-defined]
    t.card = lambda code: card_words(code, t)  # type: ignore[attr-defined]
    t.corner = lambda code: corner_of(code, t)  # type: ignore[attr-defined]
    t.red = lambda code: (rank_and_colour(code) or ("", ""))[1] == "R"  # type: ignore[attr-defined]
    t.cards = lambda codes: listed([card_words(code, t) for code in codes], t)  # type: ignore[attr-defined]
    return t


RANK_WORDS = {"A": "card.ace", "J": "card.jack", "Q": "card.queen", "K": "card.king"}


def rank_and_colour(code: str) -> tuple[str, str] | None:
    """A standard card's rank and colour (``R`` or ``B``), as the engine reads its code; None
    for any other code.

    >>> rank_and_colour("10R"), rank_and_colour("JESTER"), rank_and_colour("JK")
    (('10', 'R'), None, None)
    """
    try:
        card = Card.from_code(code, Deck.STANDARD)
    except UnknownCardError:
        return None
    return None if card.colour is None else (card.rank.value, card.colour.value)


def card_words(code: str, t: Callable[..., str]) -> str:
    """A card's code said in words in the language of ``t``: ``QR`` a red queen, ``JK`` a
    joker; the special deck's cards (``7``, ``LADY``) as they are printed."""
    if code == "JK":
        return t("card.joker")
    card = rank_and_colour(code)
    if card is None:
        return code
    rank, colour = card
    word = t(RANK_WORDS[rank]) if rank in RANK_WORDS else rank
    return t("card.red" if colour == "R" else "card.black", rank=word)


def corner_of(code: str, t: Callable[..., str]) -> str:
    """What a card's corner shows: its rank (``Q`` of ``QR``); a joker, the word."""
    if code == "JK":
        return t("card.joker")
    card = rank_and_colour(code)
    return card[0] if card else code


def listed(words: list[str], t: Callable[..., str]) -> str:
    """Words joined as the language of ``t`` joins a list: "a, b and c"."""
    if len(words) < 2:
        return "".join(words)
    return t("where.and", first=", ".join(words[:-1]), last=words[-1])


def tell(said: dict, t: Callable[..., str]) -> str:
    """A sentence the table said (``state["said"]``), in the language of ``t``: its parts
    said in that language too; names and numbers as they are."""

    def value(part: object) -> object:
        if isinstance(part, dict) and "problems" in part:  # the engine's, each where it is
            return "; ".join(tell_where(problem, t) for problem in part["problems"])
        return tell(part, t) if isinstance(part, dict) else part

    values = {name: value(part) for name, part in said["values"].items()}
    return t(f"said.{said['key']}", **values)


def why_not_counted(reason: str, t: Callable[..., str]) -> str:
    """Why a card read counts nowhere (``scanner/table/modes.py`` says it in English, kept
    with the scan), in the language of ``t``; a reason it does not know, as it is."""
    from scanner.table import modes

    if reason == modes.LONE_CARD:
        return t("reason.lone_card")
    if reason == modes.STRAY:
        return t("reason.stray")
    fields = {"code": "(?P<code>.+)", "deck": "(?P<deck>.+)", "playing": "(?P<playing>.+)"}
    other = re.fullmatch(modes.OTHER_DECK.format(**fields), reason)
    if other:
        decks = {"standard deck": "deck_standard", "special Hand 'N Foot deck": "deck_special"}
        deck, playing = decks.get(other["deck"]), decks.get(other["playing"])
        if deck and playing:
            return t(
                "reason.other_deck",
                code=other["code"],
                deck=t(f"said.{deck}"),
                playing=t(f"said.{playing}"),
            )
    return reason


def say_again(text: object, t: Callable[..., str]) -> str:
    """A sentence of the table (a ``Said``, which knows its key and values) in the language of
    ``t``; any other text as it is."""
    to_json = getattr(text, "to_json", None)
    return tell(to_json(), t) if to_json is not None else str(text or "")


def tell_problem(said: dict, t: Callable[..., str]) -> str:
    """One of the engine's problems (``Problem.said()``: a key of ``engine.problems.SENTENCES``
    and its values) in the language of ``t``: parts said in that language too, runs of them
    joined as the language joins them; names, numbers and card codes as they are."""

    values = {name: tell_part(part, t) for name, part in said.get("values", {}).items()}
    return t(f"problem.{said['key']}", **values)


def tell_part(part: object, t: Callable[..., str]) -> object:
    """A value of one of the engine's sentences (``Phrase`` or ``Listed`` as JSON, or a plain
    name or number) in the language of ``t``."""
    if isinstance(part, dict) and "list" in part:
        words = [str(tell_part(item, t)) for item in part["list"]]
        if part.get("joined") == "plus":
            return " + ".join(words)
        if len(words) < 2:
            return "".join(words)
        return t("where.and", first=", ".join(words[:-1]), last=words[-1])
    if isinstance(part, dict) and "key" in part:
        return tell_problem(part, t)
    return part


def tell_where(problem: dict, t: Callable[..., str]) -> str:
    """A problem as a list shows it, saying where it is: ``{"side", "meld", "said"}`` (the
    side and meld may be missing), or an English sentence when the problem has no key."""
    said = problem.get("said")
    sentence = tell_problem(said, t) if said else problem.get("message", "")
    side, meld = problem.get("side"), problem.get("meld")
    if side and meld:
        return t("where.side_meld", side=side, meld=meld, sentence=sentence)
    if side:
        return t("where.side", side=side, sentence=sentence)
    if meld:
        return t("where.meld", meld=meld, sentence=sentence)
    return sentence


THEME_COOKIE = "handfoot-theme"
# The sentences the page's script says, in the page's language.
SCRIPT_WORDS = (
    "js.working",
    "js.saved",
    "js.corrected",
    "js.correcting",
    "js.sending",
    "js.unreachable",
    "js.stale",
    "js.confirm_nothing",
    "js.red",
    "js.black",
    "js.joker",
    "js.add_to",
    "js.card",
    "js.awake_no",
    "js.missed",
    "js.meld_n",
    "js.new_meld",
    "js.to_red_threes",
    "js.to_left_over",
    "js.based_on",
    "js.not_playable",
    "js.playable",
    "js.name_a_team",
    "js.deal_row",
    "js.picture_cards",
    "js.to_check",
    "js.tap_to_change",
    "js.books_clean",
    "js.books_dirty",
    "js.books_wild",
    "js.books_any",
)


def page_words(request: Any) -> dict:
    """The page's language (picked, else the phone's), its sentences and the colour theme
    the person picked (none: the phone's own)."""
    lang = best_language(request.cookies.get(COOKIE), request.headers.get("accept-language"))
    t = translator(lang)
    theme = request.cookies.get(THEME_COOKIE)
    return {
        "lang": lang,
        "t": t,
        "languages": LANGUAGES,
        "theme": theme if theme in ("light", "dark") else None,
        "words": {key[3:]: t(key) for key in SCRIPT_WORDS},
        "tell": lambda said: tell(said, t),
    }
