"""The files of the browser's engine (issue 45; cribbage.web.engine_files): Pyodide's core files
and the zip of the package's own layers, served by the server from its installation with their
media types; the engine worker alone may compile WebAssembly (its own policy); the shell lists
the engine's files as kept on use, not downloaded at the worker's install.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from cribbage.web.engine_files import ENGINE_PACKAGES, PYODIDE_FILES, pyodide_dir
from web_fixtures import make_client


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with make_client() as made:
        yield made


def test_pyodide_is_found_in_this_checkout() -> None:
    """CI installs the npm package (package.json): the engine is there, never skipped."""
    assert pyodide_dir() is not None


@pytest.mark.parametrize(
    ("name", "media"),
    [
        ("pyodide.mjs", "text/javascript"),
        ("pyodide.asm.wasm", "application/wasm"),
        ("python_stdlib.zip", "application/zip"),
        ("pyodide-lock.json", "application/json"),
    ],
)
def test_pyodides_files_are_served_with_their_types(client: TestClient, name: str, media: str) -> None:
    answer = client.get(f"/engine/pyodide/{name}")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith(media)
    assert answer.headers["cache-control"] == "no-cache"


def test_a_browser_that_kept_a_file_downloads_it_no_more(client: TestClient) -> None:
    """Its bytes' digest names it: a request naming it is a 304 without a body; gzipped once a
    process (the same bytes every time), plain to a client that takes no gzip."""
    for path in ("/engine/pyodide/pyodide.asm.wasm", "/engine/cribbage.zip"):
        first = client.get(path)
        etag = first.headers["etag"]
        assert first.status_code == 200 and first.headers["content-encoding"] == "gzip", path
        again = client.get(path, headers={"if-none-match": f'W/"other", {etag}'})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
        plain = client.get(path, headers={"accept-encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.content == first.content, path
        assert client.get(path, headers={"if-none-match": '"other"'}).status_code == 200


def test_no_other_file_is_served(client: TestClient) -> None:
    for name in ("pyodide.js", "package.json", "..%2Fpackage.json", "README.md"):
        answer = client.get(f"/engine/pyodide/{name}")
        assert answer.status_code == 404 and answer.json()["code"] == "not_found", name


def test_the_engine_zip_holds_the_packages_own_layers_and_nothing_of_the_server(client: TestClient) -> None:
    answer = client.get("/engine/cribbage.zip")
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(answer.content)).namelist()
    assert "cribbage/__init__.py" in names and "cribbage/local/calls.py" in names
    assert "cribbage/ai/data/winning.json" in names
    assert {name.split("/")[1] for name in names if name.count("/") > 1} == set(ENGINE_PACKAGES)
    assert not [name for name in names if "__pycache__" in name or name.endswith(".pyc")]
    assert client.get("/engine/cribbage.zip").content == answer.content, "the same bytes every time"


def test_only_the_engine_worker_may_compile_webassembly(client: TestClient) -> None:
    worker = client.get("/static/engine/worker.js").headers["content-security-policy"]
    assert "script-src 'self' 'wasm-unsafe-eval'" in worker
    for path in ("/", "/static/engine/engine.js", "/static/game/app.js", "/api/meta"):
        policy = client.get(path).headers["content-security-policy"]
        assert "wasm-unsafe-eval" not in policy and "script-src 'self';" in policy, path


def test_the_shell_keeps_the_engine_on_use_and_counts_it_in_its_version(client: TestClient) -> None:
    listed = client.get("/offline.json").json()
    engine = {f"/engine/pyodide/{name}" for name in PYODIDE_FILES} | {"/engine/cribbage.zip"}
    assert set(listed["engine"]) == engine
    assert not engine & set(listed["files"]), "never downloaded when the worker installs"
    assert "/static/engine/worker.js" in listed["files"] and "/static/engine/engine.js" in listed["files"]
