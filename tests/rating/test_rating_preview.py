"""The rating preview (issue 21): the EGD's GoR 2021 check values of spec ``egd.md`` §11, the
preview's rules and options, properties, and the command line."""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goledger.errors import CommandRejected
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.ledger.values import Result
from goledger.rating import gor
from goledger.rating.gor import D, Sa, shown
from goledger.rating.preview import GorOptions, PlayerPreview, parse_options, preview_state
from goledger.replay.fold.state import TournamentState, fold

# --------------------------------------------------------------------------- §11 check values


def test_check_value_even_game_between_two_first_dans() -> None:
    """(1) 2100 beats 2100, even, class A: Δ +9.306246 (2109.306)."""
    delta = gor.change(D(2100), D(2100), Sa.WIN)
    assert abs(delta - Decimal("9.306246")) < Decimal("0.0000005")
    assert shown(D(2100) + delta) == "2109.306"


def test_check_values_of_the_two_real_egd_games_of_t191116b() -> None:
    """(2) even: White 1406.791 loses to Black 1072.993 → −25.373 / +38.864; (3) 3 stones:
    White 600.000 beats Black 39.888 → +24.739 / −22.052 (the EGD's own numbers, to 0.001)."""
    assert shown(gor.change(D("1406.791"), D("1072.993"), Sa.LOSS)) == "-25.373"
    assert shown(gor.change(D("1072.993"), D("1406.791"), Sa.WIN, black=True)) == "38.864"
    assert shown(gor.change(D("600.000"), D("39.888"), Sa.WIN, handicap=3)) == "24.739"
    assert shown(gor.change(D("39.888"), D("600.000"), Sa.LOSS, handicap=3, black=True)) == "-22.052"


def test_check_value_one_stone() -> None:
    """(4) H = 1: Black 1950 beats White 2000 → Se = 0.5, Black +11.490939, White −9.236867."""
    assert gor.expected(D(1950), D(2000), handicap=1, black=True) == Decimal("0.5")
    black = gor.change(D(1950), D(2000), Sa.WIN, handicap=1, black=True)
    white = gor.change(D(2000), D(1950), Sa.LOSS, handicap=1)
    assert abs(black - Decimal("11.490939")) < Decimal("0.0000005")
    assert abs(white - Decimal("-9.236867")) < Decimal("0.0000005")


def test_a_handicap_past_the_pole_gives_the_limit_and_a_win_never_lowers_a_rating() -> None:
    """Found by the property test below: a 25k rated 2796 who receives nine stones (adjusted
    3646, past the pole 3300) beat a 1k and lost 0.0000097 points. ``Se`` is now the limit."""
    winner = gor.change(D(2796), D(2000), Sa.WIN, handicap=9, black=True)
    assert winner == gor.bonus(D(2796)) and winner >= 0
    loser = gor.change(D(2000), D(2796), Sa.LOSS, handicap=9, black=False)
    assert loser == gor.bonus(D(2000))  # expected to lose, so only the bonus moves him
    at_pole = gor.expected(D(2450), D(2000), handicap=9, black=True)  # adjusted exactly 3300
    assert at_pole == 1


def test_the_precision_is_forty_digits_and_no_float_gets_in() -> None:
    assert gor.PRECISION == 40
    assert len(gor.con(D(2100)).as_tuple().digits) == 40
    with pytest.raises(TypeError):
        D(2100.0)  # type: ignore[arg-type]


def test_the_caller_s_decimal_context_does_not_matter() -> None:
    """Every operation runs in the GoR context, not the thread's (a caller's precision of 5
    digits changes nothing)."""
    import decimal

    exact = gor.change(D("1406.791"), D("1072.993"), Sa.LOSS, handicap=2)
    with decimal.localcontext() as ctx:
        ctx.prec = 5
        assert gor.change(D("1406.791"), D("1072.993"), Sa.LOSS, handicap=2) == exact
        state = _state([("a", "1d", 2100), ("b", "1d", 2100)], [(1, "a", "b", 0, Result.WHITE, False)])
        first = preview_state(state).players[0]
        assert (shown(first.change), shown(first.rating_after)) == ("9.306", "2109.306")


# --------------------------------------------------------------------------- tournaments


