"""One way in for every command (issue 43): the service's action is called, an action's body
checked and an abuse limit counted in one module, the command layer that HTTP's routes and the
live socket both call (``tools/architecture.py`` prints the issue's numbers)."""

from __future__ import annotations

import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[2] / "tools"
sys.path.insert(0, str(TOOLS))
import architecture  # noqa: E402


def test_an_action_is_acted_on_checked_and_limited_in_one_place() -> None:
    assert architecture.one_place() == {concern: ["web/commands.py"] for concern in architecture.ONE_PLACE}


def test_a_use_elsewhere_is_found() -> None:
    source = "def route(caller):\n    return caller.service.act(1, 2, {})\n"
    assert architecture._uses(source, "service.act")
    assert not architecture._uses("def f(service):\n    return service.state(1)\n", "service.act")
    assert architecture._uses("count = self.limits.hit\n", "limits.hit")
