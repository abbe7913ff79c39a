"""Shared CLI plumbing: the ``--db`` and ``--json`` options, output, and error handling.

Kept light: importing this module must not import the library (start-up time matters,
``goledger --help`` and ``goledger result`` must stay well under 0.3 s).
"""

from __future__ import annotations

import inspect
import json
import os
import sys
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Final, NoReturn, TypedDict, TypeVar

import typer

DEFAULT_DB = "tournament.db"

DbOption = Annotated[
    Path,
    typer.Option(
        "--db",
        envvar="GOLEDGER_DB",
        help="Ledger file (default: $GOLEDGER_DB, else ./tournament.db).",
        show_default=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripting.")]
ActorOption = Annotated[str, typer.Option("--actor", help="Who records this (default: $GOLEDGER_ACTOR or $USER).")]
ReasonOption = Annotated[str, typer.Option("--reason", help="Why, kept in the event's envelope.")]
ExpectedHeadOption = Annotated[
    int | None,
    typer.Option("--expected-head", help="Refuse if events were appended after this sequence number."),
]
RetryOption = Annotated[
    bool, typer.Option("--retry", help="With --expected-head: re-check against the new events and append.")
]
PlayerArg = Annotated[str, typer.Argument(help="Player id (p0001), EGD PIN, or unique name.")]
LanguageOption = Annotated[str | None, typer.Option(
    "--language", help="Write in this language: en, tr, hu, fr or de (default: the tournament's).")]


class Common(TypedDict, total=False):
    """The options every recording command shares but ``--reason`` (:func:`shared_options`),
    as the command function receives them."""

    db: Path | None
    actor: str
    expected_head: int | None
    retry: bool
    as_json: bool


class Shared(Common, total=False):
    """:class:`Common` and ``--reason``."""

    reason: str


OptionTable = tuple[tuple[str, Any, Any], ...]
"""Options declared once for several commands: ``(parameter name, Annotated type, default)``."""


_SHARED: OptionTable = (
    ("db", DbOption, None),
    ("actor", ActorOption, ""),
    ("reason", ReasonOption, ""),
    ("expected_head", ExpectedHeadOption, None),
    ("retry", RetryOption, False),
    ("as_json", JsonOption, False),
)
"""The shared options in the order every recording command lists them."""

Command = TypeVar("Command", bound=Callable[..., Any])


def shared_options(without: Collection[str] = (), last: Collection[str] = ()) -> Callable[[Command], Command]:
    """Declare a recording command's shared options once: the command function takes its own
    parameters and ``**shared: Unpack[Shared]``; typer sees its own options followed by
    ``--db``, ``--actor``, ``--reason``, ``--expected-head``, ``--retry`` and ``--json``
    (those the command does not declare itself, nor names in ``without``), then those of its
    own named in ``last``. The function stays a plain module-level function, callable as it is."""
    return declare_options(_SHARED, without, last)


_DECLARED: Final = "__goledger_options__"
"""The attribute a command's declared options wait under until :func:`declared` is asked."""


def declare_options(table: OptionTable, without: Collection[str] = (),
                    last: Collection[str] = ()) -> Callable[[Command], Command]:
    """Declare the options of ``table`` once for every command that takes them as ``**kwargs``
    (a ``TypedDict`` of them, unpacked): :func:`shared_options` with another table (the audit
    views' ``--round``, ``--policy``, ``--criteria``…, ``cli/audit.py``).

    The signature typer reads is made when the command is about to be built
    (:func:`declared`, which ``goledger.cli.main`` calls on the commands of the app it runs):
    it evaluates every annotation of the command, some 0.3 ms each, which a run pays for the
    one command it runs rather than for all the commands of the module."""

    def declare(command: Command) -> Command:
        setattr(command, _DECLARED, (table, tuple(without), tuple(last)))
        return command

    return declare


def declared(command: Command) -> Command:
    """``command`` with the signature its declared options make (:func:`declare_options`), as
    typer reads it: its own parameters, then the table's that it does not take itself, then its
    own named ``last``; a command without declared options as it is."""
    pending = command.__dict__.pop(_DECLARED, None)
    if pending is None:
        return command
    table, without, last = pending
    signature = inspect.signature(command, eval_str=True)
    own = [p for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    taken = {p.name for p in own} | set(without)
    shared = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)
              for name, annotation, default in table if name not in taken]
    after = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own if p.name in last]
    command.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[*(p for p in own if p.name not in last), *shared, *after])
    return command