def _state(players: Sequence[tuple[str, str, int | None]], games: Sequence[tuple[int, str, str, int, Result, bool]],
           byes: Sequence[tuple[int, str]] = (), **settings: Any) -> TournamentState:
    rounds = max([g[0] for g in games] + [b[0] for b in byes] + [1])
    events: list[ev.Event] = [ev.TournamentCreated(settings=ev.TournamentSettings(
        name="Cup", rounds=rounds, **settings))]
    for pid, rank, rating in players:
        events.append(ev.PlayerRegistered(player_id=pid, surname=pid.upper(), rank=rank, rating=rating))
    tables: dict[int, int] = {}
    for rnd, white, black, handicap, result, forfeit in games:
        table = tables[rnd] = tables.get(rnd, 0) + 1
        events.append(ev.GamePaired(round=rnd, table=table, white=white, black=black, handicap=handicap))
        if result is not Result.UNKNOWN:
            events.append(ev.ResultRecorded(round=rnd, table=table, result=result, by_default=forfeit))
    for rnd, pid in byes:
        events.append(ev.ByeAssigned(round=rnd, player_id=pid))
    return fold(events)


def _close(a: Decimal, b: Decimal) -> bool:
    """Equal to 24 decimals (the preview computes with 40 significant digits, this test's
    own arithmetic with the default 28)."""
    return abs(a - b) < Decimal("1e-24")


def _by_id(state: TournamentState, **kw: Any) -> dict[str, PlayerPreview]:
    return {p.id: p for p in preview_state(state, **kw).players}


def test_three_games_are_evaluated_from_the_start_rating_and_summed() -> None:
    """(5) a 1766 player beats 1824, loses to 1900, beats 1700: +16.102153 −7.656533
    +12.450218 = +20.895838 (1786.895838; game-by-game updating would give 1786.225414)."""
    state = _state([("x", "3k", 1766), ("a", "2k", 1824), ("b", "2k", 1900), ("c", "3k", 1700)],
                   [(1, "x", "a", 0, Result.WHITE, False), (2, "b", "x", 0, Result.WHITE, False),
                    (3, "x", "c", 0, Result.WHITE, False)])
    x = _by_id(state)["x"]
    changes = [g.change for g in x.games if g.change is not None]
    expected = ["16.102153", "-7.656533", "12.450218"]
    assert [str(c.quantize(Decimal("0.000001"))) for c in changes] == expected
    assert str(x.rating_after.quantize(Decimal("0.000001"))) == "1786.895838"
    assert shown(x.change) == "20.896"


def test_class_weight_multiplies_the_change_or_con_only() -> None:
    state = _state([("a", "1d", 2100), ("b", "1d", 2100)], [(1, "a", "b", 0, Result.WHITE, False)])
    full = gor.change(D(2100), D(2100), Sa.WIN)
    assert _close(_by_id(state, egd_class="B")["a"].change, full * Decimal("0.75"))
    con_only = _by_id(state, egd_class="C", options=GorOptions(weight_on="con"))["a"]
    assert _close(con_only.change, gor.con(D(2100)) * Decimal("0.25") + gor.bonus(D(2100)))
    preview = preview_state(state, "b")
    assert (preview.egd_class, preview.class_source, preview.weight) == ("B", "given", Decimal("0.75"))


def test_loss_cap_and_rounding_options() -> None:
    games = [(r, "a", f"o{r}", 0, Result.BLACK, False) for r in range(1, 7)]
    state = _state([("a", "11k", 1000)] + [(f"o{r}", "25k", -400) for r in range(1, 7)], games)
    uncapped = _by_id(state)["a"].change
    assert uncapped < -100
    assert _by_id(state, options=GorOptions(loss_cap=100))["a"].change == -100
    per_game = _by_id(state, options=GorOptions(rounding="game"))["a"]
    assert all(g.change is not None and g.change == g.change.quantize(Decimal("0.001")) for g in per_game.games)


def test_new_players_start_from_their_grade_and_far_ratings_are_flagged() -> None:
    state = _state([("new", "3k", None), ("pro", "2p", None), ("odd", "1d", 1850), ("ok", "1d", 2010)],
                   [(1, "new", "odd", 0, Result.WHITE, False), (1, "pro", "ok", 0, Result.WHITE, False)])
    got = _by_id(state)
    assert (got["new"].rating_before, got["new"].start) == (1800, "grade")
    assert got["pro"].rating_before == 2730
    assert got["odd"].flags and "more than a grade from 1d (2100)" in got["odd"].flags[0]
    assert not got["ok"].flags and not got["new"].flags


def test_grade_reset_option() -> None:
    state = _state([("up", "1d", 1750), ("o", "1d", 2100), ("dan", "5d", 2150)],
                   [(1, "up", "o", 0, Result.WHITE, False)])
    assert _by_id(state)["up"].rating_before == 1750
    reset = _by_id(state, options=GorOptions(grade_reset=True))
    assert (reset["up"].rating_before, reset["up"].start) == (2100, "reset")
    assert reset["dan"].rating_before == 2150  # not beyond 1d


