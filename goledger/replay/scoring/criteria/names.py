"""Every placement criterion's names, in goledger and in the files of other programs: the one
table the formats read and write criterion names through (issue 28, item 6).

A row per criterion goledger registers (:data:`NAMES`, by family):
its goledger ``name`` — the key of :data:`~goledger.replay.scoring.criteria.CRITERIA`, whose
``description`` (a message id, translated where it is shown) and whose row of
``docs/criteria.md`` describe it — and, where the other program has one:

- ``opengotha``: OpenGotha's long name in ``<PlacementCriterion name=…>`` (spec
  ``formats/opengotha-xml.md`` §7.3), and ``pairgoth``: pairgoth's enum names for the same
  criterion, which OpenGotha reads as ``NULL`` (§10); ``opengotha_instead`` /
  ``opengotha_change``: for a criterion OpenGotha does not have, the one written in its place
  and what the replacement changes (``None``: nothing is written);
- ``macmahon``: MacMahon 3.10's walllist short name (the only seven its reader accepts, spec
  ``formats/macmahon.md`` §B.13), and ``macmahon_instead``: the short name written for a
  criterion MacMahon does not have, which MacMahon computes by its own rules;
- ``egd``: the EGD results file's column-header names (OpenGotha's 5-character short names,
  pairgoth's names; spec ``formats/egd.md`` §7), and ``egd_either``: header names meaning this
  criterion or its W/M twin, the main score choosing (``SOS`` is SOSW in a Swiss, SOSM in a
  McMahon tournament);
- ``fide``: the FIDE tie-break code (C.07), which TRF's ``202``/``212`` records write with
  ``/`` for ``-`` (:func:`trf_code`).

The tables below are derived from the rows; nothing else in goledger lists these names.

>>> OPENGOTHA_NAMES >= {"MMS", "SOSM-1", "SDC"}, "MM-SOS" in OPENGOTHA_NAMES
(True, False)
>>> PAIRGOTH_NAMES["SOSWM1"], CRITERION_FOR_MACMAHON["ScoreX"], MACMAHON_INSTEAD["SOSOSM"]
('SOSW-1', 'MM-ScoreX', 'SOSOS')
>>> EGD_HEADER_NAMES["SOS-1"], EGD_HEADER_NAMES["RATIN"], trf_code("BH-C1"), trf_code("SOSM")
('SOS*-1', 'Rating', 'BH/C1', None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = [
    "CRITERION_FOR_FIDE",
    "CRITERION_FOR_MACMAHON",
    "EGD_HEADER_NAMES",
    "EGD_SKIPPED_HEADERS",
    "FIDE_NAMES",
    "MACMAHON_FOR_CRITERION",
    "MACMAHON_INSTEAD",
    "NAMES",
    "OPENGOTHA_INSTEAD",
    "OPENGOTHA_NAMES",
    "PAIRGOTH_NAMES",
    "CriterionNames",
    "names_of",
    "trf_code",
]


@dataclass(frozen=True)
class CriterionNames:
    """One criterion's names (the fields are described in the module's docstring)."""

    name: str
    opengotha: str | None = None
    pairgoth: tuple[str, ...] = ()
    opengotha_instead: str | None = None
    opengotha_change: str = ""
    macmahon: str | None = None
    macmahon_instead: str | None = None
    egd: tuple[str, ...] = ()
    egd_either: tuple[str, ...] = ()
    fide: str | None = None


def _og(name: str, *pairgoth: str, egd: tuple[str, ...] | None = None, either: tuple[str, ...] = (),
        macmahon_instead: str | None = None) -> CriterionNames:
    """A criterion OpenGotha has, under goledger's own name; its EGD header name is the same
    unless ``egd`` says otherwise."""
    return CriterionNames(name, opengotha=name, pairgoth=pairgoth, egd=(name,) if egd is None else egd,
                          egd_either=either, macmahon_instead=macmahon_instead)


def _mm(name: str, instead: str | None, change: str) -> CriterionNames:
    """A criterion of MacMahon 3.10 (``MM-`` + its short name), written to OpenGotha as ``instead``."""
    return CriterionNames(name, macmahon=name.removeprefix("MM-"), opengotha_instead=instead, opengotha_change=change)


def _fide(name: str) -> CriterionNames:
    return CriterionNames(name, fide=name)


NAMES: Final[tuple[CriterionNames, ...]] = (
    # Go: scores and attributes (criteria/go.py, exploits.py)
    _og("NBW", macmahon_instead="Points"),
    _og("MMS", macmahon_instead="Score"),
    _og("STS"),
    _og("CPS"),
    _og("CAT", "CATEGORY", egd=("CAT", "CATEGORY")),
    _og("Rank", "RANK", egd=("RANK",)),
    _og("Rating", "RATING", egd=("RATIN", "RATING")),
    _og("CUSSW", either=("CUSS",)),
    _og("CUSSM", either=("CUSS",)),
    CriterionNames("FilePlace"),
    CriterionNames("NBWvirtual"),
    CriterionNames("MMSvirtual"),
    _og("EXT"),
    _og("EXR"),
    # Go: the SOS family (criteria/sos.py)
    _og("SOSW", either=("SOS",), macmahon_instead="SOS"),
    _og("SOSM", either=("SOS",), macmahon_instead="SOS"),
    _og("SOSW-1", "SOSWM1", either=("SOS-1", "SOSM1")),
    _og("SOSM-1", "SOSMM1", either=("SOS-1", "SOSM1")),
    _og("SOSW-2", "SOSWM2", either=("SOS-2", "SOSM2")),
    _og("SOSM-2", "SOSMM2", either=("SOS-2", "SOSM2")),
    _og("SODOSW", either=("SODOS", "SDOS"), macmahon_instead="SODOS"),
    _og("SODOSM", either=("SODOS", "SDOS"), macmahon_instead="SODOS"),
    _og("SOSOSW", either=("SOSOS", "SSOS"), macmahon_instead="SOSOS"),
    _og("SOSOSM", either=("SOSOS", "SSOS"), macmahon_instead="SOSOS"),
    _og("SOSTS"),
    # Go: direct confrontation (criteria/dc.py)
    _og("DC"),
    _og("SDC"),
    # FIDE C.07 (criteria/fide.py)
    *(_fide(name) for name in ("PTS", "BH", "BH-C1", "BH-C2", "BH-M1", "BH-M2", "FB", "FB-C1", "AOB", "SB",
                               "SB-C1", "PS", "PS-C1", "KS", "ARO", "ARO-C1", "TPR", "PTP", "APRO", "APPO", "WIN",
                               "WON", "BPG", "BWG", "REP", "DE", "KASHDAN")),
    # MacMahon 3.10 (criteria/macmahon.py); OpenGotha's nearest criterion (issue 19.10)
    _mm("MM-Score", "MMS", "absent and unpaired rounds count the file's genMMS2ValueAbsent instead of ½, an unknown "
                           "result 0 instead of ½, and half points are rounded by genRoundDownNBWMMS"),
    _mm("MM-ScoreX", "MMS", "absent and unpaired rounds count the file's genMMS2ValueAbsent instead of 0, an unknown "
                            "result 0 instead of ½"),
    _mm("MM-Points", "NBW", "byes and absences count genNBW2ValueBye / genNBW2ValueAbsent"),
    _mm("MM-SOS", "SOSM", "a bye, an absence or an unpaired round adds the own start score (MacMahon: own score − 1 "
                          "for a bye, the own score when unpaired), the handicap is always corrected and never "
                          "floored at 0"),
    _mm("MM-SOSOS", "SOSOSM", "a round without a game adds the own start score × R (MacMahon: own SOS when unpaired "
                              "or on a bye)"),
    _mm("MM-SODOS", "SODOSM", "a bye adds nothing (MacMahon: own score − 1) and a jigo weighs the opponent's score ½ "
                              "without MacMahon's halved handicap"),
    _mm("MM-SORP", None, "MacMahon's sum of result points"),
)
"""Every criterion goledger registers, with its names in other programs' files."""

