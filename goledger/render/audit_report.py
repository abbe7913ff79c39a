"""The audit report: one self-contained HTML file (``goledger report --html FILE``).

The file needs nothing but itself: styles are inline, the chart is inline SVG, there is no
script, no font, no image and no link to anything outside the document (only ``#anchors``).
Every text comes from the ledger and is escaped as it is written, so a player called
``<script>`` stays a name: the page is the template ``audit_report.html`` rendered by the one
environment (:mod:`goledger.render.html`: autoescaped, control and invisible characters shown
as escapes); this module computes what the page shows, as text, and writes no markup. The page
is the same document (DOM and text) as the lxml tree it once was (``tests/report_reference.py``,
compared in ``tests/render/test_report_pages.py``).

Sections: the tournament and the verification of its hash chain; every registered player;
the final standings and the standings after every round; a chart of the places of the top
players by round; the rating preview (EGD GoR 2021, :mod:`goledger.render.rating`); every
published checkpoint, re-checked and compared with the standings as
corrected now; for every withdrawal, reinstatement, correction, player update and rule
change, the diff it caused when it was recorded (``goledger diff --from SEQ-1 --to SEQ``) and
its effect on the final standings (``goledger what-if --without SEQ``); and the full event log
with each event's hash, previous hash and payload.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import getitem
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NamedTuple

import msgspec

from goledger.audit.compare import PlayerChange, Snapshot, changed_columns
from goledger.audit.event_index import EventIndex
from goledger.audit.published import PUBLISHED_LABEL, published_standings, verify_message
from goledger.audit.queries import compare_snapshots, diff_events
from goledger.errors import CommandRejected, GoledgerError
from goledger.i18n import N_, current_language, gettext, pgettext
from goledger.i18n.numbers import date_range, date_time
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger, Record, VerifyReport
from goledger.ledger.values import format_points
from goledger.nogc import nogc
from goledger.outputs import check_output, shown, shown_deep, write_output
from goledger.rating.preview import preview_state
from goledger.render.html import environment, render
from goledger.render.printouts import round_header
from goledger.render.rating import PreviewSection, preview_section
from goledger.replay.fold.state import TournamentState, apply, fold
from goledger.replay.fold.without import PlayerEvents, scoring_state_without
from goledger.replay.scoring.printouts import registration_text
from goledger.replay.scoring.registries import check_registered
from goledger.replay.scoring.rounds import derive_table, note_event, round_table, track, untrack
from goledger.replay.scoring.standings import Ranking, Standings, check_round, ranking, resolve_policy
from goledger.systems import places_of

if TYPE_CHECKING:
    import os

    from markupsafe import Markup

__all__ = ["AUDITED_TYPES", "encoded_parts", "render_report", "report", "standings_page"]

AUDITED_TYPES: Final = ("PlayerWithdrew", "PlayerReinstated", "ResultCorrected", "PlayerUpdated", "RulesChanged")
"""Events whose effect the report shows one by one."""

_PALETTE: Final = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
                   "#7f7f7f", "#bcbd22")




class _PointTexts(dict[int, str]):
    """One scale's values as text (:func:`format_points`), each formatted once, on first use:
    a report's tables repeat a few thousand values some 80,000 times."""

    __slots__ = ("scale",)

    def __init__(self, scale: int) -> None:
        super().__init__()
        self.scale = scale

    def __missing__(self, value: int) -> str:
        text = self[value] = format_points(value, self.scale)
        return text


class _Cells:
    """What the report's standings tables repeat, made once for all of them: each player's
    name and rank cells (``people``: id → the two), and each scale's value texts."""

    def __init__(self, people: Mapping[str, tuple[str, str]]) -> None:
        self.people = people
        self._texts: dict[int, _PointTexts] = {}

    def texts(self, scale: int) -> _PointTexts:
        found = self._texts.get(scale)
        if found is None:
            found = self._texts[scale] = _PointTexts(scale)
        return found


