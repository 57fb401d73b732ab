"""The page in a real browser: Playwright drives Debian's chromium (headless, never a downloaded
browser) against ``handfoot serve`` started as a player starts it, with the simulated camera
and panel and a table PIN. One deal is played through the page as people at the table would:
new game, scan a side's table, correct cards in the card picker, remove the melds that are not
that side's, score a phone's photo for the other side, scan and type the leftovers, confirm.
The totals the page shows must be the engine's for the same cards, a second phone must follow
every change live, and every page must be readable on a phone (big text, big targets, no
sideways scrolling). Screenshots are kept in ``build/test-artefacts/browser``."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from engine import Deal, Side, deal_from_json, get_preset, parse_cards, score_deal

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip(
        "no chromium found: install Debian's chromium package (make test does, as root)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed: pip install -e '.[dev]'"
)

ARTEFACTS = Path(__file__).resolve().parent.parent / "build" / "test-artefacts" / "browser"
PIN = "2468"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
MIN_TEXT_PX = 18
MIN_TARGET_PX = 48
WAIT_MS = 30_000
PAGAT = get_preset("pagat")


# --- the server and the browser -------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def handfoot_command() -> list[str]:
    script = Path(sys.executable).with_name("handfoot")
    return [str(script)] if script.exists() else [sys.executable, "-m", "scanner.cli"]


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    """``handfoot serve`` as a subprocess: the simulated camera (one frame a scan, to keep the
    test short), the simulated panel, a table PIN and a fresh data folder."""
    folder = tmp_path_factory.mktemp("browser")
    port = free_port()
    log = (folder / "server.log").open("w")
    command = [
        *handfoot_command(),
        *("serve", "--camera", "synthetic:5", "--panel", "simulated", "--frames", "1"),
        *("--port", str(port), "--data", str(folder / "data"), "--pin", PIN),
    ]
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, (folder / "server.log").read_text()
            with contextlib.suppress(httpx2.HTTPError):
                if httpx2.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            assert time.monotonic() < deadline, "the server did not answer /healthz in 60 s"
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        log.close()
        shutil.copy(folder / "server.log", ARTEFACTS / "server.log")


@pytest.fixture(scope="module")
def browser() -> Iterator:
    shutil.rmtree(ARTEFACTS, ignore_errors=True)
    ARTEFACTS.mkdir(parents=True)
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield launched
        launched.close()


class Phone:
    """One browser page at one size; it collects the page's script errors and takes the
    screenshots kept as artefacts."""

    def __init__(self, browser, url: str, name: str, viewport: dict) -> None:
        self.url = url
        self.name = name
        self.context = browser.new_context(viewport=viewport, device_scale_factor=1)
        self.page = self.context.new_page()
        self.page.set_default_timeout(WAIT_MS)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", self._console)
        self.page.on("response", self._response)
        self.page.on("dialog", lambda dialog: dialog.accept())  # "Remove meld 3…?" → OK
        self.shots = 0

    def _console(self, message) -> None:
        # A refused change (no PIN, wrong PIN, unsure cards) is logged by the browser as a
        # failed load; the page answers it in words, which the test checks.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            self.errors.append(message.text)

    def _response(self, response) -> None:
        if response.status == 404 or response.status >= 500:
            self.errors.append(f"{response.status} for {response.url}")

    def open(self, path: str) -> None:
        self.page.goto(self.url + path)
        self.page.wait_for_load_state("load")

    def shot(self, what: str) -> None:
        self.shots += 1
        name = f"{self.name}-{self.shots:02d}-{what}.png"
        self.page.screenshot(path=ARTEFACTS / name, full_page=True)

    def status(self) -> str:
        return self.page.locator("#status").inner_text().strip()

    def wait_status(self, pattern: str) -> str:
        self.page.wait_for_function(
            "pattern => new RegExp(pattern).test(document.getElementById('status').textContent)",
            arg=pattern,
        )
        return self.status()

    def close(self) -> None:
        assert not self.errors, f"{self.name}: the page's script failed: {self.errors}"
        self.context.close()


@pytest.fixture
def phones(browser, server) -> Iterator:
    opened: list[Phone] = []

    def open_phone(name: str, viewport: dict) -> Phone:
        phone = Phone(browser, server, name, viewport)
        opened.append(phone)
        return phone

    yield open_phone
    for phone in opened:
        phone.close()


# --- what the page shows ----------------------------------------------------------------------

READABILITY = """([minText, minTarget]) => {
  const problems = [];
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth + 1) {
    problems.push(`the page scrolls sideways: ${root.scrollWidth} px wide in ${window.innerWidth}`);
  }
  const visible = (el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden"
      && !el.closest("[hidden]") && !el.closest(".visually-hidden");
  };
  const name = (el) => {
    const classes = typeof el.className === "string" ? el.className.trim() : "";
    const text = (el.textContent || el.value || "").trim().slice(0, 30);
    return el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
      + (classes ? "." + classes.split(/\\s+/).join(".") : "") + ` "${text}"`;
  };
  const base = parseFloat(getComputedStyle(document.body).fontSize);
  if (base < minText) { problems.push(`base text is ${base} px`); }
  // Every piece of visible text, at the size it is drawn (SVG text scaled with its picture).
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || seen.has(el) || !visible(el)) { continue; }
    seen.add(el);
    let size = parseFloat(getComputedStyle(el).fontSize);
    const svg = el.closest("svg");
    if (svg && svg.getScreenCTM()) { size *= svg.getScreenCTM().a; }
    if (size < minText - 0.5) { problems.push(`text at ${size.toFixed(1)} px: ${name(el)}`); }
  }
  // Everything a finger presses: buttons, button-like links, fields, the menu, and the whole
  // label of a radio button. A link inside a sentence is left to the sentence.
  const targets = document.querySelectorAll(
    "button, a.button, nav a, input, select, textarea, summary, label.radio");
  for (const el of targets) {
    if (el.matches("input[type=radio], input[type=checkbox]") || !visible(el)) { continue; }
    const box = el.getBoundingClientRect();
    if (box.height < minTarget - 0.5 || box.width < minTarget - 0.5) {
      problems.push(`target ${Math.round(box.width)}x${Math.round(box.height)} px: ${name(el)}`);
    }
    if (box.right > window.innerWidth + 1) {
      problems.push(`target past the right edge: ${name(el)}`);
    }
  }
  return problems;
}"""


def assert_readable(phone: Phone, what: str) -> None:
    problems = phone.page.evaluate(READABILITY, [MIN_TEXT_PX, MIN_TARGET_PX])
    assert not problems, f"{phone.name}, {what}: " + "; ".join(problems[:12])


def number(text: str) -> int:
    return int(text.strip().replace(",", "").replace("\u2212", "-"))


def shown_totals(phone: Phone) -> dict[str, int]:
    """The big running totals on the Table page, by side."""
    names = phone.page.locator(".totals .total .side-name").all_inner_texts()
    totals = phone.page.locator(".totals .total .big").all_inner_texts()
    return {name.strip(): number(total) for name, total in zip(names, totals, strict=True)}


def scan_id_shown(phone: Phone) -> int:
    text = phone.page.locator("#live .scan .summary").first.inner_text()
    found = re.search(r"scan (\d+)", text)
    assert found, text
    return int(found.group(1))


def click_and_wait(phone: Phone, button, settled: str, arg=None) -> None:
    """Press a button and wait until the page's live part shows ``settled`` (a JS predicate)."""
    button.click()
    phone.page.wait_for_function(settled, arg=arg)


