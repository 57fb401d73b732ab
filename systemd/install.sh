#!/usr/bin/env bash
# Install handfoot on 64-bit Raspberry Pi OS as an appliance: power on, and the table's page
# is at http://handfoot.local/ with the camera and the LED/button panel working.
#
#   sudo systemd/install.sh              install or update (run it again at any time)
#   sudo systemd/install.sh --uninstall  stop and remove the service and the program;
#                                        the games (/var/lib/handfoot) and the pin map
#                                        (/etc/handfoot) stay unless --purge is added
#   systemd/install.sh --dry-run         print every step, change nothing
#
# Options: --hostname NAME (default handfoot: the page is then http://NAME.local/),
# --keep-hostname (leave the host name alone), --purge (with --uninstall).
#
# What it does, in order: apt packages (picamera2, OpenCV, lgpio and numpy come from Raspberry
# Pi OS: pip's builds of them do not match libcamera), the service user (groups video and
# gpio), a virtual environment created with --system-site-packages, numpy held at the apt
# version with a pip constraints file (a numpy from pip breaks picamera2), handfoot and its
# other requirements, a check that the camera library and the models load, the panel's pin
# map, the systemd unit, the avahi announcement and the host name.
set -euo pipefail

PREFIX=/opt/handfoot
VENV="$PREFIX/venv"
CONSTRAINTS="$PREFIX/constraints.txt"
CONFIG_DIR=/etc/handfoot
STATE_DIR=/var/lib/handfoot
UNIT_DIR=/etc/systemd/system
AVAHI_DIR=/etc/avahi/services
SERVICE_USER=handfoot
UNIT=handfoot.service
SYSTEM_PYTHON=/usr/bin/python3  # Raspberry Pi OS's Python, the one apt's packages are built for
APT_PACKAGES=(python3-venv python3-pip python3-picamera2 python3-opencv python3-lgpio
    python3-gpiozero python3-numpy avahi-daemon)
# handfoot's requirements that Raspberry Pi OS provides instead of pip (cv2 and numpy).
FROM_APT_RE='^(numpy|opencv-python-headless)([^A-Za-z0-9_.-]|$)'
SOURCE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

DRY_RUN=0
ACTION=install
PURGE=0
WANTED_HOSTNAME=handfoot
KEEP_HOSTNAME=0