def _cells_of(state: TournamentState) -> _Cells:
    return _Cells({pid: (f"{p.surname} {p.first_name}".strip(), p.rank) for pid, p in state.players.items()})


StandingsRows = list[tuple[str, str, str, str, list[str]]]
"""A standings table's rows as text: place, id, name, rank and each criterion's value."""


def _standings_rows(table: Standings | Ranking, cells: _Cells | None = None) -> StandingsRows:
    """The rows of a standings table (``report_tables.html``'s ``standings_table``). A
    :class:`~goledger.replay.scoring.standings.Ranking` (which the report computes, without the row
    objects of a table to show) takes the players' name and rank ``cells``."""
    criteria = table.criteria
    cells = cells or _Cells({})
    columns = [cells.texts(table.scales[c]) for c in criteria]
    if isinstance(table, Ranking):
        people = cells.people
        return [(str(place), pid, *people[pid], list(map(getitem, columns, values)))
                for place, pid, values in table.placed]
    return [(str(row.place), row.player_id, f"{row.surname} {row.first_name}".strip(), row.rank,
             [texts[row.values[c]] for c, texts in zip(criteria, columns, strict=True)]) for row in table.rows]


class Table(NamedTuple):
    """A standings table of the page: its ``id``, criteria and rows."""

    id: str
    criteria: tuple[str, ...]
    rows: StandingsRows


def _table(table: Standings | Ranking, cells: _Cells, id: str) -> Table:  # noqa: A002
    return Table(id, table.criteria, _standings_rows(table, cells))


def _points(values: dict[str, int] | None, name: str, scales: dict[str, int]) -> str:
    if values is None or name not in values:
        return "–"
    return format_points(values[name], scales[name])


class Changes(NamedTuple):
    """The players whose place or values changed (``report_tables.html``'s ``changes_table``):
    the criteria that changed, and per player place, id, name and those values, each change
    ``old → new``."""

    columns: list[str]
    rows: list[tuple[str, str, str, list[str]]]


def _changes(changes: Sequence[PlayerChange], scales: dict[str, int]) -> Changes:
    """The players whose place or values changed, each change shown ``old → new``."""
    if not changes:
        return Changes([], [])
    columns = changed_columns(changes, list(scales))

    def arrow(old: str, new: str) -> str:
        return new if old == new else f"{old} → {new}"

    rows = []
    for c in changes:
        rows.append((
            arrow(str(c.before.place) if c.before else "–", str(c.after.place) if c.after else "–"),
            c.player_id, f"{c.surname} {c.first_name}".strip(),
            [arrow(_points(c.before.values if c.before else None, n, scales),
                   _points(c.after.values if c.after else None, n, scales)) for n in columns],
        ))
    return Changes(columns, rows)


class Dot(NamedTuple):
    """A player's place after a round in the chart: centre and tooltip."""

    cx: str
    cy: str
    title: str


class Series(NamedTuple):
    """One player's line in the chart: the polylines (a gap where the player was not
    placed), the dots, and the legend's line height and text."""

    pid: str
    colour: str
    lines: list[str]
    dots: list[Dot]
    legend_y: str
    legend_text_y: str
    legend: str


class Chart(NamedTuple):
    """The places chart as the template ``audit_report.html`` draws it (inline SVG): every
    coordinate as text."""

    width: int
    height: int
    left: int
    top: int
    bottom: int
    right: int
    labels: list[tuple[str, str]]
    label_y: int
    ticks: list[tuple[str, str]]
    tick_x: int
    series: list[Series]
    legend_x1: int
    legend_x2: int
    legend_text_x: int


