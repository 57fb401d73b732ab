"""The table's page as players use it (issue: one flow for a deal, feedback where the finger
is, a photo's result at once). Each test here is one problem seen when a whole game was played
on the page by a new user, in Debian's chromium against ``handfoot serve`` as in
``test_browser``; it fails on the page as it was and passes on the page as it is."""

from __future__ import annotations

import re

import httpx2
import pytest

from tests.web import test_browser as harness
from tests.web.test_browser import PHONE, PIN, WAIT_MS, Phone, in_sight

# The first browser test's server, browser and phones (its module skips without chromium).
artefacts = harness.artefacts
server = harness.server
browser = harness.browser
phones = harness.phones
photo = harness.photo

pytestmark = pytest.mark.slow


def headers(server: str) -> dict:
    """What a phone's page sends with a change: the table's PIN, and its own origin."""
    return {"X-Table-PIN": PIN, "Origin": server}


def post(server: str, path: str, body: dict | None = None) -> dict:
    answer = httpx2.post(server + path, json=body or {}, headers=headers(server), timeout=60)
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def get(server: str, path: str) -> dict:
    answer = httpx2.get(server + path, headers=headers(server), timeout=30)
    assert answer.status_code == 200, answer.text
    return answer.json()


def state(server: str) -> dict:
    return get(server, "/api/state")


def fresh_game(server: str, rules: str = "pagat") -> dict:
    body = {"name": "Flow", "sides": [{"name": "Us"}, {"name": "Them"}], "rules": rules}
    return post(server, "/api/games", body)


def with_pin(phone: Phone, path: str = "/") -> None:
    phone.open(path)
    phone.page.locator("#pin").fill(PIN)
    phone.page.locator("#pin").dispatch_event("change")


def test_a_photo_shows_at_once_on_the_phone_that_sent_it(server, phones, photo):
    """Problem 1: the photo is chosen through the page's own button, as a finger does (the
    file input then has the focus); its scan shows on this phone without another tap."""
    fresh_game(server)
    phone = phones("photo-at-once", PHONE)
    page = phone.page
    with_pin(phone)
    before = state(server)["last_scan"]
    with page.expect_file_chooser() as chooser:
        page.get_by_text("Score a photo").first.click()
    chooser.value.set_files(
        files=[{"name": "table.jpg", "mimeType": "image/jpeg", "buffer": photo}]
    )
    page.wait_for_function(
        "() => document.querySelector('#status.bad') || "
        "[...document.querySelectorAll('#live .scan')].some(s => s.id !== 'scan-'"
        f" + {before['id'] if before else 0})",
        timeout=WAIT_MS,
    )
    assert not page.locator("#status.bad").count(), phone.status()
    scanned = state(server)["last_scan"]["id"]
    assert page.locator(f"#live #scan-{scanned}").count() == 1
    phone.shot("photo-shown", full_page=False)


def test_the_scan_mode_starts_at_table_for_each_deal_and_game(server, phones):
    """Problem 2: the mode chosen for the last scan does not carry into the next deal or a
    new game, and the page shows it in words as big as a button."""
    fresh_game(server)
    post(server, "/api/select", {"mode": "leftovers"})
    assert state(server)["panel"]["mode"] == "leftovers"
    post(server, "/api/deal/confirm", {"accept_checks": True})
    assert state(server)["deal"] == 2 and state(server)["panel"]["mode"] == "table"
    post(server, "/api/select", {"mode": "meld"})
    fresh_game(server)
    assert state(server)["panel"]["mode"] == "table"

    phone = phones("mode-big", PHONE)
    phone.open("/")
    shown = phone.page.locator("#live .mode-now")
    assert "table" in shown.inner_text().lower()
    size = shown.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    assert size >= 26, f"the mode is shown at {size} px"


def test_confirm_asks_before_recording_a_deal_with_nothing_scanned(server, phones):
    """Problem 6: Confirm on an empty deal asks first; saying no records nothing."""
    fresh_game(server)
    phone = phones("confirm-asks", PHONE)
    page = phone.page
    with_pin(phone, "/deal")
    phone.answer_yes = False
    page.get_by_role("button", name="Confirm deal 1").click()
    page.wait_for_timeout(500)
    asked = phone.dialogs
    assert asked and "nothing" in asked[0].lower(), asked
    assert state(server)["deals_played"] == []


def test_house_rules_in_a_form_checked_as_typed(server, phones):
    """Problem 3: no TOML to type on a phone. Each rule is a field; a mistake is named in
    the field's words beside the field (not "Expected newline… line 4, column 20"), the
    summary always describes the values in the form, and the game starts with them."""
    phone = phones("rules-form", PHONE)
    page = phone.page
    with_pin(phone, "/new")
    page.get_by_role("radio", name=re.compile("^family")).check()
    summary = page.locator("#rules-summary")
    page.wait_for_function(
        "() => /family/.test(document.getElementById('rules-summary').textContent)"
    )
    page.locator("details.house-rules summary").click()
    clean = page.get_by_label("Points for a clean book")
    clean.fill("2OO")
    problem = page.locator("#problem-clean_bonus")
    problem.wait_for(state="visible")
    assert "whole number" in problem.inner_text() and "2OO" in problem.inner_text()
    assert in_sight(problem)
    phone.shot("rules-form-problem", full_page=False)
    clean.fill("600")
    page.wait_for_function(
        "() => /clean book is worth 600/.test(document.getElementById('rules-summary').textContent)"
    )
    assert problem.is_hidden()
    assert page.locator("input[name=rules][value=house]").is_checked()
    assert "House rules based on family" in summary.inner_text()
    page.get_by_label("Points for a clean book").fill("700")  # the summary follows every edit
    page.wait_for_function(
        "() => /clean book is worth 700/.test(document.getElementById('rules-summary').textContent)"
    )
    harness.assert_readable(phone, "the house-rules form")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(server + "/")
    game = state(server)["game"]
    assert "clean_bonus = 700" in game["rules_toml"]


def test_the_engines_problem_with_a_typed_rules_text_is_in_plain_words(server):
    answer = httpx2.post(
        server + "/api/rules/check",
        json={"rules_toml": 'base = "pagat"\nclean_bonus = 2OO\n'},
        headers=headers(server),
        timeout=30,
    )
    error = answer.json()["error"]
    assert "line 2" in error and "clean_bonus = 2OO" in error and "column" not in error
    answer = httpx2.post(
        server + "/api/rules/check",
        json={"rules_toml": 'base = "pagat"\nwild = 1\n'},
        headers=headers(server),
        timeout=30,
    )
    assert "handfoot rules show" not in answer.json()["error"]  # no command to run
