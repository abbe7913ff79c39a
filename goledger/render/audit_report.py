"""The audit report: one self-contained HTML file (``goledger report --html FILE``).

The file needs nothing but itself: styles are inline, the chart is inline SVG, there is no
script, no font, no image and no link to anything outside the document (only ``#anchors``).
Every text comes from the ledger and is escaped as it is written, so a player called
``<script>`` stays a name: the page is written as text by :mod:`goledger.render.html_text`,
whose functions are the only makers of markup (:data:`~goledger.render.html_text.Html`, which
mypy keeps apart from plain strings) and escape every text and attribute value they are given,
byte for byte as lxml's HTML serializer did when the page was an lxml tree
(``tests/render/test_html_text.py`` holds the two against each other). The one part drawn as a tree
elsewhere, a bracket's SVG (:mod:`goledger.render.bracket`), still goes through lxml's
serializer.

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

import os
from collections.abc import Callable, Mapping, Sequence
from operator import getitem
from pathlib import Path
from typing import Any, Final, NamedTuple

import msgspec

from goledger.audit.compare import PlayerChange, changed_columns
from goledger.audit.event_index import EventIndex
from goledger.errors import GoledgerError
from goledger.i18n import N_, current_language, gettext, ngettext, pgettext
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger, Record, VerifyReport
from goledger.ledger.values import format_points
from goledger.nogc import nogc
from goledger.rating.preview import preview_state
from goledger.render.html_text import (
    Encoded,
    Html,
    anchor,
    attribute_value,
    element,
    encoded_rows,
    escape,
    from_tree,
    join,
    page_bytes,
    page_chunks,
    text,
    text_element,
)
from goledger.render.html_text import table as html_table
from goledger.render.printouts import round_header
from goledger.render.rating import preview_section
from goledger.render.report_style import REPORT_STYLE
from goledger.replay.fold.state import TournamentState, apply, fold
from goledger.replay.scoring.printouts import registration_text
from goledger.replay.scoring.registries import check_registered
from goledger.replay.scoring.standings import Ranking, Standings, ranking

__all__ = ["AUDITED_TYPES", "render_report", "report", "standings_page"]

AUDITED_TYPES: Final = ("PlayerWithdrew", "PlayerReinstated", "ResultCorrected", "PlayerUpdated", "RulesChanged")
"""Events whose effect the report shows one by one."""

_PALETTE: Final = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
                   "#7f7f7f", "#bcbd22")


# --------------------------------------------------------------------------- helpers


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]], numeric: set[int] | None = None,
           **attrs: str) -> Html:
    """A table of ``rows`` (each cell shown with ``str``) under ``headers``; the columns in
    ``numeric`` right-aligned."""
    return html_table(headers, [[str(cell) for cell in row] for row in rows], numeric or (), attrs)


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


def _standings_table(table: Standings | Ranking, cells: _Cells | None = None, **attrs: str) -> Html:
    """A standings table: place, id, name, rank and each criterion's value. A
    :class:`~goledger.replay.scoring.standings.Ranking` (which the report computes, without the row
    objects of a table to show) takes the players' name and rank ``cells``."""
    criteria = table.criteria
    cells = cells or _Cells({})
    columns = [cells.texts(table.scales[c]) for c in criteria]
    if isinstance(table, Ranking):
        people = cells.people
        rows = [[str(place), pid, *people[pid], *map(getitem, columns, values)] for place, pid, values in table.placed]
    else:
        rows = [
            [str(row.place), row.player_id, f"{row.surname} {row.first_name}".strip(), row.rank,
             *[texts[row.values[c]] for c, texts in zip(criteria, columns, strict=True)]]
            for row in table.rows
        ]
    return html_table([gettext("Place"), gettext("Id"), gettext("Name"), gettext("Rank"), *criteria], rows,
                      {0, *range(4, 4 + len(criteria))}, attrs)


def _points(values: dict[str, int] | None, name: str, scales: dict[str, int]) -> str:
    if values is None or name not in values:
        return "–"
    return format_points(values[name], scales[name])