def _places_chart(per_round: dict[int, Ranking], players: Sequence[tuple[str, str]]) -> Chart:
    """One line per player, place (1 on top) against round."""
    rounds = sorted(per_round)
    places: dict[str, dict[int, int]] = {pid: {} for pid, _ in players}
    for r in rounds:
        for place, pid, _ in per_round[r].placed:
            if pid in places:
                places[pid][r] = place
    worst = max([p for d in places.values() for p in d.values()] or [1])
    left, top, plot_w, plot_h, legend_w = 48, 20, 560, 300, 230
    width, height = left + plot_w + legend_w, top + plot_h + 40

    def x(r: int) -> float:
        return left + (plot_w * (r - rounds[0]) / max(1, rounds[-1] - rounds[0]) if len(rounds) > 1 else plot_w / 2)

    def y(place: int) -> float:
        return top + (plot_h * (place - 1) / max(1, worst - 1) if worst > 1 else plot_h / 2)

    labels = [(f"{x(r):.1f}", round_header(r)) for r in rounds]
    ticks = [(f"{y(place) + 4:.1f}", str(place)) for place in sorted({1, worst, *range(5, worst, 5)})]
    series = []
    for number, (pid, name) in enumerate(players):
        points = places[pid]
        segment: list[str] = []
        segments: list[str] = []
        for r in rounds:
            if r in points:
                segment.append(f"{x(r):.1f},{y(points[r]):.1f}")
            elif segment:
                segments.append(" ".join(segment))
                segment = []
        if segment:
            segments.append(" ".join(segment))
        dots = [Dot(f"{x(r):.1f}", f"{y(place):.1f}", gettext("%(name)s: place %(place)d after round %(round)d") % {
                    "name": name, "place": place, "round": r}) for r, place in points.items()]
        ly = top + 14 * number + 6
        final = points.get(rounds[-1])
        series.append(Series(pid, _PALETTE[number % len(_PALETTE)], segments, dots, str(ly), str(ly + 4),
                             f"{final if final is not None else '–'}. {name} ({pid})"))
    return Chart(width, height, left, top, top + plot_h, left + plot_w, labels, top + plot_h + 16, ticks, left - 6,
                 series, left + plot_w + 16, left + plot_w + 34, left + plot_w + 40)


# --------------------------------------------------------------------------- content


class Summary(NamedTuple):
    """The tournament's facts (label, text) and the verification of its hash chain."""

    facts: list[tuple[str, str]]
    verified: bool
    status: str


def _moment(recorded_at: str) -> str:
    """When an event was recorded, as the report's language writes a date and time
    (:func:`~goledger.i18n.numbers.date_time`); English, the language scripts compare, keeps
    the log's ISO form as stored."""
    return recorded_at if current_language() == "en" else date_time(recorded_at)


def _summary(state: TournamentState, verify: VerifyReport, records: Sequence[Record], path: Path) -> Summary:
    s = state.settings
    assert s is not None

    status = (gettext("verified: %(events)d events, chain head %(head)s") % {"events": verify.events,
                                                                             "head": verify.head} if verify.ok
              else gettext("VERIFICATION FAILED: %(problem)s") % {"problem": verify_message(verify)})
    facts = [
        (gettext("Tournament"), s.name), (pgettext("where the tournament is held", "Place"), s.location),
        (gettext("Dates"), date_range(s.begin_date, s.end_date)),
        (gettext("System"), s.system + "".join(f", {k}={v}" for k, v in sorted(s.system_options.items()))),
        (gettext("Rounds"), str(s.rounds)), (gettext("McMahon bar / floor"), f"{s.mm_bar} / {s.mm_floor}"),
        (gettext("Rule policy"), s.policy), (gettext("Criteria"), ", ".join(s.criteria)),
        (gettext("Ledger file"), path.name), (gettext("Events"), str(len(records))),
        (gettext("First / last event"), f"{_moment(records[0].recorded_at)} / {_moment(records[-1].recorded_at)}"
         if records else "–"),
    ]
    return Summary(facts, verify.ok, status)


