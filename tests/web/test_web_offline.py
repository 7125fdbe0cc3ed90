"""The installable app and its offline shell (issue 45, item 1; docs/api.md, "Installing and
offline"): the web app manifest and its icons, every page's links to them, and the list of files
the service worker keeps (``GET /offline.json``), whose version follows the files' bytes.

Chromium's own verdict on the manifest and the worker's cache are tests/browser/test_installable_e2e.py.
"""

from __future__ import annotations

import re
import shutil
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cribbage.web import offline
from cribbage.web.offline import SHELL_PAGES, shell_listing
from cribbage.web.settings import STATIC_DIR
from web_fixtures import make_client

PAGE_FILES = ("index.html", "howto.html", "review.html", "practice.html", "tournament.html")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with make_client() as made:
        yield made


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its signature and IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_is_served_with_its_media_type(client: TestClient) -> None:
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest["name"] == "Cribbage" and manifest["short_name"]
    assert manifest["description"]
    assert (manifest["id"], manifest["start_url"], manifest["scope"]) == ("/", "/", "/")
    assert manifest["display"] == "standalone"


def test_the_manifest_colours_are_the_pages() -> None:
    """The theme is the header's green, the splash the page's paper (shared/style.css)."""
    style = (STATIC_DIR / "shared" / "style.css").read_text(encoding="utf-8")
    colour = {name: value for name, value in re.findall(r"--([a-z-]+):\s*(#[0-9a-f]{6})", style)}
    manifest = (STATIC_DIR / "manifest.webmanifest").read_text(encoding="utf-8")
    assert f'"theme_color": "{colour["felt-dark"]}"' in manifest
    assert f'"background_color": "{colour["paper"]}"' in manifest
    assert "var(--felt-dark)" in style.split(".topbar {", 1)[1].split("}", 1)[0]


def test_every_icon_is_a_png_of_the_size_it_claims(client: TestClient) -> None:
    icons = client.get("/manifest.webmanifest").json()["icons"]
    purposes: dict[str, set[str]] = {}
    for icon in icons:
        answer = client.get(icon["src"])
        assert answer.status_code == 200, icon["src"]
        if icon["type"] != "image/png":
            assert icon["sizes"] == "any" and answer.headers["content-type"].startswith(icon["type"])
            continue
        width, height = png_size(answer.content)
        assert icon["sizes"] == f"{width}x{height}", icon["src"]
        purposes.setdefault(icon["purpose"], set()).add(icon["sizes"])
    assert {"192x192", "512x512"} <= purposes["any"]
    assert "512x512" in purposes["maskable"]


@pytest.mark.parametrize("name", PAGE_FILES)
def test_every_page_links_the_manifest_its_theme_and_the_touch_icon(client: TestClient, name: str) -> None:
    html = (STATIC_DIR / name).read_text(encoding="utf-8")
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<meta name="theme-color" content="#0f4d31">' in html
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', html)
    assert touch is not None
    assert png_size(client.get(touch.group(1)).content) == (180, 180)


def test_the_offline_list_names_every_page_and_static_file_and_each_answers(client: TestClient) -> None:
    answer = client.get("/offline.json")
    assert answer.status_code == 200
    listed = answer.json()
    files = listed["files"]
    assert re.fullmatch(r"[0-9a-f]{20}", listed["version"])
    assert set(SHELL_PAGES) <= set(files) and "/manifest.webmanifest" in files
    wanted = {
        "/static/game/app.js",
        "/static/shared/style.css",
        "/static/lang/ja.js",
        "/static/icons/icon-512.png",
    }
    assert wanted <= set(files)
    assert not [url for url in files if url.startswith("/api/") or url.endswith(".html") or url == "/sw.js"]
    assert len(files) == len(set(files)) == len(shell_listing(STATIC_DIR).files)
    for url in files:
        assert client.get(url).status_code == 200, url


def test_every_static_module_a_page_imports_is_listed(client: TestClient) -> None:
    """The entry modules' imports (static ones; lazy ``import()`` ones too) are all kept."""
    files = set(client.get("/offline.json").json()["files"])
    for module in STATIC_DIR.rglob("*.js"):
        if module.name == "sw.js":
            continue
        source = module.read_text(encoding="utf-8")
        for imported in re.findall(r"""(?:from|import\()\s*'(\.{1,2}/[^']+)'""", source):
            url = "/static/" + (module.parent / imported).resolve().relative_to(STATIC_DIR).as_posix()
            assert url in files, f"{module.name} imports {imported}"


@pytest.fixture()
def static_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "static"
    shutil.copytree(STATIC_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_the_version_changes_when_any_file_changes(static_copy: Path) -> None:
    with make_client(static_dir=static_copy) as copied:
        first = copied.get("/offline.json").json()
        worker = copied.get("/sw.js").text
        assert copied.get("/offline.json").json() == first  # the same files, the same version
        (static_copy / "lang" / "ru.js").write_text("// changed\n", encoding="utf-8")
        second = copied.get("/offline.json").json()
        assert second["version"] != first["version"] and second["files"] == first["files"]
        assert copied.get("/sw.js").text != worker  # so the browser installs the worker anew
        assert second["version"] in copied.get("/sw.js").text
        (static_copy / "shared" / "extra.js").write_text("export {};\n", encoding="utf-8")
        third = copied.get("/offline.json").json()
        assert "/static/shared/extra.js" in third["files"] and third["version"] != second["version"]


def test_more_sources_add_files_and_never_the_api(static_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = static_copy.parent / "engine.py"
    engine.write_text("print('the engine')\n", encoding="utf-8")
    before = shell_listing(static_copy)
    more = [*offline.SOURCES, lambda _static: [("/engine/cribbage.py", engine)]]
    monkeypatch.setattr(offline, "SOURCES", more)
    after = shell_listing(static_copy)
    assert "/engine/cribbage.py" in after.files and after.version != before.version
    assert shell_listing(static_copy, [offline.page_files]).files == (
        "/",
        "/howto",
        "/manifest.webmanifest",
        "/practice",
        "/review",
        "/tournaments",
    )
    with pytest.raises(ValueError, match="/api/"):
        shell_listing(static_copy, [lambda _static: [("/api/meta", engine)]])


def test_a_missing_file_is_left_out(static_copy: Path) -> None:
    (static_copy / "practice.html").unlink()
    assert "/practice" not in shell_listing(static_copy).files


@pytest.mark.parametrize("path", [*SHELL_PAGES, "/join/ABCD-EFGH", "/tournaments/t1"])
def test_every_page_names_the_shell_version_it_belongs_to(client: TestClient, path: str) -> None:
    """The worker, keeping an older shell, then takes the page's files from the network."""
    version = client.get("/offline.json").json()["version"]
    assert client.get(path).headers["x-shell-version"] == version
