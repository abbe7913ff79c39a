"""Audit commands: diff, what-if, publish, history, report (thin shells over
:mod:`goledger.audit.queries`, :mod:`goledger.commands.publish` and
:mod:`goledger.render.audit_report`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Annotated, Any, TypedDict, Unpack

import typer

from goledger.cli.common import (
    DbOption,
    JsonOption,
    LanguageOption,
    OptionTable,
    PlayerArg,
    Shared,
    declare_options,
    default_db,
    echo,
    echo_lines,
    fail,
    output_language,
    print_json,
    progress_bar,
    recorded,
    render_text_table,
    shared_options,
)
from goledger.nogc import one_shot

RoundOpt = Annotated[int | None, typer.Option("--round", "-r", help="After this round (default: latest paired).")]
PolicyOpt = Annotated[str | None, typer.Option(help="Rule policy (default: the tournament's).")]
CriteriaOpt = Annotated[str | None, typer.Option(help="Criteria, comma-separated (default: the tournament's).")]
ReplaysOpt = Annotated[
    int | None,
    typer.Option("--max-replays", help="Standings recomputations spent attributing changes to single events "
                 "(default: from the size of the field; 0: no limit)."),
]


class View(TypedDict, total=False):
    """The options of the audit views ``diff`` and ``history`` (:data:`VIEW_OPTIONS`), as the
    command function receives them."""

    round_: int | None
    policy: str | None
    criteria: str | None
    max_replays: int | None
    db: Path | None
    as_json: bool


VIEW_OPTIONS: OptionTable = (
    ("round_", RoundOpt, None),
    ("policy", PolicyOpt, None),
    ("criteria", CriteriaOpt, None),
    ("max_replays", ReplaysOpt, None),
    ("db", DbOption, None),
    ("as_json", JsonOption, False),
)
"""``--round``, ``--policy``, ``--criteria``, ``--max-replays``, ``--db``, ``--json``: declared
once, after each view's own options (:func:`goledger.cli.common.declare_options`)."""


def _view(view: View) -> tuple[Path, int | None, str | None, list[str] | None, int | str | None]:
    """The ledger, round, policy, criteria and replay budget an audit view was asked for."""
    return (view.get("db") or default_db(), view.get("round_"), view.get("policy"), _criteria(view.get("criteria")),
            _budget(view.get("max_replays")))


def _budget(value: int | None) -> int | str | None:
    return "auto" if value is None else (value or None)


def _criteria(text: str | None) -> list[str] | None:
    return [c.strip() for c in text.split(",") if c.strip()] if text else None


_MISSING: Any = object()
"""A value a row does not have (shown as ``–``)."""


class _Texts(dict[Any, str]):
    """One criterion's values as text (``format_points``), each computed once, on first use
    (``–`` for :data:`_MISSING`): the diff of a congress prints some 170,000 values, of a
    few thousand distinct ones."""

    __slots__ = ("_format", "_scale")

    def __init__(self, scale: int) -> None:
        from goledger.ledger.values import format_points

        super().__init__({_MISSING: "–"})
        self._format = format_points
        self._scale = scale

    def __missing__(self, value: int) -> str:
        text = self[value] = self._format(value, self._scale)
        return text


class _Points:
    """The criteria's values as text (one :class:`_Texts` each) for one rendering."""

    __slots__ = ("scales", "texts")

    def __init__(self, scales: dict[str, int]) -> None:
        self.scales = scales
        self.texts = {name: _Texts(scale) for name, scale in scales.items()}

    def text(self, values: dict[str, int] | None, name: str) -> str:
        """``values[name]`` as text, ``–`` when there is no such value."""
        if values is None or name not in values:
            return "–"
        return self.texts[name][values[name]]

    def names(self, old: dict[str, int], new: dict[str, int]) -> Iterable[str]:
        """The criteria of two rows' values: those of the scales, then any other (as first met)."""
        scales = self.scales
        if new.keys() == old.keys() == scales.keys():  # the usual case, in the order of the scales
            return scales
        return dict.fromkeys([*scales, *new, *old])


def _arrow(old: str, new: str) -> str:
    return new if old == new else f"{old} → {new}"


def _row_text(view: Any, points: _Points) -> str:
    """``place 3, MMS 35, SOSM 70`` (``not listed`` for no row)."""
    if view is None:
        return "not listed"
    parts = [f"place {view.place}"] + [f"{c} {points.text(view.values, c)}" for c in points.scales
                                       if c in view.values]
    return ", ".join(parts)


