"""The director's pages of the desk (each behind :meth:`Pages.director_only`; the forms' posts
behind :class:`goledger.web.guard.DeskGuard` and their CSRF token): the overview, a new
tournament, imports and uploads, players, a round and its results entry, standings, explain,
the audit views, settings, files and exports, the audit report, verify, the log, and
``POST /desk/do/ACTION`` (:mod:`goledger.web.actions`), with the pairing report, hand edits and
rating-list search of :mod:`goledger.web.pairing_page`, :mod:`goledger.web.hand_edits` and
:mod:`goledger.web.ratings`.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from goledger.errors import CommandRejected, GoledgerError
from goledger.formats.registry import FORMATS
from goledger.i18n import gettext, ngettext
from goledger.i18n.messages import say
from goledger.web import forms, isolate, pairing_page
from goledger.web.actions import ACTIONS
from goledger.web.routing import DeskPages, criteria_list, int_param, round_or

__all__ = ["IMPORT_FORMATS", "REPORT_CSP", "desk_routes", "seq_list", "upload_name"]

REPORT_CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; "
              "base-uri 'none'; form-action 'none'")
"""The audit report's policy: its own inline styles and images, nothing else (no script at all)."""
IMPORT_FORMATS = tuple(FORMATS)
"""The formats the desk imports and exports (:data:`goledger.formats.registry.FORMATS`)."""


def upload_name(filename: str | None, default: str) -> str:
    r"""The uploaded file's own name for the temporary copy the importer reads: its last
    part; ``.``, ``..``, a name with control characters or one over 200 characters is
    refused in one sentence (``default`` when the browser sent none).

    >>> upload_name("C:\\cups\\cup.xml", "upload"), upload_name("", "list.txt")
    ('cup.xml', 'list.txt')
    >>> upload_name("..", "upload")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    goledger.errors.CommandRejected: the uploaded file's name '..' is not a file name; rename the file and ...
    """
    name = (filename or "").replace("\\", "/").rsplit("/", 1)[-1].strip()
    if not filename:
        return default
    if name in ("", ".", "..") or len(name) > 200 or any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise CommandRejected(say("the uploaded file's name %(name)r is not a file name; rename the file and "
                                  "upload it again", name=filename[:60]))
    return name


def seq_list(text: str) -> list[int]:
    """``"12, 15-17"`` → ``[12, 15, 16, 17]`` (the what-if's ``--without``, its domain and bounds:
    :func:`goledger.audit.queries.parse_without`)."""
    from goledger.audit.queries import parse_without

    return list(parse_without(text))


