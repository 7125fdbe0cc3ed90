#!/usr/bin/env bash
# The project's test command (the README's second quick-start command; .ci/run calls it).
# On a fresh machine it creates .venv, installs the package with everything the tests need,
# then runs the linters, the type checker and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
. .venv/bin/activate
python -m pip install --quiet --upgrade pip
python -m pip install --quiet -e '.[test]'
ruff check src tests bench tools
ruff format --check src tests bench tools
mypy
pytest "$@"
