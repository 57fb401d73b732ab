"""The whole game through the new flow, as the issue's "Done when" asks: four deals played on
a phone (Debian's chromium, phone size) against ``handfoot serve`` with the simulated camera
and panel, house rules changed in the form, a photo uploaded, a card corrected by tapping the
picture, dark mode in deal 2, Danish from deal 3, and a second screen (desktop size) that
follows every deal. The totals every screen shows are ``engine.score_deal``'s for the deals
the game recorded. The taps of deal 1 are counted; screenshots of each step are kept in
``build/test-artefacts/browser``.

Taps not counted (the simulated camera's, not the flow's): "Lay a new table" before a side's
table, which stands for laying the cards, and removing melds the simulated camera laid that
are not that side's (it lays busier tables than one side's)."""

from __future__ import annotations

import re

import pytest

from engine import deal_from_json, rules_from_toml, score_deal
from tests.web import test_browser as harness
from tests.web.test_browser import DESKTOP, PHONE, PIN, Phone

server = harness.server
browser = harness.browser
phones = harness.phones
photo = harness.photo
artefacts = harness.artefacts

pytestmark = pytest.mark.slow

ONE_SIDE_TAPS = 8  # the aim: one side's table scan to a confirmed deal, one correction
# A card whose colour can be corrected without changing the meld's legality or points: a
# natural card that is not a three.
RECOLOURABLE = r"^(A|[4-9]|10|J|Q|K)[RB]$"
TOPMOST = """pattern => {
  for (const mark of document.querySelectorAll('#live figure.picture svg.marks g.mark')) {
    if (!new RegExp(pattern).test(mark.getAttribute('data-code'))) { continue; }
    const text = mark.querySelector('text');
    text.scrollIntoView({block: 'center'});
    const box = text.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (hit && hit.closest('g.mark') === mark) { return mark.getAttribute('data-card'); }
  }
  return null;
}"""


class Taps:
    """Every tap of the counted path, by what it was for."""

    def __init__(self) -> None:
        self.log: list[str] = []

    def tap(self, locator, what: str) -> None:
        locator.click()
        self.log.append(what)

    def count(self, prefix: str = "") -> int:
        return sum(1 for what in self.log if what.startswith(prefix))


def shown_scan(phone: Phone) -> int | None:
    block = phone.page.locator("#live .scan")
    return int(block.get_attribute("data-scan-id")) if block.count() else None


def wait_for_new_scan(phone: Phone, before: int | None) -> int:
    phone.page.wait_for_function(
        "before => { const s = document.querySelector('#live .scan');"
        " return (s && s.getAttribute('data-scan-id') !== String(before))"
        " || document.querySelector('#status.bad'); }",
        arg=before,
    )
    assert not phone.page.locator("#status.bad").count(), phone.status()
    return shown_scan(phone)


def scan_step(phone: Phone, taps: Taps, what: str) -> int:
    """The next step's big Scan; the new scan's id."""
    before = shown_scan(phone)
    taps.tap(phone.page.locator("#scan-button"), what)
    return wait_for_new_scan(phone, before)


def photo_step(phone: Phone, taps: Taps, what: str, jpeg: bytes) -> int:
    page = phone.page
    before = shown_scan(phone)
    with page.expect_file_chooser() as chooser:
        taps.tap(page.locator("#photo-button"), what)
    chooser.value.set_files(files=[{"name": "t.jpg", "mimeType": "image/jpeg", "buffer": jpeg}])
    return wait_for_new_scan(phone, before)


def keep_only_this_sides_melds(phone: Phone, scan_id: int) -> None:
    """Remove what the simulated camera laid that is not this side's (not counted)."""
    view = harness.api(phone.url, f"/api/scans/{scan_id}")
    if view["legal"]:
        return
    phone.open(f"/scan/{scan_id}")
    harness.make_legal(phone)
    phone.open("/")


def correct_on_the_picture(phone: Phone, taps: Taps) -> None:
    """Tap a card's name on the picture, then the other colour: two taps."""
    page = phone.page
    card_id = page.evaluate(TOPMOST, RECOLOURABLE)
    assert card_id, "no card on the picture to correct"
    mark = page.locator(f"#live svg.marks g.mark[data-card='{card_id}']")
    code = mark.get_attribute("data-code")
    taps.tap(mark.locator("text"), "us: correct: the card on the picture")
    assert page.locator("#picker-close-up canvas").is_visible()
    phone.shot("deal1-picker")
    other = "B" if code.endswith("R") else "R"
    taps.tap(page.locator(f"#picker-colours button[data-colour='{other}']"), "us: correct: colour")
    page.wait_for_selector(f"#live .card.corrected[data-card='{card_id}']")
    page.wait_for_selector(f"#live svg.marks g.mark[data-card='{card_id}'][data-code$='{other}']")


def play_side(phone, taps, side: str, deal: int, *, first: bool, jpeg=None, correct=False):
    page = phone.page
    if not first and page.locator("#live .next").get_by_text("Lay a new table").count():
        page.locator("#live .next").get_by_text("Lay a new table").click()  # laying cards
        phone.wait_status("new table|nyt bord|new table")
    title = page.locator("#live .mode-now").inner_text()
    assert side in title, title  # the next step names the side, and the table first
    who = side.lower()
    if jpeg is not None:
        table = photo_step(phone, taps, f"{who}: table photo", jpeg)
    else:
        table = scan_step(phone, taps, f"{who}: table scan")
    phone.shot(f"deal{deal}-{who}-table")
    keep_only_this_sides_melds(phone, table)
    if correct:
        correct_on_the_picture(phone, taps)
        phone.shot(f"deal{deal}-{who}-corrected")
    assert page.locator("#live .mode-now").get_attribute("data-mode") == "leftovers"
    scan_step(phone, taps, f"{who}: leftovers scan")
    phone.shot(f"deal{deal}-{who}-leftovers")


