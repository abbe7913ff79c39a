"""``goledger site DIR``: the tournament as a static, multilingual results site (issue 47, item 4;
docs/site.md).

The site is a folder of self-contained HTML pages — the same printouts and standings page the
command line and the desk print (``templates/sheet.html``, ``standings_page.html``), each with a
navigation bar and a footer naming the ledger's head (event number and hash) — one folder per
language (``en/``, ``fr/``…) and an ``index.html`` at the root listing them. Every link is
relative and nothing is fetched (the stylesheet is in each page), so the site works from
``file://`` and from any static host.

Each language has ``index.html`` (the tournament and the pages), ``standings.html`` (with the
tie-breaks), ``round-R.html`` for every round with a game or a bye (pairings and results),
``players.html``, ``crosstable.html`` and ``wall.html``. All are computed from one fold of the
ledger at its head; the standings, the crosstable and the wall list once, their words in each
language.

**Incremental**: nothing is computed when ``site.json`` says the site was built at the ledger's
head already (same hash, languages and goledger version, every page present); otherwise a page is
written only when its bytes differ from the file already there (through
:func:`goledger.outputs.write_output`, atomically). Every page names the head it was built at, so
after an event every page is written again (each stays whole: a reader sees the old page or the
new one); pages of an earlier build no longer produced (a round unpaired)
are removed, and only those: the site's own list of its pages is ``site.json``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from goledger import __version__
from goledger.errors import CommandRejected
from goledger.i18n import LANGUAGE_NAMES, LANGUAGES, gettext, use_language
from goledger.outputs import write_output
from goledger.render.html import render
from goledger.render.printouts import (
    column_classes,
    crosstable_sheet,
    pairing_sheet,
    paper,
    player_sheet,
    shown_sheet,
    wall_sheet,
)
from goledger.replay.views import head_state

if TYPE_CHECKING:
    from goledger.replay.fold.state import TournamentState

__all__ = ["MANIFEST", "SiteOutcome", "build_pages", "site"]

PathLike = str | os.PathLike[str]
MANIFEST = "site.json"
"""The site's list of its pages and the head it was built at."""


@dataclass(frozen=True, slots=True)
class SiteOutcome:
    """A built site: its folder, the pages written, kept unchanged and removed, and the head."""

    folder: str
    seq: int
    hash: str
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = field(default_factory=list)

    @property
    def message(self) -> str:
        return (f"site {self.folder} at event {self.seq} ({self.hash[:12]}…): {len(self.written)} page(s) written, "
                f"{self.unchanged} unchanged, {len(self.removed)} removed")

    def to_dict(self) -> dict[str, Any]:
        return {"folder": self.folder, "seq": self.seq, "hash": self.hash, "written": self.written,
                "unchanged": self.unchanged, "removed": self.removed}


def build_pages(state: TournamentState, head_hash: str, languages: tuple[str, ...]) -> dict[str, bytes]:
    """Every page of the site (relative path → bytes) for ``state`` at the head ``head_hash``."""
    # the renderers load late: a site already up to date loads none
    from goledger.render.audit_report import standings_page
    from goledger.replay.scoring.crosstable import crosstable_of
    from goledger.replay.scoring.printouts import pairing_list_of, player_list_of, standings_title, wall_list_of
    from goledger.replay.scoring.standings import standings

    settings = state.settings
    if settings is None:
        raise CommandRejected("the ledger has no tournament yet")
    rounds = [r for r in range(1, state.rounds + 1) if state.games.get(r) or state.byes.get(r)]
    pages: dict[str, bytes] = {}
    tables: dict[tuple[Any, ...], Markup] = {}  # a main table's HTML by its headers, rows and classes
    table = standings(state)
    cross = crosstable_of(state) if rounds else None
    for lang in languages:
        with use_language(lang):
            def site_of(page: str, lang: str = lang) -> dict[str, Any]:
                return {"rounds": rounds, "languages": languages, "page": page, "seq": state.seq, "hash": head_hash,
                        "lang": lang}

            def sheet_page(sheet: Any, page: str, lang: str = lang) -> None:
                shown = shown_sheet(sheet)
                classes = column_classes(shown.rows, shown.right, shown.nowrap)
                key = (tuple(shown.headers), tuple(map(tuple, shown.rows)), tuple(classes))
                main = tables.get(key)
                if main is None:
                    main = tables[key] = Markup(render("site_table.html", headers=shown.headers, rows=shown.rows,
                                                       classes=classes, zip=zip))
                pages[f"{lang}/{page}"] = render("site_sheet.html", sheet=shown, title=shown.title, paper=paper(shown),
                                                 column_classes=column_classes, zip=zip, main_table=main,
                                                 site=site_of(page)).encode("utf-8")

            details = " · ".join(part for part in (settings.location, _dates(settings.begin_date, settings.end_date),
                                                    gettext("%(rounds)d rounds") % {"rounds": settings.rounds})
                                 if part)
            pages[f"{lang}/index.html"] = render("site_index.html", title=settings.name, details=details,
                                                 site=site_of("index.html")).encode("utf-8")
            title = standings_title(state, table)
            pages[f"{lang}/standings.html"] = standings_page(table, title, "site_standings.html",
                                                             site=site_of("standings.html"))
            for r in rounds:
                sheet_page(pairing_sheet(pairing_list_of(state, r)), f"round-{r}.html")
            sheet_page(player_sheet(player_list_of(state)), "players.html")
            if cross is not None:
                sheet_page(crosstable_sheet(cross, settings.name), "crosstable.html")
                sheet_page(wall_sheet(wall_list_of(state)), "wall.html")
            else:
                for page in ("crosstable.html", "wall.html"):
                    pages[f"{lang}/{page}"] = render(
                        "site_index.html", title=settings.name, details=gettext("No round has been paired yet."),
                        site=site_of(page)).encode("utf-8")
    with use_language(languages[0]):
        pages["index.html"] = render("site_languages.html", title=settings.name,
                                     languages=[(lang, LANGUAGE_NAMES[lang]) for lang in languages],
                                     site={"seq": state.seq, "hash": head_hash}).encode("utf-8")
    return pages


