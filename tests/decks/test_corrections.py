"""Which cards of a scan the players corrected, as a deck learns them: a changed code, by the
index it was read from; not a card moved, taken away, accepted or added by hand."""

from scanner.decks.corrections import corrected_cards

CLASSES = ("QR", "KR", "AR", "5B", "none")


def card(card_id: int, code: str, box=(10.0, 20.0, 30.0, 60.0)) -> dict:
    return {"id": card_id, "code": code, "check": False, "box": list(box) if box else None}


def test_a_changed_code_is_taught_where_its_index_was_read():
    first = {"melds": [[card(1, "KR"), card(2, "KR")]], "leftovers": [card(3, "AR")]}
    final = {"melds": [[card(1, "QR"), card(2, "KR")]], "leftovers": [card(3, "AR")]}
    assert corrected_cards(first, final, CLASSES) == [((20.0, 40.0), "QR")]


def test_moved_deleted_accepted_and_added_cards_teach_nothing():
    first = {"melds": [[card(1, "KR")]], "leftovers": [card(2, "AR"), card(3, "5B")]}
    final = {
        "melds": [[card(1, "KR"), {"id": 9, "code": "QR", "check": False}]],  # added by hand
        "leftovers": [card(2, "AR") | {"accepted": True}],  # 3 taken away
        "red_threes": [],
    }
    assert corrected_cards(first, final, CLASSES) == []
    moved = {"leftovers": [card(1, "KR"), card(2, "AR")]}
    assert corrected_cards(first, moved, CLASSES) == []


def test_a_card_read_from_no_index_or_changed_to_no_class_teaches_nothing():
    first = {"leftovers": [card(1, "KR", box=None), card(2, "AR")]}
    final = {"leftovers": [card(1, "QR", box=None), card(2, "LADY")]}
    assert corrected_cards(first, final, CLASSES) == []
