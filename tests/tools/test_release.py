"""A release (issue 17, item 6): ``python -m build`` makes a wheel and an sdist holding the page,
the AI tables and ``py.typed``; the wheel installs into a fresh virtual environment, whose
``cribbage`` scores a hand, serves one request and plays a scripted game.

Nothing is fetched from a package index (tests send traffic to this machine only): the wheel
is built without an isolated environment (its backend, hatchling, is a test dependency), and
installed without its dependencies, which the fresh environment reads from the tests' own
(a ``.pth`` file naming their site-packages, after its own), ``pip check`` holding the wheel's
declared requirements to what is there.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import sysconfig
import tarfile
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from cribbage.web.engine_files import PYODIDE_FILES

ROOT = Path(__file__).resolve().parents[2]
DIST_NAME = "cribbage-table"
PAYLOAD = (
    "cribbage/py.typed",
    "cribbage/ai/data/crib.json",
    "cribbage/ai/data/pegging.json",
    "cribbage/ai/data/winning.json",
    "cribbage/web/static/index.html",
    "cribbage/web/static/howto.html",
    "cribbage/web/static/game/app.js",
    "cribbage/web/static/shared/style.css",
    "cribbage/web/static/shared/i18n.js",
    "cribbage/web/static/lang/en.js",
    "cribbage/web/static/lang/ja.js",
    "cribbage/web/static/lang/ru.js",
    "cribbage/storage/migrations/env.py",
    "cribbage/storage/migrations/script.py.mako",
    "cribbage/storage/migrations/versions/0001_baseline.py",
    "cribbage/storage/migrations/versions/0002_fold_side_tables.py",
    "cribbage/storage/migrations/versions/0003_accounts.py",
    "cribbage/storage/migrations/versions/0004_chat.py",
    "cribbage/storage/migrations/versions/0005_ratings.py",
    "cribbage/storage/migrations/versions/0006_push.py",
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import build  # noqa: F401 - a test dependency (pyproject's test extra): fail, never skip

    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return out


@pytest.fixture(scope="module")
def venv(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed; its ``bin`` folder.

    The environment gets no pip of its own (``ensurepip`` costs seconds of CPU): the tests' pip
    installs into it and checks it, run by its interpreter (``pip --python``)."""
    home = tmp_path_factory.mktemp("venv") / "v"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(home)], check=True, timeout=120)
    (wheel,) = dist.glob("*.whl")
    python = str(home / "bin" / "python")
    pip = [sys.executable, "-m", "pip", "--python", python]
    installed = subprocess.run(
        [*pip, "install", "--quiet", "--no-compile", "--no-deps", "--no-index", str(wheel)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert installed.returncode == 0, installed.stderr[-3000:]
    own = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    theirs = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(own, "tests_dependencies.pth").write_text("".join(f"{path}\n" for path in sorted(theirs)))
    check = subprocess.run([*pip, "check"], capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stdout[-3000:]
    return home / "bin"


def _clean_env(tmp: Path) -> dict[str, str]:
    """No PYTHONPATH to this tree: the venv's own installation must answer."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["XDG_DATA_HOME"] = str(tmp)
    return env


def test_the_wheel_and_the_sdist_hold_the_page_the_tables_and_py_typed(dist: Path) -> None:
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    assert wheel.name.startswith("cribbage_table-")
    names = set(zipfile.ZipFile(wheel).namelist())
    for path in PAYLOAD:
        assert path in names, path
    # The browser's engine: Pyodide's core files, from the npm package (hatch_build.py).
    for name in PYODIDE_FILES:
        assert f"cribbage/web/pyodide/{name}" in names, name
    assert not any("__pycache__" in name for name in names)
    metadata = (
        zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    )
    assert f"Name: {DIST_NAME}" in metadata
    entry_points = (
        zipfile.ZipFile(wheel)
        .read(next(n for n in names if n.endswith(".dist-info/entry_points.txt")))
        .decode()
    )
    assert "cribbage = cribbage.cli:main" in entry_points
    with tarfile.open(sdist) as tar:
        members = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    for path in PAYLOAD:
        assert f"src/{path}" in members, path
    assert {"pyproject.toml", "README.md", "CHANGELOG.md"} <= members


def test_the_installed_command_scores_serves_and_plays(venv: Path, tmp_path: Path) -> None:
    env = _clean_env(tmp_path)
    cribbage = str(venv / "cribbage")
    # It is the installed copy that runs, not this tree.
    where = subprocess.run(
        [str(venv / "python"), "-c", "import cribbage; print(cribbage.__file__)"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=True,
    ).stdout
    assert str(venv.parent) in where and str(ROOT / "src") not in where

    score = subprocess.run(
        [cribbage, "score", "5H", "5C", "5S", "JD", "--starter", "5D"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert score.returncode == 0, score.stderr
    assert "29" in score.stdout

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [cribbage, "serve", "--port", str(port), "--db", str(tmp_path / "games.db")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        cwd=tmp_path,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            assert server.poll() is None, server.stdout.read() if server.stdout else ""
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=5) as r:
                    assert r.status == 200 and json.load(r) == {"ok": True}
                break
            except OSError:
                assert time.monotonic() < deadline, "cribbage serve did not answer"
                time.sleep(0.2)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
            assert b"/static/game/app.js" in r.read()  # the page is installed too
        for path in ("/engine/pyodide/pyodide.mjs", "/engine/cribbage.zip"):  # and the browser's engine
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
                assert r.status == 200, path
    finally:
        server.terminate()
        server.wait(10)
        if server.stdout:
            server.stdout.close()

    play = subprocess.run(
        [cribbage, "play", "--level", "random", "--seed", "7", "--ascii"],
        input="help\n1 2\nquit\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert play.returncode == 0, play.stderr
    assert "quit" in play.stdout.lower() and "Traceback" not in play.stderr
