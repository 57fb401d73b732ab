"""The Raspberry Pi appliance files: the systemd unit has what the camera, the GPIO chip and the
games need; ``systemd-analyze verify`` and shellcheck accept the unit and the install script
where those tools exist; the install script's dry run prints every step and runs nothing."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "handfoot.service"
AVAHI = ROOT / "systemd" / "handfoot-avahi.service"
INSTALL = ROOT / "systemd" / "install.sh"
# What a real install (or uninstall) would change; a dry run must leave each as it was.
TOUCHED = [
    "/opt/handfoot",
    "/etc/handfoot",
    "/etc/systemd/system/handfoot.service",
    "/etc/avahi/services/handfoot.service",
]
# Every command the script may run to change the machine: in the dry runs below each is a
# stand-in that records its call, so a step that runs instead of printing is caught.
CHANGERS = ["apt-get", "systemctl", "useradd", "usermod", "userdel", "hostnamectl", "install",
            "rm", "sed", "env", "pip", "sudo"]  # fmt: skip


def unit_settings(path: Path) -> dict[str, dict[str, list[str]]]:
    """A unit file as {section: {key: [values, in order]}} (keys may repeat)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


@pytest.fixture(scope="module")
def service() -> dict[str, list[str]]:
    return unit_settings(UNIT)["Service"]


def script_setting(name: str) -> str:
    found = re.search(rf"^{name}=(\S+)", INSTALL.read_text(), re.MULTILINE)
    assert found, name
    return found.group(1).strip('"').replace("$PREFIX", "/opt/handfoot")


def test_the_unit_runs_handfoot_as_its_own_user_with_camera_and_gpio(service):
    assert service["User"] == ["handfoot"] and service["Group"] == ["handfoot"]
    assert set(service["SupplementaryGroups"][0].split()) >= {"video", "gpio"}
    assert service["StateDirectory"] == ["handfoot"]
    assert service["Restart"] == ["on-failure"]
    assert "PrivateDevices" not in service
    assert service.get("DevicePolicy", ["auto"]) == ["auto"]
    # lgpio's pipes: a writable working directory and LG_WD in a writable runtime directory.
    assert service["WorkingDirectory"] == ["/var/lib/handfoot"]  # the StateDirectory
    env = dict(value.split("=", 1) for value in service["Environment"])
    assert env["LG_WD"] == "%t/" + service["RuntimeDirectory"][0]
    assert env["GPIOZERO_PIN_FACTORY"] == "lgpio"
    assert service["ProtectSystem"] == ["strict"] and service["NoNewPrivileges"] == ["yes"]


def test_the_unit_gives_the_server_enough_open_files(service):
    from scanner.cli.serve_cmd import MOST_CONNECTIONS, OPEN_FILES
    from scanner.web.streams import IN_ALL

    files = int(service["LimitNOFILE"][0])
    assert files == OPEN_FILES and files > MOST_CONNECTIONS + IN_ALL + 256


