"""The desk's writes run in a worker process (issue 27, §3).

Threads do not keep the desk responsive: some work holds Python's interpreter lock for as
long as it runs (``Fraction("1e999999999")`` computes 10**999999999 in one C call, minutes
long), and every other request, ``/api/head`` included, waits for it. So every write the
desk makes (a form's action, a new tournament, an import, ``POST /api/results``) runs in a
process of its own, forked from a clean server process that has goledger already imported
(``multiprocessing``'s *forkserver*, a few milliseconds a call), awaited from a thread of the
pool. A worker that runs longer than ``timeout`` seconds is killed; the store's transactions
make that all or nothing (the event was appended or not, SECURITY.md "Crashes"), and the
director reads one sentence.

The functions below are what a worker runs: each calls one library function and returns
plain data (:class:`Done`), never the library's objects. A refusal is handled once, by the
worker's runner (:func:`_work`: a stale head 409, any other library refusal 400, each with its
one sentence; a bug 500); a function catches a library error itself only to answer otherwise
(a form's conflict with what to replace, a correction offered, a stale upload's 400).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from goledger.errors import GoledgerError, StaleHeadError

__all__ = ["Done", "WorkerPool", "action", "api_result", "import_file", "new_tournament", "players_file",
           "ratings_file", "warm"]

PRELOAD = ["goledger.web.isolate", "goledger.commands", "goledger.web.actions", "goledger.replay.views",
           "goledger.web.concurrency", "goledger.render.json_text", "goledger.render.html",
           "goledger.replay.loading.cache_seal", "goledger.systems"]
"""Imported once by the fork server, so that no worker pays for them (Jinja2 and the
concurrency check alone cost a write 30–120 ms on a loaded machine)."""


@dataclass(frozen=True)
class Done:
    """What a worker reports: ``status`` 200 (done), 400 (refused: ``message`` is the
    library's sentence), 409 (a stale head; ``retry_ok`` when the events since touch nothing
    the form touches), 503 (the worker was stopped or died); ``data`` the call's own result."""

    status: int
    message: str
    data: Any = None
    retry_ok: bool = False
    head: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class WorkerPool:
    """Runs :class:`Done`-returning functions in forked workers, at most ``workers`` at once,
    each stopped after ``timeout`` seconds. ``run`` blocks: call it from a thread.

    Each call still runs in a process of its own, used once; but the next one can be forked
    ahead (:meth:`prepare`: a *spare*, started, its preparation done, waiting for its one job on
    a pipe), and a finished worker is reaped in the background: a write does not wait for a fork
    nor for an exit (20-50 ms each on a loaded machine). Without a spare a call forks its own."""

    def __init__(self, timeout: float = 120.0, workers: int = 4) -> None:
        self.timeout = timeout
        self._slots = threading.BoundedSemaphore(workers)
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(PRELOAD)
        self._lock = threading.Lock()
        self._spare: _Worker | None = None

    def _fork(self) -> _Worker:
        jobs, job_sender = self._context.Pipe(duplex=False)
        answers, answer_sender = self._context.Pipe(duplex=False)
        process = self._context.Process(target=_serve_one, args=(jobs, answer_sender), daemon=True)
        process.start()
        jobs.close()
        answer_sender.close()
        return _Worker(process, job_sender, answers)

    def _take(self) -> _Worker:
        """The spare when there is a live one, else a worker forked now."""
        with self._lock:
            spare, self._spare = self._spare, None
        if spare is not None and spare.process.is_alive():
            return spare
        if spare is not None:
            spare.close()
        return self._fork()

    def _refill(self) -> None:
        """Fork the next spare (in the background, after a worker was taken)."""
        with self._lock:
            if self._spare is not None:
                return
        try:
            fresh = self._fork()
        except Exception:  # the next call forks its own
            return
        with self._lock:
            if self._spare is None:
                self._spare = fresh
                return
        fresh.close()

    def run(self, fn: Callable[..., Done], *args: Any, language: str | None = None) -> Done:
        """``fn(*args)`` in a worker, its messages in ``language`` (the request's)."""
        self._slots.acquire()
        try:
            worker = self._take()
        except BaseException:
            self._slots.release()
            raise
        try:
            worker.jobs.send((fn, args, dict(os.environ), language))
            worker.jobs.close()
            if not worker.answers.poll(self.timeout):
                worker.process.kill()
                return Done(503, f"the desk stopped this request after {self.timeout:g} seconds of work; "
                            "nothing was recorded by it")
            done = worker.answers.recv()
        except (EOFError, OSError):
            return Done(503, "the desk's worker for this request stopped unexpectedly; check the ledger's "
                        "log before trying again")
        finally:
            worker.answers.close()
            threading.Thread(target=self._reap, args=(worker,), daemon=True).start()
        return done if isinstance(done, Done) else Done(503, "the desk's worker sent no answer")

    def prepare(self) -> None:
        """Fork the next write's spare now, in the background (the desk calls this when nothing
        more urgent is running: after a write, once the pages it changed are rendered; on two
        cores a fork beside that rendering slows it down)."""
        threading.Thread(target=self._refill, daemon=True).start()

    def _reap(self, worker: _Worker) -> None:
        """Wait for a used worker to exit (kill it after 5 seconds), then free its slot."""
        try:
            worker.process.join(5)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
        finally:
            self._slots.release()


