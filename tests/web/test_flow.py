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
    # Issue 72: the rules the form could not set before, each a labelled field.
    deal_4 = page.get_by_label("Deal 4: clean")
    deal_4.fill("3")
    page.wait_for_function(
        "() => /deal by deal .* \\/ 3 clean/.test("
        "document.getElementById('rules-summary').textContent)"
    )
    page.get_by_label("Deals whose first meld must be a concealed canasta").fill("4")
    page.get_by_label("Who plays together").select_option("individual")
    page.wait_for_function(
        "() => /deal 4 must be a concealed canasta/.test("
        "document.getElementById('rules-summary').textContent)"
    )
    every_deal = page.get_by_role("group", name="Books needed to go out (every deal)")
    every_deal.get_by_label("dirty").fill("2")
    assert deal_4.input_value() == "3"  # a row changed by hand keeps what it was given
    assert page.get_by_label("Deal 2: dirty").input_value() == "2"  # every deal follows
    harness.assert_readable(phone, "the house-rules form")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(server + "/")
    game = state(server)["game"]
    assert "clean_bonus = 700" in game["rules_toml"]
    assert "concealed_first_meld_deals = [4]" in game["rules_toml"]
    assert 'play = "individual"' in game["rules_toml"]


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


TOPMOST_MARK = """() => {
  for (const mark of document.querySelectorAll('#live figure.picture svg.marks g.mark')) {
    mark.querySelector('text').scrollIntoView({block: 'center'});
    const box = mark.querySelector('text').getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (hit && hit.closest('g.mark') === mark) { return mark.getAttribute('data-card'); }
  }
  return null;
}"""


def scan_on_the_page(phone: Phone) -> int:
    """The big Scan button of the next step; the scan's id once its block is shown."""
    page = phone.page
    before = (
        page.locator("#live .scan").get_attribute("data-scan-id")
        if page.locator("#live .scan").count()
        else None
    )
    page.locator("#scan-button").click()
    page.wait_for_function(
        "before => { const s = document.querySelector('#live .scan');"
        " return (s && s.getAttribute('data-scan-id') !== before)"
        " || document.querySelector('#status.bad'); }",
        arg=before,
    )
    assert not page.locator("#status.bad").count(), phone.status()
    return int(page.locator("#live .scan").get_attribute("data-scan-id"))


OVERLAPPING_NAMES = """() => {
  const boxes = [...document.querySelectorAll('#live figure.picture svg.marks g.mark text')]
    .map((text) => [text.textContent, text.getBoundingClientRect()]);
  const over = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i][1], boxes[j][1]];
      if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1
          && b.top < a.bottom - 1) { over.push(boxes[i][0] + ' / ' + boxes[j][0]); }
    }
  }
  return [boxes.length, over];
}"""


def picture_zooms_and_names_never_overlap(phone: Phone) -> None:
    """Issue 72, the picture: no card's name covers another's, however tight the fan; + and
    − zoom, the arrows move the view (no swiping needed), and the names stay readable and
    apart at every zoom; the camera's own marks (drawn once, at the scan) are not offered."""
    page = phone.page
    figure = page.locator("#live figure.picture").first
    count, over = page.evaluate(OVERLAPPING_NAMES)
    assert count > 3 and over == [], f"names on the picture overlap: {over}"
    assert not figure.locator("a[href$='/annotated']").count()
    assert figure.locator("[data-pan]").first.is_hidden()  # nothing to move over, unzoomed
    width = figure.locator("img").bounding_box()["width"]
    figure.locator("[data-zoom=in]").click()
    figure.locator("[data-zoom=in]").click()
    zoomed = figure.locator("img").bounding_box()["width"]
    assert zoomed > 1.9 * width, (width, zoomed)
    count, over = page.evaluate(OVERLAPPING_NAMES)
    assert over == [], f"names on the zoomed picture overlap: {over}"
    harness.assert_readable(phone, "the zoomed picture")
    view = figure.locator(".picture-view")
    left = view.evaluate("view => view.scrollLeft")
    figure.locator("[data-pan=right]").click()
    assert view.evaluate("view => view.scrollLeft") > left
    top = view.evaluate("view => view.scrollTop")
    figure.locator("[data-pan=down]").click()
    assert view.evaluate("view => view.scrollTop") > top
    phone.shot("picture-zoomed")
    figure.locator("[data-zoom=whole]").click()
    assert abs(figure.locator("img").bounding_box()["width"] - width) < 2


def test_a_card_corrected_on_the_picture_in_two_taps(server, phones):
    """Problems 5 and 7: the picture shows every card's name at a size a phone can read;
    tapping one opens its correction with a close-up of that card; one tap on the right rank
    corrects it (2 taps in all, not 4 through a list of 27 codes); the card is marked as
    corrected in the list and on the picture, which is drawn again at once."""
    fresh_game(server)
    phone = phones("picture-taps", PHONE)
    page = phone.page
    with_pin(phone)
    scan_on_the_page(phone)
    page.wait_for_selector("#live figure.picture svg.marks g.mark")
    harness.assert_readable(phone, "the picture with its cards named")
    phone.shot("picture")
    picture_zooms_and_names_never_overlap(phone)
    card_id = page.evaluate(TOPMOST_MARK)
    assert card_id, "no card's name on the picture can be tapped"
    mark = page.locator(f"#live svg.marks g.mark[data-card='{card_id}']")
    code = mark.get_attribute("data-code")
    taps = 0
    mark.locator("text").click()
    taps += 1
    assert page.locator("#picker").is_visible()
    assert page.locator("#picker-title").inner_text().startswith(f"Card {code}")
    assert page.locator("#picker-close-up canvas").is_visible()  # the close-up of that card
    colours = page.locator("#picker-colours button").all_inner_texts()
    if code != "JK":
        assert colours == ["Red ♥♦", "Black ♠♣"]
    harness.assert_readable(phone, "the card picker with rank and colour buttons")
    phone.shot("picker-ranks", full_page=False)
    other = page.locator("#picker-ranks button[aria-pressed=false]").first
    rank = other.get_attribute("data-rank")
    other.click()
    taps += 1
    page.wait_for_selector(f"#live .card[data-card='{card_id}'].corrected")
    new_code = page.locator(f"#live .card[data-card='{card_id}']").get_attribute("data-code")
    assert new_code.startswith(rank) and new_code != code
    assert taps == 2
    said = page.locator("#live .outcome")  # said beside the card's meld, in sight
    said.wait_for(state="visible")
    assert said.inner_text() == "Corrected." and harness.in_sight(said)
    page.wait_for_function(
        "([id, code]) => { const m = document.querySelector("
        "`#live svg.marks g.mark[data-card='${id}']`);"
        " return m && m.getAttribute('data-code') === code && m.textContent.includes('✎'); }",
        arg=[card_id, new_code],
    )
    phone.shot("picture-corrected")