def test_games_the_egd_does_not_rate_are_listed_with_the_reason() -> None:
    state = _state([(p, "5k", 1600) for p in "abcdefgh"],
                   [(1, "a", "b", 0, Result.WHITE, True), (1, "c", "d", 0, Result.UNKNOWN, False),
                    (1, "e", "f", 0, Result.BOTH_LOSE, False), (2, "a", "c", 0, Result.JIGO, False)],
                   byes=[(1, "g")])
    got = _by_id(state)
    reasons = {pid: [g.reason for g in p.games] for pid, p in got.items()}
    assert reasons["a"] == ["forfeit (by default)", ""] and reasons["b"] == ["forfeit (by default)"]
    assert reasons["d"] == ["no result"] and reasons["e"][0].startswith("both-lose")
    assert reasons["g"] == ["bye: no game"] and reasons["h"] == []
    assert got["b"].change == 0 and got["h"].change == 0
    assert got["a"].games[1].result == "jigo" and _close(got["a"].change, gor.bonus(D(1600)))


def test_games_below_the_time_limit_and_without_a_class() -> None:
    fast = ev.TimeSettings(basic_minutes=20, system="sudden-death")
    state = _state([("a", "5k", 1600), ("b", "5k", 1600)], [(1, "a", "b", 0, Result.WHITE, False)], time=fast)
    no_class = _by_id(state)["a"]
    assert no_class.games[0].reason.startswith("the time settings meet no EGF class")
    given_c = _by_id(state, egd_class="C")["a"]
    assert given_c.games[0].reason == "below the time limit: adjusted time 20 min, under 30"
    with pytest.raises(CommandRejected, match="--class must be A, B, C or D"):
        preview_state(state, "E")


def test_options_are_refused_clearly() -> None:
    with pytest.raises(CommandRejected, match="no option 'cap'"):
        parse_options({"cap": "100"})
    with pytest.raises(CommandRejected, match="loss_cap must be"):
        parse_options({"loss_cap": "lots"})
    with pytest.raises(CommandRejected, match="bad gor-2021 option"):
        parse_options({"weight_on": "everything"})


# --------------------------------------------------------------------------- properties

_RANKS = ["25k", "15k", "8k", "3k", "1k", "1d", "3d", "6d"]


@st.composite
def _tournaments(draw: st.DrawFn) -> TournamentState:
    n = draw(st.integers(2, 8))
    players = [(f"p{i}", draw(st.sampled_from(_RANKS)),
                draw(st.one_of(st.none(), st.integers(-900, 2800)))) for i in range(n)]
    games = []
    for rnd in range(1, draw(st.integers(1, 4)) + 1):
        order = draw(st.permutations([p[0] for p in players]))
        for w, b in zip(order[0::2], order[1::2], strict=False):
            games.append((rnd, w, b, draw(st.integers(0, 9)),
                          draw(st.sampled_from([Result.WHITE, Result.BLACK, Result.JIGO, Result.UNKNOWN])),
                          draw(st.booleans())))
    return _state(players, games)


@settings(max_examples=60, deadline=None)
@given(_tournaments())
def test_ratings_never_go_below_the_floor_and_a_win_never_lowers_one(state: TournamentState) -> None:
    for p in preview_state(state).players:
        assert p.rating_after >= -900
        for g in p.games:
            if g.rated and g.result == "win":
                assert g.change is not None and g.change >= 0
        if all(g.result == "win" for g in p.games if g.rated):
            assert p.rating_after >= p.rating_before


@settings(max_examples=30, deadline=None)
@given(_tournaments())
def test_a_tournament_without_rated_games_changes_nothing(state: TournamentState) -> None:
    unrated = msgspec_replace_results(state)
    for p in preview_state(unrated).players:
        assert not any(g.rated for g in p.games)
        assert p.change == 0 and p.rating_after == p.rating_before


def msgspec_replace_results(state: TournamentState) -> TournamentState:
    """The same tournament with every game a forfeit or without result."""
    for games in state.games.values():
        for g in games.values():
            g.by_default = g.result is not Result.UNKNOWN
    return state


# --------------------------------------------------------------------------- command line