@dataclass
class _Worker:
    """A forked worker: its process, the pipe its one job goes down, the pipe its answer comes up."""

    process: BaseProcess
    jobs: Connection
    answers: Connection

    def close(self) -> None:
        """Let an unused worker go (it exits when its job pipe closes)."""
        self.jobs.close()
        self.answers.close()
        self.process.join(5)


def warm() -> None:
    """Start the clean server process the workers are forked from now, in the background
    (else the first write pays for it: a Python start and goledger's imports)."""

    def start() -> None:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        from multiprocessing import forkserver

        forkserver.ensure_running()

    threading.Thread(target=start, daemon=True).start()


def _serve_one(jobs: Connection, sender: Connection) -> None:
    """A worker: wait for its one job, run it (:func:`_work`), exit. A pipe closed before any job
    came (the desk stopped, or let this spare go) ends it."""
    try:
        fn, args, environment, language = jobs.recv()
    except (EOFError, OSError):
        return
    finally:
        jobs.close()
    _work(sender, fn, args, environment, language)


def _work(sender: Connection, fn: Callable[..., Done], args: tuple[Any, ...], environment: dict[str, str],
          language: str | None = None) -> None:
    # The fork server keeps the environment it was started with; a request sees the server's own
    # as it is now (the ratings store, the data directory), as if it ran in the server.
    os.environ.clear()
    os.environ.update(environment)
    from goledger.i18n import use_language
    from goledger.i18n.messages import at_desk, say

    with use_language(language), at_desk():  # a desk's messages name its controls, not the CLI's options
        try:
            done = fn(*args)
        except StaleHeadError as exc:  # the one handler of what the worker functions leave to it (issue 48)
            done = Done(409, exc.message)  # read here, in the page's language (the ledger's own refusals)
        except GoledgerError as exc:  # a refusal: 400 and its one sentence
            done = Done(400, exc.message)
        except Exception as exc:  # a bug: one line for the director, not a hung request
            done = Done(500, say("the desk failed on this request (%(error)s); nothing was recorded by it",
                                 error=type(exc).__name__))
    sender.send(done)
    sender.close()


# ---------------------------------------------------------------------------- what workers run


def action(db: Path, name: str, fields: dict[str, str], actor: str, reason: str, expected_head: int,
           retry: bool) -> Done:
    """``POST /desk/do/NAME``: the form's :data:`goledger.web.actions.ACTIONS` entry, per game
    (:func:`goledger.web.concurrency.write_per_subject`: a head moved by events about other
    things is no reason to refuse). A conflict's ``extra["conflict"]`` holds what changed in
    words (``sentences``), the form that replaces it (``replace``) and the head (``head``)."""
    from goledger.ledger.store import touching
    from goledger.ledger.subjects import record_subjects
    from goledger.render.html import gettext
    from goledger.web.actions import ACTIONS, CorrectionOffered
    from goledger.web.concurrency import ConflictError, replacement, stale_words, write_per_subject

    chosen = ACTIONS[name]

    def run(head: int | None, again: bool) -> Any:
        return chosen.run(db, fields, actor=actor, reason=reason, expected_head=head, retry=again)

    try:
        outcome = write_per_subject(db, run, name, fields, expected_head, retry)
    except ConflictError as exc:
        rep = replacement(name, fields, exc.conflict)
        conflict = {"sentences": list(exc.conflict.sentences), "head": exc.conflict.head, "replace": rep,
                    "change": _change(exc.conflict.result_now, rep)}
        return Done(409, gettext("Nothing was written: this changed after your page was shown."),
                    head=exc.conflict.head, extra={"conflict": conflict})
    except StaleHeadError as exc:
        return Done(409, stale_words(exc), retry_ok=not touching(exc.since, chosen.subjects(fields), record_subjects))
    except CorrectionOffered as exc:
        return Done(409, exc.message, extra={"code": exc.code, "correction": exc.correction})
    except GoledgerError as exc:
        return Done(400, exc.message, extra={"code": exc.code})
    return Done(200, outcome.message)


