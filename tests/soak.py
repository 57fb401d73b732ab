"""``make soak``: the attacks and faults of the hardening review, repeated against real
``handfoot serve`` processes on 127.0.0.1 (loopback only, temporary data folders, a few minutes
at most), and a table of what each did. Exit 1 when any row is not as it should be.

    python -m tests.soak [--rounds N]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx2

HOST = "127.0.0.1"
# A photo as the camera: the soak does not need rendered tables, only a camera that answers.
CAMERA = "files:" + str(Path(__file__).parent / "fixtures" / "vision" / "scene-777-100.jpg")
PIN = "2468"
STRANGER = "127.0.0.2"
SERVE = [
    sys.executable,
    "-m",
    "scanner.cli",
    "serve",
    "--camera",
    CAMERA,
]  # loopback too: another "phone" for the per-client limits


@dataclass
class Row:
    attack: str
    tries: int
    seen: str
    ok: bool


class Server:
    """One ``handfoot serve`` on a free loopback port."""

    def __init__(self, data: Path, *extra: str, files: int | None = None) -> None:
        self.data = data
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.log = open(data.parent / f"serve-{self.port}.log", "w+")  # noqa: SIM115

        def limit() -> None:
            if files:
                resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

        command = [sys.executable, "-m", "scanner.cli", "serve", "--host", HOST]
        command += ["--port", str(self.port), "--data", str(data), "--frames", "1", *extra]
        if "--camera" not in extra:
            command += ["--camera", CAMERA]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=self.log, preexec_fn=limit
        )

    def first_answer(self, within_s: float = 90) -> httpx2.Response:
        deadline = time.monotonic() + within_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"handfoot serve stopped ({self.process.returncode})")
            try:
                return httpx2.get(self.url + "/healthz", timeout=2)
            except httpx2.HTTPError:
                time.sleep(0.2)
        raise RuntimeError("handfoot serve did not answer")

    def client(self, address: str = HOST, pin: bool = True) -> httpx2.Client:
        headers = {"Origin": self.url} | ({"X-Table-PIN": PIN} if pin else {})
        transport = httpx2.HTTPTransport(local_address=address)
        return httpx2.Client(base_url=self.url, headers=headers, timeout=60, transport=transport)

    def peak_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def log_text(self) -> str:
        self.log.flush()
        return (self.data.parent / f"serve-{self.port}.log").read_text(errors="replace")

    def stop(self, how: int = signal.SIGTERM) -> None:
        if self.process.poll() is None:
            self.process.send_signal(how)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def new_game(client: httpx2.Client, sides=("Us", "Them"), **extra) -> dict:
    body = {"sides": [{"name": name} for name in sides]} | extra
    answer = client.post("/api/games", json=body)
    answer.raise_for_status()
    return answer.json()


def play_deal(client: httpx2.Client, number: int, sides=("Us", "Them")) -> int:
    for side in sides:
        client.post("/api/deal/side", json={"side": side, "hand": "5B"}).raise_for_status()
    return client.post("/api/deal/confirm", json={"deal": number}).status_code


def png_bomb(size: int = 20000) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    header = size.to_bytes(4, "big") * 2 + bytes([8, 2, 0, 0, 0])
    rows = zlib.compress(b"\x00" * (size * 3 + 1) * 16, 9)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows)


# --- the attacks, each a row -------------------------------------------------------------


def huge_rules(server: Server) -> Row:
    before = server.peak_mb()
    codes = []
    with server.client() as client:
        for deals in ("200000000", "9223372036854775807"):
            toml = f'base = "pagat"\ndeals = {deals}'
            codes.append(client.post("/api/rules/check", json={"rules_toml": toml}).status_code)
            codes.append(
                client.post(
                    "/api/games", json={"sides": [{"name": "X"}], "rules_toml": toml}
                ).status_code
            )
    grown = server.peak_mb() - before
    ok = set(codes) == {400} and grown < 50
    return Row("house rules deals=2e8, 2^63-1", len(codes), f"{codes[0]}; +{grown:.0f} MB", ok)


def stream_flood(server: Server, count: int) -> Row:
    request = f"GET /api/events HTTP/1.1\r\nHost: {HOST}:{server.port}\r\n\r\n".encode()
    streams = []
    try:
        for _ in range(count):
            stream = socket.create_connection((HOST, server.port), timeout=5)
            stream.sendall(request)
            streams.append(stream)
        started = time.monotonic()
        answer = httpx2.get(server.url + "/api/state", timeout=30)
        took = time.monotonic() - started
    finally:
        for stream in streams:
            stream.close()
    flooded = server.log_text().count("Too many open files")
    ok = answer.status_code == 200 and took < 10 and flooded <= 2
    return Row(f"{count} idle event streams", count, f"state in {took:.1f} s, {flooded} EMFILE", ok)


def pin_lockout(server: Server) -> Row:
    with server.client(STRANGER, pin=False) as stranger, server.client() as player:
        wrong = [
            stranger.post("/api/panel/mode", headers={"X-Table-PIN": f"{n:04}"}).status_code
            for n in range(30)
        ]
        kept_out = sum(
            player.post("/api/panel/mode", headers={"X-Table-PIN": PIN}).status_code != 200
            for _ in range(30)
        )
    ok = kept_out == 0 and 429 in wrong
    return Row("30 wrong PINs, then the player 30x", 60, f"player refused {kept_out} of 30", ok)


def image_bombs(server: Server, parallel: int) -> Row:
    bomb = png_bomb()
    before = server.peak_mb()
    with server.client() as client, concurrent.futures.ThreadPoolExecutor(parallel) as pool:
        codes = list(
            pool.map(
                lambda _: client.post("/api/scans/upload", content=bomb).status_code,
                range(parallel),
            )
        )
    grown = server.peak_mb() - before
    ok = set(codes) == {400} and grown < 50
    return Row(f"{parallel} 20000x20000 PNGs at once", parallel, f"{codes[0]}; +{grown:.0f} MB", ok)


def headers_and_origin(server: Server) -> Row:
    page = httpx2.get(server.url + "/", timeout=10)
    policy = page.headers.get("content-security-policy", "")
    forged = httpx2.post(
        server.url + "/api/panel/mode",
        headers={"Referer": "http://evil.example/x", "X-Table-PIN": PIN},
        timeout=10,
    )
    photo = httpx2.get(server.url + "/scans/1/image", timeout=10)
    ok = (
        "frame-ancestors 'none'" in policy
        and page.headers.get("x-content-type-options") == "nosniff"
        and forged.status_code == 403
        and photo.status_code == 401
    )
    seen = f"CSP {'set' if policy else 'missing'}, Referer-only {forged.status_code}"
    seen += f", photo {photo.status_code}"
    return Row("framing, forged Referer, photo without PIN", 3, seen, ok)


def huge_names(server: Server) -> Row:
    with server.client() as client:
        many = client.post(
            "/api/games", json={"sides": [{"name": "Us", "players": ["p"] * 100_000}]}
        ).status_code
        forged = new_game(client, sides=("Bob\nERROR forged", "Ann\x00\x1b[31m"))
    names = [side["name"] for side in forged["state"]["sides"]]
    ok = 400 <= many < 500 and not any(ord(c) < 32 for name in names for c in name)
    return Row("100,000 players; control characters", 2, f"{many}; names {names}", ok)


def second_server(server: Server) -> Row:
    try:
        done = subprocess.run(
            [*SERVE, "--data", str(server.data), "--port", str(free_port())],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except subprocess.TimeoutExpired:
        return Row("a second server on the same folder", 1, "it started", False)
    ok = done.returncode == 2 and f"process {server.process.pid}" in done.stderr
    return Row("a second server on the same folder", 1, f"exit {done.returncode}", ok)


def double_confirms(server: Server, deals: int) -> Row:
    """Each deal confirmed by two requests at the same moment: one records it, the other is
    told the table moved on (a game has 4 deals; a new one starts when one ends)."""
    recorded, games = 0, set()
    with server.client() as client:
        new_game(client)
        for _ in range(deals):
            state = client.get("/api/state").json()
            if state["deal"] is None:
                state = new_game(client)["state"]
            number, game = state["deal"], state["game"]["id"]
            games.add(game)
            for side in ("Us", "Them"):
                client.post("/api/deal/side", json={"side": side, "hand": "5B"})

            def confirm(_: int, number: int = number) -> int:
                return client.post("/api/deal/confirm", json={"deal": number}).status_code

            with concurrent.futures.ThreadPoolExecutor(2) as pool:
                recorded += sorted(pool.map(confirm, range(2))) == [200, 409]
        stored = sum(len(client.get(f"/api/games/{game}").json()["deals"]) for game in games)
    ok = recorded == deals and stored == deals
    return Row(f"2 confirms at once, {deals} deals", 2 * deals, f"{stored} deals stored", ok)


def kills_during_play(base: Path, kills: int) -> Row:
    """Confirm deals, killing the server with SIGKILL at random moments; every deal that was
    acknowledged must be there after the restart."""
    data = base / "kills"
    acknowledged: set[tuple[int, int]] = set()
    game_ids = []
    for _ in range(kills):
        server = Server(data)
        server.first_answer()
        with server.client() as client:
            state = client.get("/api/state").json()
            if state["game"] is None or state["deal"] is None:
                new_game(client)
                state = client.get("/api/state").json()
            game_ids.append(state["game"]["id"])
            deadline = time.monotonic() + random.uniform(1.0, 3.0)
            try:
                while time.monotonic() < deadline:
                    number = client.get("/api/state").json()["deal"]
                    if number is None:
                        new_game(client)
                        continue
                    if play_deal(client, number) == 200:
                        acknowledged.add((client.get("/api/state").json()["game"]["id"], number))
            except httpx2.HTTPError:
                pass
        server.stop(signal.SIGKILL)
    server = Server(data)
    server.first_answer()
    with server.client() as client:
        stored = {
            (game["id"], deal["number"])
            for game in client.get("/api/games").json()
            for deal in client.get(f"/api/games/{game['id']}").json()["deals"]
        }
    server.stop()
    lost = len(acknowledged - stored)
    return Row(f"kill -9 x{kills} while confirming", len(acknowledged), f"{lost} lost", lost == 0)


def awkward_names(server: Server) -> Row:
    sides = ("Mom/Dad", "../../deal/undo", "=1+2")
    with server.client() as client:
        game = new_game(client, sides=sides)["game"]["id"]
        codes = [play_deal(client, 1, sides)]
        codes.append(
            client.post("/api/deal/side", json={"side": sides[1], "went_out": True}).status_code
        )
        stored = len(client.get(f"/api/games/{game}").json()["deals"])
        csv = client.get(f"/api/games/{game}/export.csv").text
    formulas = sum(
        cell.startswith(("=", "+", "@")) for line in csv.splitlines() for cell in line.split(",")
    )
    ok = codes == [200, 200] and stored == 1 and formulas == 0
    return Row(
        "names with / .. and =formula; CSV", 3, f"{stored} deal kept, {formulas} formulas", ok
    )


def huge_ids(server: Server) -> Row:
    urls = ["/api/games/", "/api/scans/", "/scans/", "/history/", "/scan/"]
    codes = []
    with server.client() as client:
        for url in urls:
            target = url + str(2**63) + ("/image" if url == "/scans/" else "")
            codes.append(client.get(target).status_code)
        tiny = png_bomb(4)
        codes.append(client.post("/api/scans/upload", content=tiny).status_code)
    ok = all(400 <= code < 500 for code in codes)
    return Row("ids 2^63, a 4x4 picture", len(codes), f"{sorted(set(codes))}", ok)


def mixed_load(server: Server, clients: int, each: int) -> Row:
    def one(number: int) -> list[int]:
        codes = []
        with server.client() as client:
            for _ in range(each):
                url = random.choice(["/api/state", "/", "/deal", "/history", "/api/panel"])
                codes.append(client.get(url).status_code)
                if random.random() < 0.3:
                    codes.append(client.post("/api/panel/mode").status_code)
        return codes

    with concurrent.futures.ThreadPoolExecutor(clients) as pool:
        codes = [code for batch in pool.map(one, range(clients)) for code in batch]
    errors = sum(code >= 500 for code in codes)
    return Row(
        f"{clients} clients, mixed requests", len(codes), f"{errors} server errors", errors == 0
    )


def missing_camera(base: Path) -> Row:
    server = Server(base / "nocamera", "--camera", f"files:{base}/nothing-here")
    try:
        first = server.first_answer()
    finally:
        server.stop()
    camera = first.json().get("camera", {})
    ok = first.status_code == 503 and not camera.get("ok")
    return Row("a camera that is not there", 1, f"first /healthz {first.status_code}", ok)


def damaged_record(base: Path) -> Row:
    from scanner.store import DATABASE, Store

    data = base / "damaged"
    with Store.open(data) as store:
        game = store.create_game("Fri", "pagat", "", [{"name": "Us"}])
        for number in range(1, 5):
            store.confirm_deal(game.id, number, {"deal": number}, {"teams": []})
    (data / DATABASE).write_bytes(b"")
    done = subprocess.run(
        [*SERVE, "--data", str(data), "--port", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    ok = done.returncode == 2 and done.stderr.count("\n") == 1 and "empty" in done.stderr
    return Row("an emptied record file", 1, f"exit {done.returncode}, one line", ok)


def run(rounds: int) -> list[Row]:
    base = Path(tempfile.mkdtemp(prefix="handfoot-soak-"))
    rows: list[Row] = []
    guarded = Server(base / "guarded", "--pin", PIN, files=256)
    try:
        guarded.first_answer()
        steps: list[Callable[[], Row]] = [
            lambda: huge_rules(guarded),
            lambda: stream_flood(guarded, 400 * rounds),
            lambda: pin_lockout(guarded),
            lambda: image_bombs(guarded, 4),
            lambda: headers_and_origin(guarded),
            lambda: huge_names(guarded),
            lambda: second_server(guarded),
            lambda: double_confirms(guarded, 10 * rounds),
            lambda: awkward_names(guarded),
            lambda: huge_ids(guarded),
            lambda: mixed_load(guarded, 8, 50 * rounds),
        ]
        for step in steps:
            rows.append(step())
            print(f"  {rows[-1].attack}: {'ok' if rows[-1].ok else 'NOT OK'}", flush=True)
    finally:
        guarded.stop()
    for step in (
        lambda: kills_during_play(base, 4 * rounds),
        lambda: missing_camera(base),
        lambda: damaged_record(base),
    ):
        rows.append(step())
        print(f"  {rows[-1].attack}: {'ok' if rows[-1].ok else 'NOT OK'}", flush=True)
    return rows


def table(rows: list[Row]) -> str:
    widths = [max(len(r.attack) for r in rows), 6, max(len(r.seen) for r in rows)]
    head = f"{'attack or fault':<{widths[0]}}  {'tries':>6}  {'what happened':<{widths[2]}}  result"
    lines = [head, "-" * len(head)]
    for r in rows:
        result = "ok" if r.ok else "NOT OK"
        lines.append(f"{r.attack:<{widths[0]}}  {r.tries:>6}  {r.seen:<{widths[2]}}  {result}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1, help="how hard (default 1)")
    args = parser.parse_args()
    random.seed(73)
    started = time.monotonic()
    rows = run(max(1, args.rounds))
    print()
    print(table(rows))
    took = time.monotonic() - started
    print(f"\n{sum(r.ok for r in rows)} of {len(rows)} as they should be, in {took:.0f} s")
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