MELD_COUNT = "document.querySelectorAll('#live .meld').length"
CARD_COUNT = "document.querySelectorAll('#live .scan .card').length"


def make_legal(phone: Phone) -> None:
    """On a scan's review page, remove what is not this side's until the engine finds it
    legal, as a player would: the melds marked not legal first, then the meld a problem names,
    then stray red threes (the simulated camera lays busier tables than one side's)."""
    page = phone.page
    for _ in range(60):
        if page.locator("#live .scan .badge.ok").count():
            return
        melds = page.locator("#live .meld")
        illegal = page.locator("#live .meld.illegal")
        problems = page.locator("#live .scan > .problems li").all_inner_texts()
        named = [re.match(r"meld (\d+):", text, re.I) for text in problems]
        named = [int(match.group(1)) for match in named if match]
        before = melds.count()
        if illegal.count() or named:
            meld = illegal.last if illegal.count() else melds.nth(named[0] - 1)
            click_and_wait(
                phone,
                meld.get_by_role("button", name="Remove this meld"),
                f"n => {MELD_COUNT} < n",
                before,
            )
        else:
            cards = page.evaluate(CARD_COUNT)
            threes = page.locator("#live .group").filter(has_text="Red threes")
            threes.locator(".card").first.click()
            page.get_by_role("button", name="Delete: this card is not there").click()
            page.wait_for_function(f"n => {CARD_COUNT} < n", arg=cards)
    raise AssertionError(f"the scan never became legal: {phone.status()}")


