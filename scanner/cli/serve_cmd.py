"""``handfoot serve``: the table's service and its web page, the main thing a player starts.

This module is the composition root: it reads the options, builds the game record, the
recogniser, the camera, the table service and the web app, and runs them under uvicorn.
Nothing here is global; a bad option or a missing model is one plain line and exit code 2.
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import resource
import socket
from pathlib import Path

from scanner.cli.common import EXIT_OK, CommandError
from scanner.cli.cpu import usable_cores
from scanner.cli.scan_cmd import add_turns_argument, read_options

log = logging.getLogger(__name__)
DEFAULT_PORT = 8080
WILDCARDS = ("0.0.0.0", "::", "")
SERVE_THREADS_MOST = 4  # a Raspberry Pi 5's cores
# Open files the server asks for (the unit's LimitNOFILE); every phone's page holds a few.
OPEN_FILES = 4096
# Connections served at once; past it uvicorn answers 503 at once instead of opening more files.
MOST_CONNECTIONS = 512


def register(subcommands: argparse._SubParsersAction) -> None:
    serve = subcommands.add_parser(
        "serve",
        help="run the table: camera, scoring and the web page every phone opens",
        description="Start the table service and its web page. Open the address it prints on "
        "a phone or a PC; with --host 0.0.0.0 every phone on the network can open it.",
    )
    serve.add_argument(
        "--camera",
        metavar="SOURCE",
        help="picamera2, webcam[:N], video:PATH, files:PATH or synthetic[:SEED] (default: the "
        "Pi camera when there is one, else rendered tables)",
    )
    serve.add_argument(
        "--panel",
        choices=("simulated", "gpio"),
        default=None,
        help="the LED/button panel: the board on a Raspberry Pi's pins (gpio, the default on "
        "a Pi) or gpiozero's mock pins, drawn on the page (simulated, the default elsewhere)",
    )
    serve.add_argument(
        "--panel-config",
        type=Path,
        metavar="FILE",
        help="the panel's pin map (TOML; default: the wiring in the README, as in "
        "hardware/panel.toml)",
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    serve.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})"
    )
    serve.add_argument(
        "--data",
        type=Path,
        metavar="DIR",
        help="folder for the game record and scan images (default: the system's data folder)",
    )
    serve.add_argument(
        "--pin",
        help="a table PIN or passphrase every change, and reading photos and exports, needs "
        "(digits or words; a phone gives it once; a passphrase of a few words is the "
        "safest on a shared network)",
    )
    serve.add_argument(
        "--max-upload-mb",
        type=float,
        default=15.0,
        help="largest photo accepted from a phone, in MB (default 15)",
    )
    serve.add_argument(
        "--frames", type=int, default=3, help="frames voted over per camera scan (default 3)"
    )
    serve.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another name this machine is reached by (its own names are always allowed)",
    )
    serve.add_argument(
        "--models",
        type=Path,
        metavar="DIR",
        help="folder with locator.onnx, classifier.onnx and (optional) verifier.onnx, "
        "refiner.onnx, wider.onnx, face.onnx",
    )
    serve.add_argument(
        "--threads",
        type=int,
        metavar="N",
        help=f"threads each model reads on (default: the cores this machine gives it, at most "
        f"{SERVE_THREADS_MOST}; the readings are the same on any number)",
    )
    add_turns_argument(serve)
    serve.set_defaults(run=run_serve)


def check_options(args: argparse.Namespace) -> None:
    if not 1 <= args.port <= 65535:
        raise CommandError(f"--port must be 1 to 65535, not {args.port}")
    if args.pin is not None and (not args.pin.strip() or len(args.pin) > 64):
        raise CommandError("--pin must be 1 to 64 characters")
    if not 0.1 <= args.max_upload_mb <= 500:
        raise CommandError(f"--max-upload-mb must be 0.1 to 500, not {args.max_upload_mb}")
    if not 1 <= args.frames <= 10:
        raise CommandError(f"--frames must be 1 to 10, not {args.frames}")
    if args.threads is not None and not 1 <= args.threads <= 64:
        raise CommandError(f"--threads must be 1 to 64, not {args.threads}")


def serve_threads(args: argparse.Namespace) -> int:
    """The threads each model reads on: as asked, else one per core, at most
    SERVE_THREADS_MOST (the web page, the camera and the panel share the machine)."""
    return args.threads or min(SERVE_THREADS_MOST, usable_cores())


def build(args: argparse.Namespace):
    """The composition root: the data folder's lock, then store, recogniser, camera, panel,
    service, app."""
    from scanner.store import StoreError, default_data_dir
    from scanner.store.lock import FolderLock

    check_options(args)
    data_dir = args.data if args.data is not None else default_data_dir()
    try:
        # First: a second server on the same folder stops here, before loading anything.
        lock = FolderLock.take(data_dir)
    except StoreError as error:
        raise CommandError(str(error)) from None
    try:
        return (*_build(args, data_dir), lock)
    except BaseException:
        lock.release()
        raise


def _build(args: argparse.Namespace, data_dir: Path):
    from hardware.pins import PanelConfigError, load_pin_map
    from scanner.camera import CameraError, default_spec
    from scanner.service import PanelUnavailable, TableCamera, TableService, check_panel_kind
    from scanner.store import Store, StoreError
    from scanner.vision import Recogniser, RecogniserError
    from scanner.web import WebSettings, create_app

    try:
        panel_kind = check_panel_kind(args.panel)
        pins = load_pin_map(args.panel_config)
    except (PanelUnavailable, PanelConfigError) as error:
        raise CommandError(str(error)) from None
    try:
        camera = TableCamera(args.camera or default_spec())
    except CameraError as error:
        raise CommandError(str(error)) from None
    try:
        recogniser = Recogniser.load(
            args.models, threads=serve_threads(args), options=read_options(args)
        )
    except RecogniserError as error:
        raise CommandError(f"the card recogniser cannot start: {error}") from None
    try:
        store = Store.open(data_dir)
    except StoreError as error:
        raise CommandError(str(error)) from None
    service = TableService(store, recogniser, camera, panel_kind=panel_kind, frames=args.frames)
    try:
        panel = build_panel(panel_kind, service, pins)
    except CommandError:
        store.close()
        raise
    settings = WebSettings(
        pin=args.pin.strip() if args.pin else None,
        max_upload_bytes=int(args.max_upload_mb * 2**20),
        allowed_hosts=tuple(args.allow_host),
    )
    return service, create_app(service, settings, panel)


def build_panel(kind: str, service, pins):
    """The panel on gpiozero: the board on the Pi's pins, or the same panel on mock pins."""
    if kind == "simulated":
        from hardware.simulated import SimulatedPanel

        return SimulatedPanel(service, pins)
    from hardware.panel import Panel

    try:
        return Panel(service, pins)
    except Exception as error:  # gpiozero: a pin in use, no pin library, no access to the chip
        raise CommandError(
            f"the GPIO panel cannot start ({type(error).__name__}: {error}); check the wiring "
            "and --panel-config, or use --panel simulated"
        ) from None


