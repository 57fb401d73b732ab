"""The game record on real SQLite files: round trips, refusals, undo, scans and their images,
corrections, the schema's versions and files that are not a record."""

import doctest
import json
import os
import sqlite3
from pathlib import Path

import pytest

import scanner.store.checks
import scanner.store.errors
import scanner.store.export
import scanner.store.files
import scanner.store.schema
from scanner.store import (
    BadValue,
    Conflict,
    CorrectionRecord,
    DealRecord,
    GameRecord,
    NewerSchema,
    NotAStore,
    NotFound,
    ScanRecord,
    Store,
    StoreError,
    UnsafePath,
    default_data_dir,
)
from scanner.store.schema import MIGRATIONS, migrate, schema_version

SIDES = [
    {"name": "North-South", "players": ["Ann", "Bo"]},
    {"name": "East-West", "players": ["Cy", "Di"]},
]
JPEG = b"\xff\xd8\xff\xe0" + bytes(range(256)) * 4
PNG = b"\x89PNG\r\n\x1a\n" + b"annotated"


def result_of(number: int, ns: int, ew: int) -> dict:
    """A stored result in the shape ``handfoot score --json`` prints, cut down."""
    return {
        "rules": "pagat",
        "deal": number,
        "possible": True,
        "teams": [
            {"name": "North-South", "total": ns, "breakdown": {"melds": [], "melded_points": ns}},
            {"name": "East-West", "total": ew, "breakdown": {"melds": [], "melded_points": ew}},
        ],
        "problems": [],
    }


def deal_of(number: int) -> dict:
    return {"rules": "pagat", "deal": number, "teams": [{"name": "North-South", "melds": []}]}


@pytest.fixture
def store(tmp_path: Path):
    with Store.open(tmp_path / "data") as opened:
        yield opened


@pytest.fixture
def game(store: Store) -> GameRecord:
    return store.create_game("Friday", "pagat", 'name = "pagat"\n', SIDES)


def test_the_store_modules_doctests_pass():
    for module in (
        scanner.store.checks,
        scanner.store.errors,
        scanner.store.export,
        scanner.store.files,
        scanner.store.schema,
    ):
        failed, _ = doctest.testmod(module)
        assert failed == 0, module.__name__


# --- opening ------------------------------------------------------------------------------


def test_open_creates_the_folder_the_file_and_the_scans_folder(tmp_path: Path):
    data = tmp_path / "a" / "b"
    with Store.open(data) as store:
        assert store.data_dir == data
        assert store.schema_version == len(MIGRATIONS)
        assert (data / "handfoot.sqlite3").is_file()
        assert (data / "scans").is_dir()
    conn = sqlite3.connect(data / "handfoot.sqlite3")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    conn.close()


def test_what_was_written_is_there_after_reopening(tmp_path: Path):
    with Store.open(tmp_path) as store:
        game = store.create_game("Kept", "pagat", "", SIDES)
        store.confirm_deal(game.id, 1, deal_of(1), result_of(1, 100, 50))
    with Store.open(tmp_path) as store:
        assert store.games() == [game]
        assert [deal.result for deal in store.deals(game.id)] == [result_of(1, 100, 50)]


def test_default_data_dir_follows_systemd_then_xdg_then_home():
    assert default_data_dir({"STATE_DIRECTORY": "/var/lib/hf:/var/lib/other"}) == Path(
        "/var/lib/hf"
    )
    assert default_data_dir({"XDG_DATA_HOME": "/x", "HOME": "/h"}) == Path("/x/handfoot")
    assert default_data_dir({"HOME": "/h"}) == Path("/h/.local/share/handfoot")
    assert default_data_dir({"STATE_DIRECTORY": "", "HOME": "/h"}) == Path(
        "/h/.local/share/handfoot"
    )


def test_default_data_dir_reads_the_real_environment_when_given_none():
    expected = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    if expected:
        assert default_data_dir() == Path(expected)
    else:
        assert default_data_dir().name == "handfoot"