class DirectorPages:
    """The director pages' handlers (one method per route)."""

    def __init__(self, pages: DeskPages) -> None:
        self.pages = pages
        self.desk = pages.desk

    async def _round_data(self, request: Request, round_: int) -> Any:
        def build() -> dict[str, Any]:
            from goledger.systems.unit_views import as_units
            from goledger.web.data import game_rows

            state = self.desk.state()
            if not 1 <= round_ <= state.rounds:
                raise CommandRejected(say("round %(round)d is outside 1..%(rounds)d of this tournament", round=round_,
                                          rounds=state.rounds))
            byes = [state.players[p] for p in sorted(state.byes.get(round_, {}))]
            return {"state": state, "round": round_, "games": game_rows(as_units(state), round_), "byes": byes,
                    "head": state.seq}

        return await self.pages.read(request, build)

    async def overview(self, request: Request) -> Response:
        if (missing := self.pages.no_ledger(request)) is not None:
            return missing
        from goledger.web.system_pages import places_context

        state = await self.pages.read(request, self.desk.state)
        return self.pages.render(request, "desk.html", state=state, head=state.seq,
                                 system_label=places_context(state, None, with_places=False)["system_label"])

    async def new_form(self, request: Request) -> Response:
        if self.desk.db.exists():
            return RedirectResponse("/desk", 303)
        from goledger.web.new_tournament import form_context

        return self.pages.render(request, "new.html", **form_context(request.query_params.get("system", "")))

    async def new(self, request: Request) -> Response:
        from goledger.web.new_tournament import new_arguments

        form = await self.pages.checked_form(request)
        arguments = new_arguments(form)
        done = await self.pages.work(isolate.new_tournament, self.desk.db, arguments, self.pages.actor(request))
        if done.status != 200:
            return self.pages.refusal(request, done.message, done.status)
        return self.pages.done(request, "/desk/players", done.message)

    @staticmethod
    async def _with_upload(form: Any, default_name: str, missing: str,
                           work: Callable[[Path], Awaitable[isolate.Done]]) -> isolate.Done:
        """``work`` run on a copy of the form's uploaded file, in a temporary folder under the
        file's own name (:func:`upload_name`, ``default_name`` when the browser sent none);
        refused in one sentence (``missing``) when no file was chosen."""
        upload = form.get("file")
        if upload is None or isinstance(upload, str) or not upload.filename:
            raise CommandRejected(missing)
        filename = upload_name(upload.filename, default_name)
        data = await upload.read()
        with tempfile.TemporaryDirectory(prefix="goledger-desk-") as folder:
            source = Path(folder) / filename
            await run_in_threadpool(source.write_bytes, data)
            done = await work(source)
        # a refusal names the file the director chose, not the desk's temporary folder
        return dataclasses.replace(done, message=done.message.replace(f"{folder}{os.sep}", ""))

    async def import_upload(self, request: Request) -> Response:
        """Create the desk's ledger from an uploaded OpenGotha, MacMahon, EGD or TRF file,
        read by that format's own ``import_*`` (its size limit and hardened reader)."""
        form = await self.pages.checked_form(request)
        fmt = str(form.get("format", ""))
        if fmt not in IMPORT_FORMATS:
            return self.pages.refusal(request, say("%(format)r is not a format the desk imports: use one of "
                                                   "%(formats)s", format=fmt, formats=", ".join(IMPORT_FORMATS)))
        done = await self._with_upload(form, "upload", say("choose the file to import"), lambda source: self.pages.work(
            isolate.import_file, fmt, source, self.desk.db, self.pages.actor(request)))
        if done.status != 200:
            return self.pages.refusal(request, done.message, done.status)
        return self.pages.done(request, "/desk", done.message)

    async def players_upload(self, request: Request) -> Response:
        """Register the players of an uploaded MacMahon participant list
        (:func:`~goledger.formats.macmahon.players.import_macmahon_players`)."""
        form = await self.pages.checked_form(request)
        done = await self._with_upload(form, "list.txt", say("choose the participant list to upload"),
                                       lambda source: self.pages.work(
                                           isolate.players_file, source, self.desk.db, self.pages.actor(request),
                                           forms.optional_number(form, "expected_head", "form's ledger head",
                                                                 signed=False)))
        if done.status != 200:
            return self.pages.refusal(request, done.message, done.status)
        return self.pages.done(request, "/desk/players", ngettext(
            "registered %(n)d player", "registered %(n)d players", done.data) % {"n": done.data})

    async def ratings_upload(self, request: Request) -> Response:
        """Import an uploaded rating list (the EGD's ``allworld_lp.html``) into the machine's
        ratings store, as ``goledger ratings import`` does (its reader, size limit and checks;
        the desk's upload bound before it): issue 43, item 3."""
        form = await self.pages.checked_form(request)
        done = await self._with_upload(form, "allworld_lp.html", gettext("choose the rating list file to upload"),
                                       lambda source: self.pages.work(isolate.ratings_file, source))
        if done.status != 200:
            return self.pages.refusal(request, done.message, done.status)
        return self.pages.done(request, "/desk/players", done.message)

    async def players(self, request: Request) -> Response:

        def build() -> dict[str, Any]:
            from goledger.web.data import PLAYER_ORDERS, current_round, player_rows, sorted_rows
            from goledger.web.ratings import list_words

            state = self.desk.state()
            round_ = round_or(int_param(request, "round"), current_round(state))
            query = request.query_params.get("q", "")
            order = request.query_params.get("sort", "")
            order = order if order in PLAYER_ORDERS else "registration"
            return {"state": state, "rows": sorted_rows(player_rows(state, query, round_), order), "q": query,
                    "round": round_, "head": state.seq, "sort": order, "orders": PLAYER_ORDERS,
                    "rating_list": list_words()}

        data = await self.pages.read(request, build)
        return self.pages.render(request, "players.html", **data)

    async def round_page(self, request: Request) -> Response:
        """A round: its games and bye, who is still unpaired, manual pairing and swaps (unpair
        + pair), the bye, and the pairing engine's preview (a dry run, ``?engine=E`` for
        another engine; a refusal or an engine's failure is a sentence in the page, with the
        other engines offered) with the reason for every player it leaves out. Why the engine
        paired as it did is the pairing report's page (``?explain=P`` leads there)."""
        round_ = request.path_params["round"]
        if "explain" in request.query_params:
            who = request.query_params.get("explain", "").strip()
            target = f"/desk/round/{round_}/report" + (f"?player={quote(who)}" if who else "")
            return RedirectResponse(target, status_code=303)
        from goledger.i18n import current_language

        language = current_language()  # the page's: the players to pick are listed in its alphabet

        def build() -> dict[str, Any]:
            from goledger.commands import pairing
            from goledger.i18n.collation import sorted_by_name
            from goledger.systems.unit_views import as_units
            from goledger.web.data import game_rows, unassigned
            from goledger.web.hand_edits import pair_preview, pairable_scores
            from goledger.web.system_pages import out_of_event

            state = self.desk.state()
            if not 1 <= round_ <= state.rounds:
                raise CommandRejected(say("round %(round)d is outside 1..%(rounds)d of this tournament", round=round_,
                                          rounds=state.rounds))
            byes = [state.players[p] for p in sorted(state.byes.get(round_, {}))]
            free = sorted_by_name(unassigned(state, round_), lambda p: p.surname, lambda p: p.first_name,
                                  lambda p: p.id, language)
            data: dict[str, Any] = {"state": state, "round": round_, "games": game_rows(as_units(state), round_),
                                    "byes": byes, "head": state.seq, "preview": None}
            data["free"], data["out"] = out_of_event(state, free)
            from goledger.replay.views import check_in_status

            data["check_ins"] = check_in_status(state, round_)  # before pairing: who has said he plays (issue 46)
            data["hand_pair"] = pair_preview(state, round_, request.query_params)  # issue 43: shown first
            data["scores"] = pairable_scores(state, round_, free)
            data["engines"] = pairing.engines_for(state)
            data["engine"] = request.query_params.get("engine", "").strip()
            if request.query_params.get("preview"):
                try:
                    data["preview"] = pairing.pair_round(self.desk.db, round_, dry_run=True,
                                                         engine=data["engine"] or None).to_dict()
                except GoledgerError as exc:  # a sentence in the page, and the other engines offered
                    data["preview_error"] = exc.message
            return data

        data = await self.pages.read(request, build)
        return self.pages.render(request, "round.html", **data)

    async def results_page(self, request: Request) -> Response:
        """Fast result entry by table from the keyboard: ``12 w`` Enter, ``13 b`` Enter…"""
        data = await self._round_data(request, request.path_params["round"])
        return self.pages.render(request, "results.html", **data)

    async def standings(self, request: Request) -> Response:
        from goledger.i18n import current_language

        language = current_language()  # the page's: a shared place is listed in its alphabet

        def build() -> dict[str, Any]:
            from goledger.replay.views import standings
            from goledger.web.data import standings_rows
            from goledger.web.system_pages import places_context

            q = request.query_params
            table = standings(self.desk.db, int_param(request, "round"), int_param(request, "as_of"),
                              q.get("policy") or None, criteria_list(q.get("criteria"))).in_alphabet(language)
            return {"table": table, "rows": standings_rows(table), "q": q, "head": table.as_of_seq,
                    "link": "/desk/explain?round=" + str(table.round) + "&player=",
                    **places_context(self.desk.state(int_param(request, "as_of")), table.round)}

        data = await self.pages.read(request, build)
        return self.pages.render(request, "standings.html", **data)

    async def explain(self, request: Request) -> Response:

        def build() -> dict[str, Any]:
            from goledger.replay.views import explain

            q = request.query_params
            result = explain(self.desk.db, q.get("player", ""), q.get("criterion") or None,
                             int_param(request, "round"), int_param(request, "as_of"), q.get("policy") or None)
            from goledger.render.json_text import json_text

            data = result.to_dict()
            return {"result": result, "data": data, "q": q, "raw": json_text(data)}

        data = await self.pages.read(request, build)
        return self.pages.render(request, "explain.html", **data)

    async def audit(self, request: Request) -> Response:
        """diff (``?view=diff&from=S``), what-if (``?view=what-if&without=…``) and history
        (``?view=history&player=P``): the audit views, read-only."""
        q = request.query_params
        view = q.get("view", "")

        def build() -> dict[str, Any]:
            from goledger.audit import queries

            result: Any = None
            if view == "diff":
                result = queries.diff(self.desk.db, int_param(request, "from"), int_param(request, "to"),
                                      int_param(request, "round"), q.get("policy") or None, None,
                                      int_param(request, "published"))
            elif view == "what-if":
                without = seq_list(q.get("without", ""))
                result = queries.what_if(self.desk.db, without, q.get("policy") or None, None,
                                         int_param(request, "round"))
            elif view == "history":
                result = queries.history(self.desk.db, q.get("player", ""), int_param(request, "round"),
                                         q.get("policy") or None)
            elif view:
                raise CommandRejected(say("%(view)r is not an audit view: use diff, what-if or history", view=view))
            from goledger.render.json_text import json_text

            data = result.to_dict() if result is not None else None
            return {"view": view, "data": data, "q": q, "raw": json_text(data) if data is not None else ""}

        data = await self.pages.read(request, build)
        return self.pages.render(request, "audit.html", **data)

    async def files(self, request: Request) -> Response:
        return self.pages.render(request, "files.html")

    async def export(self, request: Request) -> Response:
        """Download the ledger in another program's format (its ``export_*`` function)."""
        fmt = request.path_params["fmt"]
        if fmt not in FORMATS:
            return self.pages.refusal(request, say("%(format)r is not a format the desk exports: use one of "
                                                   "%(formats)s", format=fmt, formats=", ".join(FORMATS)), 404)

        def run() -> Any:
            return FORMATS[fmt].write(self.desk.db)

        outcome = await self.pages.read(request, run)
        media, ext = FORMATS[fmt].media_type, FORMATS[fmt].extension
        name = f"{self.desk.db.stem}.{ext}"
        return Response(outcome.data, media_type=media,
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def report(self, request: Request) -> Response:
        """The audit report (:func:`goledger.render.audit_report.report`), as one page."""

        def run() -> bytes:
            from goledger.render.audit_report import report

            with tempfile.TemporaryDirectory(prefix="goledger-desk-") as folder:
                target = Path(folder) / "report.html"
                report(self.desk.db, target, int_param(request, "top") or 10)
                return target.read_bytes()

        data = await self.pages.read(request, run)
        # the report is one self-contained file: its styles are inline, it has no script
        return HTMLResponse(data, headers={"Content-Security-Policy": REPORT_CSP})

    async def verify(self, request: Request) -> Response:
        from goledger import commands

        report = await self.pages.read(request, lambda: commands.verify(self.desk.db))
        return self.pages.render(request, "verify.html", report=report)

    async def log(self, request: Request) -> Response:
        from goledger import commands

        after = await self.pages.read(request, lambda: int_param(request, "after") or 0)

        def build() -> list[Any]:
            from goledger.describe.events import describe_event, names_from

            state = self.desk.state()
            name_of = names_from(state.players)
            records = commands.log(self.desk.db, after, None, request.query_params.get("type") or None)
            return [(r, describe_event(r.event, name_of)) for r in records[-500:]]

        rows = await self.pages.read(request, build)
        return self.pages.render(request, "log.html", rows=rows, after=after)

    async def do(self, request: Request) -> Response:
        """``POST /desk/do/ACTION``: the form's action, against the head it was rendered at.

        Success: back to the form's page (``back``) with the command's message, or for
        htmx the page's ``fragment`` re-rendered. A stale head: 409 with the store's message
        and, unless the events since touch what this form touches, a one-click retry
        (``retry=1``: the command re-checks against the new events and appends)."""
        form = await self.pages.checked_form(request)
        name = request.path_params["action"]
        action = ACTIONS.get(name)
        if action is None:
            return self.pages.refusal(request, say("%(action)r is not an action of the desk", action=name), 404)
        head_text = forms.text(form, "expected_head")
        if not head_text:
            return self.pages.refusal(request, say("the form does not say which ledger head it was rendered "
                                                   "against; reload the page"))
        try:
            expected_head = forms.whole(head_text, "the form's ledger head", signed=False)
        except CommandRejected:
            return self.pages.refusal(request, say("the form's ledger head is not an event number; reload the page"))
        retry = str(form.get("retry", "")) == "1"
        fields = {k: v for k, v in form.items() if isinstance(v, str)}
        fragment = fields.get("fragment", "")
        retry_fields = None
        done = await self.pages.work(isolate.action, self.desk.db, name, fields, self.pages.actor(request),
                               fields.get("reason", ""), expected_head, retry)
        status, message = done.status, done.message
        conflict = done.extra.get("conflict")
        correction = done.extra.get("correction") or None
        if status == 409 and done.retry_ok and conflict is None:
            retry_fields = {k: v for k, v in fields.items() if k not in ("csrf", "retry")}
        back = fields.get("back", "/desk")
        if not back.startswith("/") or back.startswith("//"):
            back = "/desk"
        shown_round = forms.number_or_none(fields, "round")  # not a number: the write said so, as a page
        if fragment == "results" and request.headers.get("hx-request") and shown_round is not None:
            data = await self._round_data(request, shown_round)
            return self.pages.render(request, "results_entry.html", status, message=message, ok=status == 200,
                               retry=retry_fields, action=name, conflict=conflict, correction=correction,
                               entry=fields.get("entry", "") if status != 200 else "", **data)
        if status == 200:
            return self.pages.done(request, back, message)
        offer = await self._pair_offer(request, fields, done.extra.get("code", ""), back) if (
            name == "pair-round" and status == 400) else None
        return self.pages.render(request, "refused.html", status, message=message, retry=retry_fields, action=name,
                           back=back, conflict=conflict, pair_offer=offer, correction=correction)

    @staticmethod
    def _nothing_to_pair(fields: dict[str, str], state: Any) -> bool:
        """Whether the round of a refused "Pair round R" is already paired (nobody left to
        pair): then another engine would be refused alike, and is not offered."""
        from goledger.pairing.participants import players_to_pair

        text = fields.get("round", "")
        round_ = int(text) if text.isdigit() and len(text) < 4 else 0
        if not 1 <= round_ <= state.rounds:
            return True
        return bool(state.games.get(round_) or state.byes.get(round_)) and not players_to_pair(state, round_)

    async def _pair_offer(self, request: Request, fields: dict[str, str], code: str, back: str) -> dict[str, Any]:
        """What a refused "Pair round R" offers (issue 43.4, ``_pair_offer.html``): to go on
        (``confirm``: the round already has games and players left to pair), to pair anyway
        (``out-of-order``), or the other engines (an engine's failure or refusal, unless the
        round has nobody left to pair)."""
        from goledger.commands.pairing import engines_for

        state = await self.pages.read(request, self.desk.state)
        engine = fields.get("engine", "").strip()
        engines = engines_for(state)
        failed = engine or (engines[0] if engines else "")
        return {"code": code, "round": fields.get("round", ""), "engine": engine, "back": back,
                "engine_may_help": code == "engine-failed" or not self._nothing_to_pair(fields, state),
                "force": fields.get("force", "") == "1", "confirm": fields.get("confirm", "") == "1",
                "others": [e for e in engines if e != failed]}


def desk_routes(pages: DeskPages) -> list[BaseRoute]:
    """The director's pages (each behind :meth:`Pages.director_only`; its forms' posts behind
    DeskGuard and their CSRF token)."""
    from goledger.web.constraints_page import constraints_routes
    from goledger.web.egd_check import egd_check_routes
    from goledger.web.hand_edits import routes as hand_edit_routes
    from goledger.web.new_tournament import new_tournament_routes
    from goledger.web.ratings import ratings_routes
    from goledger.web.settings_page import settings_routes

    director = pages.director_only
    desk = DirectorPages(pages)
    return [
        Route("/desk", director(desk.overview)),
        Route("/desk/new", director(desk.new_form)),
        Route("/desk/new", desk.new, methods=["POST"]),
        Route("/desk/import", desk.import_upload, methods=["POST"]),
        Route("/desk/players", director(desk.players)),
        Route("/desk/players/upload", desk.players_upload, methods=["POST"]),
        Route("/desk/ratings/import", desk.ratings_upload, methods=["POST"]),
        Route("/desk/round/{round:int}", director(desk.round_page)),
        Route("/desk/round/{round:int}/results", director(desk.results_page)),
        Route("/desk/standings", director(desk.standings)),
        Route("/desk/explain", director(desk.explain)),
        Route("/desk/audit", director(desk.audit)),
        Route("/desk/files", director(desk.files)),
        Route("/desk/export/{fmt}", director(desk.export)),
        Route("/desk/report", director(desk.report)),
        Route("/desk/verify", director(desk.verify)),
        Route("/desk/log", director(desk.log)),
        Route("/desk/do/{action}", desk.do, methods=["POST"]),
        *pairing_page.routes(pages),  # the pairing report (issue 32)
        *hand_edit_routes(pages),
        *settings_routes(pages),  # the settings form and its preview (issue 43)
        *constraints_routes(pages),  # forbidden pairs and fixed tables (issue 43)
        *ratings_routes(pages),  # the rating-list search (issue 34: its API route too, for the director)
        *egd_check_routes(pages),  # the players against the EGD list (issue 47)
        *new_tournament_routes(pages),  # the New form's EGD class (issue 43)
    ]