def _change_text(before: Any, after: Any, points: _Points) -> str:
    """``place 3 → 5, SOSM 70 → 69`` listing only what differs."""
    if before is None or after is None:
        return f"{_row_text(before, points)} → {_row_text(after, points)}"
    parts = [] if before.place == after.place else [f"place {before.place} → {after.place}"]
    old_values, new_values = before.values, after.values
    if old_values == new_values:  # a place moved by others' changes: no value differs
        return parts[0] if parts else "unchanged"
    texts = points.texts
    scales = points.scales
    if old_values.keys() == new_values.keys() == scales.keys():  # the usual case: every criterion on both sides
        for name in scales:
            old, new = old_values[name], new_values[name]
            if old != new:
                named = texts[name]
                old_text, new_text = named[old], named[new]
                if old_text != new_text:
                    parts.append(f"{name} {old_text} → {new_text}")
        return ", ".join(parts) or "unchanged"
    for name in points.names(old_values, new_values):
        old, new = old_values.get(name, _MISSING), new_values.get(name, _MISSING)
        if old != new:  # equal values (or none on both sides) read the same
            named = texts[name]
            old_text, new_text = named[old], named[new]
            if old_text != new_text:
                parts.append(f"{name} {old_text} → {new_text}")
    return ", ".join(parts) or "unchanged"


def _changes_table(changes: list[Any], points: _Points, order: list[str]) -> str:
    """The changed players, old → new place and the values of the criteria that changed."""
    from goledger.audit.compare import changed_columns

    columns = changed_columns(changes, [*order, *points.scales])
    text = points.text
    rows = []
    for c in changes:
        before = c.before.values if c.before else None
        after = c.after.values if c.after else None
        rows.append([
            _arrow(str(c.before.place) if c.before else "–", str(c.after.place) if c.after else "–"),
            c.player_id, f"{c.surname} {c.first_name}".strip(),
            *(_arrow(text(before, n), text(after, n)) for n in columns),
        ])
    return render_text_table(["Place", "Id", "Name", *columns], rows, {0, *range(3, 3 + len(columns))})


def _cause_head(cause: Any) -> str:
    """A cause line up to its change (``    event 812 ResultRecorded (own result): round 3
    table 2: … — `` before ``place 4 → 2``): the events, their kind and relation, what they did."""
    where = f"event {cause.last_seq}" if cause.first_seq == cause.last_seq else (
        f"events {cause.first_seq}–{cause.last_seq}")
    kind = f" {cause.types[0]} ({cause.relation})" if cause.relation else ""
    return f"    {where}{kind}: {cause.summary} — "


def _payload(text: str) -> Any:
    """An event's JSON payload, decoded by msgspec (the stdlib's :mod:`json` for what msgspec
    refuses, such as a number out of range: the same values either way)."""
    import msgspec

    try:
        return msgspec.json.decode(text)
    except msgspec.MsgspecError:
        import json

        return json.loads(text)


_EMPTY: tuple[Any, ...] = ("", None, {}, [])

"""Payload values an event line leaves out (compared by ``==``; never changed)."""


def _event_line(record: Any) -> str:
    """``   812  2026-03-01T10:12:00  ResultRecorded         result=white round=3 table=2``."""
    payload = _payload(record.payload)
    payload.pop("type", None)
    summary = " ".join(f"{k}={v}" for k, v in payload.items() if v not in _EMPTY)
    return f"{record.seq:>6}  {record.recorded_at[:19]}  {record.type:<22} {summary[:110]}"


def _diff_head(result: Any) -> str:
    """The first line of ``goledger diff``: the two points compared, the policy, the criteria."""
    if result.published:
        p = result.published
        head = (f"Standings after round {result.round} as published at event {p['seq']} (as of event "
                f"{p['event_count']}) → as of event {result.to_seq}")
    else:
        head = f"Standings after round {result.round}: as of event {result.from_seq} → as of event {result.to_seq}"
    return f"{head} · policy {result.policy} · {', '.join(result.criteria)}"


def _causes_lines(result: Any, points: _Points) -> list[str]:
    """``Caused by:`` and, for every changed player, his change and the events that caused it
    (the head of a cause line is the same for every player an interval changed in the same
    way: written once)."""
    lines = ["Caused by:"]
    heads: dict[tuple[int, int, str], str] = {}
    for c in result.changes:
        who = f"  {c.player_id} {c.surname} {c.first_name}".rstrip()
        lines.append(f"{who}: {_change_text(c.before, c.after, points)}")
        for cause in c.causes:
            key = (cause.first_seq, cause.last_seq, cause.relation)
            head = heads.get(key)
            if head is None:
                head = heads[key] = _cause_head(cause)
            lines.append(head + _change_text(cause.before, cause.after, points))
    if not result.complete:
        lines.append(f"(attribution stopped after {result.replays} standings computations: ranges of events are "
                     "listed where it did not split further; raise --max-replays for single events)")
    return lines