class SystemPlaces(NamedTuple):
    """The tournament system's own places: heading, a sentence instead of a table (the other
    systems, or a refusal), notes, rows (place, id, name, why), and a bracket's SVG."""

    heading: str
    message: str | None
    notes: tuple[str, ...] = ()
    rows: list[tuple[str, str, str, str]] = []  # noqa: RUF012 (a NamedTuple's default, never changed)
    bracket: Markup | None = None


def _system(state: TournamentState) -> SystemPlaces:
    """The tournament system's own places (knockout, Paramus, match…) with their reasons, and
    its bracket or ladder as inline SVG; for the other systems, a line saying the places are
    the standings below."""

    assert state.settings is not None
    system = state.settings.system
    try:
        places = places_of(state)
    except CommandRejected as exc:
        return SystemPlaces(gettext("System: %(system)s") % {"system": system}, str(exc))
    if places is None:
        return SystemPlaces(gettext("System: %(system)s") % {"system": system},
                            gettext("The places are the standings below."))
    rows = [(pgettext("still in the bracket", "in") if r.active else f"{'=' if r.shared else ''}{r.place}",
             r.player_id, r.name, r.why) for r in places.rows]
    heading = (gettext("System: %(system)s (final)") if places.finished
               else gettext("System: %(system)s (so far)")) % {"system": system}
    bracket = None
    if system in ("knockout", "double-knockout", "paramus"):
        bracket = _bracket(state)
    return SystemPlaces(heading, None, tuple(places.notes), rows, bracket)


def _bracket(state: TournamentState) -> Markup:
    """The bracket's inline SVG (:func:`goledger.render.bracket.bracket_svg`: the template
    ``bracket_svg.html`` of the one renderer, autoescaped)."""
    # the bracket loads late: only a knockout's report draws one
    from goledger.render.bracket import bracket_svg
    from goledger.systems.views import bracket_of

    return bracket_svg(bracket_of(state))


def _players(state: TournamentState) -> list[tuple[str, str, str, str, str, str, str]]:
    rows = []
    for pid, p in state.players.items():
        status = (gettext("withdrew from round %(round)d") % {"round": p.withdrawn_from} if p.withdrawn_from
                  else registration_text(p.status))
        rows.append((pid, p.full_name, p.rank, p.country, p.club, p.egd_pin, status))
    return rows


class Published(NamedTuple):
    """One published checkpoint: its heading and note, and either why its digest is not
    reproduced or the digest and the standings as published versus as corrected now."""

    heading: str
    note: str
    problem: str | None
    digest: str = ""
    versus: str = ""
    changes: Changes = Changes([], [])


def _published(events: Sequence[ev.Event], records: Sequence[Record]) -> list[Published]:
    """Each published checkpoint: its digest re-checked, and as published versus now."""

    found = []
    for record in records:
        if record.type != "Checkpoint":
            continue
        cp = events[record.seq - 1]
        assert isinstance(cp, ev.Checkpoint)
        if cp.label != PUBLISHED_LABEL or cp.round is None:
            continue
        heading = gettext("Round %(round)d as published at event %(seq)d (%(time)s, by %(actor)s)") % {
            "round": cp.round, "seq": record.seq, "time": record.recorded_at,
            "actor": record.actor or gettext("unknown")}
        note = gettext("Note: %(note)s") % {"note": cp.note} if cp.note else ""
        try:
            published_standings(events, cp)
        except GoledgerError as exc:
            found.append(Published(heading, note, exc.message))
            continue
        later = list(records[cp.event_count:])
        change = diff_events(events, later, cp.event_count, None, cp.round, cp.policy or None, cp.criteria,
                             published_view=True)
        found.append(Published(
            heading, note, None,
            gettext("digest %(digest)s reproduced from events 1..%(count)d") % {"digest": cp.digest,
                                                                                "count": cp.event_count},
            gettext("As published versus as corrected now (event %(seq)d):") % {"seq": change.to_seq},
            _changes(change.changes, change.scales)))
    return found