def test_a_special_deck_game_shows_only_what_that_deck_has(server, phones):
    """Problem 10: no "Add a red three", no "(such as 5B JK)", no colours for the special
    deck; its own card names as the picker's buttons."""
    fresh_game(server, rules="handnfoot")
    phone = phones("special-deck", PHONE)
    page = phone.page
    with_pin(phone)
    scan_on_the_page(phone)
    assert not page.get_by_text("Add a red three").count()
    assert not page.get_by_role("heading", name="Red threes").count()
    page.locator("#live .scan .card").first.click()
    ranks = page.locator("#picker-ranks button").all_inner_texts()
    assert {"LORD", "LADY", "VILLAIN", "JESTER", "JOKER", "12"} <= set(ranks)
    assert page.locator("#picker-colours").is_hidden()
    page.get_by_role("button", name="Close").click()
    phone.open("/deal")
    assert "5B JK" not in page.locator("#live").inner_text()


def test_feedback_where_the_finger_is(server, phones):
    """Problem 4: after "Save the typed cards" the outcome is under the button and the side
    says what was typed (not "Not scanned."); after Confirm the next deal does not show an
    all-zero preview with four warnings, and the outcome is where the finger was."""
    fresh_game(server)
    phone = phones("feedback", PHONE)
    page = phone.page
    with_pin(phone, "/deal")
    them = page.locator(".side-end").filter(has=page.get_by_role("heading", name="Them"))
    them.get_by_label("Cards left in hand, typed").fill("5b jk")
    them.get_by_role("button", name="Save the typed cards").click()
    outcome = them.locator("form + .outcome")
    outcome.wait_for(state="visible")
    assert harness.in_sight(outcome) and outcome.inner_text() == "Saved."
    page.wait_for_selector(".side-end .typed-now")
    assert "5B JK" in them.locator(".typed-now").inner_text()
    assert "Not scanned" not in them.locator(".part").nth(1).inner_text()
    phone.shot("typed-saved", full_page=False)

    page.get_by_role("button", name="Confirm deal 1").click()  # asks: Us has nothing in
    assert phone.dialogs and "Us" in phone.dialogs[-1]
    page.wait_for_selector("h1:has-text('End of deal 2')")
    near = page.locator(".outcome")
    near.wait_for(state="visible")
    assert "Deal 1 is recorded" in near.inner_text() and harness.in_sight(near)
    assert page.locator(".preview td").count() == 0  # no all-zero preview
    assert page.locator(".preview .notice").count() == 0  # nor its warnings
    phone.shot("confirmed", full_page=False)


def test_dark_mode_join_code_leader_language_and_home_screen(server, phones, browser):
    """Problem 10: a phone set to dark gets a dark page, with a toggle that is remembered;
    a QR code and link to join; the leader and the gap; the page in the phone's language or
    the one picked; a manifest with icons for the home screen."""
    fresh_game(server)
    post(server, "/api/deal/side", {"side": "Us", "hand": "KB"})
    post(server, "/api/deal/side", {"side": "Them", "hand": "5B"})
    post(server, "/api/deal/confirm", {"accept_checks": True, "deal": 1})

    context = browser.new_context(
        viewport=PHONE, color_scheme="dark", locale="sv-SE", device_scale_factor=1
    )
    page = context.new_page()
    try:
        page.goto(server + "/")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(18, 20, 23)", background  # dark, as the phone is
        assert page.locator("html").get_attribute("lang") == "sv"
        assert page.get_by_role("link", name="Nytt spel").count() == 1
        assert page.locator(".leader").inner_text() == "Them leder med 5"
        page.locator("#theme").click()
        light = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert light == "rgb(255, 255, 255)"
        page.reload()
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == light
        page.select_option("#language", "da")
        page.wait_for_load_state("load")
        page.wait_for_function("() => document.documentElement.lang === 'da'")
        assert page.locator(".leader").inner_text() == "Them fører med 5"
        # what the table said last, in Danish too
        assert page.locator("#status").inner_text().startswith("Giv 1 er gemt: Us -10")
        page.locator("details.join summary").click()
        assert page.locator("details.join .qr svg path").count() >= 1
        link = page.locator("details.join .join-link").inner_text()
        assert link.startswith("http://") and link.endswith("/")
        page.screenshot(path=harness.ARTEFACTS / "dark-join.png", full_page=True)
    finally:
        context.close()

    manifest = get(server, "/manifest.webmanifest")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        assert httpx2.get(server + icon["src"], timeout=10).status_code == 200