def _diff_lines(result: Any) -> list[str]:
    """The lines ``goledger diff`` prints for an :class:`~goledger.audit.queries.AuditDiff`
    (each escaped as :func:`~goledger.cli.common.echo` does when printed)."""
    lines = [_diff_head(result)]
    if not result.changes:
        lines.append("no player's place or values changed")
    else:
        points = _Points(result.scales)
        lines += [_changes_table(result.changes, points, list(result.criteria)), ""]
        lines += _causes_lines(result, points)
    lines += ["", f"Events between ({len(result.records)}):"]
    lines += [_event_line(record) for record in result.records]
    return lines


def render_diff(result: Any) -> None:
    """Print ``goledger diff`` (in one write: the diff of a congress is some 36,000 lines)."""
    echo_lines(_diff_lines(result))


def render_what_if(result: Any) -> None:
    from goledger.ledger.values import format_points

    hypo, real = result.hypothetical, result.actual
    what = []
    if result.without:
        what.append("without event(s) " + ", ".join(map(str, result.without)))
    if result.added:
        what.append(f"with {result.added} added event(s)")
    if hypo.policy != real.policy:
        what.append(f"under policy {hypo.policy} (real: {real.policy})")
    echo(f"What if: {'; '.join(what) or 'nothing changed'} — standings after round {hypo.round} "
         "(real → what-if)")
    for note in result.anomalies:
        echo(f"note: {note}")
    real_rows = {r.player_id: r for r in real.rows}
    names = list(dict.fromkeys([*hypo.criteria, *real.criteria]))
    rows = []
    hypo_rows = {r.player_id: r for r in hypo.rows}
    listed = [*hypo_rows, *(pid for pid in real_rows if pid not in hypo_rows)]
    for pid in listed:
        h, a = hypo_rows.get(pid), real_rows.get(pid)
        some = h or a
        assert some is not None
        cells = [_arrow(str(a.place) if a else "–", str(h.place) if h else "–"), pid,
                 f"{some.surname} {some.first_name}".strip()]
        for n in names:
            old = format_points(a.values[n], real.scales[n]) if a and n in a.values else "–"
            new = format_points(h.values[n], hypo.scales[n]) if h and n in h.values else "–"
            cells.append(_arrow(old, new))
        rows.append(cells)
    echo(render_text_table(["Place", "Id", "Name", *names], rows, {0, *range(3, 3 + len(names))}))
    echo(f"{len(result.changes)} player(s) differ; nothing was written to the ledger")


def render_history(result: Any) -> None:
    """Print ``goledger history``: one row for each event that changed the player's place or values."""
    from goledger.outputs import shown

    points = _Points(result.scales)
    echo(f"History of {result.player_id} {shown(result.surname)} {shown(result.first_name)}".rstrip()
         + f" in the standings after round {result.round} · policy {result.policy} · {', '.join(result.criteria)}")
    rows = []
    for e in result.entries:
        where = str(e.last_seq) if e.first_seq == e.last_seq else f"{e.first_seq}–{e.last_seq}"
        after = e.after
        values = after.values if after else None
        rows.append([
            where, e.types[0] if len(e.types) == 1 else "+".join(e.types), e.relation,
            str(after.place) if after else "–",
            *(points.text(values, c) for c in result.criteria),
            e.summary,
        ])
    if not rows:
        echo("no event changed his place or values (a player is listed once he is paired, under some policies)")
        return
    lines: list[str] = [render_text_table(["Event", "Type", "Relation", "Place", *result.criteria, "What"], rows,
                                          {0, 3, *range(4, 4 + len(result.criteria))})]
    if not result.complete:
        lines.append(f"(attribution stopped after {result.replays} standings computations; raise --max-replays)")
    echo_lines(lines)


def _json_of(result: Any) -> dict[str, Any]:
    """``result.to_dict()`` with the garbage collector paused (:func:`goledger.nogc.nogc`): the
    JSON of a congress's diff is some 200,000 new dicts and lists, none of them garbage, and
    the collections they would trigger walk every live object (they took longer than the
    conversion itself)."""
    from goledger.nogc import nogc

    data: dict[str, Any] = nogc(result.to_dict)()
    return data


def _show(result: Any, as_json: bool, render: Callable[[Any], None]) -> None:
    """An audit view as JSON (:func:`_json_of`) or as ``render`` prints it."""
    if as_json:
        print_json(_json_of(result))
    else:
        render(result)


def _seqs(text: str) -> list[int]:
    """``--without``'s events (:func:`goledger.audit.queries.parse_without`: bounded as text,
    counted before any list is built; a refusal is one sentence, exit status 1)."""
    from goledger.audit.queries import parse_without

    return list(parse_without(text))


