"""The lessons waiting for the players' word: one per deck name, a few in all."""

import numpy as np
import pytest

from scanner.decks.teach import Lesson
from scanner.service.decks import MOST_LESSONS, Lessons, NoSuchDeck
from scanner.vision.profile import Taught


def lesson(*codes: str) -> Lesson:
    crop = np.zeros((8, 6, 3), np.uint8)
    taught = tuple(Taught(code, crop) for code in codes)
    found = tuple(dict.fromkeys(c for c in codes if c != "none"))
    return Lesson(taught, found, (), 0, 1)


def test_a_new_photo_of_a_deck_replaces_its_waiting_lesson_whatever_the_case():
    lessons = Lessons()
    first = lessons.add("Blue", "standard", False, lesson("AR"))
    second = lessons.add("BLUE", "standard", False, lesson("AR", "2R"))
    with pytest.raises(NoSuchDeck):
        lessons.get(first.id)
    assert lessons.get(second.id).to_json()["found"] == [
        {"code": "AR", "crops": [0]},
        {"code": "2R", "crops": [1]},
    ]


def test_only_a_few_lessons_wait_the_oldest_forgotten_first():
    lessons = Lessons()
    waiting = [lessons.add(f"deck {n}", "special", False, lesson("1")) for n in range(6)]
    kept = [w for w in waiting if _waits(lessons, w.id)]
    assert kept == waiting[-MOST_LESSONS:]


def test_the_marks_that_are_no_card_are_kept_but_not_shown_as_cards():
    waiting = Lessons().add("red", "standard", False, lesson("AR", "none", "AR"))
    assert [e.code for e in waiting.examples] == ["AR", "none", "AR"]
    assert waiting.to_json()["found"] == [{"code": "AR", "crops": [0, 2]}]


def _waits(lessons: Lessons, lesson_id: int) -> bool:
    try:
        lessons.get(lesson_id)
    except NoSuchDeck:
        return False
    return True