def _dates(begin: str, end: str) -> str:
    return begin if not end or end == begin else f"{begin} – {end}"


def site(db: PathLike, folder: PathLike, languages: str | None = None) -> SiteOutcome:
    """Build or update the results site of ledger ``db`` in ``folder`` (created when missing):
    ``languages`` a comma-separated list (default: the tournament's language first, then the
    others of :data:`~goledger.i18n.LANGUAGES`). Refused: an unknown language, a folder that
    is a file or holds files but no ``site.json`` (not a site: nothing is written over them)."""
    target = Path(folder)
    head = head_state(db)
    state = head.state
    if state.settings is None:
        raise CommandRejected(f"{db} has no tournament (its log has no TournamentCreated event)")
    chosen = _languages(languages, state.settings.language)
    manifest = target / MANIFEST
    if target.exists() and not target.is_dir():
        raise CommandRejected(f"{target} is a file, not a folder")
    if target.is_dir() and any(target.iterdir()) and not manifest.is_file():
        raise CommandRejected(f"{target} holds files but is not a goledger site (no {MANIFEST}): choose an empty or "
                              "new folder")
    previous = _previous(manifest)
    if _current(manifest, head.hash, chosen) and all((target / name).is_file() for name in previous):
        return SiteOutcome(str(target), state.seq, head.hash, [], len(previous), [])
    pages = build_pages(state, head.hash, chosen)
    written: list[str] = []
    unchanged = 0
    protect = [db]
    for name, data in sorted(pages.items()):
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            same = path.read_bytes() == data
        except OSError:
            same = False
        if same:
            unchanged += 1
            continue
        write_output(data, path, protect, force=True, what="site page")
        written.append(name)
    removed = [name for name in previous if name not in pages and _inside(target, name)]
    for name in removed:
        (target / name).unlink(missing_ok=True)

    listing = {"seq": state.seq, "hash": head.hash, "languages": list(chosen), "goledger": __version__,
               "pages": sorted(pages)}
    write_output((json.dumps(listing, indent=1) + "\n").encode("utf-8"), manifest, protect, force=True,
                 what="site list")
    return SiteOutcome(str(target), state.seq, head.hash, written, unchanged, removed)


def _languages(text: str | None, own: str) -> tuple[str, ...]:
    if not text:
        return (own, *(lang for lang in LANGUAGES if lang != own))
    chosen = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    unknown = [lang for lang in chosen if lang not in LANGUAGES]
    if unknown or not chosen:
        raise CommandRejected(f"unknown language {', '.join(unknown) or text!r}; use {', '.join(LANGUAGES)}")
    return chosen


def _current(manifest: Path, head_hash: str, languages: tuple[str, ...]) -> bool:
    """Whether the site was built at this very head, in these languages, by this goledger."""

    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("hash") == head_hash and data.get("languages") == list(languages) \
        and data.get("goledger") == __version__


def _previous(manifest: Path) -> list[str]:
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    pages = data.get("pages") if isinstance(data, dict) else None
    return [p for p in pages if isinstance(p, str)] if isinstance(pages, list) else []


def _inside(target: Path, name: str) -> bool:
    """Whether a page named in ``site.json`` lies inside the site (a doctored list never removes
    a file elsewhere)."""
    path = (target / name).resolve()
    return path.is_relative_to(target.resolve()) and path.suffix == ".html"
