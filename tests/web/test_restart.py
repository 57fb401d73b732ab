"""``handfoot serve`` as a real process: a deal confirmed over HTTP survives the process being
killed outright, and the table picks the game up where it was, with what the players had told
the page about the deal in progress."""

import os
import signal
import socket
import subprocess
import sys
import time

import httpx2
import pytest

# Starts and kills real server processes.
pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(data, port: int, log) -> subprocess.Popen:
    command = [sys.executable, "-m", "scanner.cli", "serve", "--data", str(data)]
    command += ["--port", str(port), "--camera", "synthetic", "--frames", "1"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"handfoot serve stopped (its log: {log.name})")
        try:
            if httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return process
        except httpx2.HTTPError:
            time.sleep(0.2)
    process.kill()
    pytest.fail("handfoot serve did not answer within a minute")


def test_a_confirmed_deal_survives_kill_9(tmp_path):
    port = free_port()
    log = open(tmp_path / "serve.log", "w")  # noqa: SIM115 - both runs write to it
    process = start(tmp_path / "data", port, log)
    url = f"http://127.0.0.1:{port}"
    try:
        first_line = process.stdout.readline()
        assert first_line.startswith(f"handfoot is running: open http://127.0.0.1:{port}/")
        with httpx2.Client(base_url=url, headers={"Origin": url}, timeout=30) as client:
            game = client.post("/api/games", json={"sides": [{"name": "Us"}, {"name": "Them"}]})
            assert game.status_code == 201, game.text
            assert client.post("/api/deal/sides/Us", json={"hand": "5B JK"}).status_code == 200
            assert client.post("/api/deal/sides/Them", json={"hand": "KR"}).status_code == 200
            confirmed = client.post("/api/deal/confirm", json={})
            assert confirmed.status_code == 200, confirmed.text
            # deal 2 in progress: what the camera cannot see, told to the page
            told = client.post("/api/deal/sides/Them", json={"hand": "7B 7B", "went_out": True})
            assert told.status_code == 200, told.text
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
        process.stdout.close()
    assert process.returncode == -signal.SIGKILL

    again = start(tmp_path / "data", port, log)
    try:
        with httpx2.Client(base_url=url, headers={"Origin": url}, timeout=30) as client:
            game = client.get("/api/games/1").json()
            state = client.get("/api/state").json()
    finally:
        again.terminate()
        again.wait(15)
        again.stdout.close()
        log.close()
    assert [deal["number"] for deal in game["deals"]] == [1]
    assert game["totals"] == {"Us": -55, "Them": -10}
    assert state["game"]["id"] == 1 and state["deal"] == 2
    assert [side["total"] for side in state["sides"]] == [-55, -10]
    them = state["sides"][1]
    assert them["typed_hand"] == ["7B", "7B"] and them["went_out"] is True


def test_bad_options_are_one_line(tmp_path):
    for options, words in (
        (["--camera", "nonsense:1"], "is not a camera"),
        (["--panel", "gpio"], "--panel simulated"),
        (["--models", str(tmp_path)], "the card recogniser cannot start"),
        (["--port", "0"], "--port must be"),
        (["--threads", "0"], "--threads must be 1 to 64"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "scanner.cli", "serve", "--data", str(tmp_path), *options],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2, (options, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and words in lines[0], (options, done.stderr)
        assert "Traceback" not in done.stderr