usage() {
    sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --uninstall) ACTION=uninstall ;;
        --purge) PURGE=1 ;;
        --keep-hostname) KEEP_HOSTNAME=1 ;;
        --hostname)
            [[ $# -ge 2 ]] || { echo "install.sh: --hostname needs a name" >&2; exit 2; }
            WANTED_HOSTNAME="$2"
            shift
            ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done

if [[ ! $WANTED_HOSTNAME =~ ^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$ ]]; then
    echo "install.sh: '$WANTED_HOSTNAME' cannot be a host name (a-z, 0-9 and -)" >&2
    exit 2
fi

step() { printf '\n== %s\n' "$*"; }
note() { printf '   %s\n' "$*"; }

# Print a command, then run it (never in a dry run).
run() {
    printf '+'
    printf ' %q' "$@"
    printf '\n'
    if [[ $DRY_RUN -eq 0 ]]; then
        "$@"
    fi
}

# Write (or append, with >>) a line of TEXT to PATH; printed, never written in a dry run.
write_file() {
    local path="$1" text="$2" how="${3:->}"
    printf '+ write %q %s %s\n' "$text" "$how" "$path"
    if [[ $DRY_RUN -eq 1 ]]; then
        return
    fi
    if [[ $how == ">>" ]]; then
        printf '%s\n' "$text" >>"$path"
    else
        printf '%s\n' "$text" >"$path"
    fi
}

# A problem that stops a real install; a dry run only notes it.
problem() {
    if [[ $DRY_RUN -eq 1 ]]; then
        note "note: $* (a real install stops here)"
    else
        echo "install.sh: $*" >&2
        exit 1
    fi
}

check_system() {
    step "1/9 Check: root, 64-bit Raspberry Pi OS, a handfoot checkout with its models"
    [[ $(id -u) -eq 0 ]] || problem "run it as root: sudo $0"
    local arch
    arch="$(uname -m)"
    [[ $arch == aarch64 ]] || problem "this is $arch, not 64-bit Raspberry Pi OS (onnxruntime needs aarch64)"
    command -v apt-get >/dev/null || problem "apt-get is missing: this is not Raspberry Pi OS"
    [[ -f $SOURCE_DIR/pyproject.toml ]] || problem "$SOURCE_DIR is not a handfoot checkout"
    local model
    for model in locator.onnx classifier.onnx recogniser.json; do
        [[ -s $SOURCE_DIR/model/$model ]] ||
            problem "the model file model/$model is missing: run 'make model' in the checkout"
    done
    note "installing from $SOURCE_DIR"
}

install_packages() {
    step "2/9 apt packages: picamera2, OpenCV, lgpio, gpiozero and numpy from Raspberry Pi OS"
    run apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        "${APT_PACKAGES[@]}"
}

create_user() {
    step "3/9 The service user '$SERVICE_USER' (groups video and gpio)"
    if id -u "$SERVICE_USER" >/dev/null 2>&1; then
        note "user $SERVICE_USER exists"
    else
        run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin "$SERVICE_USER"
    fi
    local group
    for group in video gpio; do
        getent group "$group" >/dev/null || problem "the group '$group' is missing (not Raspberry Pi OS?)"
    done
    run usermod --append --groups video,gpio "$SERVICE_USER"
}

create_venv() {
    step "4/9 The virtual environment $VENV (--system-site-packages: picamera2 is apt's)"
    if [[ -x $VENV/bin/python ]]; then
        note "$VENV exists"
    else
        run install -d -m 0755 "$PREFIX"
        run "$SYSTEM_PYTHON" -m venv --system-site-packages "$VENV"
    fi
}

hold_numpy() {
    step "5/9 Hold numpy at Raspberry Pi OS's version (a numpy from pip breaks picamera2)"
    local version
    version="$(dpkg-query -W -f='${Version}' python3-numpy 2>/dev/null || true)"
    version="${version#*:}"     # the epoch: 1:1.24.2-1+deb12u1 -> 1.24.2-1+deb12u1
    version="${version%%-*}"    # the Debian revision -> 1.24.2
    version="${version%%[+~]*}" # a repack suffix (+dfsg, ~rc)
    if [[ -z $version ]]; then
        problem "python3-numpy is not installed (step 2 installs it)"
        version="APT-VERSION"
    fi
    write_file "$CONSTRAINTS" "numpy==$version"
}

# handfoot's own requirements (pyproject.toml), less those apt provides.
pip_requirements() {
    "$SYSTEM_PYTHON" - "$SOURCE_DIR/pyproject.toml" <<'PY' | grep -Ev "$FROM_APT_RE" || true
import sys
import tomllib

with open(sys.argv[1], "rb") as file:
    for requirement in tomllib.load(file)["project"]["dependencies"]:
        print(requirement.replace(" ", ""))
PY
}

install_handfoot() {
    step "6/9 handfoot and its requirements into the virtual environment"
    local requirements=()
    mapfile -t requirements < <(pip_requirements)
    run "$VENV/bin/pip" install --no-cache-dir --no-deps --force-reinstall "$SOURCE_DIR"
    run "$VENV/bin/pip" install --no-cache-dir --constraint "$CONSTRAINTS" "${requirements[@]}"
}

check_install() {
    step "7/9 Check: numpy is still apt's, picamera2 and OpenCV import, the models load"
    run "$VENV/bin/python" -c 'import numpy, picamera2, cv2
assert numpy.__file__.startswith("/usr/lib/python3/"), "numpy from pip: " + numpy.__file__
from scanner.vision import Recogniser
Recogniser.load()
print("numpy", numpy.__version__, "from apt; picamera2, OpenCV and the models load")'
}

install_config() {
    step "8/9 The panel's pin map: $CONFIG_DIR/panel.toml (kept if it exists)"
    run install -d -m 0755 "$CONFIG_DIR"
    if [[ -e $CONFIG_DIR/panel.toml ]]; then
        note "$CONFIG_DIR/panel.toml exists: kept (the defaults are in hardware/panel.toml)"
    else
        run install -m 0644 "$SOURCE_DIR/hardware/panel.toml" "$CONFIG_DIR/panel.toml"
    fi
}

set_hostname() {
    local current
    current="$(hostname)"
    if [[ $KEEP_HOSTNAME -eq 1 || $current == "$WANTED_HOSTNAME" ]]; then
        note "host name: $current (the page: http://$current.local/)"
        return
    fi
    run hostnamectl set-hostname "$WANTED_HOSTNAME"
    if grep -q '^127\.0\.1\.1[[:space:]]' /etc/hosts; then
        run sed -i "s/^127\\.0\\.1\\.1[[:space:]].*/127.0.1.1\\t$WANTED_HOSTNAME/" /etc/hosts
    else
        write_file /etc/hosts "$(printf '127.0.1.1\t%s' "$WANTED_HOSTNAME")" ">>"
    fi
}

install_service() {
    step "9/9 The service: systemd unit, avahi announcement, host name"
    run install -m 0644 "$SOURCE_DIR/systemd/handfoot.service" "$UNIT_DIR/$UNIT"
    run install -d -m 0755 "$AVAHI_DIR"
    run install -m 0644 "$SOURCE_DIR/systemd/handfoot-avahi.service" "$AVAHI_DIR/handfoot.service"
    set_hostname
    run systemctl daemon-reload
    run systemctl enable --now avahi-daemon.service
    run systemctl enable "$UNIT"
    run systemctl restart "$UNIT"
}

install() {
    check_system
    install_packages
    create_user
    create_venv
    hold_numpy
    install_handfoot
    check_install
    install_config
    install_service
    local name="$WANTED_HOSTNAME"
    [[ $KEEP_HOSTNAME -eq 0 ]] || name="$(hostname)"
    printf '\nDone. Open http://%s.local/ on a phone on the same network.\n' "$name"
    printf 'Logs: journalctl -u %s -f\n' "$UNIT"
}

uninstall() {
    step "1/4 Check: root"
    [[ $(id -u) -eq 0 ]] || problem "run it as root: sudo $0 --uninstall"
    step "2/4 Stop and disable the service"
    if [[ -e $UNIT_DIR/$UNIT ]]; then
        run systemctl disable --now "$UNIT"
    else
        note "no $UNIT_DIR/$UNIT: nothing to stop"
    fi
    step "3/4 Remove the unit, the avahi announcement and the program"
    run rm -f "$UNIT_DIR/$UNIT" "$AVAHI_DIR/handfoot.service"
    run systemctl daemon-reload
    run rm -rf "$PREFIX"
    step "4/4 The games and the pin map"
    if [[ $PURGE -eq 1 ]]; then
        run rm -rf "$STATE_DIR" "$CONFIG_DIR"
        if id -u "$SERVICE_USER" >/dev/null 2>&1; then
            run userdel "$SERVICE_USER"
        fi
    else
        note "kept: $STATE_DIR (the games) and $CONFIG_DIR (the pin map); --purge removes them"
    fi
    note "the apt packages and the host name are left as they are"
}

if [[ $DRY_RUN -eq 1 ]]; then
    echo "Dry run: every step is printed, nothing is changed."
fi
"$ACTION"
