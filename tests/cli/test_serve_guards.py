"""``handfoot serve`` as real processes, attacked and faulted: a second server on the same data
folder, a flood of idle event streams against a small open-file limit, a camera that is not
there, a full or read-only disk, and names written to the log."""

import resource
import shutil
import socket
import subprocess
import sys
import time

import httpx2
import pytest

from tests.web.test_restart import free_port

pytestmark = pytest.mark.slow

SERVE = [sys.executable, "-m", "scanner.cli", "serve", "--frames", "1"]


def serve(data, port: int, log, *extra: str, limit_files: int | None = None):
    def small_limit() -> None:
        if limit_files:
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit_files, limit_files))

    command = [*SERVE, "--data", str(data), "--port", str(port), *extra]
    if "--camera" not in extra:
        command += ["--camera", "synthetic"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log, preexec_fn=small_limit)


def answering(port: int, process, within_s: float = 60) -> httpx2.Response:
    """The first answer of /healthz, whatever its status."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"handfoot serve stopped with {process.returncode}")
        try:
            return httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
        except httpx2.HTTPError:
            time.sleep(0.2)
    pytest.fail("handfoot serve did not answer within a minute")


def stop(process) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture
def log(tmp_path):
    with open(tmp_path / "serve.log", "w+") as out:
        yield out


def test_a_second_server_on_the_same_folder_says_who_holds_it(tmp_path, log):
    port = free_port()
    first = serve(tmp_path / "data", port, log)
    try:
        assert answering(port, first).status_code == 200
        try:
            second = subprocess.run(
                [*SERVE, "--data", str(tmp_path / "data"), "--port", str(free_port())],
                capture_output=True,
                text=True,
                timeout=30,
            )
        except subprocess.TimeoutExpired:
            pytest.fail("a second server started on the same data folder")
        assert second.returncode == 2
        assert second.stderr.count("\n") == 1 and f"process {first.pid}" in second.stderr
    finally:
        stop(first)


def test_idle_event_streams_cannot_starve_the_table(tmp_path, log):
    port = free_port()
    server = serve(tmp_path / "data", port, log, limit_files=200)
    streams = []
    try:
        assert answering(port, server).status_code == 200
        request = f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        for _ in range(400):
            stream = socket.create_connection(("127.0.0.1", port), timeout=5)
            stream.sendall(request)
            streams.append(stream)
        # Out of open files, the server never answered again; now it does (in about 2 s on
        # an idle machine: the wait is long for a machine busy with other work)
        state = httpx2.get(f"http://127.0.0.1:{port}/api/state", timeout=60)
        assert state.status_code == 200
        closed = 0
        for stream in streams:
            stream.settimeout(0.5)
            try:
                while stream.recv(65536):
                    pass
                closed += 1  # the server ended it
            except TimeoutError:
                pass
        assert closed >= 400 - 64, closed  # the oldest streams were closed, not left open
    finally:
        for stream in streams:
            stream.close()
        stop(server)
    log.seek(0)
    text = log.read()
    assert text.count("Too many open files") <= 2, text[-2000:]
    assert len(text) < 100_000


def test_names_cannot_forge_a_log_line(tmp_path, log):
    port = free_port()
    server = serve(tmp_path / "data", port, log)
    try:
        assert answering(port, server).status_code == 200
        rules = 'base = "pagat"\nname = "Ours\\nERROR scanner.store: deal 9 of game 1 undone"'
        game = httpx2.post(
            f"http://127.0.0.1:{port}/api/games",
            json={"sides": [{"name": "Us"}], "rules_toml": rules},
            headers={"Origin": f"http://127.0.0.1:{port}"},
            timeout=30,
        )
        assert game.status_code == 201, game.text
    finally:
        stop(server)
    log.seek(0)
    lines = log.read().splitlines()
    assert not [line for line in lines if line.startswith("ERROR scanner.store: deal 9")]
    assert [line for line in lines if "Ours\\nERROR" in line]


def test_a_camera_that_is_not_there_is_told_from_the_first_second(tmp_path, log):
    port = free_port()
    server = serve(tmp_path / "data", port, log, "--camera", f"files:{tmp_path}/nothing")
    try:
        first = answering(port, server)
        assert first.status_code == 503, first.text
        camera = first.json()["camera"]
        assert not camera["ok"] and camera["error"]
        panel = httpx2.get(f"http://127.0.0.1:{port}/api/panel", timeout=5).json()
        assert panel["display"] == "Err 1"
    finally:
        stop(server)


def in_small_disk(data, then: str) -> list[str]:
    """A shell command: a 3 MB tmpfs on ``data`` in a mount namespace of its own, a record
    with a game in it, then ``then``."""
    make = (
        f"from scanner.store import Store; s = Store.open('{data}'); "
        "s.create_game('Fri', 'pagat', '', [{'name': 'Us'}]); s.close()"
    )
    return [
        "unshare",
        "-m",
        "sh",
        "-c",
        f'mount -t tmpfs -o size=3m tmpfs {data} && {sys.executable} -c "{make}" && {then}',
    ]


@pytest.fixture
def namespaces(tmp_path):
    if not shutil.which("unshare"):
        pytest.skip("needs unshare (util-linux) to mount a small disk")
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", f"mount -t tmpfs tmpfs {tmp_path}"], capture_output=True
    )
    if probe.returncode != 0:
        pytest.skip("mounting a small disk needs root (CI runs as root)")


def test_a_disk_that_fills_is_named_as_storage(tmp_path, log, namespaces):
    data = tmp_path / "data"
    data.mkdir()
    port = free_port()
    command = " ".join([*SERVE, "--data", str(data), "--port", str(port), "--camera", "synthetic"])
    server = subprocess.Popen(
        in_small_disk(data, f"exec {command}"), stdout=subprocess.DEVNULL, stderr=log
    )
    url = f"http://127.0.0.1:{port}"
    try:
        answering(port, server)
        # the server's own view of its small disk, filled up from here
        filler = open(f"/proc/{server.pid}/root{data}/filler", "wb")  # noqa: SIM115
        with filler, pytest.raises(OSError):
            while True:
                filler.write(bytes(65536))
                filler.flush()
        scan = httpx2.post(f"{url}/api/scan", json={}, headers={"Origin": url}, timeout=60)
        assert scan.status_code == 503 and "disk is full" in scan.json()["error"], scan.text
        assert "camera" not in scan.json()["error"]
        assert httpx2.get(f"{url}/api/panel", timeout=5).json()["display"] == "Err 6"
        storage = httpx2.get(f"{url}/healthz", timeout=5).json()["storage"]
        assert storage["state"] == "full" and "disk is full" in storage["error"]
    finally:
        stop(server)


def test_a_full_disk_at_start_is_named_as_storage(tmp_path, namespaces):
    data = tmp_path / "data"
    data.mkdir()
    fill = f"(dd if=/dev/zero of={data}/filler bs=64k 2>/dev/null; true)"
    command = " ".join([*SERVE, "--data", str(data), "--port", str(free_port())])
    done = subprocess.run(
        in_small_disk(data, f"{fill} && exec {command}"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "disk is full" in done.stderr


def test_a_read_only_data_folder_is_named_as_storage(tmp_path, log, namespaces):
    data = tmp_path / "data"
    data.mkdir()
    command = " ".join([*SERVE, "--data", str(data), "--port", str(free_port())])
    done = subprocess.run(
        in_small_disk(data, f"mount -o remount,ro {data} && exec {command}"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "read-only" in done.stderr