def recorded(command: Callable[..., Any], *args: Any, db: Path | None = None, as_json: bool = False,
             show: Callable[[Any], dict[str, Any]] | None = None, text: Callable[[Any], None] | None = None,
             **plumbing: Any) -> None:
    """Run the library's recording ``command(db, *args, **plumbing)`` (refusals: one line on
    stderr, exit 1) and print its outcome: the message and the events appended (``text``: the
    command's own printing of it), or with ``--json`` :func:`outcome_json` (``show``: the
    command's own JSON of it)."""
    outcome = command(db or default_db(), *args, **plumbing)
    if as_json and show is not None:
        print_json(show(outcome))
    elif not as_json and text is not None:
        text(outcome)
    else:
        report_outcome(outcome, as_json)


def default_db() -> Path:
    return Path(os.environ.get("GOLEDGER_DB") or DEFAULT_DB)


_JSON_ERRORS = False


def json_errors_for(args: list[str]) -> None:
    """Make refusals JSON when the command line asks for ``--json`` (before any ``--``);
    :func:`goledger.cli.main.main` calls it with the arguments it runs."""
    global _JSON_ERRORS
    words = args[: args.index("--")] if "--" in args else args
    _JSON_ERRORS = "--json" in words


def wants_json() -> bool:
    """Whether the running command was given ``--json`` (see :func:`json_errors_for`)."""
    return _JSON_ERRORS