def _changes_table(changes: Sequence[PlayerChange], scales: dict[str, int]) -> Html:
    """The players whose place or values changed, each change shown ``old → new``."""
    if not changes:
        return text_element("p", gettext("No player's place or values changed."))
    columns = changed_columns(changes, list(scales))
    rows = []
    for c in changes:
        def arrow(old: str, new: str) -> str:
            return new if old == new else f"{old} → {new}"

        rows.append([
            arrow(str(c.before.place) if c.before else "–", str(c.after.place) if c.after else "–"),
            c.player_id, f"{c.surname} {c.first_name}".strip(),
            *(arrow(_points(c.before.values if c.before else None, n, scales),
                    _points(c.after.values if c.after else None, n, scales)) for n in columns),
        ])
    return html_table([gettext("Place"), gettext("Id"), gettext("Name"), *columns], rows,
                      {0, *range(3, 3 + len(columns))})


def _svg(tag: str, attrs: dict[str, str], *content: Html) -> Html:
    """An SVG element, its attributes first (the order the chart writes them in)."""
    return element(tag, *content, attrs=attrs)


def _places_chart(per_round: dict[int, Ranking], players: Sequence[tuple[str, str]]) -> Html:
    """Inline SVG: one line per player, place (1 on top) against round."""
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

    parts = [text_element("title", gettext("Place by round of the top players"))]
    axis = {"stroke": "#999", "stroke-width": "1"}
    parts.append(_svg("line", {"x1": str(left), "y1": str(top), "x2": str(left), "y2": str(top + plot_h), **axis}))
    parts.append(_svg("line", {"x1": str(left), "y1": str(top + plot_h), "x2": str(left + plot_w),
                               "y2": str(top + plot_h), **axis}))
    for r in rounds:
        parts.append(text_element("text", round_header(r), {"x": f"{x(r):.1f}", "y": str(top + plot_h + 16),
                                                     "text-anchor": "middle"}))
    ticks = sorted({1, worst, *range(5, worst, 5)})
    for place in ticks:
        parts.append(text_element("text", str(place), {"x": str(left - 6), "y": f"{y(place) + 4:.1f}",
                                                        "text-anchor": "end"}))
    for number, (pid, name) in enumerate(players):
        colour = _PALETTE[number % len(_PALETTE)]
        series = places[pid]
        segment: list[str] = []
        segments: list[list[str]] = []
        for r in rounds:
            if r in series:
                segment.append(f"{x(r):.1f},{y(series[r]):.1f}")
            elif segment:
                segments.append(segment)
                segment = []
        if segment:
            segments.append(segment)
        lines = [_svg("polyline", {"points": " ".join(seg), "fill": "none", "stroke": colour, "stroke-width": "2"})
                 for seg in segments]
        dots = [_svg("circle", {"cx": f"{x(r):.1f}", "cy": f"{y(place):.1f}", "r": "3", "fill": colour},
                     text_element("title", gettext("%(name)s: place %(place)d after round %(round)d") % {
                         "name": name, "place": place, "round": r}))
                for r, place in series.items()]
        parts.append(_svg("g", {"data-player": pid}, *lines, *dots))
        ly = top + 14 * number + 6
        parts.append(_svg("line", {"x1": str(left + plot_w + 16), "y1": str(ly), "x2": str(left + plot_w + 34),
                                   "y2": str(ly), "stroke": colour, "stroke-width": "3"}))
        final = series.get(rounds[-1])
        parts.append(text_element("text", f"{final if final is not None else '–'}. {name} ({pid})",
                                  {"x": str(left + plot_w + 40), "y": str(ly + 4)}))
    return _svg("svg", {"width": str(width), "height": str(height), "role": "img",
                        "viewBox": f"0 0 {width} {height}"}, *parts)


def _section(section_id: str, *parts: Html) -> Html:
    return element("section", *parts, attrs={"id": section_id})


def _status(message: str, kind: str, tag: str = "span") -> Html:
    """``message`` marked ``ok`` or ``bad``."""
    return text_element(tag, message, {"class": kind})


# --------------------------------------------------------------------------- content


