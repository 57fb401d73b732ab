"""The page's words in English, Danish, Swedish and Norwegian: no catalogue misses a key or
has one the others lack, every sentence keeps the English one's {fields}, every key the
templates and the page's script use is in the catalogues, and a phone gets its language."""

import re
import string
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from scanner.web import i18n

WEB = Path(i18n.__file__).resolve().parent


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("language", sorted(set(i18n.LANGUAGES) - {"en"}))
def test_no_catalogue_misses_a_key(language):
    english, other = i18n.catalogue("en"), i18n.catalogue(language)
    assert sorted(set(english) - set(other)) == [], f"{language} misses these keys"
    assert sorted(set(other) - set(english)) == [], f"{language} has keys English lacks"
    for key, text in english.items():
        assert other[key].strip(), f"{language}: {key} is empty"
        assert fields(other[key]) == fields(text), f"{language}: {key} changes the fields"


def test_every_key_used_is_in_the_catalogue():
    used = set()
    for template in (WEB / "templates").glob("*.html"):
        used |= set(re.findall(r"""\bt\(\s*['"]([a-z_]+\.[a-z_]+)['"]""", template.read_text()))
    used |= set(i18n.SCRIPT_WORDS)
    script = (WEB / "static" / "handfoot.js").read_text()
    said = {f"js.{key}" for key in re.findall(r'\bw\("([a-z_]+)"', script)}
    english = i18n.catalogue("en")
    assert sorted(used - set(english)) == []
    assert sorted(said - set(i18n.SCRIPT_WORDS)) == [], "the script says what it is not handed"


def test_the_phone_language_is_the_default_and_a_pick_wins(tmp_path):
    from scanner.service import TableCamera, TableService
    from scanner.store import Store
    from scanner.web import create_app

    store = Store.open(tmp_path / "data")
    service = TableService(store, None, TableCamera("synthetic:5"), frames=1)
    try:
        with TestClient(create_app(service), base_url="http://localhost") as client:
            swedish = client.get("/", headers={"Accept-Language": "sv-SE,sv;q=0.9,en;q=0.5"})
            assert '<html lang="sv"' in swedish.text and "Nytt spel" in swedish.text
            client.cookies.set(i18n.COOKIE, "da")
            danish = client.get("/", headers={"Accept-Language": "sv-SE"})
            assert '<html lang="da"' in danish.text and "Nyt spil" in danish.text
            client.cookies.set(i18n.COOKIE, "xx")  # not ours: the phone's language again
            assert '<html lang="nb"' in client.get("/", headers={"Accept-Language": "nn"}).text
    finally:
        store.close()


def test_the_deals_lines_are_named_as_the_engine_names_them():
    from engine.scoring import LINE_TITLES

    english = i18n.catalogue("en")
    assert {line: english[f"line.{line}"] for line in LINE_TITLES} == LINE_TITLES


def test_the_rules_form_says_in_english_what_its_fields_say():
    from scanner.web.rules_form import FIELDS, label

    for field in FIELDS:
        assert label(field.key) == field.label
        for value, words in field.choices:
            assert i18n.catalogue("en")[f"rule.choice.{value}"] == words


def test_the_rules_form_in_swedish():
    from scanner.web.rules_form import check, form_json

    swedish = i18n.translator("sv")
    form = form_json("pagat", swedish)
    labels = {field["key"]: field["label"] for field in form["fields"]}
    assert labels["clean_bonus"] == "Poäng för en ren bok"
    problem = check("pagat", {"clean_bonus": "2OO"}, swedish)["problems"][0]
    assert problem["message"].startswith("Poäng för en ren bok: skriv ett heltal")


