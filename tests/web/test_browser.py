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

# Drives a real browser against a real server.
pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip(
        "no chromium found: install Debian's chromium package (make test does, as root)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed: pip install -e '.[dev]'"
)

ARTEFACTS = Path(__file__).resolve().parents[2] / "build" / "test-artefacts" / "browser"
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


_EMPTIED: list[bool] = []  # the folder is emptied once a run, not by each browser test module


@pytest.fixture(scope="module")
def artefacts() -> Path:
    """The screenshots and the server's log of the last run, kept for people to look at."""
    if not _EMPTIED:
        shutil.rmtree(ARTEFACTS, ignore_errors=True)
        _EMPTIED.append(True)
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    return ARTEFACTS


@pytest.fixture(scope="module")
def server(request, tmp_path_factory, artefacts) -> Iterator[str]:
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
        module = request.module.__name__.rsplit(".", 1)[-1]
        shutil.copy(folder / "server.log", artefacts / f"server-{module}.log")


@pytest.fixture(scope="module")
def browser(artefacts) -> Iterator:
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
        self.page.on("dialog", self._dialog)
        self.dialogs: list[str] = []  # every question the page asked, in order
        self.answer_yes = True  # "Remove meld 3…?" → OK
        self.shots = 0

    def _dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        if self.answer_yes:
            dialog.accept()
        else:
            dialog.dismiss()

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

    def shot(self, what: str, full_page: bool = True) -> None:
        """A screenshot kept as an artefact: the whole page, or what the screen shows now."""
        self.shots += 1
        name = f"{self.name}-{self.shots:02d}-{what}.png"
        self.page.screenshot(path=ARTEFACTS / name, full_page=full_page)

    def status(self) -> str:
        return self.page.locator("#status").inner_text().strip()

    def wait_status(self, pattern: str) -> str:
        """The status line's text once it matches ``pattern``."""
        shown = self.page.wait_for_function(
            "pattern => { const text = document.getElementById('status').textContent;"
            " return new RegExp(pattern).test(text) && text; }",
            arg=pattern,
        )
        return shown.json_value().strip()

    def close(self) -> list[str]:
        """Close the page, its last screen kept (the one a failure left); the script's errors."""
        with contextlib.suppress(sync_api.Error):
            self.shot("last", full_page=False)
        self.context.close()
        return [f"{self.name}: {error}" for error in self.errors]


@pytest.fixture
def phones(browser, server) -> Iterator:
    """``phones(name, viewport)`` opens another page, as another person at the table would;
    each must end without a script error."""
    opened: list[Phone] = []

    def open_phone(name: str, viewport: dict) -> Phone:
        phone = Phone(browser, server, name, viewport)
        opened.append(phone)
        return phone

    yield open_phone
    errors = [error for phone in opened for error in phone.close()]
    assert not errors, f"the page's script failed: {errors}"


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
                meld.locator("button[data-body*='remove_meld']"),  # in any language
                f"n => {MELD_COUNT} < n",
                before,
            )
        else:
            cards = page.evaluate(CARD_COUNT)
            threes = page.locator("#live .group[data-group='red_threes'] .card")
            assert threes.count(), f"nothing left to remove, yet not legal: {problems}"
            threes.first.click()
            page.locator("button[data-pick='delete']").click()
            page.wait_for_function(f"n => {CARD_COUNT} < n", arg=cards)
    raise AssertionError(f"the scan never became legal: {phone.status()}")


def api(server: str, path: str) -> dict:
    answer = httpx2.get(server + path, headers={"X-Table-PIN": PIN}, timeout=30)
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


def in_sight(locator) -> bool:
    """Whether the element is inside the screen as it is scrolled now."""
    return locator.evaluate(
        "el => { const box = el.getBoundingClientRect();"
        " return box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0; }"
    )