def _summary_section(state: TournamentState, verify: VerifyReport, records: Sequence[Record], path: Path) -> Html:
    s = state.settings
    assert s is not None
    from goledger.audit.published import verify_message
    from goledger.i18n.numbers import date_range

    status = (_status(gettext("verified: %(events)d events, chain head %(head)s") % {
                  "events": verify.events, "head": verify.head}, "ok") if verify.ok
              else _status(gettext("VERIFICATION FAILED: %(problem)s") % {"problem": verify_message(verify)}, "bad"))
    facts = [
        (gettext("Tournament"), s.name), (pgettext("where the tournament is held", "Place"), s.location),
        (gettext("Dates"), date_range(s.begin_date, s.end_date)),
        (gettext("System"), s.system + "".join(f", {k}={v}" for k, v in sorted(s.system_options.items()))),
        (gettext("Rounds"), str(s.rounds)), (gettext("McMahon bar / floor"), f"{s.mm_bar} / {s.mm_floor}"),
        (gettext("Rule policy"), s.policy), (gettext("Criteria"), ", ".join(s.criteria)),
        (gettext("Ledger file"), path.name), (gettext("Events"), str(len(records))),
        (gettext("First / last event"), f"{records[0].recorded_at} / {records[-1].recorded_at}" if records else "–"),
    ]
    rows = [element("tr", text_element("th", k), text_element("td", v)) for k, v in facts]
    rows.append(element("tr", text_element("th", gettext("Hash chain")), element("td", status)))
    return _section("summary", text_element("h2", gettext("Tournament")), element("table", element("tbody", *rows)))


def _system_section(state: TournamentState) -> Html:
    """The tournament system's own places (knockout, Paramus, match…) with their reasons, and
    its bracket or ladder as inline SVG; for the other systems, a line saying the places are
    the standings below."""
    from goledger.errors import CommandRejected
    from goledger.systems import places_of

    assert state.settings is not None
    system = state.settings.system
    try:
        places = places_of(state)
    except CommandRejected as exc:
        return _section("system", text_element("h2", gettext("System: %(system)s") % {"system": system}),
                        text_element("p", str(exc)))
    if places is None:
        return _section("system", text_element("h2", gettext("System: %(system)s") % {"system": system}),
                        text_element("p", gettext("The places are the standings below.")))
    rows = [(pgettext("still in the bracket", "in") if r.active else f"{'=' if r.shared else ''}{r.place}",
             r.player_id, r.name, r.why) for r in places.rows]
    heading = (gettext("System: %(system)s (final)") if places.finished
               else gettext("System: %(system)s (so far)")) % {"system": system}
    parts: list[Html] = [text_element("h2", heading),
                         *(text_element("p", note) for note in places.notes),
                         _table([gettext("Place"), gettext("Id"), gettext("Name"), gettext("Why")], rows,
                                id="system-places")]
    if system in ("knockout", "double-knockout", "paramus"):
        from goledger.render.bracket import bracket_svg
        from goledger.systems.views import bracket_of

        parts.append(from_tree(*bracket_svg(bracket_of(state))))
    return _section("system", *parts)


def _players_section(state: TournamentState) -> Html:
    rows = []
    for pid, p in state.players.items():
        status = (gettext("withdrew from round %(round)d") % {"round": p.withdrawn_from} if p.withdrawn_from
                  else registration_text(p.status))
        rows.append([pid, p.full_name, p.rank, p.country, p.club, p.egd_pin, status])
    return _section("players", text_element("h2", gettext("Players (%(num)s)") % {"num": len(rows)}),
                    _table([gettext("Id"), gettext("Name"), gettext("Rank"), gettext("Country"), gettext("Club"),
                            gettext("EGD PIN"), gettext("Status")], rows, id="players-table"))


