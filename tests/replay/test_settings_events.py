"""A tournament's settings are folded from two event types alone (``SETTINGS_EVENTS``), so the
language an output command writes in is read without loading the whole tournament
(:func:`goledger.replay.loading.load.settings_of`, behind ``tournament_language``).

The claim is checked where it could break: random logs with valid and invalid rule changes,
retroactive and from a round, a change before the tournament exists and a second
``TournamentCreated``; the ledgers the CLI writes; and real OpenGotha files when
``../shared`` is present."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.replay.fold.state import SETTINGS_EVENTS, TournamentState, fold
from goledger.replay.loading.load import fresh_state, settings_of
from goledger.replay.scoring.registries import check_registered
from goledger.replay.views import tournament_language

from ..conftest import run_cli
from ..opengotha_files import shared_opengotha_files
from .test_snapshots import START, event, rnd

CHANGES = st.sampled_from([
    {"language": "hu"}, {"language": "tr"}, {"language": "xx"}, {"komi": "7.5"}, {"rounds": 6},
    {"criteria": ["MMS", "SOS"]}, {"criteria": ["MMS", "NOPE"]}, {"policy": "egf"}, {"policy": "nope"},
    {"board_size": 10 ** 20}, {"mm_bar": "2d"}, {"no_such_field": 1},
])
RULES = st.builds(ev.RulesChanged, changes=CHANGES, from_round=st.one_of(st.none(), rnd))
OTHERS = st.sampled_from([ev.TournamentCreated(settings=ev.TournamentSettings(name="again", rounds=2,
                                                                              language="de"))])


def _settings_only(events: list[ev.Event]) -> TournamentState:
    return fold([e for e in events if type(e).__name__ in SETTINGS_EVENTS], check=check_registered)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(event, RULES, RULES, OTHERS), max_size=30), st.booleans())
def test_the_settings_events_alone_fold_to_the_same_settings(tail: list[ev.Event], created_first: bool) -> None:
    events = [*START, *tail] if created_first else [*tail[:3], *START, *tail[3:]]
    whole = fold(events, check=check_registered)
    alone = _settings_only(events)
    assert alone.settings == whole.settings
    assert alone.round_settings == whole.round_settings


def test_the_store_reads_the_events_of_some_types_in_order(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    assert run_cli("new", "--name", "Kupa", "--rounds", "3", "--language", "tr", "--db", db).code == 0
    for name in ("Ada", "Bea"):
        assert run_cli("register", "--surname", name, "--rank", "1k", "--db", db).code == 0
    assert run_cli("change-rules", "language=hu", "--db", db).code == 0
    assert run_cli("change-rules", "komi=0.5", "--db", db).code == 0
    with Ledger.open(db) as ledger:
        picked = ledger.events_of_types(SETTINGS_EVENTS)
        assert [type(e).__name__ for e in picked] == ["TournamentCreated", "RulesChanged", "RulesChanged"]
        assert [e.changes for e in picked[1:]] == [{"language": "hu"}, {"komi": "0.5"}]  # type: ignore[attr-defined]
        assert settings_of(ledger) == fresh_state(ledger).settings
        head = ledger.head().seq
        assert [settings_of(ledger, upto) for upto in range(head + 1)] == [
            fresh_state(ledger, upto).settings for upto in range(head + 1)]
        assert settings_of(ledger, 0) is None
        assert ledger.events_of_types(("PlayerRegistered",)) == [
            e for e in ledger.events() if isinstance(e, ev.PlayerRegistered)]
    assert tournament_language(db) == "hu"
    assert tournament_language(tmp_path / "missing.db") == "en"
    # and through the door: the report is written in the language changed last
    assert run_cli("pair-round", "1", "--db", db).code == 0
    assert run_cli("report", "--html", tmp_path / "r.html", "--db", db).code == 0
    assert '<html lang="hu">' in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_a_file_that_is_no_ledger_leaves_english(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    from goledger.errors import GoledgerError

    with pytest.raises(GoledgerError):
        tournament_language(junk)
    result = run_cli("standings", "--db", junk)
    assert result.code == 1 and "Traceback" not in result.err


def test_real_opengotha_files_agree(shared: Path, tmp_path: Path) -> None:
    every = shared_opengotha_files()
    files = every[:: max(1, len(every) // 12)][:12]
    assert files
    for i, xml in enumerate(files):
        db = tmp_path / f"{i}.db"
        imported = run_cli("import", "opengotha", xml, "--db", db)
        assert imported.code == 0, (xml, imported.err)
        with Ledger.open(db) as ledger:
            assert settings_of(ledger) == fresh_state(ledger).settings, xml
