#!/usr/bin/env bash
# The README's first quick-start command: install the package into .venv and start the browser
# game (prints the address to open; Ctrl-C stops it). Arguments go to `cribbage serve`.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
. .venv/bin/activate
# PyICU (names' Unicode TS #39 checks, docs/api.md "Names") builds against Debian's ICU.
if ! pkg-config --exists icu-i18n 2>/dev/null || ! command -v g++ >/dev/null; then
    if command -v apt-get >/dev/null; then
        (apt-get update -qq && apt-get install -y -qq libicu-dev pkg-config g++) >/dev/null 2>&1 \
            || echo "libicu-dev could not be installed: PyICU will not build"
    fi
fi
python -m pip install --quiet -e .
# Pyodide's files, for the game against the computer in the browser (offline too: docs/pyodide.md),
# from the npm registry: only package.json's dependency, not the page's tooling.  Without Node.js
# the page plays at the server only.
if [ ! -f node_modules/pyodide/pyodide.mjs ]; then
    if command -v npm >/dev/null; then
        npm ci --omit=dev --no-audit --no-fund --silent \
            || echo "Pyodide could not be installed: the game in the browser is unavailable"
    else
        echo "no npm: the game against the computer in the browser (Pyodide) is unavailable"
    fi
fi
exec cribbage serve "$@"