def _published_section(events: Sequence[ev.Event], records: Sequence[Record]) -> tuple[Html, int]:
    """Each published checkpoint: its digest re-checked, and as published versus now."""
    from goledger.audit.published import PUBLISHED_LABEL, published_standings
    from goledger.audit.queries import diff_events

    parts: list[Html] = [text_element("h2", gettext("Published standings"))]
    count = 0
    for record in records:
        if record.type != "Checkpoint":
            continue
        cp = events[record.seq - 1]
        assert isinstance(cp, ev.Checkpoint)
        if cp.label != PUBLISHED_LABEL or cp.round is None:
            continue
        count += 1
        heading = gettext("Round %(round)d as published at event %(seq)d (%(time)s, by %(actor)s)")
        parts.append(text_element("h3", heading % {"round": cp.round, "seq": record.seq, "time": record.recorded_at,
                                                   "actor": record.actor or gettext("unknown")}))
        if cp.note:
            parts.append(text_element("p", gettext("Note: %(note)s") % {"note": cp.note}))
        try:
            published_standings(events, cp)
        except GoledgerError as exc:
            parts.append(_status(exc.message, "bad", "p"))
            continue
        parts.append(element("p", _status(gettext("digest %(digest)s reproduced from events 1..%(count)d") % {
            "digest": cp.digest, "count": cp.event_count}, "ok")))
        later = list(records[cp.event_count:])
        change = diff_events(events, later, cp.event_count, None, cp.round, cp.policy or None, cp.criteria,
                             published_view=True)
        parts.append(text_element("p", gettext("As published versus as corrected now (event %(seq)d):") % {
            "seq": change.to_seq}))
        parts.append(_changes_table(change.changes, change.scales))
    if count == 0:
        parts.append(text_element("p", gettext("No standings were published (goledger publish).")))
    return _section("published", *parts), count


def _audit_section(events: Sequence[ev.Event], records: Sequence[Record], index: EventIndex, final: Ranking,
                   view: View, final_state: TournamentState,
                   step: Callable[[int], None] | None = None) -> tuple[Html, int]:
    """Each audited event: the diff when it was recorded and its effect on the final standings.

    One state walks the log forward (its tables derived point to point); the diff when an
    event was recorded compares the standings just before and just after it, after the
    round the log had reached (``goledger diff --from SEQ-1 --to SEQ``). The final standings
    without it come from ``final_state`` with the event's one game or player taken back
    (:func:`goledger.replay.fold.without.scoring_state_without`), else from a refold."""
    from goledger.audit.compare import Snapshot
    from goledger.audit.queries import compare_snapshots
    from goledger.replay.fold.without import PlayerEvents, scoring_state_without
    from goledger.replay.scoring.rounds import derive_table, note_event, round_table, track, untrack
    from goledger.replay.scoring.standings import check_round, ranking, resolve_policy

    parts: list[Html] = [text_element("h2", gettext("Withdrawals, corrections and rule changes"))]
    count = 0
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
            count += 1
            if step is not None:
                step(count)
            seq = record.seq
            for event in events[before.seq:seq - 1]:
                note_event(before, event)
                apply(before, event, check_registered)
            parts.append(element("h3", anchor(gettext("Event %(seq)d") % {"seq": seq}, f"event-{seq}"),
                                 text(f" {record.type}: {index.describe(seq)}")))
            if record.reason:
                parts.append(text_element("p", gettext("Reason: %(reason)s (recorded by %(actor)s)") % {
                    "reason": record.reason, "actor": record.actor or gettext("unknown")}))
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
            parts.append(text_element("p", gettext("When recorded — standings after round %(round)d, as of event "
                                                   "%(before)d → %(seq)d:") % {
                "round": round_, "before": seq - 1, "seq": seq}))
            parts.append(_changes_table(compare_snapshots(earlier_snapshot, later_snapshot),
                                        {**earlier.scales, **later.scales}))
            local = scoring_state_without(final_state, own_events, seq)
            if local is None:
                without = fold([*events[:seq - 1], *events[seq:]], check=check_registered)
            else:
                without, touched, own = local
                derive_table(final_table, without, touched, own)
            hypothetical = ranking(without, final.round, view.policy, view.criteria)
            parts.append(text_element("p", gettext("Effect on the final standings after round %(round)d "
                                                   "(with → without this event):") % {"round": final.round}))
            parts.append(_changes_table(compare_snapshots(final_snapshot, Snapshot.of(hypothetical, final_snapshot)),
                                        {**final.scales, **hypothetical.scales}))
    finally:
        untrack(before)
    if count == 0:
        parts.append(text_element("p", gettext("There were no withdrawals, corrections, player updates or rule "
                                               "changes.")))
    return _section("audit", *parts), count


_LOG_HEADERS: Final = (N_("Seq"), N_("Recorded (UTC)"), N_("Actor"), N_("Type"), N_("What"), N_("Reason"),
                       N_("Hash"), N_("Payload"))


