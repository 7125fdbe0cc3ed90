#!/usr/bin/env bash
# The project's test command (the README's second quick-start command; .ci/run calls it).
# On a fresh machine it creates .venv, installs the package with everything the tests need,
# starts throwaway PostgreSQL and Redis where none runs (tools/test_services.sh), then runs the
# linters, the type checkers and the whole test suite (the page's with Node.js and npm).
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
. .venv/bin/activate
python -m pip install --quiet --upgrade pip
# PyICU (names' Unicode TS #39 checks, docs/api.md "Names") builds against Debian's ICU.
if ! pkg-config --exists icu-i18n 2>/dev/null || ! command -v g++ >/dev/null; then
    if command -v apt-get >/dev/null; then
        (apt-get update -qq && apt-get install -y -qq libicu-dev pkg-config g++) >/dev/null 2>&1 \
            || echo "libicu-dev could not be installed: PyICU will not build"
    fi
fi
python -m pip install --quiet -e '.[test]'
# The browser tests drive Debian's chromium (Playwright's own browser download is unavailable).
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null; then
    (apt-get update -qq && apt-get install -y -qq chromium) >/dev/null 2>&1 \
        || echo "chromium could not be installed: the browser tests will fail"
fi
# The phone layout tests measure Japanese text as a person's browser draws it: with a Japanese font.
if ! fc-list :lang=ja 2>/dev/null | grep -q . && command -v apt-get >/dev/null; then
    (apt-get update -qq && apt-get install -y -qq fonts-ipafont-gothic) >/dev/null 2>&1 \
        || echo "fonts-ipafont-gothic could not be installed: Japanese is drawn without its font"
fi
# The page's tooling (package.json): ESLint, tsc over its JSDoc types, node's test runner; installed
# from package-lock.json when they are missing (./run.sh installs Pyodide alone) or older than the
# lock file.
if [ ! -x node_modules/.bin/eslint ] || [ package-lock.json -nt node_modules ]; then
    npm ci --no-audit --no-fund --silent
    touch node_modules
fi
# Python writes bytecode (some machines set PYTHONDONTWRITEBYTECODE): the package is compiled once
# here, not again by each of the dozens of server processes and commands the tests start (half a
# CPU-second each), and pytest keeps the test modules it rewrote.
unset PYTHONDONTWRITEBYTECODE
python -m compileall -q src
# PostgreSQL and Redis: the local ones, or throwaway instances started for this run.
. tools/test_services.sh
ruff check src tests bench tools
ruff format --check src tests bench tools
# The type checkers (mypy; the page's ESLint, tsc and node's test runner) run beside the tests, on
# the time the tests spend waiting; their output is shown when the tests are done.
checks_log="$(mktemp)"
page_log="$(mktemp)"
mypy >"$checks_log" 2>&1 &
mypy_checks=$!
(npx eslint && npx tsc -p . && node --test tests/js/) >"$page_log" 2>&1 &
page_checks=$!
# Two workers per CPU (4 on the CI machine), each given whole test modules (pyproject's --dist):
# the tests spend about 40% of their time waiting (on browsers, servers they started, PostgreSQL,
# Redis, clocks), which the second worker of a core fills; measured on 2 cores, the suite took
# 8 min 51 s on 4 workers and 10 min 12 s on 2 (on 6, 11 min 38 s: too many contend).
tests_status=0
pytest -n "$(( $(nproc) * 2 ))" "$@" || tests_status=$?
mypy_status=0
wait "$mypy_checks" || mypy_status=$?
page_status=0
wait "$page_checks" || page_status=$?
cat "$checks_log" "$page_log"
rm -f "$checks_log" "$page_log"
if [ "$mypy_status" -ne 0 ]; then
    echo "mypy failed: see above" >&2
    exit "$mypy_status"
fi
if [ "$page_status" -ne 0 ]; then
    echo "the page's checks (ESLint, tsc, node --test) failed: see above" >&2
    exit "$page_status"
fi
exit "$tests_status"