_BY_NAME: Final = {row.name: row for row in NAMES}


def names_of(name: str) -> CriterionNames:
    """The row of a criterion by its goledger name (``KeyError`` for a name goledger does not register)."""
    return _BY_NAME[name]


def trf_code(name: str) -> str | None:
    """How TRF's ``202``/``212`` records write a criterion: its FIDE code, ``/`` for ``-``
    (``BH-C1`` → ``BH/C1``); ``None`` for a criterion without a FIDE code."""
    row = _BY_NAME.get(name)
    return row.fide.replace("-", "/") if row is not None and row.fide else None


def _either_pattern(pair: list[str]) -> str:
    """``SOSW-1``, ``SOSM-1`` → ``SOS*-1``: the twins' common name, ``*`` where W and M stand."""
    first, second = pair
    differ = [i for i, (a, b) in enumerate(zip(first, second, strict=True)) if a != b]
    assert len(differ) == 1 and {first[differ[0]], second[differ[0]]} == {"W", "M"}, pair
    return first[: differ[0]] + "*" + first[differ[0] + 1:]


def _egd_header_names() -> dict[str, str]:
    names: dict[str, str] = {}
    twins: dict[str, list[str]] = {}
    for row in NAMES:
        for header in row.egd:
            names[header] = row.name
        for header in row.egd_either:
            twins.setdefault(header, []).append(row.name)
    names.update({header: _either_pattern(pair) for header, pair in twins.items()})
    names.update(dict.fromkeys(EGD_SKIPPED_HEADERS, ""))
    return names


OPENGOTHA_NAMES: Final = frozenset(row.opengotha for row in NAMES if row.opengotha)
"""OpenGotha's placement criterion long names (``NULL`` is an empty slot)."""

PAIRGOTH_NAMES: Final = {alias: row.name for row in NAMES for alias in row.pairgoth}
"""pairgoth's enum names → the criterion (OpenGotha reads them as ``NULL``)."""

OPENGOTHA_INSTEAD: Final = {row.name: (row.opengotha_instead, row.opengotha_change) for row in NAMES
                            if row.opengotha_change}
"""A criterion OpenGotha has not → (the OpenGotha criterion written instead or ``None``, what that changes)."""

CRITERION_FOR_MACMAHON: Final = {row.macmahon: row.name for row in NAMES if row.macmahon}
"""MacMahon's walllist short names → goledger's criteria."""

MACMAHON_FOR_CRITERION: Final = {name: short for short, name in CRITERION_FOR_MACMAHON.items()}

MACMAHON_INSTEAD: Final = {row.name: row.macmahon_instead for row in NAMES if row.macmahon_instead}
"""A criterion MacMahon has not → the short name written in its place (MacMahon's own rules then apply)."""

EGD_SKIPPED_HEADERS: Final = ("SCOREX",)
"""EGD header columns read as no criterion (pairgoth's ScoreX)."""

EGD_HEADER_NAMES: Final = _egd_header_names()
"""An EGD column-header name (upper case) → the criterion, ``*`` standing for W or M (chosen by
the main score), ``""`` for a column to skip."""

FIDE_NAMES: Final = tuple(row.name for row in NAMES if row.fide)
"""The criteria with a FIDE tie-break code (their goledger names are the codes)."""

CRITERION_FOR_FIDE: Final = {row.fide: row.name for row in NAMES if row.fide}
"""A FIDE tie-break code (``-`` as in C.07, upper case) → the criterion."""