def _log_row(r: Record, what: str) -> str:
    """One event of the log: seq, time, actor, type, what it did, reason, hash (the previous
    one as its title) and payload; every text escaped (:func:`escape`, and
    :func:`attribute_value` for the title), which most rows need not: their texts are looked
    at together first."""
    texts: tuple[str, ...] = (r.recorded_at, r.actor, r.type, what, r.reason, r.hash, r.payload)
    joined = "".join((*texts, r.prev_hash))
    if "&" in joined or "<" in joined or ">" in joined or '"' in r.prev_hash:
        texts = tuple(map(escape, texts))
        title = attribute_value(f"prev {r.prev_hash}")
    else:  # nothing to escape, and a hash without quotes is written in double quotes
        title = f'"prev {r.prev_hash}"'
    recorded_at, actor, type_, what, reason, hash_, payload = texts
    return (f'<tr id="event-{r.seq}" data-seq="{r.seq}"><td class="num">{r.seq}</td>'
            f"<td>{recorded_at}</td><td>{actor}</td><td>{type_}</td><td>{what}</td><td>{reason}</td>"
            f'<td title={title} class="hash">{hash_}</td><td><code>{payload}</code></td></tr>')


def _log_section(records: Sequence[Record], index: EventIndex) -> Encoded:
    """The full event log, one row per record (:func:`_log_row`), encoded row by row: its
    rows are most of the report (:func:`~goledger.render.html_text.encoded_rows`)."""
    head = element("tr", *(text_element("th", gettext(h)) for h in _LOG_HEADERS))
    intro = join([text_element("h2", ngettext("Event log (%(num)d event)", "Event log (%(num)d events)",
                                              len(records)) % {"num": len(records)}),
                  text_element("p", gettext("Each hash is SHA-256 over the previous hash and the whole envelope "
                                            "(algorithm sha256-chain-v1); hover a hash for the previous one."))])
    describe = index.describe
    return encoded_rows([f'<section id="log">{intro}<table id="event-log"><thead>{head}</thead><tbody>',
                         *(_log_row(r, describe(r.seq)) for r in records), "</tbody></table></section>"])


class View(NamedTuple):
    """The policy and criteria the report's standings use (``None``: the tournament's)."""

    policy: str | None = None
    criteria: Sequence[str] | None = None


def _rating_section(state: TournamentState) -> Html:
    """What the EGD's GoR 2021 would make of the tournament (:mod:`goledger.render.rating`)."""
    return preview_section(preview_state(state), id="rating")


def _rounds_section(per_round: dict[int, Ranking], cells: _Cells) -> Html:
    """The standings after each round, folded but for the last round's."""
    last = max(per_round, default=0)
    parts = [text_element("h2", gettext("Standings after each round"))]
    for r, table in per_round.items():
        parts.append(element("details", text_element("summary", gettext("After round %(round)d") % {"round": r}),
                             _standings_table(table, cells, id=f"standings-round-{r}"),
                             attrs={"open": "open"} if r == last else None))
    return _section("rounds", *parts)


_NAV: Final = ((N_("Tournament"), "summary"), (N_("Players"), "players"), (N_("System"), "system"),
               (N_("Final standings"), "final"), (N_("Chart"), "chart"), (N_("By round"), "rounds"),
               (N_("Rating"), "rating"), (N_("Published"), "published"), (N_("Audit"), "audit"),
               (N_("Event log"), "log"))


