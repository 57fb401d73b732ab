"""Every number agrees (issue: "Scan 17: −275 points" beside a preview's "Left in hand −175";
"1120 points: enough to open (needs 90, card points 220)"; illegal melds counted in the total).
A scan's points are worked out once, line by line under the deal's own line titles; an illegal
meld is shown as not counted, with the engine's reason; a meld check's headline number is the
one the opening minimum is measured against."""

import re
from pathlib import Path

import jinja2

from engine import Deal, Side, get_preset, parse_cards, score_deal
from engine.scoring import LINE_TITLES
from scanner.service import deal as deals
from scanner.service.reading import new_reading, score_reading
from scanner.web.i18n import translator
from scanner.web.pages import MODE_TITLES

PAGAT = get_preset("pagat")
EN = translator("en")
TEMPLATES = Path(__file__).resolve().parents[2] / "scanner" / "web" / "templates"


def macros():
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True)
    return env.get_template("_macros.html").module


def text(html: str) -> str:
    words = " ".join(re.sub(r"<[^>]+>", " ", str(html)).split())
    return re.sub(r" ([:,.])", r"\1", words)


def test_an_illegal_meld_is_shown_as_not_counted_with_its_reason():
    legal, illegal = ["KR", "KB", "KR", "KB", "KR", "KB", "KR"], ["9R", "2B", "JK"]
    view = score_reading(new_reading("table", melds=[legal, illegal]), PAGAT, 1)
    assert [meld["counted"] for meld in view["melds"]] == [True, False]
    alone = Side("Us", melds=(parse_cards(" ".join(legal)),))
    engine_total = score_deal(Deal(PAGAT, 1, (alone,))).sides[0].total
    assert view["totals"]["total"] == engine_total
    shown = text(macros().scan_block(view | {"id": 1, "side": "Us"}, MODE_TITLES, t=EN))
    assert "not legal: not counted" in shown
    assert view["melds"][1]["problems"][0] in shown  # the engine's own reason beside it
    assert f"Total {engine_total} points" in shown


def test_a_leftovers_scan_names_its_points_as_the_deal_preview_does():
    """A red three left in hand: the scan shows "Left in hand" and "Red threes" apart, the
    same split and the same titles as the deal's breakdown."""
    view = score_reading(new_reading("leftovers", leftovers=["3R", "KB", "5B"]), PAGAT, 1)
    rows = {row["title"]: row["points"] for row in view["rows"]}
    end = deals.SideEnd("Us", None, new_reading("leftovers", leftovers=["3R", "KB", "5B"]))
    result = deals.score(deals.deal_json("pagat", 1, [end]), PAGAT)
    breakdown = result["teams"][0]["breakdown"]
    preview = {LINE_TITLES[line]: points for line, points in breakdown.items() if points}
    assert rows == preview
    assert sum(rows.values()) == view["totals"]["total"] == result["teams"][0]["total"]
    shown = text(macros().scan_block(view | {"id": 2, "side": "Us"}, MODE_TITLES, t=EN))
    for title, points in rows.items():
        assert f"{title} {points}" in shown


def test_a_meld_check_leads_with_the_points_that_open():
    """A book and a meld: the headline is the card points the deal's minimum is measured
    against; the worth with book bonuses comes after, said as such."""
    book, meld = ["KR", "KB", "KR", "KB", "KR", "KB", "KR"], ["AR", "AB", "AR"]
    view = score_reading(new_reading("meld", melds=[book, meld]), PAGAT, 1)
    totals = view["totals"]
    shown = text(
        macros().scan_block(view | {"id": 3, "side": None, "deal_number": 1}, MODE_TITLES, t=EN)
    )
    headline = re.search(r"Card points (\d+)", shown)
    assert headline and int(headline.group(1)) == totals["initial_points"]
    assert f"it needs {totals['initial_minimum']}" in shown
    assert f"With book bonuses these melds are worth {totals['points']}" in shown