def test_a_file_of_random_bytes_is_refused_and_left_alone(tmp_path: Path):
    path = tmp_path / "handfoot.sqlite3"
    junk = os.urandom(16384)
    path.write_bytes(junk)
    with pytest.raises(NotAStore, match="not a usable handfoot game record") as caught:
        Store.open(tmp_path)
    assert "file is not a database" in str(caught.value)
    assert caught.value.path == path
    assert path.read_bytes() == junk
    assert not (tmp_path / "handfoot.sqlite3-wal").exists()


def test_another_programs_database_is_refused(tmp_path: Path):
    conn = sqlite3.connect(tmp_path / "handfoot.sqlite3")
    conn.execute("CREATE TABLE photos (id INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(NotAStore, match="some other program"):
        Store.open(tmp_path)


def test_a_damaged_record_is_refused(tmp_path: Path):
    with Store.open(tmp_path) as store:
        game = store.create_game("Soon damaged", "pagat", "", SIDES)
        for number in range(1, 30):
            store.confirm_deal(game.id, number, deal_of(number) | {"pad": "x" * 3000}, {})
    path = tmp_path / "handfoot.sqlite3"
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 6 * page
    data[3 * page : 5 * page] = os.urandom(2 * page)  # pages in the middle: header intact
    path.write_bytes(bytes(data))
    with pytest.raises(NotAStore, match="not a usable"):
        Store.open(tmp_path)


def test_a_newer_schema_is_refused_untouched(tmp_path: Path):
    with Store.open(tmp_path) as store:
        store.create_game("From the future", "pagat", "", SIDES)
    path = tmp_path / "handfoot.sqlite3"
    conn = sqlite3.connect(path)
    newer = len(MIGRATIONS) + 1
    conn.execute(f"PRAGMA user_version = {newer}")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(NewerSchema, match=f"schema version {newer}") as caught:
        Store.open(tmp_path)
    assert (caught.value.found, caught.value.known) == (newer, len(MIGRATIONS))
    assert "Upgrade handfoot" in str(caught.value)
    assert path.read_bytes() == before


def test_a_folder_where_the_file_should_be_is_refused(tmp_path: Path):
    (tmp_path / "handfoot.sqlite3").mkdir()
    with pytest.raises(NotAStore, match="not a file"):
        Store.open(tmp_path)


def test_an_uncreatable_data_folder_is_a_store_error(tmp_path: Path):
    (tmp_path / "file").write_text("in the way")
    with pytest.raises(StoreError, match="cannot be created"):
        Store.open(tmp_path / "file" / "data")


# --- migrations ---------------------------------------------------------------------------

V2 = """
ALTER TABLE games ADD COLUMN venue TEXT NOT NULL DEFAULT 'kitchen';
CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
"""


def test_migrations_take_a_version_1_file_to_the_latest_one_step_at_a_time(tmp_path: Path):
    conn = sqlite3.connect(tmp_path / "handfoot.sqlite3", isolation_level=None)
    assert migrate(conn, MIGRATIONS[:1]) == 1  # a file as the first release wrote it
    conn.close()
    with Store.open(tmp_path) as store:  # opening it brings it to the latest version
        game = store.create_game("Old", "pagat", "", SIDES)
        assert store.schema_version == len(MIGRATIONS)
        store.save_draft(game.id, 1, {"Us": {"went_out": True}})
    conn = sqlite3.connect(tmp_path / "handfoot.sqlite3", isolation_level=None)
    assert schema_version(conn) == len(MIGRATIONS)
    assert migrate(conn, (*MIGRATIONS, V2)) == len(MIGRATIONS) + 1
    assert schema_version(conn) == len(MIGRATIONS) + 1
    assert conn.execute("SELECT name, venue FROM games").fetchall() == [("Old", "kitchen")]
    assert migrate(conn, (*MIGRATIONS, V2)) == len(MIGRATIONS) + 1  # nothing left to do
    conn.close()


def test_a_deal_draft_is_kept_replaced_and_read_back(tmp_path: Path):
    with Store.open(tmp_path) as store:
        game = store.create_game("Draft", "pagat", "", SIDES)
        assert store.draft(game.id, 1) is None
        store.save_draft(game.id, 1, {"Us": {"typed_hand": ["5B"]}})
        store.save_draft(game.id, 1, {"Us": {"typed_hand": ["5B", "JK"]}})
    with Store.open(tmp_path) as store:
        assert store.draft(game.id, 1) == {"Us": {"typed_hand": ["5B", "JK"]}}
        with pytest.raises(NotFound):
            store.save_draft(999, 1, {})


def test_a_failing_migration_leaves_the_file_at_the_version_before(tmp_path: Path):
    conn = sqlite3.connect(tmp_path / "x.sqlite3", isolation_level=None)
    broken = "CREATE TABLE half_done (a); SELECT no_such_column FROM half_done;"
    with pytest.raises(sqlite3.OperationalError):
        migrate(conn, (*MIGRATIONS, broken))
    assert schema_version(conn) == len(MIGRATIONS)
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_schema")}
    assert "half_done" not in tables and "games" in tables
    conn.close()


def test_reopening_a_current_file_runs_no_migration(tmp_path: Path):
    Store.open(tmp_path).close()
    before = (tmp_path / "handfoot.sqlite3").read_bytes()
    Store.open(tmp_path).close()
    assert (tmp_path / "handfoot.sqlite3").read_bytes()[100:] == before[100:]


# --- games --------------------------------------------------------------------------------


def test_a_game_round_trips(store: Store, game: GameRecord):
    assert game.id == 1
    assert game.name == "Friday"
    assert game.rules_toml == 'name = "pagat"\n'
    assert game.sides == tuple(SIDES)
    assert game.finished_at is None
    assert game.created_at.endswith("Z") and "T" in game.created_at
    assert store.game(game.id) == game
    assert json.loads(json.dumps(game.to_json()))["sides"] == SIDES


def test_games_are_listed_newest_first(store: Store, game: GameRecord):
    later = store.create_game("Saturday", "western", "", SIDES[:1])
    assert [g.id for g in store.games()] == [later.id, game.id]


def test_finishing_a_game_keeps_the_first_time(store: Store, game: GameRecord):
    finished = store.finish_game(game.id)
    assert finished.finished_at is not None
    assert store.finish_game(game.id).finished_at == finished.finished_at
    assert store.game(game.id) == finished


def test_an_unknown_game_is_not_found(store: Store):
    with pytest.raises(NotFound, match="There is no game 42") as caught:
        store.game(42)
    assert (caught.value.kind, caught.value.key) == ("game", 42)
    for call in (
        lambda: store.finish_game(42),
        lambda: store.deals(42),
        lambda: store.undo_last_deal(42),
        lambda: store.confirm_deal(42, 1, {}, {}),
        lambda: store.scans(game_id=42),
        lambda: store.add_scan(mode="meld", image=JPEG, reading={}, game_id=42),
    ):
        with pytest.raises(NotFound):
            call()


@pytest.mark.parametrize(
    ("sides", "message"),
    [
        ([], "at least one side"),
        ([{"players": []}], "side name"),
        ([{"name": "A"}, {"name": "A"}], "two sides have that name"),
        ([{"name": "A", "players": "Ann"}], "not a list of names"),
        (["A"], "not an object"),
    ],
)
def test_bad_sides_are_refused(store: Store, sides: list, message: str):
    with pytest.raises(BadValue, match=message):
        store.create_game("x", "pagat", "", sides)
    assert store.games() == []


# --- deals --------------------------------------------------------------------------------


def test_a_deal_round_trips(store: Store, game: GameRecord):
    scan = store.add_scan(mode="table", image=JPEG, reading={"melds": []}, game_id=game.id)
    deal = store.confirm_deal(game.id, 1, deal_of(1), result_of(1, 120, 80), [scan.id])
    assert isinstance(deal, DealRecord)
    assert (deal.game_id, deal.number, deal.scan_ids, deal.undone_at) == (
        game.id,
        1,
        (scan.id,),
        None,
    )
    assert deal.deal == deal_of(1)
    assert deal.result == result_of(1, 120, 80)
    assert store.deals(game.id) == [deal]
    assert store.deal(deal.id) == deal
    assert deal.to_json()["scan_ids"] == [scan.id]
    json.dumps(deal.to_json())


def test_a_record_is_a_copy(store: Store, game: GameRecord):
    deal = store.confirm_deal(game.id, 1, deal_of(1), result_of(1, 1, 2))
    deal.result["teams"].clear()
    assert store.deal(deal.id).result == result_of(1, 1, 2)


def test_confirming_a_standing_number_again_is_a_conflict(store: Store, game: GameRecord):
    store.confirm_deal(game.id, 1, deal_of(1), result_of(1, 1, 2))
    with pytest.raises(Conflict, match="Deal 1 of game 1 is already confirmed") as caught:
        store.confirm_deal(game.id, 1, deal_of(1), result_of(1, 9, 9))
    assert (caught.value.game_id, caught.value.number) == (game.id, 1)
    assert [d.result for d in store.deals(game.id, include_undone=True)] == [result_of(1, 1, 2)]


def test_an_unknown_scan_refuses_the_whole_deal(store: Store, game: GameRecord):
    with pytest.raises(NotFound, match="There is no scan 99"):
        store.confirm_deal(game.id, 1, deal_of(1), result_of(1, 1, 2), [99])
    assert store.deals(game.id, include_undone=True) == []


def test_an_unknown_deal_is_not_found(store: Store):
    with pytest.raises(NotFound, match="There is no deal 5"):
        store.deal(5)


def test_deals_are_listed_by_number(store: Store, game: GameRecord):
    for number in (3, 1, 2):
        store.confirm_deal(game.id, number, deal_of(number), result_of(number, number, 0))
    assert [deal.number for deal in store.deals(game.id)] == [1, 2, 3]


def test_undo_then_confirm_the_same_number_keeps_both(store: Store, game: GameRecord):
    store.confirm_deal(game.id, 1, deal_of(1), result_of(1, 10, 0))
    first_2 = store.confirm_deal(game.id, 2, deal_of(2), result_of(2, 20, 0))
    undone = store.undo_last_deal(game.id)
    assert undone is not None
    assert (undone.id, undone.number) == (first_2.id, 2)
    assert undone.undone_at is not None
    assert [d.number for d in store.deals(game.id)] == [1]
    second_2 = store.confirm_deal(game.id, 2, deal_of(2), result_of(2, 25, 0))
    assert [d.result["teams"][0]["total"] for d in store.deals(game.id)] == [10, 25]
    everything = store.deals(game.id, include_undone=True)
    assert [(d.number, d.id, d.undone_at is None) for d in everything] == [
        (1, 1, True),
        (2, first_2.id, False),
        (2, second_2.id, True),
    ]


def test_undo_walks_back_and_stops_at_nothing(store: Store, game: GameRecord):
    for number in (1, 2):
        store.confirm_deal(game.id, number, deal_of(number), {})
    assert store.undo_last_deal(game.id).number == 2
    assert store.undo_last_deal(game.id).number == 1
    assert store.undo_last_deal(game.id) is None
    assert store.deals(game.id) == []
    assert len(store.deals(game.id, include_undone=True)) == 2


@pytest.mark.parametrize(
    ("number", "deal", "result", "message"),
    [
        (0, {}, {}, "deal number 0 cannot be stored"),
        (True, {}, {}, "whole number"),
        (1, [], {}, "not a JSON object"),
        (1, {}, {"x": {1, 2}}, "not plain JSON"),
        (1, {}, {"x": float("inf")}, "not plain JSON"),
    ],
)
def test_bad_deals_are_refused(
    store: Store, game: GameRecord, number: object, deal: object, result: object, message: str
):
    with pytest.raises(BadValue, match=message):
        store.confirm_deal(game.id, number, deal, result)  # type: ignore[arg-type]
    assert store.deals(game.id, include_undone=True) == []


# --- scans, images and corrections --------------------------------------------------------


def test_a_scan_round_trips_with_its_images(store: Store, game: GameRecord):
    reading = {"mode": "meld", "cards": ["QH", "QS", "2C"], "confidence": 0.93}
    scan = store.add_scan(
        mode="meld",
        image=JPEG,
        reading=reading,
        annotated=PNG,
        game_id=game.id,
        deal_number=2,
        side="East-West",
    )
    assert isinstance(scan, ScanRecord)
    assert (scan.game_id, scan.deal_number, scan.side, scan.mode) == (
        game.id,
        2,
        "East-West",
        "meld",
    )
    assert scan.reading == reading == scan.first_reading
    assert scan.image_file.startswith("scans/") and scan.image_file.endswith(".jpg")
    assert scan.annotated_file is not None and scan.annotated_file.endswith(".png")
    assert store.path_of(scan.image_file).read_bytes() == JPEG
    assert store.path_of(scan.annotated_file).read_bytes() == PNG
    assert (store.data_dir / scan.image_file).is_file()
    assert store.scan(scan.id) == scan
    assert json.loads(json.dumps(scan.to_json()))["reading"] == reading


def test_a_scan_without_a_game_or_annotation(store: Store):
    scan = store.add_scan(mode="leftovers", image=b"raw", reading={})
    assert (scan.game_id, scan.deal_number, scan.side, scan.annotated_file) == (
        None,
        None,
        None,
        None,
    )
    assert scan.image_file.endswith(".bin")
    assert store.path_of(scan.image_file).read_bytes() == b"raw"


def test_scans_are_listed_newest_first_and_filtered(store: Store, game: GameRecord):
    other = store.create_game("Other", "pagat", "", SIDES)
    made = [
        store.add_scan(mode="meld", image=JPEG, reading={"n": n}, game_id=g, deal_number=d)
        for n, (g, d) in enumerate([(game.id, 1), (game.id, 2), (other.id, 1), (game.id, 1)])
    ]
    assert [s.id for s in store.scans()] == [s.id for s in reversed(made)]
    assert [s.id for s in store.scans(game_id=game.id)] == [made[3].id, made[1].id, made[0].id]
    assert [s.id for s in store.scans(game.id, 1)] == [made[3].id, made[0].id]
    assert [s.id for s in store.scans(limit=2)] == [made[3].id, made[2].id]
    with pytest.raises(BadValue, match="scan limit"):
        store.scans(limit=0)


def test_a_scan_that_cannot_be_recorded_leaves_no_files(store: Store):
    with pytest.raises(NotFound):
        store.add_scan(mode="meld", image=JPEG, reading={}, annotated=PNG, game_id=7)
    assert [p for p in (store.data_dir / "scans").rglob("*") if p.is_file()] == []


def test_bad_scans_are_refused_before_any_file_is_written(store: Store):
    for kwargs, message in [
        ({"image": b""}, "empty"),
        ({"image": "not bytes"}, "not bytes"),
        ({"reading": ["not", "a", "dict"]}, "not a JSON object"),
        ({"mode": ""}, "empty"),
        ({"mode": "m" * 41}, "longer than 40"),
        ({"deal_number": -1}, "whole number"),
    ]:
        with pytest.raises(BadValue, match=message):
            store.add_scan(**({"mode": "meld", "image": JPEG, "reading": {}} | kwargs))
    assert list((store.data_dir / "scans").rglob("*")) == []
    assert store.scans() == []


def test_an_unknown_scan_is_not_found(store: Store):
    for call in (
        lambda: store.scan(3),
        lambda: store.corrections(3),
        lambda: store.correct_scan(3, "change", {}, {}),
    ):
        with pytest.raises(NotFound, match="There is no scan 3"):
            call()


def test_corrections_are_kept_in_order_with_the_reading_they_made(store: Store):
    first = {"cards": ["QH", "QS", "8C"]}
    scan = store.add_scan(mode="meld", image=JPEG, reading=first)
    second = {"cards": ["QH", "QS", "QC"]}
    third = {"cards": ["QH", "QS", "QC", "JK"]}
    fix = store.correct_scan(scan.id, "change", {"index": 2, "from": "8C", "to": "QC"}, second)
    add = store.correct_scan(scan.id, "add", {"card": "JK"}, third)
    assert isinstance(fix, CorrectionRecord)
    assert (fix.scan_id, fix.action, fix.detail, fix.reading) == (
        scan.id,
        "change",
        {"index": 2, "from": "8C", "to": "QC"},
        second,
    )
    assert store.corrections(scan.id) == [fix, add]
    now = store.scan(scan.id)
    assert now.reading == third
    assert now.first_reading == first
    json.dumps(fix.to_json())


def test_a_bad_correction_changes_nothing(store: Store):
    scan = store.add_scan(mode="meld", image=JPEG, reading={"cards": []})
    with pytest.raises(BadValue):
        store.correct_scan(scan.id, "change", {}, {"cards": {"a", "set"}})
    with pytest.raises(BadValue):
        store.correct_scan(scan.id, "", {}, {})
    assert store.corrections(scan.id) == []
    assert store.scan(scan.id).reading == {"cards": []}


@pytest.mark.parametrize(
    "name",
    [
        "../handfoot.sqlite3",
        "handfoot.sqlite3",
        "scans/../handfoot.sqlite3",
        "scans/../../../etc/passwd",
        "/etc/passwd",
        "scans",
        "",
        "scans/a\0b",
    ],
)
def test_path_traversal_is_refused(store: Store, name: str):
    store.add_scan(mode="meld", image=JPEG, reading={})
    with pytest.raises(UnsafePath, match="is not a scan image"):
        store.path_of(name)


def test_a_link_out_of_the_scans_folder_is_refused(store: Store, tmp_path: Path):
    secret = tmp_path / "secret.txt"
    secret.write_text("no")
    (store.data_dir / "scans" / "link.jpg").symlink_to(secret)
    with pytest.raises(UnsafePath):
        store.path_of("scans/link.jpg")


def test_a_missing_image_is_not_found(store: Store):
    with pytest.raises(NotFound, match=r"There is no image file 'scans/gone\.jpg'"):
        store.path_of("scans/gone.jpg")


# --- health and closing -------------------------------------------------------------------


def test_health_reports_the_record(store: Store, game: GameRecord):
    report = store.health()
    assert report == {
        "ok": True,
        "state": "ok",
        "path": str(store.data_dir / "handfoot.sqlite3"),
        "schema": len(MIGRATIONS),
        "games": 1,
        "free_mb": report["free_mb"],
        "error": None,
    }
    assert report["free_mb"] > 0


def test_a_closed_store_says_so(tmp_path: Path):
    store = Store.open(tmp_path)
    store.close()
    store.close()  # twice is harmless
    with pytest.raises(StoreError, match="is closed"):
        store.games()
    with pytest.raises(StoreError, match="is closed"):
        store.add_scan(mode="meld", image=JPEG, reading={})
    report = store.health()
    assert report["ok"] is False and "closed" in report["error"]


def test_unfinished_image_files_are_removed_when_old(tmp_path: Path):
    day = tmp_path / "scans" / "2026-01-01"
    day.mkdir(parents=True)
    old, fresh, whole = day / ".a.jpg.1234.part", day / ".b.jpg.5678.part", day / "c.jpg"
    for path in (old, fresh, whole):
        path.write_bytes(b"x")
    os.utime(old, (0, 0))
    os.utime(whole, (0, 0))
    Store.open(tmp_path).close()
    assert not old.exists()
    assert fresh.exists() and whole.exists()
