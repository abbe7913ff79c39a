"""Issue 19, items 8–10: the ``macmahon`` policy agrees with MacMahon 3.10 (an absent player's
SOS term rounded down with HalfScoreGroupsRoundDown), understands MacMahon's own criterion
names, and an OpenGotha export of a MacMahon-ranked ledger maps its criteria."""

from __future__ import annotations

from lxml import etree

from goledger.formats.macmahon.read import read_macmahon
from goledger.formats.opengotha.read import read_opengotha
from goledger.formats.opengotha.write import write_opengotha
from goledger.replay.fold.state import fold
from goledger.replay.scoring.explain import explain
from goledger.replay.scoring.standings import standings
from tests.macmahon_samples import HAND_BUILT

# E (15k, start 20 quarters) gets a +½ ScoreAdjustment: start 22. He is absent in round 2.
E_PLUS_HALF = HAND_BUILT.replace(
    "<ScoreAdjustment>false</ScoreAdjustment>\n    <ScoreAdjustmentValue>0</ScoreAdjustmentValue>\n"
    "    <SuperBarMember>false</SuperBarMember>\n    <NotPlayingInRound>2</NotPlayingInRound>",
    "<ScoreAdjustment>true</ScoreAdjustment>\n    <ScoreAdjustmentValue>2</ScoreAdjustmentValue>\n"
    "    <SuperBarMember>false</SuperBarMember>\n    <NotPlayingInRound>2</NotPlayingInRound>")
ROUND_DOWN = E_PLUS_HALF.replace("<HalfScoreGroupsRoundDown>false", "<HalfScoreGroupsRoundDown>true")


def _terms(text: str, criterion: str) -> dict[int | None, int]:
    state = fold(read_macmahon(text.encode("utf-8"), source="hand.xml").events)
    e = explain(state, "p0005", round=3, policy="macmahon", criterion=criterion).explanations[0]
    assert sum(t.value for t in e.terms) == e.value
    return {t.round: t.value for t in e.terms}


def test_absent_sos_term_is_the_start_score_rounded_down() -> None:
    assert E_PLUS_HALF != HAND_BUILT
    assert _terms(E_PLUS_HALF, "MM-SOS")[2] == 22  # no rounding: the start score itself
    assert _terms(ROUND_DOWN, "MM-SOS")[2] == 20  # HalfScoreGroupsRoundDown: 5½ → 5


def test_absent_sosos_term_is_not_rounded() -> None:
    assert _terms(ROUND_DOWN, "MM-SOSOS")[2] == 22 * 3  # start × R, unrounded


def test_the_rounded_sos_carries_into_the_opponents_sosos() -> None:
    """B met E in round 3: B's SOSOS holds E's SOS, 2 quarters lower with the rounding."""
    def b_term(text: str) -> int:
        state = fold(read_macmahon(text.encode("utf-8"), source="hand.xml").events)
        e = explain(state, "p0002", round=3, policy="macmahon", criterion="MM-SOSOS").explanations[0]
        return next(t.value for t in e.terms if t.round == 3)

    sos = {text: standings(fold(read_macmahon(text.encode("utf-8"), source="h").events), 3, "macmahon",
                           ["MM-SOS"]) for text in (E_PLUS_HALF, ROUND_DOWN)}
    e_sos = {text: next(r.values["MM-SOS"] for r in table.rows if r.player_id == "p0005")
             for text, table in sos.items()}
    assert b_term(ROUND_DOWN) == e_sos[ROUND_DOWN]
    assert b_term(E_PLUS_HALF) == e_sos[E_PLUS_HALF]


def test_macmahon_names_are_aliases_under_the_macmahon_policy() -> None:
    state = fold(read_macmahon(HAND_BUILT.encode("utf-8"), source="hand.xml").events)
    own = standings(state, 3, "macmahon", ["Score", "ScoreX", "Points", "SOS", "SOSOS", "SODOS", "SORP"])
    assert own.criteria == ("MM-Score", "MM-ScoreX", "MM-Points", "MM-SOS", "MM-SOSOS", "MM-SODOS", "MM-SORP")
    prefixed = standings(state, 3, "macmahon", list(own.criteria))
    assert [r.values for r in own.rows] == [r.values for r in prefixed.rows]
    # under another policy "Points" keeps its global meaning (FIDE points) and SOS is unknown
    assert standings(state, 3, "opengotha", ["Points"]).criteria == ("PTS",)
    e = explain(state, "p0001", round=3, policy="macmahon", criterion="sos").explanations[0]
    assert e.criterion == "MM-SOS"


def test_new_with_macmahon_names(tmp_path, cli) -> None:
    db = tmp_path / "mm.db"
    made = cli("new", "--name", "MM", "--rounds", "3", "--policy", "macmahon", "--criteria", "ScoreX,SOS,SOSOS",
               "--db", db, "--json")
    assert made.code == 0, made
    import json

    assert json.loads(cli("standings", "--json", "--db", db).out)["criteria"] == ["MM-ScoreX", "MM-SOS", "MM-SOSOS"]
    out = cli("standings", "--policy", "macmahon", "--criteria", "Score,SODOS", "--json", "--db", db)
    assert out.code == 0 and '"MM-Score"' in out.out and '"MM-SODOS"' in out.out


def test_opengotha_export_maps_macmahon_criteria() -> None:
    state = fold(read_macmahon(HAND_BUILT.encode("utf-8"), source="hand.xml").events)
    assert state.settings.criteria == ("MM-Score", "MM-SOS", "MM-SOSOS")
    data, report = write_opengotha(state)
    root = etree.fromstring(data)
    names = [c.get("name") for c in root.iter("PlacementCriterion")][:6]
    assert names == ["MMS", "SOSM", "SOSOSM", "NULL", "NULL", "NULL"]
    messages = [e.message for e in report.entries]
    assert any(m.startswith("MM-Score written as OpenGotha's MMS: absent") for m in messages)
    assert any(m.startswith("MM-SOS written as OpenGotha's SOSM") for m in messages)
    # OpenGotha reads the criteria back: a McMahon tournament ranked by MMS, SOSM, SOSOSM (a file it
    # saved again has lost goledger's comment lines) ...
    bare = b"\n".join(line for line in data.split(b"\n") if not line.startswith(b"<!-- goledger "))
    assert bare != data
    again = fold(read_opengotha(bare, source="x.xml").events)
    assert again.settings.criteria[:3] == ("MMS", "SOSM", "SOSOSM") and again.settings.system == "mcmahon"
    # ... and goledger reads its own rules back from them (issue 40, item 5)
    carried = fold(read_opengotha(data, source="x.xml").events)
    assert carried.settings.criteria == state.settings.criteria


def test_opengotha_export_drops_sorp_and_does_not_repeat_mms() -> None:
    import msgspec

    state = fold(read_macmahon(HAND_BUILT.encode("utf-8"), source="hand.xml").events)
    settings = msgspec.structs.replace(state.settings, criteria=("MM-Score", "MM-ScoreX", "MM-SORP", "MM-Points"))
    state.settings = settings
    data, report = write_opengotha(state)
    names = [c.get("name") for c in etree.fromstring(data).iter("PlacementCriterion")][:6]
    assert names == ["MMS", "NBW", "NULL", "NULL", "NULL", "NULL"]
    messages = [e.message for e in report.entries]
    assert any("MM-SORP has no OpenGotha counterpart" in m for m in messages)
    assert any("MM-ScoreX written as MMS, already in the list" in m for m in messages)
