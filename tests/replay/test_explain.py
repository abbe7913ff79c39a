"""``explain``: each term of a value, each substitute with its rule, and what separates a
player from his neighbours — on a forfeit, a bye, an absence, a handicap game and a DC tie
(the §2.6 worked example), through the library and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from goledger.ledger.store import Ledger
from goledger.replay.scoring.explain import explain

from ..scoring_worked_example import worked_example, worked_example_events


def terms_by_round(result, criterion: str) -> dict[int | None, object]:
    explanation = next(e for e in result.explanations if e.criterion == criterion)
    return {t.round: t for t in explanation.terms if t.round is not None}


def test_forfeit_counts_as_a_result_and_is_shown_as_by_default() -> None:
    result = explain(worked_example(), "A", "MMS", 4)
    r3 = terms_by_round(result, "MMS")[3]
    assert (r3.source, r3.value, r3.opponent) == ("loss by default", 0, "E")
    assert r3.detail["by_default"] is True and r3.detail["colour"] == "white"
    # E's SODOSW: the forfeit win counts fully: A's NBW 3 × 1 = 3 points (12 quarter points).
    result = explain(worked_example(), "E", "SODOSW", 4)
    r3 = terms_by_round(result, "SODOSW")[3]
    assert (r3.source, r3.value, r3.opponent) == ("win by default", 12, "A")
    assert result.explanations[0].value == 15  # 3¾


def test_bye_value_and_its_sos_substitute_name_their_rule() -> None:
    result = explain(worked_example(), "E", None, 4)
    mms = terms_by_round(result, "MMS")[1]
    assert (mms.source, mms.value) == ("bye", 2)
    assert mms.rule == "MMS bye value of the tournament"
    sosm = terms_by_round(result, "SOSM")[1]
    assert (sosm.value, sosm.opponent) == (54, None)  # E's own start score 27
    assert "own start McMahon score" in sosm.rule
    sosos = terms_by_round(result, "SOSOSM")[1]
    assert sosos.value == 2 * 27 * 4 and "× 4 rounds" in sosos.rule


def test_absence_value_rounding_and_substitute() -> None:
    result = explain(worked_example(), "C", None, 2)
    mms = next(e for e in result.explanations if e.criterion == "MMS")
    by_round = {t.round: t for t in mms.terms if t.round is not None}
    absent = by_round[2]
    assert (absent.source, absent.value, absent.rule) == ("absent", 1, "MMS absent value of the tournament")
    rounding = [t for t in mms.terms if t.source == "rounding"]
    assert [t.value for t in rounding] == [-1] and "only the accumulated bye/absent points" in rounding[0].rule
    assert mms.value == 58
    sosm = terms_by_round(result, "SOSM")[2]
    assert (sosm.source, sosm.value) == ("absent (no opponent)", 58)
    # After R4 the two halves make one point: no rounding term any more.
    mms4 = next(e for e in explain(worked_example(), "C", "MMS", 4).explanations)
    assert not [t for t in mms4.terms if t.source == "rounding"] and mms4.value == 60


def test_handicap_game_shows_the_correction() -> None:
    result = explain(worked_example(), "C", "SOSM", 4)
    r1 = terms_by_round(result, "SOSM")[1]
    assert r1.opponent == "D" and r1.detail["colour"] == "white" and r1.detail["handicap"] == 1
    assert (r1.detail["opponent_value2"], r1.detail["handicap_correction2"], r1.value) == (62, 2, 64)
    result_d = explain(worked_example(), "D", "SOSM", 4)
    assert terms_by_round(result_d, "SOSM")[1].detail["handicap_correction2"] == -2
    data = result.to_dict()
    detail = data["explanations"][0]["terms"][0]["detail"]
    assert (detail["opponent_value"], detail["handicap_correction"], detail["handicap"]) == (31, 1, 1)


def test_dc_tie_names_the_group_and_the_separating_criterion() -> None:
    state = worked_example()
    result = explain(state, "D", "DC", 4, criteria=["NBW", "DC", "SOSW"])
    (dc,) = result.explanations
    assert dc.value == 0
    group_term = dc.terms[-1]
    assert sorted(group_term.detail["group"]) == ["A", "D"] and group_term.detail["tied_on"] == ["NBW"]
    r2 = next(t for t in dc.terms if t.round == 2)
    assert (r2.opponent, r2.source) == ("A", "loss")
    assert result.place.place == 2
    above = result.place.above
    assert above is not None and (above.player_id, above.criterion, above.player_value, above.neighbour_value) == (
        "A", "DC", 0, 1)
    below = result.place.below
    assert below is not None and (below.player_id, below.criterion) == ("E", "NBW")


def test_shared_place_lists_the_tied_players() -> None:
    result = explain(worked_example(), "D", None, 4, criteria=["NBW"])
    assert result.place.place == 1 and result.place.tied_with == ("A",)
    assert result.place.above is None
    assert result.place.below is not None and result.place.below.criterion == "NBW"
    assert "equal on every criterion" in result.place.note


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    path = tmp_path / "worked.db"
    with Ledger.create(path) as db:
        db.append(worked_example_events(), actor="test")
    return path


def test_cli_explain_text_and_json(cli, ledger: Path) -> None:
    out = cli("explain", "C", "--round", "2", "--criterion", "MMS", "--db", ledger)
    assert out.code == 0, out.err
    assert "MMS = 29" in out.out and "absent" in out.out and "MMS absent value of the tournament" in out.out
    assert "Place 4" in out.out
    out = cli("explain", "E", "--round", "4", "--criterion", "SODOSW", "--json", "--db", ledger)
    assert out.code == 0, out.err
    data = json.loads(out.out)
    assert data["explanations"][0]["value"] == 3.75
    terms = {t["round"]: t for t in data["explanations"][0]["terms"]}
    assert terms[3]["source"] == "win by default" and terms[3]["opponent_name"] == "A"
    assert terms[2]["value"] == 0.75  # jigo with B (1½): half of it
    assert data["place"]["place"] == 5 and data["place"]["above"]["criterion"] == "MMS"


def test_cli_explain_refuses_unknown_player_and_criterion(cli, ledger: Path) -> None:
    out = cli("explain", "Nobody", "--db", ledger)
    assert out.code == 1 and "no player matches" in out.err
    out = cli("explain", "A", "--criterion", "XYZ", "--db", ledger)
    assert out.code == 1 and "unknown criterion" in out.err


def test_cli_standings_json_carries_every_requested_value_and_shares_places(cli, ledger: Path) -> None:
    out = cli("standings", "--round", "4", "--criteria", "NBW,DC,SOSW,EXT", "--format", "json", "--db", ledger)
    assert out.code == 0, out.err
    data = json.loads(out.out)
    assert data["criteria"] == ["NBW", "DC", "SOSW", "EXT"]
    assert all(set(row["values"]) == {"NBW", "DC", "SOSW", "EXT"} for row in data["rows"])
    assert [(r["player_id"], r["place"]) for r in data["rows"]] == [("A", 1), ("D", 2), ("E", 3), ("B", 4), ("C", 5)]
    out = cli("standings", "--round", "4", "--criteria", "NBW", "--json", "--db", ledger)
    places = [(r["player_id"], r["place"]) for r in json.loads(out.out)["rows"]]
    assert places == [("A", 1), ("D", 1), ("E", 3), ("B", 4), ("C", 5)]