def api(server: str, path: str) -> dict:
    answer = httpx2.get(server + path, timeout=30)
    assert answer.status_code == 200, answer.text
    return answer.json()


def engine_side(name: str, table: dict, leftovers: dict | None, typed: str = "") -> Side:
    """A side as the engine sees it, from the scans the page showed (after corrections)."""
    melds = tuple(parse_cards(" ".join(c["code"] for c in m["cards"])) for m in table["melds"])
    threes = parse_cards(" ".join(c["code"] for c in table["red_threes"]))
    hand = [c["code"] for c in leftovers["leftovers"]] if leftovers else []
    return Side(name, melds=melds, red_threes=threes, hand=parse_cards(" ".join([*hand, typed])))


@pytest.fixture(scope="module")
def photo() -> bytes:
    """A phone's photo of another table (rendered: no camera needed)."""
    from model.synth.scene import render_scene

    return render_scene(11, 2, split="test", deck="standard", size=(1024, 768)).jpeg


# --- the deal ---------------------------------------------------------------------------------


def test_a_whole_deal_in_the_browser(server, phones, photo):
    phone = phones("phone", PHONE)
    page = phone.page

    # New game. The table has a PIN: without it, and with a wrong one, the page says so in
    # plain words and puts the cursor in the PIN box; the right one is remembered.
    phone.open("/new")
    assert_readable(phone, "the new game page")
    phone.shot("new-game")
    page.get_by_label("Name of the game (optional)").fill("Browser test")
    start = page.get_by_role("button", name="Start the game")
    start.click()
    assert "enter the table's PIN" in phone.wait_status("PIN")
    assert page.evaluate("document.activeElement.id") == "pin"
    phone.shot("pin-asked")
    page.locator("#pin").fill("1111")
    start.click()
    assert "not the table's PIN" in phone.wait_status("not the table")
    page.locator("#pin").fill(PIN)
    start.click()
    page.wait_for_url(server + "/")
    assert page.locator("#pin").input_value() == PIN  # remembered on this phone
    assert page.locator(".score h1").inner_text() == "Browser test"
    assert shown_totals(phone) == {"Us": 0, "Them": 0}

    # A second phone, on a desktop-sized screen, only watches: it follows every change live.
    watcher = phones("desktop", DESKTOP)
    watcher.open("/")
    assert_readable(watcher, "the table page")

    # Us: choose the side, scan the table with the (simulated) camera.
    page.get_by_role("group", name="Whose cards").get_by_role("button", name="Us").click()
    page.wait_for_selector("[aria-label='Whose cards'] button[aria-pressed=true]:has-text('Us')")
    page.get_by_role("button", name="Scan", exact=True).click()
    page.wait_for_selector("#live .scan .summary:has-text('for Us')")
    us_scan = scan_id_shown(phone)
    assert_readable(phone, "the table page after a scan")
    phone.shot("scanned-us")
    watcher.page.wait_for_selector(f"#live .scan .summary:has-text('scan {us_scan}')")
    watcher.shot("followed-the-scan")

    # Review: change a card's code in the card picker, then tell it an unsure card is right.
    page.get_by_role("link", name="Review and correct this scan").click()
    page.wait_for_url(f"{server}/scan/{us_scan}")
    assert_readable(phone, "the review page")
    card = page.locator("#live .meld .card").first
    card_id, code = card.get_attribute("data-card"), card.get_attribute("data-code")
    card.click()
    picker = page.locator("#picker")
    assert picker.is_visible()
    assert page.get_by_role("button", name="Change to this card").is_visible()
    assert not page.get_by_role("button", name="Add this card").is_visible()
    assert_readable(phone, "the card picker")
    phone.shot("card-picker")
    other = "QB" if code != "QB" else "KB"
    page.select_option("#picker-code", other)
    page.get_by_role("button", name="Change to this card").click()
    assert picker.is_hidden()
    changed = page.locator(f"#live .card[data-card='{card_id}']")
    page.wait_for_function(
        "([id, code]) => document.querySelector(`#live .card[data-card='${id}']`)"
        "?.getAttribute('data-code') === code",
        arg=[card_id, other],
    )
    assert changed.inner_text().startswith(other)
    unsure = page.locator("#live .scan .card.check")
    if unsure.count():
        unsure_id = unsure.first.get_attribute("data-card")
        unsure.first.click()
        page.get_by_role("button", name="It is read right").click()
        page.wait_for_selector(f"#live .card[data-card='{unsure_id}']:not(.check)")
    first = api(server, f"/api/scans/{us_scan}")["corrections"][0]
    assert (first["action"], first["detail"]) == ("change", {"card": int(card_id), "code": other})
    make_legal(phone)
    phone.shot("us-legal")

    # Them: a phone's photo of their table, "Score a photo instead" on the Table page.
    page.get_by_role("link", name="Back to the table").click()
    page.wait_for_url(server + "/")
    page.get_by_role("group", name="Whose cards").get_by_role("button", name="Them").click()
    page.wait_for_selector("[aria-label='Whose cards'] button[aria-pressed=true]:has-text('Them')")
    page.locator("input[data-upload]").set_input_files(
        files=[{"name": "table.jpg", "mimeType": "image/jpeg", "buffer": photo}]
    )
    page.wait_for_selector("#live .scan .summary:has-text('for Them')")
    them_scan = scan_id_shown(phone)
    assert them_scan != us_scan
    phone.shot("photo-them")
    page.get_by_role("link", name="Review and correct this scan").click()
    page.wait_for_url(f"{server}/scan/{them_scan}")
    make_legal(phone)

    # End of deal: a new table for the leftovers, Us's scanned, Them's typed in.
    page.get_by_role("link", name="End of deal").first.click()
    page.wait_for_url(server + "/deal")
    assert_readable(phone, "the end of deal page")
    page.get_by_role("button", name="Lay a new table (simulated camera)").click()
    phone.wait_status("new table")
    page.get_by_role("button", name="Scan Us's leftovers").click()
    page.wait_for_selector(".side-end:has-text('Us') .part:has-text('Cards left over') a")
    them = page.locator(".side-end").filter(has=page.get_by_role("heading", name="Them"))
    them.get_by_label("Cards left in hand, typed").fill("5b jk")
    them.get_by_role("button", name="Save the typed cards").click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.preview td')].length > 0"
        " && document.querySelectorAll('.side-end')[1].querySelector('input[name=hand]').value"
        " === '5B JK'"
    )
    state = api(server, "/api/state")
    assert state["sides"][1]["typed_hand"] == ["5B", "JK"]
    leftovers_scan = state["sides"][0]["leftovers_scan"]
    assert leftovers_scan
    phone.shot("end-of-deal")
    assert_readable(phone, "the end of deal page with a preview")
    preview_totals = [number(cell) for cell in page.locator(".preview tfoot td").all_inner_texts()]

    # Confirm. Cards still marked "check" make the plain Confirm refuse with a sentence; the
    # other button records them as read, after asking.
    confirm = page.get_by_role("button", name="Confirm deal 1")
    assert confirm.is_enabled(), page.locator(".preview").inner_text()
    as_read = page.get_by_role("button", name="Confirm with the cards as read")
    if as_read.count():
        confirm.click()
        assert "still marked check" in phone.wait_status("check")
        as_read.click()
    else:
        confirm.click()
    assert "Deal 1 is recorded" in phone.wait_status("Deal 1 is recorded")
    page.wait_for_selector("h1:has-text('End of deal 2')")

    # The totals on both phones are the engine's for the same cards.
    us_table, them_table = (api(server, f"/api/scans/{n}") for n in (us_scan, them_scan))
    leftovers = api(server, f"/api/scans/{leftovers_scan}")
    rebuilt = Deal(
        PAGAT,
        1,
        (engine_side("Us", us_table, leftovers), engine_side("Them", them_table, None, "5B JK")),
    )
    expected = {side.name: side.total for side in score_deal(rebuilt).sides}
    exported = api(server, "/api/games/1/export.json")
    recorded = exported["deals"][0]["deal"]
    assert {side.name: side.total for side in score_deal(deal_from_json(recorded)).sides} == (
        expected
    ), json.dumps(recorded)
    assert preview_totals == list(expected.values())

    phone.open("/")
    assert shown_totals(phone) == expected
    cells = page.locator("table.deals tbody tr").first.locator("td").all_inner_texts()
    assert [number(cell.split("(")[0]) for cell in cells] == list(expected.values())
    assert page.locator("svg.chart").count() == 1
    assert_readable(phone, "the table page after a deal")
    phone.shot("totals")
    watcher.page.wait_for_function(
        "expected => [...document.querySelectorAll('.totals .big')]"
        ".map(e => e.textContent.replace(/,/g, '').trim()).join(' ') === expected",
        arg=" ".join(str(total) for total in expected.values()),
    )
    assert_readable(watcher, "the table page after a deal")
    watcher.shot("totals")

    # The record of the game, on the phone.
    phone.open("/history/1")
    assert_readable(phone, "the game's record")
    phone.shot("game-record")
    phone.open("/history")
    assert_readable(phone, "the past games")
