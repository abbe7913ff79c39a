"""The audit report, the standings page and the rating preview page as goledger wrote them
with lxml trees (``lxml.html.builder`` and ``etree.tostring``), before they were written as
text and then by templates (issue 28, item 4): the reference the template renderer's pages
must match element for element, attribute for attribute and text for text
(``tests/render/test_report_pages.py``).

The rendering of commit 71e5c85 (``goledger/render/audit_report.py`` and
``goledger/render/rating.py``), the computations it calls unchanged. A change to what the
report shows is made here too: this copy is the statement of what the page holds, built the
slow and obviously escaped way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec
from lxml import etree
from lxml.html import builder as E

from goledger.audit.compare import PlayerChange, changed_columns
from goledger.audit.event_index import EventIndex
from goledger.errors import GoledgerError
from goledger.i18n.numbers import date_range
from goledger.ledger import events as ev
from goledger.ledger.store import Record, VerifyReport
from goledger.ledger.values import format_points
from goledger.rating.preview import RatingPreview
from goledger.render.audit_report import AUDITED_TYPES, View, _safe_log
from goledger.render.html import stylesheet
from goledger.render.rating import HEADERS, _caption, not_rated_summary, preview_rows
from goledger.replay.fold.state import TournamentState, apply, fold
from goledger.replay.scoring.standings import Standings, standings

H = E.E  # the element maker, for HTML5 tags the builder has no constant for

_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
            "#7f7f7f", "#bcbd22")


# --------------------------------------------------------------------------- helpers


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]], numeric: set[int] | None = None,
           **attrs: str) -> Any:
    numeric = numeric or set()
    head = E.TR(*(E.TH(h) for h in headers))
    body = []
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            if isinstance(cell, etree._Element):
                cells.append(E.TD(cell))
            else:
                cells.append(E.TD(str(cell), E.CLASS("num")) if i in numeric else E.TD(str(cell)))
        body.append(E.TR(*cells))
    return E.TABLE(E.THEAD(head), E.TBODY(*body), **attrs)


def _standings_table(table: Standings, **attrs: str) -> Any:
    rows = [
        [row.place, row.player_id, f"{row.surname} {row.first_name}".strip(), row.rank,
         *(format_points(row.values[c], table.scales[c]) for c in table.criteria)]
        for row in table.rows
    ]
    return _table(["Place", "Id", "Name", "Rank", *table.criteria], rows,
                  {0, *range(4, 4 + len(table.criteria))}, **attrs)


def _points(values: dict[str, int] | None, name: str, scales: dict[str, int]) -> str:
    if values is None or name not in values:
        return "–"
    return format_points(values[name], scales[name])


def _changes_table(changes: Sequence[PlayerChange], scales: dict[str, int]) -> Any:
    if not changes:
        return E.P("No player's place or values changed.")
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
    return _table(["Place", "Id", "Name", *columns], rows, {0, *range(3, 3 + len(columns))})


def _places_chart(per_round: dict[int, Standings], players: Sequence[tuple[str, str]]) -> Any:
    """Inline SVG: one line per player, place (1 on top) against round."""
    rounds = sorted(per_round)
    places: dict[str, dict[int, int]] = {pid: {} for pid, _ in players}
    for r in rounds:
        for row in per_round[r].rows:
            if row.player_id in places:
                places[row.player_id][r] = row.place
    worst = max([p for d in places.values() for p in d.values()] or [1])
    left, top, plot_w, plot_h, legend_w = 48, 20, 560, 300, 230
    width, height = left + plot_w + legend_w, top + plot_h + 40

    def x(r: int) -> float:
        return left + (plot_w * (r - rounds[0]) / max(1, rounds[-1] - rounds[0]) if len(rounds) > 1 else plot_w / 2)

    def y(place: int) -> float:
        return top + (plot_h * (place - 1) / max(1, worst - 1) if worst > 1 else plot_h / 2)

    svg = etree.Element("svg", width=str(width), height=str(height), role="img",
                        viewBox=f"0 0 {width} {height}")
    etree.SubElement(svg, "title").text = "Place by round of the top players"
    axis = {"stroke": "#999", "stroke-width": "1"}
    etree.SubElement(svg, "line", x1=str(left), y1=str(top), x2=str(left), y2=str(top + plot_h), **axis)
    etree.SubElement(svg, "line", x1=str(left), y1=str(top + plot_h), x2=str(left + plot_w), y2=str(top + plot_h),
                     **axis)
    for r in rounds:
        label = etree.SubElement(svg, "text", x=f"{x(r):.1f}", y=str(top + plot_h + 16), **{"text-anchor": "middle"})
        label.text = f"R{r}"
    ticks = sorted({1, worst, *range(5, worst, 5)})
    for place in ticks:
        label = etree.SubElement(svg, "text", x=str(left - 6), y=f"{y(place) + 4:.1f}", **{"text-anchor": "end"})
        label.text = str(place)
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
        group = etree.SubElement(svg, "g", **{"data-player": pid})
        for seg in segments:
            etree.SubElement(group, "polyline", points=" ".join(seg), fill="none", stroke=colour,
                             **{"stroke-width": "2"})
        for r, place in series.items():
            dot = etree.SubElement(group, "circle", cx=f"{x(r):.1f}", cy=f"{y(place):.1f}", r="3", fill=colour)
            etree.SubElement(dot, "title").text = f"{name}: place {place} after round {r}"
        ly = top + 14 * number + 6
        etree.SubElement(svg, "line", x1=str(left + plot_w + 16), y1=str(ly), x2=str(left + plot_w + 34), y2=str(ly),
                         stroke=colour, **{"stroke-width": "3"})
        legend = etree.SubElement(svg, "text", x=str(left + plot_w + 40), y=str(ly + 4))
        final = series.get(rounds[-1])
        legend.text = f"{final if final is not None else '–'}. {name} ({pid})"
    return svg


# --------------------------------------------------------------------------- content


def _summary_section(state: TournamentState, verify: VerifyReport, records: Sequence[Record], path: Path) -> Any:
    s = state.settings
    assert s is not None
    from goledger.audit.published import verify_message

    status = (E.SPAN(f"verified: {verify.events} events, chain head {verify.head}", E.CLASS("ok")) if verify.ok
              else E.SPAN(f"VERIFICATION FAILED: {verify_message(verify)}", E.CLASS("bad")))
    facts = [
        ("Tournament", s.name), ("Place", s.location), ("Dates", date_range(s.begin_date, s.end_date)),
        ("System", s.system + "".join(f", {k}={v}" for k, v in sorted(s.system_options.items()))),
        ("Rounds", str(s.rounds)), ("McMahon bar / floor", f"{s.mm_bar} / {s.mm_floor}"),
        ("Rule policy", s.policy), ("Criteria", ", ".join(s.criteria)), ("Ledger file", path.name),
        ("Events", str(len(records))),
        ("First / last event", f"{records[0].recorded_at} / {records[-1].recorded_at}" if records else "–"),
    ]
    rows = [E.TR(E.TH(k), E.TD(v)) for k, v in facts]
    rows.append(E.TR(E.TH("Hash chain"), E.TD(status)))
    return H.section(E.H2("Tournament"), E.TABLE(E.TBODY(*rows)), id="summary")


def _system_section(state: TournamentState) -> Any:
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
        return H.section(E.H2(f"System: {system}"), E.P(str(exc)), id="system")
    if places is None:
        return H.section(E.H2(f"System: {system}"), E.P("The places are the standings below."), id="system")
    rows = [("in" if r.active else f"{'=' if r.shared else ''}{r.place}", r.player_id, r.name, r.why)
            for r in places.rows]
    parts: list[Any] = [E.H2(f"System: {system} ({'final' if places.finished else 'so far'})"),
                        *(E.P(note) for note in places.notes),
                        _table(["Place", "Id", "Name", "Why"], rows, id="system-places")]
    if system in ("knockout", "double-knockout", "paramus"):
        from goledger.render.bracket import bracket_svg
        from goledger.systems.views import bracket_of

        parts.extend(etree.fromstring(f"<div>{bracket_svg(bracket_of(state))}</div>"))  # its template's markup
    return H.section(*parts, id="system")


def _players_section(state: TournamentState) -> Any:
    rows = []
    for pid, p in state.players.items():
        status = f"withdrew from round {p.withdrawn_from}" if p.withdrawn_from else p.status
        rows.append([pid, p.full_name, p.rank, p.country, p.club, p.egd_pin, status])
    return H.section(E.H2(f"Players ({len(rows)})"),
                       _table(["Id", "Name", "Rank", "Country", "Club", "EGD PIN", "Status"], rows,
                              id="players-table"),
                       id="players")


def _published_section(events: Sequence[ev.Event], records: Sequence[Record]) -> tuple[Any, int]:
    """Each published checkpoint: its digest re-checked, and as published versus now."""
    from goledger.audit.published import PUBLISHED_LABEL, published_standings
    from goledger.audit.queries import diff_events

    parts: list[Any] = [E.H2("Published standings")]
    count = 0
    for record in records:
        if record.type != "Checkpoint":
            continue
        cp = events[record.seq - 1]
        assert isinstance(cp, ev.Checkpoint)
        if cp.label != PUBLISHED_LABEL or cp.round is None:
            continue
        count += 1
        parts.append(E.H3(f"Round {cp.round} as published at event {record.seq} ({record.recorded_at}, "
                          f"by {record.actor or 'unknown'})"))
        if cp.note:
            parts.append(E.P(f"Note: {cp.note}"))
        try:
            published_standings(events, cp)
        except GoledgerError as exc:
            parts.append(E.P(exc.message, E.CLASS("bad")))
            continue
        parts.append(E.P(E.SPAN(f"digest {cp.digest} reproduced from events 1..{cp.event_count}", E.CLASS("ok"))))
        later = list(records[cp.event_count:])
        change = diff_events(events, later, cp.event_count, None, cp.round, cp.policy or None, cp.criteria,
                             published_view=True)
        parts.append(E.P(f"As published versus as corrected now (event {change.to_seq}):"))
        parts.append(_changes_table(change.changes, change.scales))
    if count == 0:
        parts.append(E.P("No standings were published."))
    return H.section(*parts, id="published"), count


def _audit_section(events: Sequence[ev.Event], records: Sequence[Record], index: EventIndex, final: Standings,
                   view: View, step: Callable[[int], None] | None = None) -> tuple[Any, int]:
    """Each audited event: the diff when it was recorded and its effect on the final standings."""
    from goledger.audit.queries import compare_tables, diff_events

    parts: list[Any] = [E.H2("Withdrawals, corrections and rule changes")]
    count = 0
    before = TournamentState()  # the state after event ``before.seq``, folded forward once
    for record in records:
        if record.type not in AUDITED_TYPES:
            continue
        count += 1
        if step is not None:
            step(count)
        seq = record.seq
        for event in events[before.seq:seq - 1]:
            apply(before, event)
        parts.append(E.H3(E.A(f"Event {seq}", href=f"#event-{seq}"), f" {record.type}: {index.describe(seq)}"))
        if record.reason:
            parts.append(E.P(f"Reason: {record.reason} (recorded by {record.actor or 'unknown'})"))
        when = diff_events(events, [record], seq - 1, seq, None, view.policy, view.criteria, base=before)
        parts.append(E.P(f"When recorded — standings after round {when.round}, as of event {seq - 1} → {seq}:"))
        parts.append(_changes_table(when.changes, when.scales))
        without = fold(events[seq:], start=before)
        hypothetical = standings(without, final.round, view.policy, view.criteria)
        parts.append(E.P(f"Effect on the final standings after round {final.round} (with → without this event):"))
        parts.append(_changes_table(compare_tables(final, hypothetical), {**final.scales, **hypothetical.scales}))
    if count == 0:
        parts.append(E.P("There were no withdrawals, corrections, player updates or rule changes."))
    return H.section(*parts, id="audit"), count


def _log_section(records: Sequence[Record], index: EventIndex) -> Any:
    rows = []
    for r in records:
        row = E.TR(
            E.TD(str(r.seq), E.CLASS("num")), E.TD(r.recorded_at), E.TD(r.actor), E.TD(r.type),
            E.TD(index.describe(r.seq)), E.TD(r.reason), E.TD(r.hash, E.CLASS("hash"), title=f"prev {r.prev_hash}"),
            E.TD(E.CODE(r.payload)), id=f"event-{r.seq}",
        )
        row.set("data-seq", str(r.seq))
        rows.append(row)
    head = E.TR(*(E.TH(h) for h in ("Seq", "Recorded (UTC)", "Actor", "Type", "What", "Reason", "Hash", "Payload")))
    return H.section(E.H2(f"Event log ({len(records)} events)"),
                       E.P("Each hash is SHA-256 over the previous hash and the whole envelope "
                           "(algorithm sha256-chain-v1); hover a hash for the previous one."),
                       E.TABLE(E.THEAD(head), E.TBODY(*rows), id="event-log"), id="log")


def _rating_section(state: TournamentState) -> Any:
    """What the EGD's GoR 2021 would make of the tournament (:mod:`goledger.render.rating`)."""
    from goledger.rating.preview import preview_state

    return preview_section(preview_state(state), id="rating")


