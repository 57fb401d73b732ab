"""Taught decks in a real SQLite record: kept whole, taught again without losing what players
corrected, listed, shown, thinned and deleted; a version-2 record brought up to date; and a
deck written to one file and read back."""

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from scanner.decks.profiles import DeckFileError, png, read_deck_file, write_deck_file
from scanner.store import BadValue, NotFound, Store
from scanner.store.decks import Example
from scanner.store.schema import MIGRATIONS, migrate

CODES = ("3B", "5B", "LADY", "none")
SIZE = (48, 32)


def crop(shade: int) -> bytes:
    return png(np.full((*SIZE, 3), shade, np.uint8))


def examples(*codes: str, source: str = "taught") -> list[Example]:
    return [Example(code, crop(10 * n), source) for n, code in enumerate(codes)]


def test_a_taught_deck_is_kept_listed_shown_and_deleted(tmp_path: Path):
    with Store.open(tmp_path) as store:
        deck = store.teach_deck("Grandma's blue", "standard", examples("3B", "5B", "none"), CODES)
        assert (deck.name, deck.layout, deck.taught, deck.corrected) == (
            "Grandma's blue",
            "standard",
            3,
            0,
        )
    with Store.open(tmp_path) as store:  # on disk, not in memory
        assert [d.name for d in store.decks()] == ["Grandma's blue"]
        assert store.deck("grandma's BLUE").name == "Grandma's blue"
        kept = store.deck_examples("Grandma's blue")
        assert [e.code for e in kept] == ["3B", "5B", "none"]
        assert kept[1].crop == crop(10)
        store.delete_deck("Grandma's blue")
        assert store.decks() == []
        with pytest.raises(NotFound, match="There is no deck"):
            store.deck("Grandma's blue")


def test_teaching_again_replaces_what_was_taught_and_keeps_the_corrections(tmp_path: Path):
    with Store.open(tmp_path) as store:
        store.teach_deck("red", "special", examples("LADY", "3B"), CODES)
        store.add_deck_examples("red", examples("5B", source="corrected"), CODES)
        again = store.teach_deck("red", "special", examples("LADY"), CODES)
        assert (again.taught, again.corrected) == (1, 1)
        kept = store.deck_examples("red")
        assert sorted((e.code, e.source) for e in kept) == [
            ("5B", "corrected"),
            ("LADY", "taught"),
        ]
        thinner = store.remove_deck_example("red", kept[0].id)
        assert thinner.taught + thinner.corrected == 1
        with pytest.raises(NotFound):
            store.remove_deck_example("red", kept[0].id)


@pytest.mark.parametrize(
    ("name", "layout", "items", "says"),
    [
        ("", "standard", examples("3B"), "empty"),
        ("a\x07b", "standard", examples("3B"), "control"),
        ("x" * 61, "standard", examples("3B"), "longer"),
        ("ok", "tarot", examples("3B"), "layout"),
        ("ok", "standard", examples("QZ"), "no card"),
        ("ok", "standard", [Example("3B", b"", "taught")], "empty"),
        ("ok", "standard", [Example("3B", crop(1), "guessed")], "source"),
    ],
)
def test_what_cannot_be_a_deck_is_refused_and_nothing_is_kept(tmp_path, name, layout, items, says):
    with Store.open(tmp_path) as store:
        with pytest.raises(BadValue, match=says):
            store.teach_deck(name, layout, items, CODES)
        assert store.decks() == []


def test_a_version_2_record_gains_the_decks_and_keeps_its_games(tmp_path: Path):
    path = tmp_path / "handfoot.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    assert migrate(conn, MIGRATIONS[:2]) == 2
    conn.execute(
        "INSERT INTO games (created_at, name, rules_name, rules_toml, sides) VALUES "
        "('2026-01-01', 'old', 'pagat', '', '[{\"name\": \"A\"}, {\"name\": \"B\"}]')"
    )
    conn.close()
    with Store.open(tmp_path) as store:
        assert store.schema_version == len(MIGRATIONS)
        assert [g.name for g in store.games()] == ["old"]
        assert store.teach_deck("new", "standard", examples("3B"), CODES).taught == 1


def test_a_deck_file_carries_a_deck_to_another_record(tmp_path: Path):
    with Store.open(tmp_path / "one") as store:
        store.teach_deck("blue", "standard", examples("3B", "5B"), CODES)
        store.add_deck_examples("blue", examples("LADY", source="corrected"), CODES)
        write_deck_file(store, "blue", tmp_path / "blue.hfdeck")
    name, layout, items = read_deck_file(tmp_path / "blue.hfdeck", CODES, SIZE)
    assert (name, layout) == ("blue", "standard")
    assert [(e.code, e.source) for e in items] == [
        ("3B", "taught"),
        ("5B", "taught"),
        ("LADY", "corrected"),
    ]
    with Store.open(tmp_path / "two") as store:
        deck = store.teach_deck("blue at the club", layout, items, CODES)
        assert (deck.taught, deck.corrected) == (2, 1)


def test_a_file_that_is_no_deck_file_is_refused_in_plain_words(tmp_path: Path):
    other = tmp_path / "photo.jpg"
    other.write_bytes(b"\xff\xd8\xff not a zip")
    with pytest.raises(DeckFileError, match="not a deck file"):
        read_deck_file(other, CODES, SIZE)
    with pytest.raises(DeckFileError, match="not a deck file"):
        read_deck_file(tmp_path / "missing.hfdeck", CODES, SIZE)


def test_a_game_keeps_the_deck_it_is_read_with_by_the_decks_own_name(tmp_path: Path):
    sides = [{"name": "Us", "players": []}]
    with Store.open(tmp_path) as store:
        store.teach_deck("Grandma's blue", "standard", examples("3B", "5B"), CODES)
        game = store.create_game("", "pagat", "", sides, deck="GRANDMA'S BLUE")
        plain = store.create_game("", "pagat", "", sides)
        with pytest.raises(NotFound, match="There is no deck"):
            store.create_game("", "pagat", "", sides, deck="Nobody's")
        assert len(store.games()) == 2  # the refused game was not kept
    with Store.open(tmp_path) as store:
        assert store.game(game.id).deck == "Grandma's blue"
        assert store.game(plain.id).deck is None
        assert store.game(game.id).to_json()["deck"] == "Grandma's blue"
