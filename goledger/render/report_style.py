"""The stylesheet of goledger's self-contained report pages (the audit report,
:mod:`goledger.render.audit_report`; the rating preview, :mod:`goledger.render.rating`): the one
stylesheet of every self-contained page (``templates/goledger.css``,
:func:`goledger.render.html.stylesheet`), with its print rules."""

from __future__ import annotations

from typing import Final

from goledger.render.html import stylesheet

__all__ = ["REPORT_STYLE"]

REPORT_STYLE: Final = stylesheet()
"""The one stylesheet, A4 portrait when printed (as text, for a page not written by a template)."""
