"""What the table says (the page's status line, the answer under a tap), as a sentence that can
be said in the page's language: the English text, plus the key and values that say it again
from a message catalogue (``scanner/web/locales``; ``said.KEY`` there, checked against
:data:`SENTENCES` by a test). A value may itself be a :class:`Said` (a part that is said in
the language too, such as "all legal"); names and numbers stay as they are."""

from __future__ import annotations

from typing import Any

SENTENCES = {
    "scan_melds": "{melds}, {legal}, {points} points{check}.{advice}",
    "scan_leftovers": "Leftovers: {points} points{check}.{advice}",
    "melds_one": "1 meld",
    "melds_many": "{count} melds",
    "all_legal": "all legal",
    "not_all_legal": "not all legal",
    "check_one": ", 1 card to check",
    "check_many": ", {count} cards to check",
    "corrected": "Scan {id} corrected: {sentence}",
    "recorded": "Deal {deal} is recorded: {totals}.{over}",
    "over_winner": " The game is over: {name} wins.",
    "over_draw": " The game is over.",
    "undone": "Deal {deal} is undone: correct it and confirm.",
    "new_game": "A new game has started: deal 1, {rules} rules.",
    "resumed": "Game {id} is on the table again.",
    "new_table": "A new table is laid out: press Scan.",
    "scanning": "Scanning the table…",
    # what the table refuses, said as the page's answer to a tap
    "no_game": "There is no game yet: start one first.",
    "game_over": "The game is over: every deal is recorded. Start a new game to play on.",
    "nothing_to_undo": "No deal of this game is recorded yet: there is nothing to undo.",
    "busy": "A scan is already running: wait a moment and press Scan again.",
    "stale": "Deal {asked} is not the deal in progress: the table is at deal {now}. "
    "The page shows it now.",
    "stale_over": "Deal {asked} is not the deal in progress: the game is over. "
    "The page shows it now.",
    "checks_one": "1 card is still marked check: tap each to correct or accept it, "
    "or confirm with the cards as read.",
    "checks_many": "{count} cards are still marked check: tap each to correct or accept it, "
    "or confirm with the cards as read.",
    "impossible": "This deal cannot have happened: {problems}{more}.",
    "impossible_more": " (and {count} more: see the preview)",
    "no_table_scan": "{side} has no table scan: their table counts as empty.",
    "no_leftovers": "{side} has no leftovers: scan them or type them in.",
    "panel_ask": "Deal {deal}: {totals}. Press NEXT again to record it{as_read}; "
    "hold SCAN to go back.",
    "panel_as_read": ", {count} marked check as read",
    "panel_cannot_record": "Deal {deal} cannot be recorded: {problems}. Correct it on the page.",
    "panel_cancelled": "The scan is cancelled.",
    "panel_not_recorded": "The deal is not recorded: scan, correct, or press NEXT to confirm.",
    "camera_silent": "The camera did not answer: {error}",
    "unreadable": "No picture could be read: {why}.",
    "check_the_camera": "check the camera",
    # a frame's quality, as scanner/camera/quality.py says it (a test keeps them equal)
    "quality_dark": "More light, please: the table is too dark to read.",
    "quality_blurred": "Hold still: the picture is blurred.",
    "quality_blank": "Nothing to read: the picture is all one colour. Is the lens covered?",
    "scan_failed": "The scan failed inside handfoot ({error}); try again.",
    "unknown_card": "The card code {shown} cannot be used: {shown} is not a card of the "
    "{deck}{hint}.",
    "deck_standard": "standard deck",
    "deck_special": "special Hand 'N Foot deck",
    "hint_colour": " (a rank needs its colour, R or B: KR, 10B)",
    "hint_special_card": " (it belongs to the special Hand 'N Foot deck)",
    "hint_special_deck": " (its cards are 1–12, LORD, LADY, VILLAIN, JESTER and JOKER)",
    "scan_cancelled": "The scan was cancelled.",
    "real_camera": "Only the simulated camera can lay a new table; this one is real.",
    "upload_empty": "The upload is empty: choose a photo of the table.",
    "upload_not_picture": "The upload is not a picture handfoot can read: "
    "send a JPEG, PNG or WebP photo.",
    "upload_too_large": "The photo is too large ({width}×{height} pixels): send one of at most "
    "50 megapixels and {side} pixels a side.",
    "upload_too_small": "The picture is too small ({width}×{height} pixels): "
    "send a photo of the table.",
    "upload_unusable": "The upload is not a usable picture: send a photo of the table.",
    "not_at_table": "Scan {id} was not made at the table; it cannot be corrected.",
    # teaching a deck (the Decks page)
    "deck_taken": "There is already a deck called {name}: open it and choose Teach again, "
    "or give this one another name.",
    "deck_name_bad": "Give the deck a name of 1 to {most} letters, on one line.",
    "nothing_to_teach": "No card was found in the photo: nothing to teach. Lay the deck out "
    "face up under the camera, in good light, and take the photo again.",
    "no_deck": "There is no deck called {name}.",
    "lesson_full": "This lesson holds {most} photos already: keep it, or take the photo again.",
    "deck_file_bad": "This file is not a deck handfoot can read: choose a file saved with "
    "Save this deck to a file.",
    "deck_other_kind": "The deck {name} is a {deck}, and these rules play with the other one: "
    "choose another deck, or none.",
    "no_lesson": "This photo is no longer waiting to be kept: take the photo again.",
    "teach_failed": "Teaching the deck failed inside handfoot ({error}); try again.",
}


class Said(str):
    """A sentence of :data:`SENTENCES`, in English, that knows how it was made.

    >>> said = Said.of("undone", deal=2)
    >>> str(said), said.to_json()
    ('Deal 2 is undone: correct it and confirm.', {'key': 'undone', 'values': {'deal': 2}})
    """

    key: str
    values: dict[str, Any]

    @classmethod
    def of(cls, key: str, **values: Any) -> Said:
        said = cls(SENTENCES[key].format(**values))
        said.key = key
        said.values = values
        return said

    def to_json(self) -> dict:
        return {
            "key": self.key,
            "values": {
                name: value.to_json() if isinstance(value, Said | Problems) else value
                for name, value in self.values.items()
            },
        }


class Problems(str):
    """The engine's problems as part of a sentence: in English, joined by "; ", and as the
    page says them in its language (each where it is, with its sentence key and values)."""

    problems: list[dict]

    @classmethod
    def of(cls, sentences: list[str], problems: list[dict]) -> Problems:
        said = cls("; ".join(sentences))
        said.problems = problems
        return said

    def to_json(self) -> dict:
        return {"problems": self.problems}


def nothing() -> str:
    """An optional part left out (a plain empty string: nothing to say in any language)."""
    return ""