def render_report(records: Sequence[Record], events: Sequence[ev.Event], verify: VerifyReport, path: Path,
                  top: int = 10, view: View | None = None,
                  progress: Any = None) -> tuple[bytes, dict[str, Any]]:
    """The report's bytes and a summary (counts) of what it holds; ``progress`` is told of
    each round's standings and each audited event."""
    view = view or View()
    records, events = _safe_log(records, events)
    state = fold(events)
    if state.settings is None:
        raise GoledgerError("the ledger has no tournament yet")
    last = state.last_round_with_games()
    audited = sum(1 for r in records if r.type in AUDITED_TYPES)
    total = last + audited + 1
    tell = progress or (lambda done, total, what: None)
    per_round = {}
    for r in range(1, last + 1):
        tell(r - 1, total, f"standings after round {r}")
        per_round[r] = standings(state, r, view.policy, view.criteria)
    tell(last, total, "audited events")
    final = per_round[last] if last else standings(state, 0, view.policy, view.criteria)
    index = EventIndex(fold(()), events, {pid: p.full_name for pid, p in state.players.items()})
    leaders = [(row.player_id, f"{row.surname} {row.first_name}".strip()) for row in final.rows[: max(0, top)]]
    published, n_published = _published_section(events, records)
    audit, n_audited = _audit_section(events, records, index, final, view,
                                      lambda n: tell(last + n, total, f"audited event {n} of {audited}"))
    title = f"Audit report: {state.settings.name}"
    rounds_parts: list[Any] = [E.H2("Standings after each round")]
    for r, table in per_round.items():
        block = H.details(H.summary(f"After round {r}"), _standings_table(table, id=f"standings-round-{r}"))
        if r == last:
            block.set("open", "open")
        rounds_parts.append(block)
    nav = H.nav(*(E.A(label, href=f"#{target}") for label, target in (
        ("Tournament", "summary"), ("Players", "players"), ("System", "system"), ("Final standings", "final"),
        ("Chart", "chart"), ("By round", "rounds"), ("Rating", "rating"), ("Published", "published"),
        ("Audit", "audit"), ("Event log", "log"))))
    body = E.BODY(
        E.H1(title), nav,
        _summary_section(state, verify, records, path),
        _players_section(state),
        _system_section(state),
        H.section(E.H2(f"Final standings (after round {final.round}, policy {final.policy})"),
                    _standings_table(final, id="final-standings"), id="final"),
        H.section(E.H2(f"Places by round of the top {len(leaders)}"),
                    _places_chart(per_round, leaders) if per_round else E.P("No round has been paired yet."),
                    id="chart"),
        H.section(*rounds_parts, id="rounds"),
        _rating_section(state),
        published, audit,
        _log_section(records, index),
    )
    document = E.HTML(E.HEAD(E.META(charset="utf-8"), E.TITLE(title), E.STYLE(stylesheet())), body, lang="en")
    data = etree.tostring(document, method="html", encoding="utf-8", doctype="<!DOCTYPE html>")
    summary = {"path": str(path), "players": len(state.players), "rounds": last, "events": len(records),
               "audited": n_audited, "published": n_published, "verified": verify.ok}
    return data, summary