def start_game(phone: Phone, server: str) -> None:
    """New game. The table has a PIN: without it, and with a wrong one, the page says so in
    plain words and puts the cursor in the PIN box; the right one is remembered."""
    page = phone.page
    phone.open("/new")
    assert_readable(phone, "the new game page")
    phone.shot("new-game")
    page.get_by_label("Name of the game (optional)").fill("Browser test")
    start = page.get_by_role("button", name="Start the game")
    start.click()
    assert "enter the table's PIN" in phone.wait_status("PIN")
    assert page.evaluate("document.activeElement.id") == "pin"
    phone.shot("pin-asked", full_page=False)
    page.locator("#pin").fill("1111")
    start.click()
    assert "not the table's PIN" in phone.wait_status("not the table")
    assert in_sight(page.locator("#status"))  # the button is far down the page
    page.locator("#pin").fill(PIN)
    start.click()
    page.wait_for_url(server + "/")
    assert page.locator("#pin").input_value() == PIN  # remembered on this phone
    assert page.locator(".score h1").inner_text() == "Browser test"
    assert shown_totals(phone) == {"Us": 0, "Them": 0}


def choose_side(phone: Phone, name: str) -> None:
    """The side chosen by hand, under "Scan something else" (the next step chooses it
    otherwise)."""
    page = phone.page
    other = page.locator("details.other-scan")
    if other.get_attribute("open") is None:
        other.locator("summary").click()
    page.get_by_role("group", name="Whose cards").get_by_role("button", name=name).click()
    page.wait_for_selector(
        f"[aria-label='Whose cards'] button[aria-pressed=true]:has-text('{name}')"
    )


def correct_in_picker(phone: Phone, server: str, scan_id: int) -> None:
    """On the review page: change a card's code in the card picker, tell it an unsure card
    is read right, and close the picker by tapping beside it."""
    page = phone.page
    picker = page.locator("#picker")
    card = page.locator("#live .meld .card:not(.check)").first
    card_id, code = card.get_attribute("data-card"), card.get_attribute("data-code")
    where = card.get_attribute("data-where")
    card.click()
    title = page.locator("#picker-title").inner_text()
    assert picker.is_visible() and title.startswith(f"Card {code}")  # with its suit signs
    assert page.get_by_role("button", name="Change to this card").is_visible()
    assert not page.get_by_role("button", name="Add this card").is_visible()
    assert not page.get_by_role("button", name="It is read right").is_visible()  # a sure card
    places = [option.get_attribute("value") for option in page.locator("#picker-to option").all()]
    assert where.startswith("meld:") and where not in places and "new" in places  # elsewhere
    assert_readable(phone, "the card picker")
    phone.shot("card-picker", full_page=False)
    other = "QB" if code != "QB" else "KB"
    page.select_option("#picker-code", other)
    page.get_by_role("button", name="Change to this card").click()
    assert picker.is_hidden()
    page.wait_for_selector(f"#live .card[data-card='{card_id}'][data-code='{other}']")
    changed = page.locator(f"#live .card[data-card='{card_id}']")
    assert changed.inner_text().split()[0] == other
    assert "corrected" in changed.get_attribute("class")  # marked as corrected
    first = api(server, f"/api/scans/{scan_id}")["corrections"][0]
    assert (first["action"], first["detail"]) == ("change", {"card": int(card_id), "code": other})

    unsure = page.locator("#live .scan .card.check")
    if unsure.count():
        unsure_id = unsure.first.get_attribute("data-card")
        unsure.first.click()
        page.get_by_role("button", name="It is read right").click()
        page.wait_for_selector(f"#live .card[data-card='{unsure_id}']:not(.check)")

    page.locator("#live .add").first.click()  # "+ Add a card", then changing one's mind
    assert page.get_by_role("button", name="Add this card").is_visible()
    assert not page.get_by_role("button", name="Change to this card").is_visible()
    page.mouse.click(5, 5)  # the dimmed page above the picker
    assert picker.is_hidden()


