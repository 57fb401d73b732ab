#!/usr/bin/env bash
# make pi-check: handfoot's runtime on the Raspberry Pi's processor, without a Pi.
#
# Builds an aarch64 Debian root (the release Raspberry Pi OS is based on) with debootstrap,
# puts in it what systemd/install.sh installs (its apt packages; picamera2 and lgpio, which
# Debian lacks, are replaced by the project's fakes and gpiozero's mock pins), installs
# handfoot's pip requirements as aarch64 wheels, and runs tests/pi_readings.py there under
# qemu-user: the recogniser's readings of the committed fixture frames and the engine's totals
# of the golden deals. They must equal this machine's exactly.
#
# Needs root (debootstrap), debootstrap, qemu-user-static and the Debian archive. No
# binfmt_misc registration is needed: the interpreter is started through qemu directly, with
# the root as its library prefix (-L). The root is kept in $PI_WORK for the next run.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${PI_WORK:-$REPO/build/pi-check}"
RELEASE="${PI_RELEASE:-bookworm}"
MIRROR="${PI_MIRROR:-http://deb.debian.org/debian}"
ROOT="$WORK/root-$RELEASE"
SITE="$ROOT/opt/handfoot/site"
PYTHON="${PYTHON:-$REPO/.venv/bin/python}"
# install.sh's apt packages that Debian has (python3-picamera2 and python3-lgpio are Raspberry
# Pi OS's own; avahi-daemon plays no part in the readings)
APT_PACKAGES="python3,python3-venv,python3-pip,python3-opencv,python3-gpiozero,python3-numpy"
FROM_APT_RE='^(numpy|opencv-python-headless|gpiozero)([<>=!~ ].*)?$'

say() { printf '== %s\n' "$*"; }
fail() { printf 'pi-check: %s\n' "$*" >&2; exit 2; }

[ "$(id -u)" = 0 ] || fail "debootstrap needs root: run it as root (CI does)"
for tool in debootstrap qemu-aarch64-static dpkg-deb unshare; do
    command -v "$tool" >/dev/null || fail "$tool is missing: apt-get install debootstrap qemu-user-static"
done

started=$(date +%s)
mkdir -p "$WORK"

