"""The stylesheet of goledger's self-contained report pages: the audit report
(:mod:`goledger.render.audit_report`) and the rating preview (:mod:`goledger.render.rating`)
share it; printed, they follow :data:`goledger.render.printouts.PRINT_CSS`."""

from __future__ import annotations

from typing import Final

from goledger.render.printouts import PRINT_CSS

__all__ = ["REPORT_STYLE"]

REPORT_STYLE: Final = """
body { font-family: system-ui, sans-serif; margin: 1.5rem auto; max-width: 78rem; color: #222; }
h1 { font-size: 1.6rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ccc; } h3 { font-size: 1.05rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: .85rem; }
th, td { border: 1px solid #ddd; padding: .15rem .45rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.hash, code { font-family: ui-monospace, monospace; font-size: .75rem; word-break: break-all; }
.ok { color: #176d17; font-weight: bold; } .bad { color: #b00020; font-weight: bold; }
nav a { margin-right: .8rem; } details { margin: .3rem 0; }
svg text { font-size: 11px; font-family: system-ui, sans-serif; }
""" + PRINT_CSS