class Audited(NamedTuple):
    """One audited event: what it was, its reason, and the changes it made when it was
    recorded and to the final standings."""

    seq: int
    heading: str
    reason: str
    then: str
    then_changes: Changes
    final: str
    final_changes: Changes


def _audited(events: Sequence[ev.Event], records: Sequence[Record], index: EventIndex, final: Ranking,
             view: View, final_state: TournamentState,
             step: Callable[[int], None] | None = None) -> list[Audited]:
    """Each audited event: the diff when it was recorded and its effect on the final standings.

    One state walks the log forward (its tables derived point to point); the diff when an
    event was recorded compares the standings just before and just after it, after the
    round the log had reached (``goledger diff --from SEQ-1 --to SEQ``). The final standings
    without it come from ``final_state`` with the event's one game or player taken back
    (:func:`goledger.replay.fold.without.scoring_state_without`), else from a refold."""

    found: list[Audited] = []
    final_policy = resolve_policy(final_state, view.policy)
    final_table = round_table(final_state, final_policy, final_state.settings_for_round(max(final.round, 1)),
                              final.round)
    own_events = PlayerEvents(events)
    final_snapshot = Snapshot.of(final)
    before = TournamentState()  # the state after event ``before.seq``, folded forward once
    last: tuple[int, Ranking, Snapshot] | None = None  # (seq, ranking, snapshot) of the latest later side
    track(before)
    try:
        for record in records:
            if record.type not in AUDITED_TYPES:
                continue
            if step is not None:
                step(len(found) + 1)
            seq = record.seq
            for event in events[before.seq:seq - 1]:
                note_event(before, event)
                apply(before, event, check_registered)
            reason = (gettext("Reason: %(reason)s (recorded by %(actor)s)") % {
                "reason": record.reason, "actor": record.actor or gettext("unknown")} if record.reason else "")
            round_before = check_round(before, None)
            if last is not None and last[0] == before.seq and last[1].round == round_before:
                earlier, earlier_snapshot = last[1], last[2]  # the previous audited event's later side
            else:
                earlier = ranking(before, round_before, view.policy, view.criteria)
                earlier_snapshot = Snapshot.of(earlier)
            note_event(before, events[seq - 1])
            apply(before, events[seq - 1], check_registered)
            round_ = check_round(before, None)
            if round_ != earlier.round:  # the event moved the round looked at: both sides at the later one
                earlier = ranking(fold(events[:seq - 1], check=check_registered), round_, view.policy, view.criteria)
                earlier_snapshot = Snapshot.of(earlier)
            later = ranking(before, round_, view.policy, view.criteria)
            later_snapshot = Snapshot.of(later, earlier_snapshot)
            last = (before.seq, later, later_snapshot)
            then = gettext("When recorded — standings after round %(round)d, as of event %(before)d → %(seq)d:") % {
                "round": round_, "before": seq - 1, "seq": seq}
            then_changes = _changes(compare_snapshots(earlier_snapshot, later_snapshot),
                                    {**earlier.scales, **later.scales})
            local = scoring_state_without(final_state, own_events, seq)
            if local is None:
                without = fold([*events[:seq - 1], *events[seq:]], check=check_registered)
            else:
                without, touched, own = local
                derive_table(final_table, without, touched, own)
            hypothetical = ranking(without, final.round, view.policy, view.criteria)
            effect = gettext("Effect on the final standings after round %(round)d (with → without this event):") % {
                "round": final.round}
            found.append(Audited(
                seq, f" {record.type}: {index.describe(seq)}", reason, then, then_changes, effect,
                _changes(compare_snapshots(final_snapshot, Snapshot.of(hypothetical, final_snapshot)),
                         {**final.scales, **hypothetical.scales})))
    finally:
        untrack(before)
    return found


LogRows = list[tuple[str, str, str, str, str, str, str, str, str]]
"""The event log's rows as text: seq, time, actor, type, what it did, reason, previous hash,
hash and payload."""