def end_of_deal(phone: Phone, watcher: Phone) -> int:
    """A new table for the leftovers: Us's scanned, Them's typed in. Meanwhile someone on
    the other phone is typing a foot they have not saved: the live update waits, and keeps
    what they typed. Returns the leftovers scan's id."""
    page = phone.page
    page.get_by_role("link", name="End of deal").first.click()
    page.wait_for_url(phone.url + "/deal")
    assert_readable(phone, "the end of deal page")
    watcher.open("/deal")
    foot = watcher.page.locator(".side-end").first.get_by_label("A foot never picked up, typed")
    foot.fill("7B")  # the cursor stays in the box: not saved yet

    page.get_by_role("button", name="Lay a new table (simulated camera)").click()
    phone.wait_status("new table")
    page.get_by_role("button", name="Scan Us's leftovers").click()
    us_leftovers = ".side-end:has(h2:text-is('Us')) .part:has-text('Cards left over') a"
    page.wait_for_selector(us_leftovers)
    them = page.locator(".side-end").filter(has=page.get_by_role("heading", name="Them"))
    them.get_by_label("Cards left in hand, typed").fill("5b jk")
    them.get_by_role("button", name="Save the typed cards").click()
    page.wait_for_function(
        "() => document.querySelectorAll('.side-end')[1].querySelector('input[name=hand]')"
        ".value === '5B JK' && document.querySelectorAll('.preview td').length > 0"
    )
    assert them.get_by_label("Cards left in hand, typed").input_value() == "5B JK"

    assert foot.input_value() == "7B" and not watcher.page.locator(us_leftovers).count()
    watcher.page.locator("h1").click()  # done typing: now the page catches up
    watcher.page.wait_for_selector(us_leftovers)
    assert foot.input_value() == "7B"  # still there, still not saved
    watcher.shot("typing-kept")
    watcher.open("/")

    state = api(phone.url, "/api/state")
    assert state["sides"][1]["typed_hand"] == ["5B", "JK"] and state["sides"][0]["typed_foot"] == []
    assert state["sides"][0]["leftovers_scan"]
    phone.shot("end-of-deal")
    assert_readable(phone, "the end of deal page with a preview")
    return state["sides"][0]["leftovers_scan"]


def confirm(phone: Phone) -> None:
    """Confirm asks before recording cards still marked "check" as the camera read them
    (and before a deal with a side missing); the answer is said where the finger was."""
    page = phone.page
    button = page.get_by_role("button", name="Confirm deal 1")
    assert button.is_enabled(), page.locator(".preview").inner_text()
    checks = page.locator(".preview .notice").filter(has_text="still marked check").count()
    asked = len(phone.dialogs)
    button.click()
    assert "Deal 1 is recorded" in phone.wait_status("Deal 1 is recorded")
    if checks:
        assert "still marked check" in phone.dialogs[asked], phone.dialogs
    page.wait_for_selector("h1:has-text('End of deal 2')")
    assert phone.status().startswith("Deal 1 is recorded")  # not wiped by the answer


def engine_totals(server: str, us_scan: int, them_scan: int, leftovers_scan: int) -> dict:
    """The engine's totals for the cards the page showed after every correction; the deal the
    game record kept must score the same."""
    us_table, them_table, leftovers = (
        api(server, f"/api/scans/{n}") for n in (us_scan, them_scan, leftovers_scan)
    )
    sides = (engine_side("Us", us_table, leftovers), engine_side("Them", them_table, None, "5B JK"))
    expected = {side.name: side.total for side in score_deal(Deal(PAGAT, 1, sides)).sides}
    recorded = api(server, "/api/games/1/export.json")["deals"][0]["deal"]
    from_record = score_deal(deal_from_json(recorded))
    assert {side.name: side.total for side in from_record.sides} == expected, recorded
    return expected


