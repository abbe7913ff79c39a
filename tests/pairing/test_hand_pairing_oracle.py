"""``pair --round R A B`` gives exactly OpenGotha's colours and handicap (issue 31).

For every game of every McMahon, Swiss and SwissCat round of ``../shared/pairing-oracle``
(read its README: ``<stem>.r<r>.xml`` is the tournament before round r, ``<stem>.r<r>.json``
OpenGotha 3.51.02's own pairing of round r), the round's input is imported and each of
OpenGotha's pairs is paired by hand, without colours, through the decider ``goledger pair``
uses (:func:`goledger.commands.hand.decide_pair`, one rule per round as the desk does): the
colours and handicap must be OpenGotha's ``gameBetween``'s and the komi the one ``pair-round``
gives the game. The pair is named in the order that is *not* OpenGotha's (Black first), so a
rule that took the first player as White would fail. A few rounds go through the CLI
(``pair --dry-run --json``) in a subprocess.

Every round runs by default (the biggest, 985 players, takes about a second: one rule per
round, the games asked one by one).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from goledger.commands.hand import decide_pair
from goledger.commands.hand_rules import GameRule
from goledger.ledger import events as ev
from goledger.ledger.values import effective_komi
from goledger.replay.fold.state import TournamentState
from tests.conftest import SHARED, run_cli

ORACLE = SHARED / "pairing-oracle" if SHARED is not None else None
SYSTEMS = ("McMahon", "Swiss", "SwissCat")


def _rounds() -> list[Any]:
    if ORACLE is None or not ORACLE.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason="../shared/pairing-oracle is not present"))]
    out = []
    for path in sorted(ORACLE.glob("*.r*.json")):
        if path.name.endswith(".costs.json"):
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["system"] not in SYSTEMS:
            continue
        stem = path.name[: -len(".json")]
        out.append(pytest.param(stem, id=stem, marks=pytest.mark.shared))
    return out


def _state(stem: str, folder: Path) -> tuple[TournamentState, Path]:
    from goledger.formats.opengotha import import_opengotha
    from goledger.replay.views import state_as_of

    assert ORACLE is not None
    db = folder / f"{stem}.db"
    import_opengotha(ORACLE / f"{stem}.xml", db)
    return state_as_of(db), db


def _ids(state: TournamentState) -> dict[str, str]:
    return {f"{p.surname}, {p.first_name}": pid for pid, p in state.players.items()}


@pytest.mark.parametrize("stem", _rounds())
def test_pair_by_the_rule_is_openGotha_s_game(stem: str, tmp_path: Path) -> None:
    assert ORACLE is not None
    oracle = json.loads((ORACLE / f"{stem}.json").read_text(encoding="utf-8"))
    state, _ = _state(stem, tmp_path)
    r = oracle["round"]
    pid = _ids(state)
    rule = GameRule(state, r)
    assert state.settings is not None
    komi = state.settings_for_round(r).komi
    assert oracle["games"]
    for game in oracle["games"]:
        white, black = pid[game["white"]], pid[game["black"]]
        (event,) = decide_pair(state, r, black, white, rule=rule)
        assert isinstance(event, ev.GamePaired)
        assert (event.white, event.black, event.handicap) == (white, black, game["handicap"]), game
        # pair-round's komi for this game: none of its own (the opengotha engine sets none)
        assert event.komi is None and event.by_hand == () and not event.forced
        assert effective_komi(komi, event.komi, event.handicap) == effective_komi(komi, None, game["handicap"])
        assert event.table == 1  # the round's first free table: nothing else is paired yet


CLI_ROUNDS = ["juvisy-2019.r3", "cdfo-2020.r4", "ppik-2009.r5"]
"""McMahon with handicaps, Swiss, SwissCat with handicaps: a few games through the CLI."""


@pytest.mark.shared
@pytest.mark.parametrize("stem", CLI_ROUNDS if ORACLE is not None else [
    pytest.param(None, marks=pytest.mark.skip(reason="../shared/pairing-oracle is not present"))])
def test_pair_dry_run_through_the_cli(stem: str, tmp_path: Path) -> None:
    assert ORACLE is not None
    oracle = json.loads((ORACLE / f"{stem}.json").read_text(encoding="utf-8"))
    state, db = _state(stem, tmp_path)
    pid = _ids(state)
    r = oracle["round"]
    assert state.settings is not None
    games = sorted(oracle["games"], key=lambda g: -g["handicap"])[:2]  # a handicap game where there is one
    before = state.seq
    for game in games:
        white, black = pid[game["white"]], pid[game["black"]]
        res = run_cli("pair", "--db", db, "--round", str(r), black, white, "--dry-run", "--json")
        assert res.code == 0, res.err
        data = json.loads(res.out)
        assert data["dry_run"] is True and data["events"] == []
        got = data["game"]
        assert (got["white"]["id"], got["black"]["id"], got["handicap"]) == (white, black, game["handicap"])
        assert got["komi"] == effective_komi(state.settings_for_round(r).komi, None, game["handicap"])
    from goledger.replay.views import state_as_of

    assert state_as_of(db).seq == before  # a dry run writes nothing