def confirm_deal(phone: Phone, taps: Taps, deal: int) -> None:
    page = phone.page
    assert page.locator("#live .next[aria-labelledby] a.button.big[href='/deal']").count()
    taps.tap(page.locator("#live .next a.button.big[href='/deal']"), "confirm: open the deal")
    page.wait_for_url(phone.url + "/deal")
    button = page.locator("#confirm-deal")
    assert button.is_enabled(), page.locator(".preview").inner_text()
    assert harness.in_sight(button)  # what to do next is at the top
    phone.shot(f"deal{deal}-preview", full_page=False)
    asked = len(phone.dialogs)
    taps.tap(button, "confirm: confirm")
    phone.wait_status(f"Deal {deal} is recorded|Giv {deal} er gemt")
    taps.log += ["confirm: yes to a question"] * (len(phone.dialogs) - asked)
    phone.shot(f"deal{deal}-recorded", full_page=False)


def house_rules_game(phone: Phone) -> None:
    """The game started with house rules changed in the form: going out is worth 150."""
    page = phone.page
    phone.open("/new")
    page.locator("#pin").fill(PIN)
    page.locator("#pin").dispatch_event("change")
    page.get_by_label("Name of the game (optional)").fill("Whole game")
    # Players and where they sit: a short field and a seat each (issue 72).
    for team, (player, partner) in enumerate((("Anna", "Bo"), ("Cai", "Dina")), start=1):
        page.locator(f"input[name=player_{team}_1]").fill(player)
        page.locator(f"input[name=player_{team}_2]").fill(partner)
        page.get_by_label(f"Seat of Team {team}, Player").select_option(str(team))
        page.get_by_label(f"Seat of Team {team}, Partner").select_option(str(team + 2))
    page.locator("details.house-rules summary").click()
    page.get_by_label("Points for going out").fill("150")
    page.wait_for_function(
        "() => /is worth 150/.test(document.getElementById('rules-summary').textContent)"
    )
    phone.shot("new-game-house-rules")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(phone.url + "/")
    seating = page.locator("details.seating")
    assert "seat 1 Anna (Us) · seat 2 Cai (Them) · seat 3 Bo (Us) · seat 4 Dina (Them)" in (
        " ".join(seating.text_content().split())
    )
    assert page.locator(".deal-line .dealer").inner_text() == "Anna deals"


def engine_totals(server: str) -> dict[str, int]:
    exported = harness.api(server, "/api/games/1/export.json")
    rules = rules_from_toml(exported["game"]["rules_toml"], source="the game's house rules")
    assert rules.going_out_bonus == 150
    totals: dict[str, int] = {}
    for recorded in exported["deals"]:
        scored = score_deal(deal_from_json(recorded["deal"], rules=rules))
        for side in scored.sides:
            totals[side.name] = totals.get(side.name, 0) + side.total
    return totals


def test_a_whole_game_through_the_new_flow(server, phones, photo):
    phone = phones("game", PHONE)
    page = phone.page
    house_rules_game(phone)
    watcher = phones("game-watcher", DESKTOP)
    watcher.open("/")
    assert harness.in_sight(page.locator("#scan-button"))  # the next action, at the top
    first_taps = Taps()
    for deal in range(1, 5):
        taps = first_taps if deal == 1 else Taps()
        phone.open("/")
        if deal == 2:
            page.locator("#theme").click()  # dark, and kept
            assert page.evaluate("getComputedStyle(document.body).backgroundColor") != (
                "rgb(255, 255, 255)"
            )
        if deal == 3:
            page.select_option("#language", "da")
            page.wait_for_function("() => document.documentElement.lang === 'da'")
            assert page.get_by_role("link", name="Nyt spil").count() == 1
        assert f"{deal}" in page.locator(".deal-line").inner_text()
        assert page.locator("#live .mode-now").get_attribute("data-mode") == "table"
        play_side(phone, taps, "Us", deal, first=True, correct=deal == 1)
        play_side(phone, taps, "Them", deal, first=False, jpeg=photo if deal == 1 else None)
        confirm_deal(phone, taps, deal)
        phone.open("/")
        expected = engine_totals(server)
        assert harness.shown_totals(phone) == expected
        watcher.page.wait_for_function(
            "expected => [...document.querySelectorAll('.totals .big')]"
            ".map(e => e.textContent.replace(/[,.\\s]/g, '')).join(' ') === expected",
            arg=" ".join(str(total) for total in expected.values()),
        )
        watcher.shot(f"deal{deal}-followed")
    phone.shot("game-over")
    harness.assert_readable(phone, "the table page at the end of the game")
    assert page.locator(".deal-line").inner_text().strip().startswith(("Spillet er slut",))
    other_side = first_taps.count("them:")
    one_side = len(first_taps.log) - other_side
    print(
        f"deal 1 taps: {len(first_taps.log)} in all; one side's table scan to the confirmed "
        f"deal with one correction: {one_side}; the other side's scans: {other_side}"
    )
    print("  " + "; ".join(first_taps.log))
    assert one_side <= ONE_SIDE_TAPS, first_taps.log
    assert re.search(r"\d", page.locator(".totals").inner_text())