def test_a_whole_deal_in_the_browser(server, phones, photo):
    phone = phones("phone", PHONE)
    page = phone.page
    start_game(phone, server)

    # A second phone, on a desktop-sized screen, only watches: it follows every change live.
    watcher = phones("desktop", DESKTOP)
    watcher.open("/")
    assert_readable(watcher, "the table page")

    # Us: the side's table through the (simulated) camera, reviewed and corrected.
    choose_side(phone, "Us")
    page.get_by_role("button", name="Scan", exact=True).click()
    page.wait_for_selector("#live .scan .summary:has-text('for Us')")
    us_scan = scan_id_shown(phone)
    assert_readable(phone, "the table page after a scan")
    phone.shot("scanned-us")
    watcher.page.wait_for_selector(f"#live .scan .summary:has-text('scan {us_scan}')")
    watcher.shot("followed-the-scan")
    page.get_by_role("link", name="Review and correct this scan").click()
    page.wait_for_url(f"{server}/scan/{us_scan}")
    assert_readable(phone, "the review page")
    correct_in_picker(phone, server, us_scan)
    make_legal(phone)
    page.locator(".corrections summary").click()
    assert (
        page.locator(".corrections li").first.inner_text()
        == "A card changed to "
        + (api(server, f"/api/scans/{us_scan}")["corrections"][0]["detail"]["code"])
    )
    assert_readable(phone, "the review page after corrections")
    phone.shot("us-corrected")

    # Them: a phone's photo of their table, "Score a photo instead" on the Table page.
    page.get_by_role("link", name="Back to the table").click()
    page.wait_for_url(server + "/")
    choose_side(phone, "Them")
    page.locator("input[data-upload]").set_input_files(
        files=[{"name": "table.jpg", "mimeType": "image/jpeg", "buffer": photo}]
    )
    # the scan, or the plain words that say why there is none (so a failure here names them)
    page.wait_for_selector("#live .scan .summary:has-text('for Them'), #status.bad")
    refused = page.locator("#status.bad")
    assert not refused.count(), f"the photo was not scored: {refused.inner_text()}"
    them_scan = scan_id_shown(phone)
    assert them_scan != us_scan
    phone.shot("photo-them")
    page.get_by_role("link", name="Review and correct this scan").click()
    page.wait_for_url(f"{server}/scan/{them_scan}")
    make_legal(phone)

    leftovers_scan = end_of_deal(phone, watcher)
    preview = [number(cell) for cell in page.locator(".preview tfoot td").all_inner_texts()]
    confirm(phone)

    # The totals both phones show are the engine's for the same cards.
    expected = engine_totals(server, us_scan, them_scan, leftovers_scan)
    assert preview == list(expected.values())
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

    # The record of the game, on both screens.
    for screen in (phone, watcher):
        screen.open("/history/1")
        assert_readable(screen, "the game's record")
        screen.shot("game-record")
        screen.open("/history")
        assert_readable(screen, "the past games")


def test_house_rules_on_the_new_game_page(server, phones):
    """On a desktop screen: a preset's every rule shown for editing, then checked."""
    screen = phones("rules-desktop", DESKTOP)
    page = screen.page
    screen.open("/new")
    assert page.locator("#pin").get_attribute("inputmode") == "numeric"  # a PIN of digits
    page.locator("#pin").fill(PIN)
    page.get_by_role("radio", name=re.compile("^family")).check()
    page.locator("details.rules-text summary").click()  # the text, for those who want it
    page.get_by_role("button", name="Show every rule of the chosen preset").click()
    rules = page.get_by_label("House rules", exact=True)
    page.wait_for_function(
        "() => document.getElementById('rules_toml').value.includes('base = \"family\"')"
    )
    # showing the text changes nothing: the choice stays the preset (it switched silently)
    assert page.get_by_role("radio", name=re.compile("^family")).is_checked()
    named = re.sub(r"^name = .*$", 'name = "Grandma\'s table"', rules.input_value(), flags=re.M)
    rules.fill(named)
    page.get_by_role("button", name="Check the house rules").click()
    result = page.locator("#rules-result")
    page.wait_for_function("() => document.getElementById('rules-result').textContent")
    assert result.inner_text().startswith("These rules can be played: Grandma's table")
    rules.fill('base = "family"\nwild = 1\n')
    page.get_by_role("button", name="Check the house rules").click()
    page.wait_for_function("() => /wild/.test(document.getElementById('rules-result').textContent)")
    assert_readable(screen, "the new game page")
    screen.shot("house-rules")