def test_the_unit_serves_the_page_to_the_network(service):
    command = shlex.split(service["ExecStart"][0])
    assert command[0] == script_setting("VENV") + "/bin/handfoot"
    assert command[1] == "serve"
    options = dict(zip(command[2::2], command[3::2], strict=True))
    assert options["--host"] == "0.0.0.0"
    assert options["--panel"] == "gpio" and options["--camera"] == "picamera2"
    assert options["--panel-config"] == script_setting("CONFIG_DIR") + "/panel.toml"
    port = options["--port"]
    if int(port) < 1024:
        assert service["AmbientCapabilities"] == ["CAP_NET_BIND_SERVICE"]
    announced = ET.parse(AVAHI).getroot().find("service")
    assert announced is not None
    assert announced.findtext("type") == "_http._tcp" and announced.findtext("port") == port


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze is missing")
def test_systemd_analyze_verifies_the_unit(tmp_path):
    # The program is installed on the Pi only: verify the unit with a program that exists.
    text = UNIT.read_text().replace("/opt/handfoot/venv/bin/handfoot", shutil.which("true"))
    copy = tmp_path / "handfoot.service"
    copy.write_text(text)
    done = subprocess.run(
        ["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "handfoot.service" not in done.stdout + done.stderr


@pytest.mark.skipif(
    not shutil.which("shellcheck"), reason="shellcheck is missing (make test installs it)"
)
def test_shellcheck_accepts_the_install_script():
    done = subprocess.run(["shellcheck", str(INSTALL)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def dry_run(tmp_path: Path, *options: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    fakes = tmp_path / "fakes"
    fakes.mkdir(exist_ok=True)
    calls = tmp_path / "calls.log"
    for name in CHANGERS:
        fake = fakes / name
        fake.write_text(f'#!/bin/sh\necho "{name} $*" >> "{calls}"\nexit 1\n')
        fake.chmod(0o755)
    before = {path: os.path.lexists(path) for path in TOUCHED}
    hostname = subprocess.run(["hostname"], capture_output=True, text=True).stdout
    done = subprocess.run(
        ["bash", str(INSTALL), "--dry-run", *options],
        capture_output=True,
        text=True,
        timeout=60,
        env=os.environ | {"PATH": f"{fakes}:{os.environ['PATH']}"},
    )
    assert {path: os.path.lexists(path) for path in TOUCHED} == before
    assert subprocess.run(["hostname"], capture_output=True, text=True).stdout == hostname
    ran = calls.read_text().splitlines() if calls.exists() else []
    return done, ran


def test_the_dry_run_prints_every_step_and_runs_nothing(tmp_path):
    done, ran = dry_run(tmp_path)
    assert done.returncode == 0, done.stderr
    assert ran == []
    out = done.stdout
    for number in range(1, 10):
        assert f"== {number}/9 " in out
    for printed in (
        "+ apt-get update",
        "apt-get install -y --no-install-recommends python3-venv python3-pip python3-picamera2 "
        "python3-opencv python3-lgpio",
        "-m venv --system-site-packages /opt/handfoot/venv",
        "+ write numpy==",
        "> /opt/handfoot/constraints.txt",
        "+ /opt/handfoot/venv/bin/pip install --no-cache-dir --no-deps --force-reinstall",
        "--constraint /opt/handfoot/constraints.txt",
        "Recogniser.load()",
        "/etc/handfoot/panel.toml",
        "+ install -m 0644 " + str(UNIT) + " /etc/systemd/system/handfoot.service",
        "/etc/avahi/services/handfoot.service",
        "+ systemctl enable handfoot.service",
        "+ systemctl restart handfoot.service",
        "http://handfoot.local/",
    ):
        assert printed in out, printed
    # picamera2, OpenCV and numpy come from apt: pip is never asked for them.
    pip_lines = [line for line in out.splitlines() if "/venv/bin/pip install" in line]
    assert pip_lines and not any(re.search(r"\b(numpy|opencv)", line) for line in pip_lines[1:])
    assert "PrivateDevices" not in out


def test_the_dry_run_of_uninstall(tmp_path):
    done, ran = dry_run(tmp_path, "--uninstall")
    assert done.returncode == 0 and ran == []
    assert "+ rm -rf /opt/handfoot" in done.stdout
    assert "kept: /var/lib/handfoot (the games)" in done.stdout
    purged, ran = dry_run(tmp_path, "--uninstall", "--purge")
    assert purged.returncode == 0 and ran == []
    assert "+ rm -rf /var/lib/handfoot /etc/handfoot" in purged.stdout


def test_bad_options_are_refused(tmp_path):
    for options, words in (
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["--hostname", "Not A Name"], "cannot be a host name"),
        (["--hostname"], "--hostname needs a name"),
    ):
        done, ran = dry_run(tmp_path, *options)
        assert done.returncode == 2 and words in done.stderr and ran == []