def _log_rows(records: Sequence[Record], index: EventIndex) -> LogRows:
    describe = index.describe
    return [(str(r.seq), r.recorded_at, r.actor, r.type, describe(r.seq), r.reason, r.prev_hash, r.hash, r.payload)
            for r in records]


class View(NamedTuple):
    """The policy and criteria the report's standings use (``None``: the tournament's)."""

    policy: str | None = None
    criteria: Sequence[str] | None = None


def _rating(state: TournamentState) -> PreviewSection:
    """What the EGD's GoR 2021 would make of the tournament (:mod:`goledger.render.rating`)."""
    return preview_section(preview_state(state))


_NAV: Final = ((N_("Tournament"), "summary"), (N_("Players"), "players"), (N_("System"), "system"),
               (N_("Final standings"), "final"), (N_("Chart"), "chart"), (N_("By round"), "rounds"),
               (N_("Rating"), "rating"), (N_("Published"), "published"), (N_("Audit"), "audit"),
               (N_("Event log"), "log"))
_LOG_HEADERS: Final = (N_("Seq"), N_("Recorded (UTC)"), N_("Actor"), N_("Type"), N_("What"), N_("Reason"),
                       N_("Hash"), N_("Payload"))


_LOG_PART: Final = 1000
"""Rows of the event log the template writes into one string (``log_rows``)."""

def encoded_parts(pieces: Iterable[str]) -> list[bytes]:
    """``pieces`` (a template's :meth:`~jinja2.Template.generate`: the page's small parts and
    its tables and log parts, each written by a macro into one string) as UTF-8, each piece
    encoded on its own: a piece all ASCII is copied as it is, where one string of the page
    would be widened to two bytes a character by the first ``→`` of any piece, then narrowed
    again by the encoder."""
    return [piece.encode("utf-8") for piece in pieces]


@nogc
def _page(state: TournamentState, verify: VerifyReport, records: Sequence[Record], path: Path,
          per_round: dict[int, Ranking], final: Ranking, top: int, index: EventIndex, published: list[Published],
          audited: list[Audited]) -> list[bytes]:
    """The whole page (template ``audit_report.html``) around the published and audit sections
    (computed before, with their replays). The collector is paused
    (:func:`goledger.nogc.nogc`): the tables' rows are hundreds of thousands of short-lived
    objects, none of them garbage in a cycle, and each collection of the old generation would
    walk every object of the folded tournament."""
    assert state.settings is not None
    names = final.names
    leaders = [(pid, f"{names[pid][0]} {names[pid][1]}".strip()) for _, pid, _ in final.placed[: max(0, top)]]
    cells = _cells_of(state)
    last = max(per_round, default=0)
    log = _log_rows(records, index)
    template = environment().get_template("audit_report.html")
    return encoded_parts(template.generate(
        tournament=state.settings.name,
        nav=[(gettext(label), target) for label, target in _NAV],
        summary=_summary(state, verify, records, path),
        players=_players(state),
        system=_system(state),
        final=final, final_table=_table(final, cells, "final-standings"),
        leaders=len(leaders), chart=_places_chart(per_round, leaders) if per_round else None,
        rounds=[(r, _table(table, cells, f"standings-round-{r}"), r == last) for r, table in per_round.items()],
        rating=_rating(state),
        published=published, audited=audited,
        log_headers=[gettext(h) for h in _LOG_HEADERS], log_count=len(records),
        log_parts=[log[start:start + _LOG_PART] for start in range(0, len(log), _LOG_PART)],
    ))


Progress = Callable[[int, int, str], None]
"""``progress(done, total, what)``: how far a long report has come (the CLI draws a bar)."""


