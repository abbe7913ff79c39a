"""Benchmark the desk's settings form and pairing page on EGC 2011 (issue 43, items 2 and 4).

EGC 2011 (760 players, 10 rounds, ``../shared/realdata/opengotha``) is imported, then, in
process through Starlette's test client (the ASGI app ``goledger serve`` runs; no network):

* ``GET /desk/settings``: the form with the rules in force;
* ``GET /desk/settings?preview=1&…``: the preview of a lower McMahon bar (every player's place
  before and after, 760 players) and of one OpenGotha pairing parameter;
* ``pairable_scores``: the main score of every player, as hand pairing's lists show it;
* ``GET /desk/round/10``: the round page.

Printed: the median of ``--runs`` runs of each, after one untimed run. Run: ``python benchmarks/bench_desk_settings.py
[--runs 5]``.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.timing import timed
from goledger.formats.opengotha import import_opengotha
from goledger.replay.views import state_as_of
from goledger.web import create_app
from goledger.web.hand_edits import pairable_scores
from tests.web.test_web_settings_form import form_fields

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

EGC = Path(__file__).resolve().parents[2] / "shared" / "realdata" / "opengotha" / "lucvannier_opengotha__egc2011.xml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    if not EGC.exists():
        sys.exit(f"{EGC} is missing (../shared/realdata)")
    db = Path(tempfile.mkdtemp(prefix="goledger-bench-")) / "egc2011.db"
    import_opengotha(EGC, db)
    state = state_as_of(db)
    client = TestClient(create_app(db, "bench-token"))
    csrf = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text)
    assert csrf
    client.post("/login", data={"token": "bench-token", "next": "/desk", "csrf": csrf.group(1)})

    def get(path: str, params: dict[str, str] | None = None) -> str:
        answer = client.get(path, params=params)
        assert answer.status_code == 200, answer.text[-300:]
        return answer.text

    fields = form_fields(get("/desk/settings"))
    shown = get("/desk/settings", {**fields, "mm_bar": "1d"})
    moves = re.search(r'id="preview-moves-count">([^<]*)<', shown)
    print(f"EGC 2011: {len(state.players)} players, {state.rounds} rounds; a bar of 1d: "
          f"{moves.group(1) if moves else 'no preview'}")
    rows = [
        ("GET /desk/settings (the form)", lambda: get("/desk/settings")),
        ("preview: mm_bar 1d (places before and after)", lambda: get("/desk/settings", {**fields, "mm_bar": "1d"})),
        ("preview: paiMaSeedSystem2 SPLITANDFOLD", lambda: get("/desk/settings",
                                                                {**fields, "paiMaSeedSystem2": "SPLITANDFOLD"})),
        ("pairable_scores, every player", lambda: pairable_scores(state, state.rounds, list(state.players.values()))),
        ("GET /desk/round/10", lambda: get("/desk/round/10")),
    ]
    print("| step | median (ms) |\n|---|---|")
    for label, step in rows:
        print(f"| {label} | {timed(step, runs).median * 1000:.0f} |")


if __name__ == "__main__":
    main()
