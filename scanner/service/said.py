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
                name: value.to_json() if isinstance(value, Said) else value
                for name, value in self.values.items()
            },
        }


def nothing() -> str:
    """An optional part left out (a plain empty string: nothing to say in any language)."""
    return ""