if [ ! -e "$ROOT/.unpacked" ]; then
    say "1/4 debootstrap: an aarch64 Debian $RELEASE root with install.sh's apt packages"
    rm -rf "$ROOT"
    debootstrap --foreign --arch=arm64 --variant=minbase --include="$APT_PACKAGES" \
        "$RELEASE" "$ROOT" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 ||
        fail "debootstrap failed (see $WORK/debootstrap.log)"
    # The second stage would run each package's scripts as aarch64 programs, which needs
    # binfmt_misc; unpacking them is enough to run Python and its libraries.
    for deb in "$ROOT"/var/cache/apt/archives/*.deb; do
        dpkg-deb -x "$deb" "$ROOT"
    done
    # what the packages' scripts would have made: the BLAS and LAPACK alternatives
    for lib in blas lapack; do
        if [ -e "$ROOT/usr/lib/aarch64-linux-gnu/$lib/lib$lib.so.3" ]; then
            ln -sf "$lib/lib$lib.so.3" "$ROOT/usr/lib/aarch64-linux-gnu/lib$lib.so.3"
        fi
    done
    touch "$ROOT/.unpacked"
fi
GUEST_PYTHON=""
for candidate in "$ROOT"/usr/bin/python3.[0-9] "$ROOT"/usr/bin/python3.[0-9][0-9]; do
    [ -x "$candidate" ] && GUEST_PYTHON="$(basename "$candidate")"
done
[ -n "$GUEST_PYTHON" ] || fail "the root has no Python 3 (see $WORK/debootstrap.log)"
PY_VERSION="${GUEST_PYTHON#python}"

if [ ! -e "$SITE/.installed" ]; then
    say "2/4 pip: handfoot's requirements as aarch64 wheels for Python $PY_VERSION"
    mapfile -t requirements < <("$PYTHON" - "$REPO/pyproject.toml" <<'PY' | grep -Ev "$FROM_APT_RE"
import sys
import tomllib

with open(sys.argv[1], "rb") as file:
    for requirement in tomllib.load(file)["project"]["dependencies"]:
        print(requirement.replace(" ", ""))
PY
)
    rm -rf "$SITE"
    "$PYTHON" -m pip install --quiet --target "$SITE" --platform manylinux2014_aarch64 \
        --platform "manylinux_2_28_aarch64" --python-version "$PY_VERSION" \
        --implementation cp --only-binary=:all: "${requirements[@]}" >"$WORK/pip.log" 2>&1 ||
        fail "pip could not fetch the aarch64 wheels (see $WORK/pip.log)"
    # numpy is apt's, as install.sh holds it (a pip numpy breaks picamera2)
    rm -rf "$SITE"/numpy "$SITE"/numpy-* "$SITE"/numpy.libs
    touch "$SITE/.installed"
fi

say "3/4 the readings on this machine ($(uname -m))"
(cd "$REPO" && "$PYTHON" -m tests.pi_readings) >"$WORK/readings-$(uname -m).json"

say "4/4 the readings on aarch64 (qemu-user, Debian $RELEASE's Python $PY_VERSION)"
# qemu 7 shows the guest this machine's /proc/cpuinfo, and onnxruntime's CPU probe crashes on
# an x86 one: in a mount namespace of its own, the guest sees a Raspberry Pi 5's (Cortex-A76).
for n in 0 1 2 3; do
    printf 'processor\t: %d\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x4\nCPU part\t: 0xd0b\nCPU revision\t: 1\n\n' "$n"
done >"$WORK/cpuinfo-pi5"
guest_started=$(date +%s)
# shellcheck disable=SC2016  # $1 and $@ are the inner shell's
(cd "$REPO" && unshare -m sh -c 'mount --bind "$1" /proc/cpuinfo && shift && exec "$@"' sh \
    "$WORK/cpuinfo-pi5" env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 \
    PYTHONPATH="$SITE:$REPO:$REPO/tests/fakes" PYTHONDONTWRITEBYTECODE=1 \
    GPIOZERO_PIN_FACTORY=mock \
    qemu-aarch64-static -L "$ROOT" "$ROOT/usr/bin/$GUEST_PYTHON" -m tests.pi_readings) \
    >"$WORK/readings-aarch64.json" 2>"$WORK/aarch64.log" ||
    fail "the readings did not run on aarch64 (see $WORK/aarch64.log)"
finished=$(date +%s)

"$PYTHON" - "$WORK/readings-$(uname -m).json" "$WORK/readings-aarch64.json" <<'PY'
import json
import sys

# The float networks' last digits follow the CPU's vector instructions; a card is the same
# when its code, its index box (to 0.01 px) and its check flag are, and its confidence is
# within this of the other's.
CONFIDENCE = 0.01
here, there = (json.load(open(path)) for path in sys.argv[1:3])


def cards(reading):
    return {(c["code"], tuple(c["index_box"]), c["check"]): c["confidence"] for c in reading}


same, widest = True, 0.0
for name in sorted(set(here["frames"]) | set(there["frames"])):
    a, b = cards(here["frames"].get(name, [])), cards(there["frames"].get(name, []))
    if a.keys() != b.keys():
        same = False
        print(f"DIFFERENT cards in {name}: only here {sorted(a.keys() - b.keys())}, "
              f"only on aarch64 {sorted(b.keys() - a.keys())}")
    widest = max([widest] + [abs(a[k] - b[k]) for k in a.keys() & b.keys()])
for name in sorted(set(here["golden"]) | set(there["golden"])):
    if here["golden"].get(name) != there["golden"].get(name):
        same = False
        print(f"DIFFERENT totals of {name}: {here['golden'].get(name)} here, "
              f"{there['golden'].get(name)} on aarch64")
same = same and widest <= CONFIDENCE
count = sum(len(v) for v in there["frames"].values())
print(f"{len(there['frames'])} frames ({count} cards: codes, boxes and checks) and "
      f"{len(there['golden'])} golden deals' totals "
      + ("the same on aarch64" if same else "NOT the same on aarch64")
      + f"; confidences differ by at most {widest:.4f}; {there['seconds']} s to read there")
sys.exit(0 if same else 1)
PY
echo "pi-check took $((finished - started)) s in all, $((finished - guest_started)) s of it on aarch64"