def render_report(records: Sequence[Record], events: Sequence[ev.Event], verify: VerifyReport, path: Path,
                  top: int = 10, view: View | None = None,
                  progress: Progress | None = None) -> tuple[list[bytes], dict[str, Any]]:
    """The report's bytes, as the parts that make the page one after the other (written as
    they are, never joined: a congress's report is some 15 MB), and a summary (counts) of what
    it holds; ``progress`` is told of each round's standings and each audited event."""
    view = view or View()
    records, events = _safe_log(records, events)
    state = fold(events, check=check_registered)
    if state.settings is None:
        raise GoledgerError("the ledger has no tournament yet")
    last = state.last_round_with_games()
    audited = sum(1 for r in records if r.type in AUDITED_TYPES)
    total = last + audited + 1
    tell = progress or (lambda done, total, what: None)
    per_round = {}
    for r in range(1, last + 1):
        tell(r - 1, total, f"standings after round {r}")
        per_round[r] = ranking(state, r, view.policy, view.criteria)
    tell(last, total, "audited events")
    final = per_round[last] if last else ranking(state, 0, view.policy, view.criteria)
    index = EventIndex(fold(()), events, {pid: p.full_name for pid, p in state.players.items()})
    published = _published(events, records)
    audit = _audited(events, records, index, final, view, state,
                     lambda n: tell(last + n, total, f"audited event {n} of {audited}"))
    data = _page(state, verify, records, path, per_round, final, top, index, published, audit)
    summary = {"path": str(path), "players": len(state.players), "rounds": last, "events": len(records),
               "audited": len(audit), "published": len(published), "verified": verify.ok}
    return data, summary


def _safe_log(records: Sequence[Record], events: Sequence[ev.Event]) -> tuple[list[Record], list[ev.Event]]:
    """The log with every control or invisible character of its text shown as an escape
    (:func:`goledger.outputs.shown`): an older ledger may hold names that XML cannot carry
    or that would reorder the page (issue 18, point 6). Events whose stored text is plain are
    kept as they are."""

    safe_records: list[Record] = []
    safe_events = list(events)
    for i, record in enumerate(records):
        # JSON escapes C0 controls (\u0001), so the stored text alone cannot tell: look for escapes too
        if (record.payload.isprintable() and record.actor.isprintable() and record.reason.isprintable()
                and "\\u" not in record.payload):
            safe_records.append(record)
            continue
        safe_records.append(msgspec.structs.replace(
            record, payload=shown(record.payload), actor=shown(record.actor), reason=shown(record.reason)))
        if i < len(safe_events):
            event = safe_events[i]
            safe_events[i] = msgspec.convert(shown_deep(msgspec.to_builtins(event)), type(event))
    return safe_records, safe_events


def standings_page(table: Standings, title: str, template: str = "standings_page.html", **context: object) -> bytes:
    """One standings table as a self-contained HTML page (``goledger standings --format html``),
    with the report's inline styles and nothing fetched from outside. Control and invisible
    characters an older ledger's names may hold are shown as escapes. ``template`` may be one
    extending ``standings_page.html`` (a results site's page), given ``context``."""

    table = msgspec.convert(shown_deep(msgspec.to_builtins(table)), Standings)
    return render(template, title=shown(title), table=table, rows=_standings_rows(table), **context).encode("utf-8")


def report(db: str | os.PathLike[str], html: str | os.PathLike[str], top: int = 10, policy: str | None = None,
           criteria: Sequence[str] | None = None, force: bool = False,
           progress: Progress | None = None) -> dict[str, Any]:
    """Write the audit report of ledger ``db`` to ``html`` (created atomically; never over the
    ledger or its companions; over an existing file only with ``force``, see
    :mod:`goledger.outputs`), with the standings under ``policy`` and ``criteria`` (default:
    the tournament's); ``progress`` as in :func:`render_report`."""

    target = check_output(html, [db], force=force, what="report")
    with Ledger.open(db) as ledger:
        verify, records, events = ledger.read_verified()
    data, summary = render_report(records, events, verify, Path(db), top, View(policy, criteria), progress)
    summary["path"] = str(target)
    write_output(data, target, [db], force=force, what="report")
    return summary