def _ledger(path: Path) -> Path:
    state_events: list[ev.Event] = [
        ev.TournamentCreated(settings=ev.TournamentSettings(name="Cup", rounds=2)),
        ev.PlayerRegistered(player_id="a", surname="Ash", first_name="Ann", rank="1d", rating=2100, egd_pin="111"),
        ev.PlayerRegistered(player_id="b", surname="Birch", rank="1d", rating=2100),
        ev.PlayerRegistered(player_id="c", surname="Cole", rank="3k", rating=1500),
        ev.GamePaired(round=1, table=1, white="a", black="b"),
        ev.ResultRecorded(round=1, table=1, result=Result.WHITE),
        ev.ByeAssigned(round=1, player_id="c"),
    ]
    Ledger.create_complete(path, state_events, actor="test")
    return path


def test_the_command_line(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    db = _ledger(tmp_path / "t.db")
    out = cli("rating-preview", "--db", db, "--json", "--option", "loss_cap=100")
    assert out.code == 0, out.err
    data = json.loads(out.out)
    assert data["system"] == "gor-2021" and data["options"]["loss_cap"] == 100 and data["class"] == "A"
    ash = next(p for p in data["players"] if p["id"] == "a")
    assert (ash["rating_before"], ash["change"], ash["rating_after"]) == ("2100.000", "9.306", "2109.306")
    assert ash["games"][0] == {"round": 1, "opponent": "b", "colour": "white", "handicap": 0, "result": "win",
                               "rated": True, "opponent_rating": "2100.000", "expected": "0.500",
                               "con": "17.581", "bonus": "0.516", "change": "9.306"}
    cole = next(p for p in data["players"] if p["id"] == "c")
    assert cole["games"] == [{"round": 1, "opponent": None, "colour": None, "handicap": 0, "result": "bye",
                              "rated": False, "reason": "bye: no game"}] and cole["flags"]
    table = cli("rating-preview", "--db", db, "--class", "B")
    assert table.code == 0 and "class B (given, weight 0.75)" in table.out
    assert "not rated: bye: no game (1)" in table.out
    csv_out = cli("rating-preview", "--db", db, "--format", "csv")
    assert csv_out.out.splitlines()[1].startswith("a,Ash,Ann,1d,111,2100.000,ledger,1,+9.306,2109.306")
    html = cli("rating-preview", "--db", db, "--format", "html")
    assert html.code == 0 and 'id="rating-preview"' in html.out
    bad = cli("rating-preview", "--db", db, "--class", "Z")
    assert bad.code == 1 and bad.err.strip() == "error: --class must be A, B, C or D, not 'Z'"


def test_export_egd_with_preview_lists_each_players_expected_change(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    db = _ledger(tmp_path / "t.db")
    out = cli("export", "egd", "--db", db, "-o", tmp_path / "t.h9", "--with-preview", "--report", tmp_path / "r.json")
    assert out.code == 0, out.err
    entries = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["entries"]
    previews = {e["where"]: e["message"] for e in entries if e["kind"] == "rating-preview"}
    assert previews == {"a": "Ash Ann: GoR 2100.000 → 2109.306 (+9.306, 1 rated games, class A)",
                        "b": "Birch: GoR 2100.000 → 2091.725 (-8.275, 1 rated games, class A)",
                        "c": "Cole: GoR 1500.000 → 1500.000 (+0.000, 0 rated games, class A)"}
    assert [e["where"] for e in entries if e["kind"] == "rating-grade"] == ["c"]
    plain = cli("export", "egd", "--db", db, "-o", tmp_path / "u.h9", "--report", tmp_path / "u.json")
    assert plain.code == 0
    assert not [e for e in json.loads((tmp_path / "u.json").read_text(encoding="utf-8"))["entries"]
                if e["kind"].startswith("rating")]
    assert (tmp_path / "t.h9").read_bytes() == (tmp_path / "u.h9").read_bytes()


def test_the_audit_report_has_a_rating_section(tmp_path: Path) -> None:
    from goledger.render.audit_report import report

    db = _ledger(tmp_path / "t.db")
    report(db, tmp_path / "r.html")
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert 'id="rating"' in html and 'href="#rating"' in html
    assert "<td>a</td><td>Ash</td><td>Ann</td>" in html and "2109.306" in html


# --------------------------------------------------------------------------- mge (seed mge-rating.json)

_MGE_TABLE = ((-101, "0.8"), (-1, "0.6"), (0, "0.5"), (100, "0.4"), (100000, "0.2"))
"""A game-point table for the tests only: MGE's own is not in the seed."""


def _mge(**kw: Any) -> Any:
    from goledger.rating.mge import MgeParameters

    base: dict[str, Any] = {"lower_limits": {"1d": 1900, "2d": 1970, "3d": 2040, "5k": 1500},
                            "game_points": _MGE_TABLE, "constant": 20}
    return MgeParameters(**{**base, **kw})


def test_mge_rates_the_seed_example_on_the_equalised_difference() -> None:
    """The seed: a 1 dan rated 1910 receives 2 stones from a 3 dan rated 2020; the equalised
    difference is 30 points in favour of the 1 dan, so the 3 dan wins as the underdog."""
    from goledger.rating.mge import mge_preview

    state = _state([("strong", "3d", 2020), ("weak", "1d", 1910)], [(1, "strong", "weak", 2, Result.WHITE, False)])
    got = {p.id: p for p in mge_preview(state, _mge()).players}
    assert got["strong"].games[0].advantage == -30 and got["weak"].games[0].advantage == 30
    assert (got["strong"].games[0].points, got["weak"].games[0].points) == (Fraction(3, 5), Fraction(-3, 5))
    assert (got["strong"].rating_after, got["weak"].rating_after) == (2020 + 12, 1910 - 12)


def test_mge_splits_long_tournaments_and_later_parts_start_from_earlier_results() -> None:
    from goledger.rating.mge import mge_preview

    params = _mge(constant=100)  # 100 × 4 rounds > 300: parts of 3 rounds
    assert [list(p) for p in params.parts(4)] == [[1, 2, 3], [4]]
    games = [(r, "a", "b", 0, Result.WHITE, False) for r in range(1, 5)]
    got = {p.id: p for p in mge_preview(_state([("a", "5k", 1500), ("b", "5k", 1500)], games), params).players}
    # part 1: three even wins at advantage 0 (½ each, × 100 = 150); part 2 from 1650 v 1350: advantage 300
    assert got["a"].after_parts == (1650, 1670) and got["b"].after_parts == (1350, 1330)
    assert got["a"].games[3].advantage == 300 and got["a"].games[3].part == 2


def test_mge_unrated_players_start_from_the_lower_limit_and_bad_parameters_are_refused(tmp_path: Path) -> None:
    from goledger.rating.mge import load_parameters, mge_preview

    state = _state([("u", "2d", None), ("r", "2d", 2000)], [(1, "u", "r", 0, Result.JIGO, False)])
    u = next(p for p in mge_preview(state, _mge()).players if p.id == "u")
    assert (u.rating_before, u.start, u.games[0].rated) == (1970, "lower limit", False)
    with pytest.raises(CommandRejected, match="no lower limit for 9k"):
        mge_preview(_state([("x", "9k", None)], []), _mge())
    with pytest.raises(CommandRejected, match="½ at equal equalised rating"):
        _mge(game_points=((0, "0.4"), (10, "0.3")))
    bad = tmp_path / "bad.json"
    bad.write_text('{"constant": 20}', encoding="utf-8")
    with pytest.raises(CommandRejected, match="bad mge parameters"):
        load_parameters(bad)


def test_mge_through_the_command_line(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    db = _ledger(tmp_path / "t.db")
    params = tmp_path / "mge.json"
    params.write_text(json.dumps({"lower_limits": {"1d": 1900, "3k": 1600}, "game_points": _MGE_TABLE,
                                  "constant": 20}), encoding="utf-8")
    out = cli("rating-preview", "--db", db, "--system", "mge", "--parameters", params, "--json")
    assert out.code == 0, out.err
    data = json.loads(out.out)
    ash = next(p for p in data["players"] if p["id"] == "a")
    assert data["system"] == "mge" and (ash["rating_after"], ash["games"][0]["points"]) == (2110, "0.5")
    missing = cli("rating-preview", "--db", db, "--system", "mge")
    assert missing.code == 1 and "needs --parameters FILE" in missing.err
    table = cli("rating-preview", "--db", db, "--system", "mge", "--parameters", params)
    assert table.code == 0 and table.out.startswith("mge: constant 20")


def test_con_is_correctly_rounded() -> None:
    """``con`` (an exact fifth root) equals ``x ^ 1.6`` computed with 60 digits and rounded to
    the 40 of the GoR context, over the whole scale and at its ends."""
    import decimal

    wide = decimal.Context(prec=60)
    ratings = [D(r) for r in range(-900, 3300, 7)] + [D("3299.999"), D("-900"), D("1406.791"), D("2099.5")]
    for rating in ratings:
        x = wide.divide(wide.subtract(gor.CEILING, rating), D(200))
        reference = gor.context().plus(wide.exp(wide.multiply(D("1.6"), wide.ln(x))))
        assert gor.con(rating) == reference, rating
    assert gor.con(D(3100)) == 1  # exact: (200 / 200) ^ 1.6
    assert gor.con(D(3300 - 200 * 32)) == 256  # exact: 32 ^ 1.6 = 2 ^ 8
    with pytest.raises(ValueError):
        gor.con(D(3300))