@nogc
def _page(state: TournamentState, verify: VerifyReport, records: Sequence[Record], path: Path,
          per_round: dict[int, Ranking], final: Ranking, top: int, index: EventIndex, published: Html,
          audit: Html) -> list[bytes]:
    """The whole page around the published and audit sections (written before, with their
    replays). The collector is paused (:func:`goledger.nogc.nogc`): the tables' rows are
    hundreds of thousands of short-lived lists, none of them garbage in a cycle, and each
    collection of the old generation would walk every object of the folded tournament."""
    assert state.settings is not None
    title = gettext("Audit report: %(tournament)s") % {"tournament": state.settings.name}
    names = final.names
    leaders = [(pid, f"{names[pid][0]} {names[pid][1]}".strip()) for _, pid, _ in final.placed[: max(0, top)]]
    cells = _cells_of(state)
    return page_chunks(
        title, REPORT_STYLE,
        text_element("h1", title), element("nav", *(anchor(gettext(label), target) for label, target in _NAV)),
        _summary_section(state, verify, records, path),
        _players_section(state),
        _system_section(state),
        _section("final", text_element("h2", gettext("Final standings (after round %(round)d, policy %(policy)s)") % {
                     "round": final.round, "policy": final.policy}),
                 _standings_table(final, cells, id="final-standings")),
        _section("chart", text_element("h2", gettext("Places by round of the top %(num)d") % {"num": len(leaders)}),
                 _places_chart(per_round, leaders) if per_round
                 else text_element("p", gettext("No round has been paired yet."))),
        _rounds_section(per_round, cells),
        _rating_section(state),
        published, audit,
        _log_section(records, index), lang=current_language(),
    )


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
    published, n_published = _published_section(events, records)
    audit, n_audited = _audit_section(events, records, index, final, view, state,
                                      lambda n: tell(last + n, total, f"audited event {n} of {audited}"))
    data = _page(state, verify, records, path, per_round, final, top, index, published, audit)
    summary = {"path": str(path), "players": len(state.players), "rounds": last, "events": len(records),
               "audited": n_audited, "published": n_published, "verified": verify.ok}
    return data, summary


def _safe_log(records: Sequence[Record], events: Sequence[ev.Event]) -> tuple[list[Record], list[ev.Event]]:
    """The log with every control or invisible character of its text shown as an escape
    (:func:`goledger.outputs.shown`): an older ledger may hold names that XML cannot carry
    or that would reorder the page (issue 18, point 6). Events whose stored text is plain are
    kept as they are."""
    from goledger.outputs import shown, shown_deep

    safe_records: list[Record] = []
    safe_events = list(events)
    for i, record in enumerate(records):
        # JSON escapes C0 controls (\u0001), so the stored text alone cannot tell: look for escapes too
        text = record.payload + record.actor + record.reason
        if text.isprintable() and "\\u" not in record.payload:
            safe_records.append(record)
            continue
        safe_records.append(msgspec.structs.replace(
            record, payload=shown(record.payload), actor=shown(record.actor), reason=shown(record.reason)))
        if i < len(safe_events):
            event = safe_events[i]
            safe_events[i] = msgspec.convert(shown_deep(msgspec.to_builtins(event)), type(event))
    return safe_records, safe_events


def standings_page(table: Standings, title: str) -> bytes:
    """One standings table as a self-contained HTML page (``goledger standings --format html``),
    with the report's inline styles and nothing fetched from outside. Control and invisible
    characters an older ledger's names may hold are shown as escapes."""
    from goledger.outputs import shown, shown_deep

    table = msgspec.convert(shown_deep(msgspec.to_builtins(table)), Standings)
    title = shown(title)
    caption = gettext("after round %(round)d · policy %(policy)s · as of event %(seq)d") % {
        "round": table.round, "policy": table.policy, "seq": table.as_of_seq}
    return page_bytes(title, REPORT_STYLE, text_element("h1", title), text_element("p", caption),
                      _standings_table(table, id="standings"), lang=current_language())


def report(db: str | os.PathLike[str], html: str | os.PathLike[str], top: int = 10, policy: str | None = None,
           criteria: Sequence[str] | None = None, force: bool = False,
           progress: Progress | None = None) -> dict[str, Any]:
    """Write the audit report of ledger ``db`` to ``html`` (created atomically; never over the
    ledger or its companions; over an existing file only with ``force``, see
    :mod:`goledger.outputs`), with the standings under ``policy`` and ``criteria`` (default:
    the tournament's); ``progress`` as in :func:`render_report`."""
    from goledger.outputs import check_output, write_output

    target = check_output(html, [db], force=force, what="report")
    with Ledger.open(db) as ledger:
        verify, records, events = ledger.read_verified()
    data, summary = render_report(records, events, verify, Path(db), top, View(policy, criteria), progress)
    summary["path"] = str(target)
    write_output(data, target, [db], force=force, what="report")
    return summary