def colour_on(stream: Any) -> bool:
    """Colour only on a terminal, never with ``NO_COLOR`` set (https://no-color.org) or a
    dumb terminal: pipes, files and tests get plain text, unchanged."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return _isatty(stream)


def styled(text: str, style: str, stream: Any = None) -> str:
    """``text`` in a rich ``style`` (``"bold red"``…) when ``stream`` (default stdout) shows
    colour (:func:`colour_on`), else ``text`` itself. rich is imported only then."""
    if not colour_on(stream if stream is not None else sys.stdout):
        return text
    import io

    from rich.console import Console

    buffer = io.StringIO()
    Console(file=buffer, force_terminal=True, color_system="standard", width=1 << 16, highlight=False,
            soft_wrap=True).print(text, style=style, end="", markup=False, emoji=False)
    return buffer.getvalue()


def warn(message: str) -> None:
    """``warning: message`` on stderr (yellow on a terminal)."""
    sys.stderr.write(f"{styled('warning:', 'yellow', sys.stderr)} {message}\n")


@contextmanager
def progress_bar(description: str, enabled: bool = True) -> Iterator[Callable[[int, int, str], None]]:
    """A transient rich progress bar on stderr for long work, shown only on a terminal (and
    when ``enabled``); yields ``update(done, total, text)`` for the library's progress
    callbacks. Elsewhere (pipes, files, tests) it draws nothing and costs nothing."""
    if not enabled or not _isatty(sys.stderr) or os.environ.get("TERM") == "dumb":
        def nothing(done: int, total: int, text: str = "") -> None:
            return None

        yield nothing
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(description, total=None)

        def update(done: int, total: int, text: str = "") -> None:
            progress.update(task, completed=done, total=total, description=text or description)

        yield update


@contextmanager
def output_language(db: Path | None, language: str | None, data: bool = False) -> Iterator[str]:
    """Run an output command's body in ``language`` (``--language``), else in the language of
    the tournament of ``db`` (``goledger new --language``, ``change-rules language=…``).

    JSON (``data``) is for programs: English unless ``--language`` asks otherwise, so a script
    reads the same texts whatever the tournament's language. A ledger that cannot be read yet
    leaves English; the command itself then says why."""
    from goledger.errors import GoledgerError
    from goledger.i18n import check_language, use_language

    if language:
        try:
            chosen = check_language(language)
        except ValueError as exc:
            fail(str(exc), 2)
    elif data:
        chosen = "en"
    else:
        from goledger.replay.views import tournament_language

        try:
            chosen = tournament_language(db or default_db())
        except (GoledgerError, OSError):
            chosen = "en"
    with use_language(chosen):
        yield chosen


def _isatty(stream: Any) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def fail(message: str, code: int = 1, kind: str | None = None) -> NoReturn:
    """Print ``error: message`` on stderr and exit with ``code``. Under ``--json`` the refusal
    is one JSON object on stderr instead, ``{"error": message, "code": kind}``, with the same
    exit status; ``kind`` defaults to ``usage`` for exit status 2 and ``rejected`` otherwise
    (library errors give their own: ``ledger``, ``stale-head``, ``format``…)."""
    if wants_json():
        kind = kind or ("usage" if code == 2 else "rejected")
        sys.stderr.write(json.dumps({"error": message, "code": kind}, ensure_ascii=False) + "\n")
    else:
        print(f"{styled('error:', 'bold red', sys.stderr)} {message}", file=sys.stderr)
    raise typer.Exit(code)


@contextmanager
def errors_as_exit() -> Iterator[None]:
    """Turn library refusals into one line on stderr and exit code 1 (no traceback)."""
    from goledger.errors import GoledgerError

    try:
        yield
    except GoledgerError as exc:
        fail(exc.message, exc.exit_code, exc.code)
    except KeyboardInterrupt:
        fail("interrupted; nothing was written by the interrupted step", 130, "interrupted")


def print_json(data: Any) -> None:
    """Print JSON (:func:`goledger.render.json_text.json_text`: UTF-8, stable key order as
    given, indented by two spaces) and a newline.

    msgspec's UTF-8 bytes go straight to the binary stream under a UTF-8 stdout (the same
    bytes the text layer would write, without decoding and re-encoding: a diff of a congress
    is 22 MB of JSON)."""
    from goledger.render.json_text import json_text, msgspec_json

    binary = _utf8_binary(sys.stdout)
    encoded = msgspec_json(data) if binary is not None else None
    if binary is None or encoded is None:
        sys.stdout.write(json_text(data) + "\n")
        return
    sys.stdout.flush()  # what was written as text comes first
    binary.write(encoded)
    binary.write(b"\n")
    binary.flush()


def _utf8_binary(stream: Any) -> Any:
    """The binary stream under ``stream`` when writing bytes there is writing text to
    ``stream`` (UTF-8 encoding, ``\\n`` line ends), else ``None``."""
    import codecs

    binary, encoding = getattr(stream, "buffer", None), getattr(stream, "encoding", None)
    if binary is None or not isinstance(encoding, str) or os.linesep != "\n":
        return None
    try:
        return binary if codecs.lookup(encoding).name == "utf-8" else None
    except LookupError:
        return None


class SafeText(str):
    """Text whose variable parts were already made safe with ``goledger.outputs.shown`` and
    whose only escape sequences are goledger's own colours (:func:`styled`): :func:`echo`
    prints it as it is."""


def echo(message: str) -> None:
    """Print a line; controls and invisible characters a name may hold are shown as escapes
    (``goledger.outputs.shown``), never sent raw to the terminal (a :class:`SafeText` was
    escaped where it was built, and keeps its colours)."""
    sys.stdout.write(_safe(message) + "\n")


def echo_lines(messages: Iterable[str]) -> None:
    """:func:`echo` of each message, in one write (a diff of a congress prints 36,000 lines:
    one write each costs a tenth of a second)."""
    texts = [_safe(m) for m in messages]
    if texts:
        sys.stdout.write("\n".join(texts) + "\n")


def _safe(message: str) -> str:
    """``message`` as :func:`echo` prints it: a :class:`SafeText` as it is, any other text
    line by line through ``goledger.outputs.shown`` (which gives a printable line, most of
    them, as it is: here without splitting it first)."""
    if isinstance(message, SafeText) or message.isprintable():
        return message
    from goledger.outputs import shown

    return "\n".join(shown(line) for line in message.split("\n"))


def run(action: Callable[[], Any]) -> Any:
    """``action()`` under :func:`errors_as_exit`: a command needs it no more (every command runs
    under the command line's one handler, ``goledger.cli.main.CommandLine``); kept for code
    written before that."""
    with errors_as_exit():
        return action()


def outcome_json(outcome: Any) -> dict[str, Any]:
    """JSON for a command outcome: the message and the appended envelopes
    (:func:`goledger.render.json_text.outcome_json`)."""
    from goledger.render.json_text import outcome_json as as_json

    return as_json(outcome)


def report_outcome(outcome: Any, as_json: bool) -> None:
    if as_json:
        print_json(outcome_json(outcome))
    else:
        seqs = outcome.seqs
        where = f" (event {seqs[0]})" if len(seqs) == 1 else f" (events {seqs[0]}–{seqs[-1]})" if seqs else ""
        echo(outcome.message + where)


def render_text_table(headers: list[str], rows: list[list[str]], right: set[int] | None = None,
                      title: str = "") -> SafeText:
    """A plain aligned text table (fast for thousands of rows; rich is too slow there).

    ``right`` holds the indexes of right-aligned columns. Widths count characters, so
    names in any script stay aligned as long as the terminal shows them one cell wide.
    """
    from goledger.outputs import shown

    right = right or set()
    rows = [[shown(c) for c in r] for r in rows]
    widths = [len(h) for h in headers]
    for r in rows:
        for i, cell in enumerate(r):
            if len(cell) > widths[i]:
                widths[i] = len(cell)

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(widths[i]) if i in right else c.ljust(widths[i])
                         for i, c in enumerate(cells)).rstrip()

    out = [styled(shown(title), "bold")] if title else []
    out.append(styled(line(headers), "bold"))
    out.append("  ".join("-" * w for w in widths))
    out.extend(line(r) for r in rows)
    return SafeText("\n".join(out))
