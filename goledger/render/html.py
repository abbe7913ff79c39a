"""The one HTML renderer: Jinja2 templates with autoescaping, shared by the command line's
printouts and the desk (issue 28, item 4; issues 32 and 33).

Every HTML page goledger writes comes from a template rendered by an environment made here, so
escaping, the stylesheet and the translations are decided in one place. Templates of the
printouts and reports live in ``goledger/render/templates/``; the desk adds its own folder
(``make_environment(desk_folder)``) in front of it and so sees both.

Visible text is marked for translation: ``{{ _("Round") }}`` or ``{% trans %}…{% endtrans %}``
in templates, :func:`gettext` in Python (both from :mod:`goledger.i18n`, which holds the
catalogs). The language is the one made current by :func:`use_language` (English when none
is). Filters ``decimal`` and ``date`` write numbers and ISO dates as the language does.

>>> with use_language("en"):
...     render_string("<p>{{ _('Round') }} {{ n }}: {{ name }}</p>", n=1, name="<Sato>")
'<p>Round 1: &lt;Sato&gt;</p>'
>>> current_language()
'en'
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import parse_qsl, urlencode

from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from jinja2.compiler import CodeGenerator, Frame
from jinja2.nodes import Const, Expr, Filter, Getattr, Getitem, Name, Node, Output, TemplateData
from markupsafe import Markup, escape

from goledger.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGE_NAMES,
    LANGUAGES,
    N_,
    current_language,
    gettext,
    ngettext,
    numbers,
    pgettext,
    translations,
    use_language,
)
from goledger.i18n.messages import articles_in_page, resolve_articles
from goledger.outputs import shown
from goledger.render.compiled import CompiledTemplates, compiled_templates

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "N_",
    "TEMPLATES",
    "CompiledTemplates",
    "compiled_templates",
    "current_language",
    "environment",
    "gettext",
    "make_environment",
    "ngettext",
    "pgettext",
    "render",
    "render_string",
    "stylesheet",
    "translations",
    "use_language",
]

TEMPLATES: Final = Path(__file__).resolve().parent / "templates"
"""The printouts' and reports' templates."""


def shown_text(value: object) -> object:
    r"""What a template writes for ``{{ value }}``: a text holding a control, bidi or invisible
    character (an old ledger's name, written before the domains refused them: ESC, BEL, NUL,
    U+202E) with each shown as its escape (:func:`goledger.outputs.shown`, line breaks kept),
    before autoescaping; markup (translations, ``|safe``) and other values as they are.

    >>> render_string("<b title='{{ n }}'>{{ n }}</b>", n="Evil\x1b[2J\u202e")
    "<b title='Evil\\x1b[2J\\u202e'>Evil\\x1b[2J\\u202e</b>"
    >>> render_string("{{ _('no player matches %(q)s', q=n) }}", n="<i>\x00")
    'no player matches &lt;i&gt;\\x00'
    """
    if isinstance(value, str) and not isinstance(value, Markup) and not value.isprintable():
        return shown(value, keep_lines=True)
    return value


try:  # MarkupSafe 3's escaping in C, giving a plain string: escape() wraps it in Markup, in Python
    from markupsafe import _escape_inner as _escaped_text
except ImportError:  # pragma: no cover (MarkupSafe 2)
    def _escaped_text(value: str, /) -> str:
        return str(escape(value))


def written(value: object) -> str:
    r"""``{{ value }}`` as an autoescaped template writes it: :func:`shown_text`, then
    :func:`markupsafe.escape` (``&``, ``<``, ``>``, ``"``, ``'``), markup as it is. One call,
    where a template's compiled code makes two and wraps each text in a :class:`Markup` only to
    join it into the page: a report's 400,000 cells took three times as long (see
    :class:`_Compiler`).

    >>> written('<b a="1">\x1b'), written(Markup("<i>")), written(7)
    ('&lt;b a=&#34;1&#34;&gt;\\x1b', Markup('<i>'), Markup('7'))
    """
    if type(value) is str:
        return _escaped_text(value if value.isprintable() else shown_text(value))  # type: ignore[arg-type]
    if type(value) is Markup:
        return value
    return escape(shown_text(value))


def _text_only(value: str, /) -> str:
    """``value`` with ``&``, ``<`` and ``>`` escaped, quotes kept."""
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def written_text(value: object) -> str:
    r"""``{{ value|text }}``: :func:`written` for a text in an element's content (never an
    attribute's value), where only ``&``, ``<`` and ``>`` need escaping (HTML, "Escaping a
    string"): quotes are written as they are, as lxml wrote the audit report before issue 28,
    so an event log's JSON payloads do not grow by ``&#34;`` each. Controls are shown as
    :func:`written` shows them.

    >>> written_text('<b a="1">O\'Brien & \x1b'), written_text(Markup("<i>")), written_text(7)
    ('&lt;b a="1"&gt;O\'Brien &amp; \\x1b', Markup('<i>'), Markup('7'))
    """
    if type(value) is str:
        if not value.isprintable():
            value = shown_text(value)
        escaped = _escaped_text(value)  # type: ignore[arg-type]
        if escaped is value:  # nothing to escape: the most cells, one pass in C
            return escaped
        if '"' in value or "'" in value:  # type: ignore[operator]
            return _text_only(value)  # type: ignore[arg-type]
        return escaped
    if type(value) is Markup:
        return value
    if isinstance(value, str) and not hasattr(value, "__html__"):  # a str subclass: its text
        return written_text(str(value))
    return escape(shown_text(value))


def text(value: object) -> Markup:
    """The filter ``text``: :func:`written_text` as markup (where a template uses ``|text``
    other than as a whole ``{{ … }}``, e.g. a translation's variable)."""
    return Markup(written_text(value))


def written_texts(values: tuple[object, ...]) -> Sequence[object]:
    r"""Several ``{{ x|text }}`` of one stretch of a template (a table row's cells), each as
    :func:`written_text` writes it, looked at together: when all are texts whose joined text
    is printable and holds no ``&``, ``<`` or ``>`` (most rows of a report), they are written
    as they are, after one look at the joined text instead of one call and two scans per cell
    (:class:`_Compiler` gathers them).

    >>> written_texts(("Ōta", "3d", '{"a": 1}')), written_texts(("a&b", 7, Markup("<i>")))
    (('Ōta', '3d', '{"a": 1}'), ['a&amp;b', Markup('7'), Markup('<i>')])
    """
    try:
        joined = "".join(values)  # type: ignore[arg-type]
    except TypeError:  # a value that is not a text
        return [written_text(v) for v in values]
    if joined.isprintable() and "&" not in joined and "<" not in joined and ">" not in joined:
        return values
    return [written_text(v) for v in values]


def written_all(values: tuple[object, ...]) -> Sequence[object]:
    r"""Several ``{{ x }}`` of one stretch of a template, each as :func:`written` writes it,
    looked at together as :func:`written_texts` looks (quotes too are escaped here).

    >>> written_all(("12", "event-3")), written_all(("O'Hara", None))
    (('12', 'event-3'), ['O&#39;Hara', Markup('None')])
    """
    try:
        joined = "".join(values)  # type: ignore[arg-type]
    except TypeError:
        return [written(v) for v in values]
    if joined.isprintable() and _escaped_text(joined) is joined:
        return values
    return [written(v) for v in values]


def _pure(node: Node) -> bool:
    """Whether ``node`` only looks a value up (a loop's variable, a field, a constant index):
    evaluated a little earlier than its place in the output, it gives the same value and does
    nothing else."""
    if isinstance(node, Name):
        return node.ctx == "load"
    if isinstance(node, Const):
        return True
    if isinstance(node, Getattr | Getitem):
        return _pure(node.node) and (not isinstance(node, Getitem) or isinstance(node.arg, Const))
    return False


class _Compiler(CodeGenerator):
    """Jinja2's code generator, writing each ``{{ … }}`` of an autoescaped template as one call
    of :func:`written` instead of ``escape(environment.finalize(…))``: the same text, escaped
    alike (``tests/render/test_report_pages.py`` renders hostile values both ways). A
    ``{{ x|text }}`` (an element's text, marked so by the template) is one call of
    :func:`written_text`.

    Within one stretch of output between two tags (a table row), the ``{{ x|text }}`` that
    only look a value up are written by one call of :func:`written_texts`, and the other
    ``{{ x }}`` that only look a value up by one call of :func:`written_all`, made before the
    stretch: a report's 45,000 rows then take one or two calls each instead of one per cell."""

    _bare: Expr | None = None
    _skip: Node | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._gathered: dict[int, str] = {}  # id(child of an Output) → where its written text is

    def _fast(self, frame: Frame, finalize: Any) -> bool:
        ctx = frame.eval_ctx
        return bool(ctx.autoescape) and not ctx.volatile and finalize.src == "environment.finalize("

    @staticmethod
    def _is_text(node: Expr) -> bool:
        return (isinstance(node, Filter) and node.name == "text" and node.node is not None and not node.args
                and not node.kwargs and node.dyn_args is None and node.dyn_kwargs is None)

    def visit_Output(self, node: Output, frame: Frame) -> None:
        gathered = [] if frame.require_output_check or not self._fast(frame, self._make_finalize()) else \
            self._gather(node, frame)
        try:
            super().visit_Output(node, frame)
        finally:
            for key in gathered:
                del self._gathered[key]

    def _gather(self, node: Output, frame: Frame) -> list[int]:
        """Write the calls of :func:`written_texts` and :func:`written_all` for the children of
        ``node`` that only look a value up; returns the children's keys in ``_gathered``."""
        texts = [c for c in node.nodes if self._is_text(c) and _pure(c.node)]  # type: ignore[attr-defined]
        others = [c for c in node.nodes if not isinstance(c, TemplateData | Const) and not self._is_text(c)
                  and _pure(c)]
        keys: list[int] = []
        for children, call in ((texts, "written_texts"), (others, "written_all")):
            if len(children) < 2:
                continue
            name = self.temporary_identifier()
            self.writeline(f"{name} = environment.{call}((")
            for child in children:
                self.visit(child.node if call == "written_texts" else child, frame)  # type: ignore[attr-defined]
                self.write(", ")
            self.write("))")
            for i, child in enumerate(children):
                self._gathered[id(child)] = f"{name}[{i}]"
                keys.append(id(child))
        return keys

    def visit(self, node: Node, *args: Any, **kwargs: Any) -> Any:
        if node is self._skip:  # a gathered child: already written as its place in the gathered texts
            self._skip = None
            return None
        return super().visit(node, *args, **kwargs)

    def _output_child_pre(self, node: Expr, frame: Frame, finalize: Any) -> None:
        gathered = self._gathered.get(id(node))
        if gathered is not None:
            self.write(gathered)
            self._skip = node
        elif self._fast(frame, finalize):
            if self._is_text(node):
                self._bare = node
                self.write("environment.written_text(")
            else:
                self.write("environment.written(")
        else:
            super()._output_child_pre(node, frame, finalize)

    def visit_Filter(self, node: Filter, frame: Frame) -> None:
        if node is self._bare:  # ``{{ x|text }}``: written_text(x), no filter call
            self._bare = None
            assert node.node is not None
            self.visit(node.node, frame)
        else:
            super().visit_Filter(node, frame)

    def _output_child_post(self, node: Expr, frame: Frame, finalize: Any) -> None:
        if id(node) in self._gathered:
            return
        if self._fast(frame, finalize):
            self.write(")")
        else:
            super()._output_child_post(node, frame, finalize)


def _shown_variables(translate: Callable[..., Any]) -> Callable[..., Any]:
    """``translate`` (a template's ``_``) with the values it puts into its message shown as
    :func:`shown_text` shows a written value: ``{{ _("no player matches %(q)s", q=query) }}``
    formats ``query`` into markup itself, past ``finalize``."""

    @pass_context
    def wrapped(context: Any, *args: Any, **variables: Any) -> Any:
        shown = translate(context, *args, **{k: shown_text(v) for k, v in variables.items()})
        if "(z)" in shown:  # a Hungarian article chosen from what follows (issue 44)
            shown = type(shown)(resolve_articles(str(shown)))
        return shown

    return wrapped


_EXTENSIONS: Final = ("jinja2.ext.i18n",)


def language_link(query: str, code: str) -> str:
    """The language switcher's link to this page in language ``code``: relative (``?…``, the
    page's own query with ``lang`` replaced), never built from the request's ``Host`` or any
    other header, so a page kept for every visitor cannot carry an address an attacker named.

    >>> language_link("round=2&lang=fr", "de"), language_link("", "tr")
    ('?round=2&lang=de', '?lang=tr')
    """

    kept = [(name, value) for name, value in parse_qsl(query, keep_blank_values=True) if name != "lang"]
    return "?" + urlencode([*kept, ("lang", code)])


def make_environment(*folders: Path) -> Environment:
    """An environment whose templates are looked up in ``folders`` first, then in
    :data:`TEMPLATES`; HTML is autoescaped, every text written shown safe (:func:`shown_text`),
    and ``_``/``gettext``/``ngettext`` translate."""
    env = Environment(
        loader=FileSystemLoader([str(f) for f in (*folders, TEMPLATES)]),
        autoescape=select_autoescape(default=True, default_for_string=True),
        finalize=shown_text,
        extensions=list(_EXTENSIONS),
        bytecode_cache=compiled_templates(_EXTENSIONS, Path(__file__)),
    )
    env.code_generator_class = _Compiler
    # what _Compiler's code calls, as ``environment.written``
    env.written = written  # type: ignore[attr-defined]
    env.written_text = written_text  # type: ignore[attr-defined]
    env.written_texts = written_texts  # type: ignore[attr-defined]
    env.written_all = written_all  # type: ignore[attr-defined]
    env.filters["text"] = text
    env.install_gettext_callables(gettext, ngettext, newstyle=True, pgettext=pgettext)  # type: ignore[attr-defined]
    for name in ("_", "gettext", "ngettext", "pgettext", "npgettext"):
        if callable(env.globals.get(name)):
            env.globals[name] = _shown_variables(env.globals[name])  # type: ignore[arg-type]
    env.globals["current_language"] = current_language
    env.globals["LANGUAGE_NAMES"] = LANGUAGE_NAMES
    env.globals["language_link"] = language_link

    env.filters["decimal"] = numbers.decimal
    env.filters["date"] = numbers.date
    env.filters["numeric_date"] = numbers.numeric_date
    env.filters["date_time"] = numbers.date_time
    return env


@cache
def environment() -> Environment:
    """The environment of the printouts and reports (built once per process)."""
    return make_environment()


def render(name: str, **context: object) -> str:
    """Template ``name`` of :data:`TEMPLATES` rendered with ``context``."""
    return articles_in_page(environment().get_template(name).render(**context))


@cache
def stylesheet(paper: str = "portrait") -> str:
    """The one stylesheet of goledger's self-contained pages (template ``goledger.css``, which
    :file:`page.html` writes into every page) for ``paper``: ``portrait`` (A4), ``landscape``
    or ``slips`` (A4, narrow margins). For a page not written by a template."""
    return environment().get_template("goledger.css").render(paper=paper)


def render_string(source: str, **context: object) -> str:
    """A template given as text, rendered like the others (for tests and one-line snippets)."""
    return environment().from_string(source).render(**context)