@one_shot  # a one-shot read of a whole log: no cyclic garbage worth a collection pass
@declare_options(VIEW_OPTIONS)
def diff(
    from_seq: Annotated[int | None, typer.Option("--from", help="Earlier point: as of this event.")] = None,
    to_seq: Annotated[int | None, typer.Option("--to", help="Later point (default: the last event).")] = None,
    published: Annotated[int | None, typer.Option(
        "--published", help="Earlier point: the standings of this round as published.")] = None,
    **view: Unpack[View],
) -> None:
    """Players whose place or values changed between two events, and the events that caused it."""
    from goledger.audit.queries import diff as diff_view

    if (from_seq is None) == (published is None):
        fail("diff needs either --from SEQ or --published ROUND", 2)
    db, round_, policy, criteria, budget = _view(view)
    _show(diff_view(db, from_seq, to_seq, round_, policy, criteria, published, budget),
          view.get("as_json", False), render_diff)


@one_shot  # a one-shot read of a whole log: no cyclic garbage worth a collection pass
def what_if(
    without: Annotated[str | None, typer.Option(
        "--without", help="Leave out these events: SEQ[,SEQ…] or ranges A-B.")] = None,
    policy: PolicyOpt = None,
    add: Annotated[Path | None, typer.Option(
        "--add", help="JSON file: events to append, as `goledger log --json` prints them (or a list of "
                      "events in their own JSON form).")] = None,
    round_: RoundOpt = None,
    criteria: CriteriaOpt = None,
    event: Annotated[int | None, typer.Option(
        "--event", help="Leave out this event and its consequences (what exists only because of it), "
                        "with the event and its rule in words.")] = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """Standings from a filtered, re-ruled or extended event list, beside the real ones (nothing is written)."""
    from goledger.audit.queries import what_if as what_if_view

    if event is not None:
        if without or policy or add or criteria:
            fail("--event leaves out one event and its consequences: give it alone (with --round)", 2)
        _what_if_event(db or default_db(), event, round_, as_json)
        return
    seqs = _seqs(without) if without else []
    result = what_if_view(db or default_db(), seqs, policy, add, round_, _criteria(criteria))
    if as_json:
        print_json(result.to_dict())
    else:
        render_what_if(result)


def _what_if_event(db: Path, event: int, round_: int | None, as_json: bool) -> None:
    """``what-if --event SEQ`` (:func:`goledger.audit.disputes.event_what_if`)."""
    from goledger.audit.disputes import event_what_if

    result = event_what_if(db, event, round_)
    if as_json:
        print_json(result.to_dict())
        return
    from goledger.outputs import shown

    echo(f"Event {result.seq}: {shown(result.what)}")
    if result.actor or result.reason:
        echo(f"recorded at {result.recorded_at[:19].replace('T', ' ')} by {shown(result.actor)}"
             + (f"; reason: {shown(result.reason)}" if result.reason else ""))
    for text in (result.rule, result.note):
        if text:
            echo(shown(text))
    if len(result.without) > 1:
        echo("left out with it (its consequences): events " + ", ".join(map(str, result.without[1:])))
    render_what_if(result.result)


@shared_options()
def publish(
    round_: Annotated[int, typer.Option("--round", "-r", help="The round whose standings are published.")],
    note: Annotated[str, typer.Option("--note", help="A note kept in the checkpoint.")] = "",
    policy: PolicyOpt = None,
    criteria: CriteriaOpt = None,
    **shared: Unpack[Shared],
) -> None:
    """Vouch for the standings of a round as shown: append a Checkpoint with their digest."""
    from goledger.commands.publish import publish as publish_command

    recorded(publish_command, round_, note, policy, _criteria(criteria), **shared)


@one_shot  # a one-shot read of a whole log: no cyclic garbage worth a collection pass
@declare_options(VIEW_OPTIONS)
def history(player: PlayerArg, **view: Unpack[View]) -> None:
    """Every event that changed a player's place or values, with the place and values after it."""
    from goledger.audit.queries import history as history_view

    db, round_, policy, criteria, budget = _view(view)
    _show(history_view(db, player, round_, policy, criteria, budget), view.get("as_json", False),
          render_history)


@one_shot  # a one-shot read of a whole log: no cyclic garbage worth a collection pass
def report(
    html: Annotated[Path, typer.Option("--html", help="Write a self-contained HTML audit report here.")],
    top: Annotated[int, typer.Option("--top", help="Players drawn in the chart of places by round.")] = 10,
    policy: PolicyOpt = None,
    criteria: CriteriaOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Replace the HTML file if it exists.")] = False,
    language: LanguageOption = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """One self-contained HTML file: standings, places by round, the event log, and each audit diff."""
    with output_language(db, language, as_json):
        from goledger.render.audit_report import report as report_file

        with progress_bar("audit report") as update:
            summary = report_file(db or default_db(), html, top, policy, _criteria(criteria), force,
                                              update)
        if as_json:
            print_json(summary)
        else:
            echo(f"wrote {html}: {summary['players']} players, {summary['rounds']} rounds, "
                 f"{summary['events']} events, {summary['audited']} audited change(s)")