def test_the_simulated_panel(server, phones):
    """The panel drawn on the page: MODE steps to the next mode, and the page says so."""
    phone = phones("panel", PHONE)
    page = phone.page
    phone.open("/")
    page.locator("#pin").fill(PIN)
    fold = page.locator("details.panel-fold")
    assert fold.get_attribute("open") is None  # folded away on a phone
    fold.locator("summary").click()
    hint = page.locator(".panel .hint")
    before = re.search(r"mode (\w+)", hint.inner_text()).group(1)
    after = {"table": "leftovers", "leftovers": "meld", "meld": "table"}[before]
    page.get_by_role("button", name="MODE", exact=True).click()
    page.wait_for_selector(f".panel .led.mode.on:has-text('{after}')")
    assert f"mode {after}" in hint.inner_text()
    assert page.locator(".panel .led.mode.on").all_inner_texts() == [after]
    assert_readable(phone, "the panel")


def test_a_photo_chosen_as_the_page_updates_is_sent(server, phones, photo):
    """A phone's file chooser stays open for seconds, and meanwhile another phone's change
    reloads the page's live part: the photo chosen then is still sent and scored."""
    phone = phones("chooser", PHONE)
    page = phone.page
    phone.open("/")
    page.locator("#pin").fill(PIN)
    page.locator("#pin").dispatch_event("change")  # remembered, as a person leaving the box does
    picker = page.locator("input[data-upload]").element_handle()
    page.evaluate("document.querySelector('#live h2').setAttribute('data-before', '')")
    laid = httpx2.post(
        f"{server}/api/camera/new-table",
        headers={"X-Table-PIN": PIN, "Origin": server},  # as the table's own page sends it
        timeout=30,
    )
    assert laid.status_code == 200, laid.text
    page.wait_for_function("() => !document.querySelector('#live [data-before]')")  # swapped
    assert picker.evaluate("el => el.isConnected"), "the photo picker was swapped out"

    shown = (
        "() => { const text = document.querySelector('#live .scan .summary');"
        " const found = text && /scan (\\d+)/.exec(text.textContent);"
        " return found ? Number(found[1]) : 0; }"
    )
    before = page.evaluate(shown)
    picker.set_input_files(files=[{"name": "table.jpg", "mimeType": "image/jpeg", "buffer": photo}])
    # the scan, or the plain words that say why there is none (so a failure here names them)
    page.wait_for_function(
        f"before => ({shown})() > before || document.querySelector('#status.bad')", arg=before
    )
    assert not page.locator("#status.bad").count(), phone.status()


def test_a_photo_of_cards_too_small_says_to_bring_the_camera_closer(server, phones):
    """A busy table photographed from high above: the scan is shown, and beside it, in words
    as large as the rest, what the players can do for a better reading."""
    import cv2

    from scanner.vision.legibility import SMALL_MESSAGE
    from tests.vision.test_legibility import FIXTURES

    high = cv2.imread(str(FIXTURES / "scale" / "busy-7777-65.png"))
    jpeg = cv2.imencode(".jpg", high, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes()
    phone = phones("small-cards", PHONE)
    page = phone.page
    phone.open("/")
    page.locator("#pin").fill(PIN)
    page.locator("#pin").dispatch_event("change")
    page.locator("input[data-upload]").set_input_files(
        files=[{"name": "high.jpg", "mimeType": "image/jpeg", "buffer": jpeg}]
    )
    page.wait_for_selector("#live .scan .advice, #status.bad")
    assert not page.locator("#status.bad").count(), phone.status()
    assert page.locator("#live .scan .advice").inner_text() == SMALL_MESSAGE
    assert SMALL_MESSAGE in phone.status()
    assert_readable(phone, "a scan of cards too small")
    phone.shot("small-cards")
