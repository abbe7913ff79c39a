"""Events: stable tags, canonical bytes, decoding every type, the upcasting hook (DESIGN §3)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from goledger.ledger import events as ev
from goledger.ledger.values import Result

SAMPLES: list[ev.Event] = [
    ev.TournamentCreated(settings=ev.TournamentSettings(name="Cup", rounds=5, criteria=("MMS", "SOSM"))),
    ev.RulesChanged(changes={"mms2_absent": 0}, from_round=3),
    ev.PlayerRegistered(player_id="p0001", surname="Kırçа", first_name="İlker", rank="3d", rating=2250,
                        ids={"ffg_licence": "1800014"}, extras={"opengotha.userName": ""}),
    ev.PlayerUpdated(player_id="p0001", changes={"club": "Ank"}),
    ev.PlayerWithdrew(player_id="p0001", from_round=4, reason="ill"),
    ev.PlayerReinstated(player_id="p0001", from_round=5),
    ev.PlayerUnregistered(player_id="p0001", reason="registered by mistake"),
    ev.ParticipationChanged(player_id="p0001", round=2, participating=False, points2=1),
    ev.ByeAssigned(round=1, player_id="p0001"),
    ev.ByeRemoved(round=1, player_id="p0001"),
    ev.GamePaired(round=1, table=1, white="p0001", black="p0002", handicap=3, komi="0.5", color_known=False),
    ev.GameEdited(round=1, table=1, swap_colours=True, forced=True),
    ev.GameMoved(round=1, table=1, to_table=5),
    ev.TablesRenumbered(round=1, tables=((1, 25), (2, 26)), order="kept"),
    ev.PairingRemoved(round=1, table=1),
    ev.ResultRecorded(round=1, table=1, result=Result.BOTH_LOSE, by_default=True),
    ev.ResultCorrected(round=1, table=1, result=Result.JIGO, reason="scoring error"),
    ev.ResultClaimed(round=1, table=1, player_id="p0002", opponent="p0001", outcome="won", margin="R"),
    ev.PairingAnnotated(round=1, table=3, result_points=2, extras={"macmahon.BoardNumberFixed": "true"}),
    ev.PairingAnnotated(round=2, table=7, bye="p0001", extras={"macmahon.ForcedPairing": "false"}),
    ev.PairingConstraintSet(player_a="p0001", player_b="p0002", constraint="forbidden"),
    ev.PairingConstraintSet(player_a="p0001", player_b="p0003", constraint="forbidden", until_round=3),
    ev.PairingFixed(round=2, player_a="p0001", player_b="p0002", table=1),
    ev.TableFixed(player_id="p0001", table=4, from_round=2),
    ev.RoundPaired(round=2, engine="egf", version="1", parameters={"seeding": "fold"}, seed=7,
                   players=("p0001", "p0002", "p0003"), chunks=(3,), total_weight="123456789012345678901",
                   tables=(1,), bye="p0003", bye_candidates=(("p0003", 12), ("p0002", 40)), bye_rule="lowest"),
    ev.RoundUnpaired(round=2, reason="wrong results entered"),
    ev.RoundShown(round=2),
    ev.CheckedIn(player_id="p0001", round=2),
    ev.StandingsFrozen(reason="prize giving"),
    ev.StandingsUnfrozen(reason="appeal upheld"),
    ev.TeamRegistered(team_id="t01", name="Lions", number=1),
    ev.TeamMemberAssigned(team_id="t01", player_id="p0001", board=1, round=2),
    ev.TeamMemberRemoved(team_id="t01", player_id="p0001", from_round=3),
    ev.TeamRemoved(team_id="t01", reason="entered twice"),
    ev.UnitFormed(unit_id="u001", name="Ito/Sato", members=("p0002", "p0001"), sexes=("F", "M")),
    ev.UnitDissolved(unit_id="u001", reason="formed by mistake"),
    ev.SourceImported(format="opengotha", filename="x.xml", sha256="0" * 64, summary={"games": 3}),
    ev.Checkpoint(label="published", round=2, event_count=14, head="ab" * 32, digest="cd" * 32),
    ev.PseudonymisedCopy(original_head="ef" * 32, original_events=14, key_check="0" * 16,
                         hidden=(ev.HiddenEvent(seq=2, original_hash="12" * 32, fields=("surname",)),)),
]


def test_every_event_type_has_a_sample() -> None:
    assert {type(e) for e in SAMPLES} == set(ev.EVENT_TYPES)


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: e.type_name())
def test_round_trip_through_canonical_bytes(event: ev.Event) -> None:
    raw = ev.canonical_bytes(event)
    assert ev.decode_event(event.type_name(), type(event).schema_version, raw) == event
    assert ev.event_from_json(raw) == event
    # canonical: sorted keys, compact, and stable when re-encoded
    obj = msgspec.json.decode(raw)
    assert list(obj) == sorted(obj)
    assert ev.canonical_bytes(ev.event_from_json(raw)) == raw
    assert b": " not in raw and b", " not in raw


def test_tags_are_stable_names_not_module_paths() -> None:
    for t in ev.EVENT_TYPES:
        assert t.type_name() == t.__name__
        assert "." not in t.type_name()


def test_no_floats_in_events() -> None:
    with pytest.raises(msgspec.ValidationError):
        ev.event_from_json(b'{"type":"ByeAssigned","round":1.5,"player_id":"p1"}')


def test_unknown_fields_and_types_are_refused() -> None:
    with pytest.raises(msgspec.ValidationError):
        ev.event_from_json(b'{"type":"ByeRemoved","round":1,"player_id":"p1","extra":1}')
    with pytest.raises(ValueError, match="unknown event type"):
        ev.decode_event("Teleported", 1, b"{}")


def test_upcaster_brings_old_payloads_up_to_date(monkeypatch: pytest.MonkeyPatch) -> None:
    # Pretend ByeAssigned is at schema 2 and version 1 spelled the player "player".
    monkeypatch.setattr(ev.ByeAssigned, "schema_version", 2)

    @ev.register_upcaster("ByeAssigned", 1)
    def rename(data: dict[str, Any]) -> dict[str, Any]:
        data["player_id"] = data.pop("player")
        return data

    try:
        old = b'{"type":"ByeAssigned","round":3,"player":"p0009"}'
        assert ev.decode_event("ByeAssigned", 1, old) == ev.ByeAssigned(round=3, player_id="p0009")
        with pytest.raises(ValueError, match="newer than this goledger knows"):
            ev.decode_event("ByeAssigned", 3, old)
    finally:
        ev._UPCASTERS.pop(("ByeAssigned", 1), None)