def _change(result_now: str, rep: dict[str, str]) -> dict[str, str]:
    """What replacing another desk's result would change, in words: ``old`` → ``new``
    (empty when the replacement is no correction)."""
    from goledger.commands.results import parse_notation
    from goledger.render.html import gettext
    from goledger.web.actions import result_label

    if rep.get("action") != "correct" or not result_now:
        return {}
    try:
        new, _, by_default = parse_notation(rep.get("result", ""), rep.get("by_default") == "1")
    except GoledgerError:
        return {}
    return {"old": result_label(result_now),
            "new": result_label(new.value) + (" " + gettext("by default") if by_default else "")}


def new_tournament(db: Path, arguments: dict[str, Any], actor: str) -> Done:
    """``POST /desk/new``: :func:`goledger.commands.new` with the New form's arguments
    (:func:`goledger.web.new_tournament.new_arguments`)."""
    from goledger import commands

    return Done(200, commands.new(db, **arguments, actor=actor).message)


def import_file(fmt: str, source: Path, db: Path, actor: str) -> Done:
    """``POST /desk/import``: the format's reader (:data:`goledger.formats.registry.FORMATS`) on
    the uploaded file."""
    from goledger.formats.registry import FORMATS

    return Done(200, FORMATS[fmt].read(source, db, actor=actor).message)


def players_file(source: Path, db: Path, actor: str, expected_head: int | None) -> Done:
    """``POST /desk/players/upload``: a MacMahon participant list; ``data`` is how many
    players it registered."""
    from goledger.formats.macmahon.players import import_macmahon_players

    try:
        outcome = import_macmahon_players(source, db, actor=actor, expected_head=expected_head)
    except GoledgerError as exc:
        return Done(400, exc.message)
    return Done(200, "", sum(1 for r in outcome.records if r.type == "PlayerRegistered"))


def ratings_file(source: Path) -> Done:
    """``POST /desk/ratings/import``: :func:`goledger.formats.ratinglists.import_list` of the
    uploaded list into the machine's ratings store (``$GOLEDGER_RATINGS``, else the user data
    folder), the message in the desk's words."""
    from goledger.formats.ratinglists import import_list
    from goledger.render.html import gettext

    outcome = import_list(source, "egd", None)
    info = outcome.info
    words = {"imported": gettext("imported the %(source)s list of %(date)s: %(players)d players"),
             "replaced": gettext("the %(source)s list of %(date)s replaced the previous one: %(players)d players"),
             "unchanged": gettext("the %(source)s list of %(date)s was already imported; nothing changed")}
    return Done(200, words[outcome.status] % {"source": info.ref.source.upper(), "date": info.ref.date,
                                              "players": info.players})


def api_result(db: Path, round_: int, table: int, result: str, by_default: bool, actor: str, reason: str,
               expected_head: int | None, retry: bool) -> Done:
    """``POST /api/results``: :func:`goledger.commands.result`, per game like the desk's forms;
    ``data`` is the CLI's JSON."""
    from goledger import commands
    from goledger.ledger.store import Ledger
    from goledger.render.json_text import outcome_json
    from goledger.web.concurrency import ConflictError, write_per_subject

    def run(head: int | None, again: bool) -> Any:
        return commands.result(db, round_, table, result, by_default, actor=actor, reason=reason,
                               expected_head=head, retry=again)

    try:
        if expected_head is None or retry:
            outcome = run(expected_head, retry)
        else:
            outcome = write_per_subject(db, run, "result", {"round": str(round_), "table": str(table)},
                                        expected_head, False)
    except ConflictError as exc:
        return Done(409, exc.message, head=exc.conflict.head, extra={"conflict": list(exc.conflict.sentences)})
    except StaleHeadError as exc:
        with Ledger.open(db) as ledger:
            head = ledger.head().seq
        return Done(409, exc.message, head=head)
    except GoledgerError as exc:
        return Done(400, exc.message)
    return Done(200, outcome.message, outcome_json(outcome))
