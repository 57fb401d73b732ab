import pytest

from engine import Card, Colour, Deck, Rank, UnknownCardError, all_cards, parse_cards


@pytest.mark.parametrize(
    ("token", "code"),
    [("QH", "QR"), ("qd", "QR"), ("10s", "10B"), ("Ac", "AB"), ("KR", "KR"), ("jk", "JK")],
)
def test_suit_letters_fold_into_colour(token, code):
    assert Card.from_code(token).code == code


def test_repr_shows_the_canonical_code():
    assert repr(Card.from_code("QH")) == "Card('QR')"
    assert Card.from_code("QH") == Card(Rank.QUEEN, Colour.RED)


@pytest.mark.parametrize(
    ("token", "rank"),
    [
        ("1", Rank.N1),
        ("12", Rank.N12),
        ("lo", Rank.LORD),
        ("LADY", Rank.LADY),
        ("vi", Rank.VILLAIN),
        ("JE", Rank.JESTER),
        ("JK", Rank.SPECIAL_JOKER),
        ("joker", Rank.SPECIAL_JOKER),
    ],
)
def test_special_deck_tokens_and_short_forms(token, rank):
    assert Card.from_code(token, Deck.SPECIAL).rank is rank


@pytest.mark.parametrize(
    ("token", "deck", "words"),
    [
        ("ZZ", Deck.STANDARD, ["'ZZ'", "standard deck"]),
        ("K", Deck.STANDARD, ["'K'", "colour"]),
        ("11R", Deck.STANDARD, ["'11R'"]),
        ("LORD", Deck.STANDARD, ["'LORD'", "special"]),
        ("KR", Deck.SPECIAL, ["'KR'", "special Hand 'N Foot deck"]),
        ("13", Deck.SPECIAL, ["'13'", "1–12"]),
        ("3X", Deck.STANDARD, ["'3X'"]),
        ("", Deck.STANDARD, ["''"]),
    ],
)
def test_a_bad_token_names_itself_and_the_deck(token, deck, words):
    with pytest.raises(UnknownCardError) as caught:
        Card.from_code(token, deck)
    for word in words:
        assert word in str(caught.value)
    assert caught.value.token == token


def test_parse_accepts_spaces_and_commas():
    assert [c.code for c in parse_cards(" 8r,8S  2d ,jk ")] == ["8R", "8B", "2R", "JK"]
    assert parse_cards("") == ()


def test_card_kinds():
    assert Card.from_code("3H").is_red_three and not Card.from_code("3H").is_black_three
    assert Card.from_code("3S").is_black_three
    assert Card.from_code("2C").is_wild and Card.from_code("JK").is_wild
    assert Card.from_code("JESTER", Deck.SPECIAL).is_wild
    assert not Card.from_code("LORD", Deck.SPECIAL).is_wild


def test_every_card_of_both_decks():
    assert len(all_cards(Deck.STANDARD)) == 13 * 2 + 1
    assert len(all_cards(Deck.SPECIAL)) == 12 + 5
    assert all(card.deck is Deck.SPECIAL for card in all_cards(Deck.SPECIAL))


def test_a_colour_is_required_exactly_where_the_rank_has_one():
    with pytest.raises(ValueError):
        Card(Rank.KING)
    with pytest.raises(ValueError):
        Card(Rank.JOKER, Colour.RED)
