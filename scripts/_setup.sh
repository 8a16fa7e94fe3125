# Shared set-up for scripts/demo, scripts/test and scripts/bench (sourced, not run).
# Creates .venv, installs the package (with EXTRAS), and makes sure a Chromium exists.
# VENV_NAME=.venv-bench INSTALL=regular (scripts/bench): a regular, byte-compiled install of the
# current tree instead of an editable one — the install users get, measured as they run it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV_NAME="${VENV_NAME:-.venv}"
VENV="$ROOT/$VENV_NAME"
EXTRAS="${EXTRAS:-}"
INSTALL="${INSTALL:-editable}"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

pick_python() {
    for candidate in "${PYTHON:-}" python3.13 python3.12 python3.11 python3; do
        [ -n "$candidate" ] || continue
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    echo "error: Python >= 3.11 is required (set PYTHON=/path/to/python3.11)" >&2
    return 1
}

if [ ! -x "$VENV/bin/python" ]; then
    PY="$(pick_python)"
    say "creating virtualenv in $VENV_NAME with $PY"
    "$PY" -m venv "$VENV"
fi

SPEC="$ROOT"
[ -n "$EXTRAS" ] && SPEC="$ROOT[$EXTRAS]"
say "installing replay${EXTRAS:+ [$EXTRAS]} into $VENV_NAME ($INSTALL)"
pip_install() {
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$@" 2>&1 |
        grep -v -e "^WARNING: Location" -e "is ignored: it is neither a file nor a directory" >&2 || true
}
if [ "$INSTALL" = regular ]; then
    pip_install "$SPEC"                                   # the dependencies, once
    pip_install --no-deps --force-reinstall "$ROOT"       # this tree, byte-compiled, every time
else
    pip_install -e "$SPEC"
fi
"$VENV/bin/python" -c "import replay" # fail here, not later, if the install did not take

find_chromium() { # what replay.drivers.web.find_chromium would launch headless
    if [ -n "${REPLAY_CHROMIUM:-}" ] && [ -x "${REPLAY_CHROMIUM}" ]; then echo "$REPLAY_CHROMIUM"; return 0; fi
    for name in chromium-headless-shell chrome-headless-shell chromium chromium-browser google-chrome google-chrome-stable; do
        if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return 0; fi
    done
    return 1
}

# Debian's chromium (headed sessions) and chromium-headless-shell (headless ones, as Playwright's own
# headless browser: the same engine without the browser UI's processes)
if [ -z "${REPLAY_CHROMIUM:-}" ] && ! { command -v chromium >/dev/null && command -v chromium-headless-shell >/dev/null; } &&
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing Debian's chromium and chromium-headless-shell packages"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell >/dev/null
fi
if ! find_chromium >/dev/null; then
    say "no Chromium found: trying Playwright's own browser download"
    "$VENV/bin/python" -m playwright install chromium >&2 ||
        { echo "error: no Chromium; install one (apt-get install chromium) or set REPLAY_CHROMIUM" >&2; exit 1; }
fi
if CHROMIUM="$(find_chromium)"; then
    say "browser: $CHROMIUM"
fi
# Debian's adb client: the Android tests drive it against the device simulator (fixtures/android)
if ! command -v adb >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing Debian's adb package"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends adb >/dev/null
fi
command -v adb >/dev/null || { echo "error: no adb client; install it (apt-get install adb)" >&2; exit 1; }
export PATH="$VENV/bin:$PATH"