def test_what_the_table_says_is_said_in_english_as_the_service_says_it():
    from scanner.service.said import SENTENCES, Said

    english = i18n.catalogue("en")
    assert {key: english[f"said.{key}"] for key in SENTENCES} == SENTENCES
    said = Said.of(
        "recorded", deal=2, totals="Us 90, Them -5", over=Said.of("over_winner", name="Us")
    )
    assert i18n.tell(said.to_json(), i18n.translator("en")) == str(said)
    assert i18n.tell(said.to_json(), i18n.translator("da")) == (
        "Giv 2 er gemt: Us 90, Them -5. Spillet er slut: Us vinder."
    )


def test_the_engines_problems_are_said_in_english_as_the_engine_says_them():
    """Every sentence the engine can say about a problem is in the catalogues (so the test
    above keeps every language from missing one), and the English one is the engine's."""
    from engine.problems import SENTENCES

    english = i18n.catalogue("en")
    assert {key: english[f"problem.{key}"] for key in SENTENCES} == SENTENCES


ENGINE_PROBLEMS = [
    ("pagat", "8R 8B 2R JK"),  # too many wilds
    ("pagat", "KR QB JR 9B"),  # mixed ranks: a list
    ("pagat", "3R 3R 3R"),  # red threes
    ("pagat", "KR KB"),  # too few
    ("classic", "2R 2B JK"),  # wild meld not allowed
    ("handnfoot", "LADY LADY 12"),  # too few besides its Ladies, and the Lady's cap
    ("handnfoot", "VILLAIN 12 12 12"),
]


@pytest.mark.parametrize(("rules", "cards"), ENGINE_PROBLEMS)
def test_each_engine_problem_said_again_from_the_catalogue(rules, cards):
    from engine import check_meld, get_preset, parse_cards

    preset = get_preset(rules)
    problems = check_meld(parse_cards(cards, preset.deck), preset).problems
    assert problems
    for problem in problems:
        said = problem.said()
        assert i18n.tell_problem(said, i18n.translator("en")) == problem.message
        for language in set(i18n.LANGUAGES) - {"en"}:
            assert i18n.tell_problem(said, i18n.translator(language)) != problem.message


def test_a_deals_problems_in_danish():
    from engine import Deal, Side, get_preset, parse_cards, score_deal

    pagat = get_preset("pagat")
    book = parse_cards("KR KB KR KB KR KB KR")
    deal = Deal(pagat, 1, (Side("Us", melds=(book,), went_out=True), Side("Them", went_out=True)))
    problems = [problem.to_dict() for problem in score_deal(deal).problems]
    danish = [i18n.tell_where(problem, i18n.translator("da")) for problem in problems]
    assert danish[0] == (
        "Us: Us gik ud uden de bøger, giv 1 kræver (2 rene bøger + 2 urene bøger + 1 jokerbog); "
        "på bordet: rene 1, urene 0, jokerbøger 0"
    )
    assert "kun ét hold kan gå ud i en giv, men Us og Them er markeret som gået ud" in danish


@pytest.fixture
def table(tmp_path):
    from scanner.service import TableCamera, TableService
    from scanner.store import Store
    from scanner.web import create_app

    store = Store.open(tmp_path / "data")
    service = TableService(store, None, TableCamera("synthetic:5"), frames=1)
    try:
        with TestClient(create_app(service), base_url="http://localhost") as client:
            client.headers["Origin"] = "http://localhost"
            yield client
    finally:
        store.close()


