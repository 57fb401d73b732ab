"""Teaching a deck through the page in Debian's chromium, against ``handfoot serve`` with the
simulated camera as in ``test_browser``: the Decks page's form, the photo's cards shown for
confirmation, the deck kept, looked at and deleted; every page readable on a phone."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import pytest

from scanner.service import TableCamera
from tests.web import test_browser as harness
from tests.web.test_browser import PHONE, PIN, assert_readable

# The first browser test's server, browser and phones (its module skips without chromium).
artefacts = harness.artefacts
server = harness.server
browser = harness.browser
phones = harness.phones

pytestmark = pytest.mark.slow


def test_a_deck_is_taught_kept_and_deleted_through_the_page(server, phones):
    screen = phones("decks", PHONE)
    page = screen.page
    screen.open("/")  # the decks are taught from the new game's page, where they are chosen
    page.get_by_role("link", name="New game", exact=True).click()
    page.get_by_role("link", name="Decks").click()
    page.wait_for_url(re.compile(r"/decks$"))
    assert page.get_by_text("No deck is taught yet.").is_visible()
    page.locator("#pin").fill(PIN)
    page.get_by_label("The deck's name").fill("Grandma's blue")
    page.get_by_role("radio", name=re.compile("^Special Hand 'N Foot deck")).check()
    assert page.locator(".lay-out[data-layout=special] .layout-card").count() == 17
    assert_readable(screen, "the decks page")
    screen.shot("decks")

    page.get_by_role("button", name="Take the photo").click()
    page.wait_for_url(re.compile(r"/teach/\d+$"))
    assert page.get_by_text("These are the cards we saw: right?").is_visible()
    crops = page.locator("#lesson-found img")
    found = crops.count()  # counted here: the locator counts on whatever page is open
    assert found >= 10
    page.wait_for_function(
        "() => [...document.querySelectorAll('#lesson-found img')]"
        ".every(img => img.complete && img.naturalWidth > 0)"
    )
    assert page.locator("#lesson-missing").is_visible()
    assert page.locator(".crop-code.red").count() == 0  # no red card in the special deck
    assert_readable(screen, "the photo's cards")
    screen.shot("lesson")

    page.get_by_role("button", name="Yes, keep it").click()
    page.wait_for_url(re.compile(r"/decks/Grandma%27s%20blue$"))
    assert page.locator("h1").inner_text() == "Grandma's blue"
    assert page.locator(".crop-card img").count() >= found
    assert_readable(screen, "the deck's page")
    screen.shot("deck")
    with page.expect_download() as saving:
        page.get_by_role("link", name="Save this deck to a file").click()
    saved = saving.value
    assert saved.suggested_filename == "Grandma's blue.handfoot-deck.zip"
    deck_file = Path(saved.path()).read_bytes()

    screen.open("/decks")
    assert page.get_by_role("link", name="Grandma's blue").is_visible()
    page.get_by_role("link", name="Grandma's blue").click()
    page.wait_for_url(re.compile(r"/decks/Grandma"))
    page.get_by_role("button", name="Delete this deck").click()
    page.wait_for_url(re.compile(r"/decks$"))
    assert screen.dialogs[-1] == (
        "Delete the deck Grandma's blue and everything the camera learnt from it?"
    )
    assert page.get_by_text("No deck is taught yet.").is_visible()

    # the deck saved before comes back from its file, as it would at another table
    page.locator("input[data-deck-file]").set_input_files(
        files=[{"name": "deck.zip", "mimeType": "application/zip", "buffer": deck_file}]
    )
    page.wait_for_url(re.compile(r"/decks/Grandma%27s%20blue$"))
    assert page.locator(".crop-card img").count() >= found
    screen.open("/decks")

    # a phone's own photo of the deck laid out, chosen on the same form, teaches it too
    laid_out = TableCamera("synthetic:9").photo_to_teach("standard")
    photo = cv2.imencode(".jpg", laid_out[:, :, ::-1])[1].tobytes()
    page.get_by_label("The deck's name").fill("Phone deck")
    page.get_by_role("radio", name=re.compile("^Standard")).check()
    page.locator("input[data-teach-upload]").set_input_files(
        files=[{"name": "deck.jpg", "mimeType": "image/jpeg", "buffer": photo}]
    )
    page.wait_for_url(re.compile(r"/teach/\d+$"))
    assert page.get_by_text("These are the cards we saw: right?").is_visible()
    assert page.locator("#lesson-found img").count() >= 10
