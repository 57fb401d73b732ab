"""A damaged game record is never silent: real SQLite files emptied, with a damaged log frame or
an altered row, are refused at start with one line that says what to do, and kept as they are;
a backup taken after a process was killed holds every deal, the ones only in the log too."""

import sqlite3
import subprocess
import sys
import textwrap

import pytest
from fastapi.testclient import TestClient

from scanner.store import DATABASE, NotAStore, Store, StoreError

# Writes deals in a process that then kills itself: every commit is left in the -wal file.
KILLED_WRITER = textwrap.dedent(
    """
    import os, signal, sys
    from scanner.store import Store
    store = Store.open(sys.argv[1])
    game = store.create_game("Friday", "pagat", "", [{"name": "Us"}, {"name": "Them"}])
    for number in range(1, int(sys.argv[2]) + 1):
        store.confirm_deal(game.id, number, {"deal": number}, {"teams": []})
    os.kill(os.getpid(), signal.SIGKILL)
    """
)


def killed_writer(folder, deals: int) -> None:
    done = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(folder), str(deals)])
    assert done.returncode == -9
    assert (folder / (DATABASE + "-wal")).stat().st_size > 0


def a_game(folder, deals: int = 2) -> None:
    with Store.open(folder) as store:
        game = store.create_game("Friday", "pagat", "", [{"name": "Us"}, {"name": "Them"}])
        for number in range(1, deals + 1):
            store.confirm_deal(game.id, number, {"deal": number}, {"teams": []})


def test_an_emptied_record_file_is_refused_and_kept(tmp_path):
    a_game(tmp_path, deals=3)
    (tmp_path / DATABASE).write_bytes(b"")
    with pytest.raises(NotAStore, match="empty"):
        Store.open(tmp_path)
    assert (tmp_path / DATABASE).stat().st_size == 0  # untouched


def test_a_damaged_frame_of_the_log_is_refused_and_kept(tmp_path):
    killed_writer(tmp_path, 20)
    wal = tmp_path / (DATABASE + "-wal")
    data = bytearray(wal.read_bytes())
    middle = len(data) // 3
    data[middle : middle + 16] = b"\xa5" * 16  # one frame's page, part overwritten
    wal.write_bytes(bytes(data))
    with pytest.raises(NotAStore, match="log") as refused:
        Store.open(tmp_path)
    assert "restore" in str(refused.value)
    assert wal.read_bytes() == bytes(data)  # untouched


def test_a_whole_log_after_a_kill_opens_with_every_deal(tmp_path):
    killed_writer(tmp_path, 20)
    with Store.open(tmp_path) as store:
        assert len(store.deals(1)) == 20


@pytest.mark.parametrize(
    ("table", "column", "what"),
    [("deals", "deal", "deal 1 of game 1"), ("games", "sides", "game 1")],
)
def test_an_altered_row_is_refused_at_start(tmp_path, table, column, what):
    a_game(tmp_path)
    with sqlite3.connect(tmp_path / DATABASE) as raw:
        raw.execute(f"UPDATE {table} SET {column} = '{{not json' WHERE id = 1")
    raw.close()
    with pytest.raises(StoreError, match="damaged") as refused:
        Store.open(tmp_path)
    assert what in str(refused.value) and "\n" not in str(refused.value)


def test_damaged_sides_stop_serve_with_one_line(tmp_path, cli):
    a_game(tmp_path)
    with sqlite3.connect(tmp_path / DATABASE) as raw:
        raw.execute("UPDATE games SET sides = '[{\"nam' WHERE id = 1")
    raw.close()
    run = cli("serve", "--data", tmp_path, "--camera", "synthetic", "--port", "1")
    assert run.code == 2
    assert len(run.err.strip().splitlines()) == 1 and "damaged" in run.err


def test_a_row_damaged_while_running_is_reported_not_a_500(tmp_path):
    from scanner.service import TableCamera, TableService
    from scanner.web import create_app

    a_game(tmp_path)
    store = Store.open(tmp_path)
    service = TableService(store, None, TableCamera("synthetic:5"), frames=1)
    with TestClient(create_app(service), base_url="http://localhost") as client:
        with sqlite3.connect(tmp_path / DATABASE) as raw:
            raw.execute("UPDATE deals SET result = '{oops' WHERE id = 2")
        raw.close()
        for url in ("/api/games", "/api/games/1", "/history", "/history/1"):
            answer = client.get(url)
            assert answer.status_code == 503, (url, answer.status_code)
            assert "damaged" in answer.text and "Traceback" not in answer.text
    store.close()


def test_backup_after_a_kill_holds_every_deal_and_restores(tmp_path, cli):
    data = tmp_path / "data"
    killed_writer(data, 24)
    copy = tmp_path / "copy.sqlite3"
    made = cli("backup", copy, "--data", data)
    assert made.code == 0, made.err
    assert "24 deals" in made.out
    assert not (tmp_path / "copy.sqlite3-wal").exists()
    with sqlite3.connect(copy) as raw:
        assert raw.execute("SELECT count(*) FROM deals").fetchone()[0] == 24
    raw.close()
    fresh = tmp_path / "fresh"
    a_game(fresh, deals=1)
    restored = cli("restore", copy, "--data", fresh)
    assert restored.code == 0, restored.err
    with Store.open(fresh) as store:
        assert len(store.deals(1)) == 24
    kept = [p for p in fresh.iterdir() if "before-restore" in p.name]
    assert len(kept) == 1  # the record it replaced
    not_a_record = tmp_path / "notes.txt"
    not_a_record.write_text("hello")
    refused = cli("restore", not_a_record, "--data", fresh)
    assert refused.code == 2 and "not a usable handfoot game record" in refused.err
    with Store.open(fresh) as store:
        assert len(store.deals(1)) == 24


def test_a_daily_copy_keeps_the_last_few(tmp_path):
    from scanner.store.backup import daily_copy

    a_game(tmp_path)
    with Store.open(tmp_path) as store:
        for day in range(1, 10):
            daily_copy(store, day=f"2026-05-{day:02d}", keep=7)
    copies = sorted(p.name for p in (tmp_path / "backups").iterdir())
    assert copies == [f"handfoot-2026-05-{day:02d}.sqlite3" for day in range(3, 10)]
    with sqlite3.connect(tmp_path / "backups" / copies[-1]) as raw:
        assert raw.execute("SELECT count(*) FROM deals").fetchone()[0] == 2
    raw.close()