def test_a_deals_problems_and_the_tables_refusals_in_the_pages_language(table):
    """Issue 72: every text a player sees in the page's language, the engine's problems and
    the table's refusals too; the API's English ``error`` stays as it was."""
    sides = [{"name": "Us"}, {"name": "Them"}]
    assert table.post("/api/games", json={"sides": sides, "rules": "pagat"}).status_code == 201
    answer = table.post("/api/deal/side", json={"side": "Them", "went_out": True})
    assert answer.status_code == 200, answer.text
    page = table.get("/deal", headers={"Accept-Language": "da"}).text
    assert "Them: Them gik ud uden de bøger, giv 1 kræver (2 rene bøger + 2 urene" in page
    assert "Us har ingen scanning af bordet: deres bord tæller som tomt." in page
    assert "went out without" not in page and "has no table scan" not in page

    english = table.post("/api/deal/confirm", json={"deal": 1, "accept_checks": True})
    assert english.status_code == 409
    assert english.json()["error"].startswith("This deal cannot have happened: Them: Them went")
    swedish = table.post(
        "/api/deal/confirm",
        json={"deal": 1, "accept_checks": True},
        headers={"Accept-Language": "sv"},
    ).json()
    assert swedish["error"] == english.json()["error"]
    assert swedish["said"]["key"] == "impossible"
    assert swedish["shown"].startswith("Den här given kan inte ha hänt: Them: Them gick ut utan")
    assert "(2 rena böcker + 2 orena böcker + 1 jokerbok); på bordet: rena 0" in swedish["shown"]

    stale = table.post("/api/deal/confirm", json={"deal": 3}, headers={"Accept-Language": "nb"})
    assert stale.status_code == 409
    assert stale.json()["shown"] == (
        "Giv 3 er ikke given som pågår: bordet er på giv 1. Siden viser den nå."
    )
    empty = table.post(
        "/api/scans/upload",
        content=b"",
        headers={"Accept-Language": "da"},
    )
    assert empty.status_code == 400
    for typed, english, danish in (
        (
            "5b zz",
            "The card code 'zz' cannot be used: 'zz' is not a card of the standard deck.",
            "Kortet 'zz' kan ikke bruges: 'zz' er ikke et kort i et almindeligt kortspil.",
        ),
        (
            "K",
            "(a rank needs its colour, R or B: KR, 10B).",
            "(en rang skal have sin farve, R eller B: KR, 10B).",
        ),
    ):
        answer = table.post(
            "/api/deal/side",
            json={"side": "Us", "hand": typed},
            headers={"Accept-Language": "da"},
        )
        assert answer.status_code == 400
        assert answer.json()["error"].endswith(english) and answer.json()["shown"].endswith(danish)
    assert empty.json()["shown"] == "Filen er tom: vælg et foto af bordet."


def test_a_pictures_quality_is_said_as_the_camera_says_it():
    from scanner.camera import quality
    from scanner.service.said import SENTENCES

    for kind in ("dark", "blurred", "blank"):
        assert SENTENCES[f"quality_{kind}"] == getattr(quality, f"{kind.upper()}_MESSAGE")


def test_why_a_card_counts_nowhere_in_the_pages_language():
    """The reasons a scan gives for a card it counts nowhere are kept in English with the
    scan; the page says them in its language, and in English as the scan said them."""
    from scanner.table import modes

    english, swedish = i18n.translator("en"), i18n.translator("sv")
    other = modes.OTHER_DECK.format(
        code="LORD", deck="special Hand 'N Foot deck", playing="standard deck"
    )
    for reason in (modes.LONE_CARD, modes.STRAY, other):
        assert english.reason(reason) == reason
        assert swedish.reason(reason) != reason
    assert swedish.reason(other) == (
        "läst som LORD, ett kort ur den särskilda Hand 'N Foot-kortleken; "
        "de här reglerna spelas med en vanlig kortlek"
    )
    assert swedish.reason("something new") == "something new"


def test_the_rules_summary_and_the_presets_in_the_pages_language():
    """The summary under the choice of rules and each preset's description: English as the
    engine says them, and in the page's language."""
    from engine.presets import PRESETS, get_preset
    from scanner.web.rules_form import summary

    english = i18n.catalogue("en")
    for spec in PRESETS:
        assert english[f"preset.{spec}"] == get_preset(spec).description
    brouillette = get_preset("brouillette")
    assert "Going out needs deal by deal 1 clean + 1 dirty / 1 clean + 1 dirty" in " ".join(
        summary(brouillette)
    )
    danish = " ".join(summary(brouillette, i18n.translator("da")))
    assert "At gå ud kræver giv for giv 1 ren bog + 1 uren bog / " in danish
    assert "2 rene bøger + 2 urene bøger og giver" in danish