def run_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from scanner.cli import logs
    from scanner.store.backup import DailyCopies

    service, app, lock = build(args)
    # After the build: a bad option or a missing model stays one line on its own.
    logs.configure()
    _more_open_files()
    if not _port_free(args.host, args.port):
        service.store.close()
        lock.release()
        raise CommandError(
            f"port {args.port} on {args.host or 'all addresses'} is in use (is handfoot already "
            "running?); choose another with --port"
        )
    for line in addresses(args.host, args.port):
        print(line, flush=True)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        timeout_graceful_shutdown=2,
        proxy_headers=False,
        server_header=False,
        log_config=None,  # uvicorn's loggers write through ours (logs.configure)
        limit_concurrency=MOST_CONNECTIONS,
    )
    copies = DailyCopies(service.store)
    copies.start()
    try:
        uvicorn.Server(config).run()
    finally:
        copies.stop()
        service.store.close()
        lock.release()
    return EXIT_OK


def _more_open_files() -> None:
    """Raise the soft open-file limit towards :data:`OPEN_FILES` (as far as the hard limit
    allows), so that many phones' pages do not run the server out of files."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = OPEN_FILES if hard == resource.RLIM_INFINITY else min(OPEN_FILES, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def addresses(host: str, port: int) -> list[str]:
    """What to tell the player: where to open the page."""
    shown = host if host not in WILDCARDS else "127.0.0.1"
    if ":" in shown:
        shown = f"[{shown}]"
    lines = [f"handfoot is running: open http://{shown}:{port}/ on this machine"]
    if host in WILDCARDS:
        for address in lan_addresses():
            lines.append(f"  on a phone on the same network: http://{address}:{port}/")
        name = socket.gethostname()
        if name:
            lines.append(f"  or by name: http://{name}.local:{port}/")
    lines.append("Press Ctrl+C to stop.")
    return lines


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, as its name resolves (no traffic)."""
    found: list[str] = []
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return found
    for info in infos:
        address = str(info[4][0])
        if not ipaddress.ip_address(address).is_loopback and address not in found:
            found.append(address)
    return found


def _port_free(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True
