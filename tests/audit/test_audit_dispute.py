"""The dispute of issue 8, reproduced on a 40-player McMahon recorded through the commands.

A strong player S in the top group loses his first two games (to A and B, both top group) and
leaves. The director records what the rules ask for a top-group player who misses rounds (spec
``scoring.md`` §6.6: placed below the bar; OpenGotha's mechanism is the McMahon correction −1,
retroactive to every round): ``withdraw S --from-round 3`` and ``update-player S
--mm-correction -1``. The tournament counts absent rounds as nothing (``mms2_absent = 0``,
an OpenGotha parameter), so his withdrawn rounds do not make up for the correction. His
opponents' SOSM drops by one point each — enough to move a prize to the next tiebreak.

Under OpenGotha's rules a withdrawal *alone* cannot lower anyone's SOS: withdrawn rounds score
like absences, and an unpaired round never scores less. The loss comes with the bar−1
correction recorded together with the withdrawal; ``what-if --without`` takes both out.

The test checks, through the command line:

* ``diff --from W-1 --to U`` (the standings after round 2, when he left) shows S's MMS and
  each opponent's SOSM one point lower, caused by the correction event;
* ``diff --from W-1 --round 5`` (to the end) attributes exactly that point to the same event
  among all the later results;
* ``what-if --without W,U`` restores the earlier values exactly: after round 2 it equals the
  standings before the withdrawal; after round 5 it equals, row for row, the standings of the
  same tournament recorded without the withdrawal, and gives every opponent back the point.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from goledger import commands
from goledger.ledger.store import Ledger
from goledger.ledger.values import Rank
from goledger.replay.fold.state import fold
from goledger.replay.scoring.standings import standings

from ..audit_support import scratch_dir

ROUNDS = 5
STRONG = "p0001"
RANKS = ["6d", "5d", "5d", "4d", "4d", "4d", "3d", "3d", "2d", "2d", "1d", "1d", "1k", "1k", "2k", "2k", "3k",
         "3k", "4k", "4k", "5k", "5k", "6k", "7k", "8k", "8k", "9k", "10k", "11k", "12k", "13k", "14k", "15k",
         "16k", "17k", "18k", "19k", "20k", "22k", "25k"]


def _smms(rank: str) -> int:
    """Start score with bar 4d, floor 20k (the McMahon preset of `goledger new`)."""
    value = max(Rank.parse("20k").value, min(Rank.parse("4d").value, Rank.parse(rank).value))
    return value + 30


def build(path: Path, record_withdrawal: bool) -> dict[str, object]:
    """The tournament; with ``record_withdrawal`` False, S simply is not paired after round 2."""
    rng = random.Random(40)
    commands.new(path, "Dispute Open", ROUNDS, "mcmahon", actor="td")
    commands.change_rules(path, {"mms2_absent": 0}, actor="td", reason="absent rounds score nothing")
    for number, rank in enumerate(RANKS, start=1):
        commands.register(path, f"Player{number:02d}", "Top" if number <= 6 else "", rank, actor="td")
    ids = [f"p{i:04d}" for i in range(1, len(RANKS) + 1)]
    rank = dict(zip(ids, RANKS, strict=True))
    score2 = {pid: 2 * _smms(rank[pid]) for pid in ids}
    met: set[frozenset[str]] = set()
    had_bye: set[str] = set()
    info: dict[str, object] = {"opponents": []}
    for round_ in range(1, ROUNDS + 1):
        if round_ == 3 and record_withdrawal:
            info["withdrawal"] = commands.withdraw(path, STRONG, 3, "left after round 2", actor="td").seqs[0]
            info["correction"] = commands.update_player(
                path, STRONG, mm_correction=-1, actor="td", reason="misses rounds: placed below the bar").seqs[0]
        field = [p for p in ids if not (p == STRONG and round_ >= 3)]
        order = sorted(field, key=lambda p: (-score2[p], -Rank.parse(rank[p]).value, p))
        if len(order) % 2:
            bye = next(p for p in reversed(order) if p not in had_bye)
            order.remove(bye)
            had_bye.add(bye)
            commands.bye(path, bye, round_, actor="td")
            score2[bye] += 2
        table = 0
        while order:
            first = order.pop(0)
            second = next((p for p in order if frozenset((first, p)) not in met), order[0])
            order.remove(second)
            met.add(frozenset((first, second)))
            white, black = sorted((first, second), key=lambda p: -Rank.parse(rank[p]).value)
            table += 1
            commands.pair(path, round_, white, black, table, force=True, actor="td")
            if STRONG in (white, black):
                winner = black if white == STRONG else white
                info["opponents"].append(winner)  # type: ignore[union-attr]
            else:
                gap = Rank.parse(rank[white]).value - Rank.parse(rank[black]).value
                winner = white if rng.random() < 0.5 + min(0.3, 0.08 * gap) else black
            commands.result(path, round_, table, "white" if winner == white else "black", actor="desk")
            score2[winner] += 2
    with Ledger.open(path) as ledger:
        info["head"] = ledger.head().seq
    return info


@pytest.fixture(scope="module")
def dispute(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, object], Path]]:
    with scratch_dir(tmp_path_factory.mktemp("dispute")) as folder:
        real, without = folder / "real.db", folder / "without.db"
        info = build(real, record_withdrawal=True)
        build(without, record_withdrawal=False)
        yield real, info, without


def _json(cli, *args: object) -> dict:  # type: ignore[no-untyped-def]
    res = cli(*args, "--json")
    assert res.code == 0, res.err
    return json.loads(res.out)


def test_the_setting_is_the_dispute(dispute: tuple[Path, dict[str, object], Path]) -> None:
    real, info, _ = dispute
    with Ledger.open(real) as ledger:
        state = fold(ledger.events())
    assert len(state.players) == 40 and state.last_complete_round() == ROUNDS
    a, b = info["opponents"]  # type: ignore[misc]
    assert state.settings is not None and state.settings.mm_bar == "4d"
    top_group = _smms("4d")  # the bar
    assert {_smms(state.players[p].rank) for p in (STRONG, a, b)} == {top_group}
    round1 = state.games[1]
    games = [g for g in round1.values() if STRONG in (g.white, g.black)]
    games += [g for g in state.games[2].values() if STRONG in (g.white, g.black)]
    assert [g.points2(STRONG) for g in games] == [0, 0]  # lost his first two games, to A and B
    assert {g.opponent(STRONG) for g in games} == {a, b}
    assert {r.player_id: r.values["MMS"] for r in standings(state, 2).rows}[STRONG] == 2 * (top_group - 1)
    assert state.players[STRONG].withdrawn_from == 3 and state.players[STRONG].mm_correction == -1


def test_diff_shows_the_sos_loss_of_each_opponent(cli, dispute: tuple[Path, dict[str, object], Path]) -> None:
    real, info, _ = dispute
    w, u = info["withdrawal"], info["correction"]
    opponents = info["opponents"]
    data = _json(cli, "diff", "--db", real, "--from", w - 1, "--to", u)  # type: ignore[operator]
    assert data["round"] == 2 and data["criteria"] == ["MMS", "SOSM", "SOSOSM"]
    assert [e["type"] for e in data["events"]] == ["PlayerWithdrew", "PlayerUpdated"]
    changes = {c["player_id"]: c for c in data["changes"]}
    assert changes[STRONG]["after"]["values"]["MMS"] == changes[STRONG]["before"]["values"]["MMS"] - 1
    for opponent in opponents:  # type: ignore[union-attr]
        change = changes[opponent]
        assert change["after"]["values"]["SOSM"] == change["before"]["values"]["SOSM"] - 1
        assert [(c["first_seq"], c["relation"]) for c in change["caused_by"]] == [(u, "opponent's player data")]
    # nobody else's MMS or SOSM moved: the others changed in SOSOSM or place only
    for pid, change in changes.items():
        if pid not in (STRONG, *opponents):  # type: ignore[misc]
            for name in ("MMS", "SOSM"):
                assert change["before"]["values"][name] == change["after"]["values"][name]
    text = cli("diff", "--db", real, "--from", w - 1, "--to", u)  # type: ignore[operator]
    assert text.code == 0
    for opponent in opponents:  # type: ignore[union-attr]
        line = next(ln for ln in text.out.splitlines() if ln.startswith(f"  {opponent}"))
        assert "SOSM" in line and "→" in line


def test_the_final_diff_attributes_the_lost_point_to_the_correction(
        cli, dispute: tuple[Path, dict[str, object], Path]) -> None:
    real, info, _ = dispute
    w, u = info["withdrawal"], info["correction"]
    data = _json(cli, "diff", "--db", real, "--from", w - 1, "--round", ROUNDS)  # type: ignore[operator]
    assert data["attribution"]["complete"]
    changes = {c["player_id"]: c for c in data["changes"]}
    for opponent in info["opponents"]:  # type: ignore[union-attr]
        causes = changes[opponent]["caused_by"]
        by_event = [c for c in causes if c["first_seq"] == c["last_seq"] == u]
        assert len(by_event) == 1
        assert by_event[0]["after"]["values"]["SOSM"] == by_event[0]["before"]["values"]["SOSM"] - 1
        assert not [c for c in causes if c["first_seq"] == w]  # the withdrawal alone changed nothing
        later = [c for c in causes if c["first_seq"] > u]
        assert any(c["relation"] in ("own result", "opponent's result") for c in later)


def test_what_if_without_the_withdrawal_restores_the_earlier_values_exactly(
        cli, dispute: tuple[Path, dict[str, object], Path]) -> None:
    real, info, without = dispute
    w, u = info["withdrawal"], info["correction"]
    before = _json(cli, "standings", "--db", real, "--as-of", w - 1)  # type: ignore[operator]
    after2 = _json(cli, "what-if", "--db", real, "--without", f"{w},{u}", "--round", "2")
    assert after2["rows"] == before["rows"]  # after round 2: exactly the standings before he left

    final = _json(cli, "what-if", "--db", real, "--without", f"{w},{u}")
    recorded_without = _json(cli, "standings", "--db", without)
    assert {k: final[k] for k in recorded_without} == recorded_without  # row for row, as_of_seq too
    actual = {r["player_id"]: r for r in final["actual"]["rows"]}
    hypothetical = {r["player_id"]: r for r in final["rows"]}
    assert hypothetical[STRONG]["values"]["MMS"] == actual[STRONG]["values"]["MMS"] + 1
    for opponent in info["opponents"]:  # type: ignore[union-attr]
        assert hypothetical[opponent]["values"]["SOSM"] == actual[opponent]["values"]["SOSM"] + 1
    assert {c["player_id"] for c in final["changes"]} >= {STRONG, *info["opponents"]}  # type: ignore[misc]
    with Ledger.open(real) as ledger:
        assert ledger.head().seq == info["head"] and ledger.verify().ok
