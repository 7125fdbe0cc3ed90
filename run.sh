#!/usr/bin/env bash
# The README's first quick-start command: install the package into .venv and start the browser
# game (prints the address to open; Ctrl-C stops it). Arguments go to `cribbage serve`.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
. .venv/bin/activate
python -m pip install --quiet -e .
exec cribbage serve "$@"
