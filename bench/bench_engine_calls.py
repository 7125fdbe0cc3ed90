"""Benchmark of the browser's engine as the page uses it (issue 45 item 5; docs/pyodide.md): the
shipped worker (``static/engine/worker.js``) served by a real ``cribbage serve``, driven by the
page's own client (``static/engine/engine.js``), beside the same calls made natively
(``cribbage.local.calls``) on the same seeded games.

    python bench/bench_engine_calls.py [--games 3] [--seed 500] [--json]

Printed: the engine's cold start (a fresh profile: Pyodide and the package downloaded, compiled,
started) and warm start (the page loaded again: from the browser's caches), each with its three
steps; then, for each level, the time of the page's ``act`` (the person's action, the
computers' answers, the new ``STATE``: what a person waits for) and of ``hint``, p50 and p95, in
the browser (the page's round trip) and natively, with the ratio.  The person's seat plays the
hint's best choice where there is one, else the first legal action (a manual count: the first
template's).  Needs Playwright, Debian's ``chromium`` and Pyodide's files (``npm ci``); traffic
stays on 127.0.0.1; about two minutes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_browser_game import find_chromium, serving

from cribbage.engine.templates import choices
from cribbage.local import calls

LEVELS = ("weak", "normal", "strong")

TIMED = """async ([call, args]) => {
  const engine = await import('/static/engine/engine.js');
  const began = performance.now();
  const ok = await engine.engineCall(call, ...args);
  return { ok, ms: performance.now() - began };
}"""

START = """async () => {
  const engine = await import('/static/engine/engine.js');
  const began = performance.now();
  const steps = {};
  engine.onProgress((step) => { steps[step] = performance.now() - began; });
  await engine.startEngine();
  return { ms: performance.now() - began, steps };
}"""


def native(name: str, *args: Any) -> tuple[Any, float]:
    """A call of the engine natively: its answer and its time (ms)."""
    began = time.perf_counter()
    answer = json.loads(calls.call(name, json.dumps(list(args))))
    spent = (time.perf_counter() - began) * 1000
    if "ok" not in answer:
        raise SystemExit(f"native {name}: {answer}")
    return answer["ok"], spent


def browser(page: Any, name: str, *args: Any) -> tuple[Any, float]:
    answer = page.evaluate(TIMED, [name, list(args)])
    return answer["ok"], float(answer["ms"])


def person_action(state: dict[str, Any], hint: dict[str, Any] | None) -> dict[str, Any]:
    """The hint's best choice when it names one, else the first legal action."""
    if hint and hint.get("options"):
        best = hint["options"][0]
        if hint["kind"] == "discard":
            return {"type": "discard", "seat": 0, "cards": best["discard"], "version": state["version"]}
        if "card" in best:
            return {"type": "play", "seat": 0, "card": best["card"], "version": state["version"]}
    return {**next(choices(state["actions"][0])), "version": state["version"]}


def play(page: Any, level: str, seed: int, times: dict[str, list[float]]) -> None:
    """One seeded game both ways, the same actions; each call's time noted by side."""
    options = {"variant": "standard", "level": level, "seed": seed}
    game = f"bench-{level}-{seed}"
    state, _ = native("new", game, options)
    there, _ = browser(page, "new", game, options)
    assert there == state, "the browser's STATE is the native one"
    for _ in range(3000):
        if state["over"]:
            return
        hint = None
        kinds = {template["type"] for template in state["actions"]}
        if kinds & {"discard", "play"}:
            hint, spent = native("hint", game)
            times["hint native"].append(spent)
            _, spent = browser(page, "hint", game)
            times["hint browser"].append(spent)
        action = person_action(state, hint)
        state, spent = native("act", game, action)
        times[f"{level} native"].append(spent)
        there, spent = browser(page, "act", game, action)
        times[f"{level} browser"].append(spent)
        assert there == state, "the browser's STATE is the native one"
    raise SystemExit("a game did not end")


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games of each level (1 to 10)")
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)
    games = max(1, min(10, args.games))
    from playwright.sync_api import sync_playwright

    chromium = find_chromium()
    figures: dict[str, Any] = {}
    keys = [f"{level} {side}" for level in [*LEVELS, "hint"] for side in ("native", "browser")]
    times: dict[str, list[float]] = {key: [] for key in keys}
    with (
        tempfile.TemporaryDirectory() as work,
        serving(Path(work), "engine-calls") as server,
        sync_playwright() as playwright,
    ):
        base = f"http://127.0.0.1:{server.port}"
        # A profile on disk, as a visitor's browser has (an off-the-record context's cache is in
        # memory, too small to keep the WebAssembly), without the service worker: the HTTP cache.
        context = playwright.chromium.launch_persistent_context(
            str(Path(work) / "profile"), executable_path=chromium, headless=True, service_workers="block"
        )
        context.set_default_timeout(120_000)
        page = context.new_page()
        page.goto(f"{base}/?lang=en")
        figures["cold start"] = page.evaluate(START)
        page.reload()
        figures["warm start"] = page.evaluate(START)
        for level in LEVELS:
            for game in range(games):
                play(page, level, args.seed + game, times)
        context.close()
    print("the browser's engine as the page uses it (static/engine/), beside the same calls natively\n")
    for start in ("cold start", "warm start"):
        steps = ", ".join(f"{step} at {ms:,.0f} ms" for step, ms in figures[start]["steps"].items())
        print(f"  {start}: {figures[start]['ms']:,.0f} ms ({steps})")
    head = (
        f"{'call':<16}{'native p50':>12}{'p95':>9}{'browser p50':>14}{'p95':>9}{'ratio p95':>11}{'calls':>7}"
    )
    print(f"\n  {head}")
    rows = [*(f"act vs {level}" for level in LEVELS), "hint"]
    for row, key in zip(rows, [*LEVELS, "hint"], strict=True):
        here, there = times[f"{key} native"], times[f"{key} browser"]
        p95 = percentile(there, 0.95) / max(percentile(here, 0.95), 1e-9)
        figures[row] = {
            "native_p50": statistics.median(here),
            "native_p95": percentile(here, 0.95),
            "browser_p50": statistics.median(there),
            "browser_p95": percentile(there, 0.95),
            "calls": len(here),
        }
        print(
            f"  {row:<16}{statistics.median(here):>10.1f}ms{percentile(here, 0.95):>7.1f}ms"
            f"{statistics.median(there):>12.1f}ms{percentile(there, 0.95):>7.1f}ms{p95:>10.1f}x{len(here):>7}"
        )
    print("\n  an act's time holds the computers' answers to it and the new STATE (JSON both ways)")
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