def standings_page(table: Standings, title: str) -> bytes:
    """One standings table as a self-contained HTML page (``goledger standings --format html``),
    with the report's inline styles and nothing fetched from outside. Control and invisible
    characters an older ledger's names may hold are shown as escapes."""
    from goledger.outputs import shown, shown_deep

    table = msgspec.convert(shown_deep(msgspec.to_builtins(table)), Standings)
    title = shown(title)
    caption = (f"after round {table.round} · policy {table.policy} · as of event {table.as_of_seq}")
    body = E.BODY(E.H1(title), E.P(caption), _standings_table(table, id="standings"))
    document = E.HTML(E.HEAD(E.META(charset="utf-8"), E.TITLE(title), E.STYLE(stylesheet())), body, lang="en")
    return etree.tostring(document, method="html", encoding="utf-8", doctype="<!DOCTYPE html>")


def preview_section(preview: RatingPreview, **attrs: str) -> Any:
    """The preview as an HTML ``section`` element: caption, per-player table, not-rated counts."""
    numeric = {5, 7, 8, 9}
    head = E.TR(*(E.TH(h.replace("_", " ")) for h in HEADERS))
    body = []
    for row in preview_rows(preview):
        body.append(E.TR(*(E.TD(cell, E.CLASS("num")) if i in numeric else E.TD(cell) for i, cell in enumerate(row))))
    parts: list[Any] = [E.H2("Rating preview (EGD GoR 2021)"), E.P(_caption(preview)),
                        E.TABLE(E.THEAD(head), E.TBODY(*body), id="rating-preview")]
    skipped = not_rated_summary(preview)
    if skipped:
        parts.append(E.P("Not rated: " + "; ".join(f"{reason} ({n})" for reason, n in sorted(skipped.items()))))
    section = E.E.section(*parts, **attrs)
    return section


def preview_html(preview: RatingPreview, title: str) -> bytes:
    """The preview as a self-contained HTML page (inline styles, nothing fetched)."""
    document = E.HTML(E.HEAD(E.META(charset="utf-8"), E.TITLE(title), E.STYLE(stylesheet())),
                      E.BODY(E.H1(title), preview_section(preview, id="rating")), lang="en")
    return etree.tostring(document, method="html", encoding="utf-8", doctype="<!DOCTYPE html>")
