"""Make the page's app icons (issue 45, item 1: the web app manifest's and the apple-touch-icon)
from one drawing: a playing card with a spade, tilted, and a gold cribbage peg, on the header's
green (``--felt-dark`` of static/shared/style.css).

    python tools/make_icons.py

Writes ``src/cribbage/web/static/icons/``: ``icon.svg`` (the drawing), ``icon-192.png`` and
``icon-512.png`` (purpose ``any``: a rounded square), ``maskable-512.png`` (purpose
``maskable``: the green to every edge, the motif within the central circle of 40% radius that
every mask keeps) and ``apple-touch-icon.png`` (180 px, square: iOS rounds it itself).

The PNGs are rendered by Chromium (Debian's, driven by Playwright as the tests do: ``pip install
-e .[test]``), at a device scale of 1, with a transparent background where the drawing has none.
"""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ICONS = ROOT / "src" / "cribbage" / "web" / "static" / "icons"

GREEN = "#0f4d31"  # the header's (--felt-dark)
FELT = "#1b6a45"  # the table's (--felt)
GOLD = "#ffd54f"  # the pegs' (--gold)

# A spade in a 100 × 100 box: two lobes and a stem.
SPADE = (
    "M50 6C38 24 10 38 10 60c0 14 11 23 23 23 7 0 12-3 15-8-1 9-5 15-12 19h28c-7-4-11-10-12-19"
    " 3 5 8 8 15 8 12 0 23-9 23-23C90 38 62 24 50 6z"
)

MOTIF = f"""
<g transform="rotate(-8 256 256)">
  <rect x="156" y="98" width="216" height="312" rx="26" fill="#000" opacity="0.25"/>
  <rect x="148" y="88" width="216" height="312" rx="26" fill="#fff"/>
  <path d="{SPADE}" fill="#1d2321" transform="translate(166 150) scale(1.8)"/>
  <path d="{SPADE}" fill="#1d2321" transform="translate(166 104) scale(0.34)"/>
</g>
<circle cx="356" cy="368" r="40" fill="#7a5b00"/>
<circle cx="352" cy="362" r="36" fill="{GOLD}"/>
<circle cx="340" cy="350" r="11" fill="#fff6cf"/>
"""


def drawing(*, full_bleed: bool, scale: float) -> str:
    """The icon as SVG (512 × 512): the motif at ``scale`` about the centre, on a rounded green
    square or (``full_bleed``) on green to every edge."""
    corner = 0 if full_bleed else 104
    return f"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">
<defs><radialGradient id="felt" cx="50%" cy="40%" r="70%">
  <stop offset="0" stop-color="{FELT}"/><stop offset="1" stop-color="{GREEN}"/>
</radialGradient></defs>
<rect width="512" height="512" rx="{corner}" fill="url(#felt)"/>
<g transform="translate(256 256) scale({scale}) translate(-256 -256)">{MOTIF}</g>
</svg>
"""


ICON_FILES: dict[str, tuple[int, bool, float]] = {
    "icon-192.png": (192, False, 1.0),
    "icon-512.png": (512, False, 1.0),
    "maskable-512.png": (512, True, 0.74),
    "apple-touch-icon.png": (180, True, 0.9),
}
"""Each PNG: its size in pixels, whether full bleed, and the motif's scale."""


def main() -> None:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    ICONS.mkdir(parents=True, exist_ok=True)
    (ICONS / "icon.svg").write_text(drawing(full_bleed=False, scale=1.0), encoding="utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--headless", "--no-sandbox"])
        for name, (size, full_bleed, scale) in ICON_FILES.items():
            page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            svg = drawing(full_bleed=full_bleed, scale=scale).replace(
                'width="512" height="512"', f'width="{size}" height="{size}"', 1
            )
            page.set_content(f"<html><body style='margin:0'>{svg}</body></html>")
            page.screenshot(path=str(ICONS / name), omit_background=True)
            page.close()
            print(f"{name}: {size} × {size}")
        browser.close()


if __name__ == "__main__":
    main()
