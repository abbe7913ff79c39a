"""The element layout of MacMahon 3.10's XML files (spec ``formats/macmahon.md`` §1, §B).

One table per object, in **writer order**, each row ``(element, kind, default)``:

* ``kind`` — ``int``, ``bool``, ``level``, ``date``, ``text`` (plain text), ``cdata``
  (written as a CDATA section: only ``Name``, ``Description``, ``FirstName``, ``Surname``,
  ``Comment`` and ``ExportColumnDelimiter``, spec §B.7), and the ``…-opt`` variants that are
  omitted when empty (spec §B.6); ``criterion`` is an element holding a ``<ShortName>``.
* ``default`` — the value of a new MacMahon 3.10 tournament where spec §1.1 gives one; for
  display and pairing options it does not give, goledger writes the neutral value shown.
  ``None`` means "no value": the element is omitted (``…-opt``) or written empty.

The reader needs the same table to know which elements it understands; every other
tournament-level element of a file is kept verbatim (``macmahon.<Element>``) and written
back just before ``<Walllist>``.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "CDATA_ELEMENTS",
    "GAME_PAIRING",
    "PARTICIPANT",
    "PLAYER",
    "TOURNAMENT",
    "TYPEVERSIONS",
    "WALLLIST",
]

Row = tuple[str, str, str | None]

TYPEVERSIONS: Final[dict[str, str]] = {
    "Tournament": "9",
    "IndividualParticipant": "1",
    "GoPlayer": "1",
    "TournamentRound": "2",
    "Pairing": "2",
    "Walllist": "3",
    "SortCriterionDescriptor": "2",
    "MakePairingSeedingPlacementCriterion": "2",
    "Country": "1",
    "Club": "1",
    "UnwantedPairing": "1",
}
"""``typeversion`` of every object element MacMahon 3.10 writes (spec §1, §B.3)."""

TOURNAMENT: Final[tuple[Row, ...]] = (
    ("NumberOfRounds", "int", "5"),
    ("CurrentRoundNumber", "int", "1"),
    ("TakeCurrentRoundInAccount", "bool", "false"),
    ("Name", "cdata", ""),
    ("Description", "cdata-opt", None),
    ("DefaultAsianName", "bool", "false"),
    ("RatingAllowed", "bool", "false"),
    ("RatingLowestOneDanRating", "int", "2050"),
    ("RatingDeterminesRank", "bool", "false"),
    ("RatingDeterminesStartScore", "bool", "false"),
    ("LowerMacMahonBar", "bool", "false"),
    ("LowerMacMahonBarLevel", "level", "35k"),
    ("UpperMacMahonBar", "bool", "false"),
    ("UpperMacMahonBarLevel", "level", "9d"),
    ("UpperMacMahonBarRating", "int", "2850"),
    ("ByeShouldResultInZeroSOSetc", "bool", "false"),
    ("HalfScoreGroupsRoundDown", "bool", "false"),
    ("HalfScoreGroupsRoundDownNotJigo", "bool", "true"),
    ("PreliminaryDefaultRegistration", "bool", "false"),
    ("OnlineEgdSupport", "bool", "true"),
    ("OnlineEgdSupportByPin", "bool", "false"),
    ("HandicapUsed", "bool", "true"),
    ("HandicapBelow", "bool", "true"),
    ("HandicapBelowLevel", "level", "1d"),
    ("HandicapByLevel", "bool", "false"),
    ("HandicapAdjustment", "bool", "true"),
    ("HandicapAdjustmentValue", "int", "-2"),
    ("HandicapLimit", "bool", "true"),
    ("HandicapLimitValue", "int", "9"),
    ("HandicapIncludeInTieBreakers", "bool", "true"),
    ("AllowJigo", "bool", "false"),
    ("Boardsize", "int", "19"),
    ("PairingsMarkFixedBoardnumbers", "bool", "true"),
    ("PairingsMarkMissingResults", "bool", "true"),
    ("PairingsMarkWinner", "bool", "true"),
    ("PairingsMarkUnwantedPairings", "bool", "true"),
    ("PairingsShowLevels", "bool", "true"),
    ("PairingsShortNotationForLevel", "bool", "true"),
    ("PairingsShowScores", "bool", "true"),
    ("PairingsShowHandicaps", "bool", "true"),
    ("PairingsFontsize", "int", "12"),
    ("PairingsBlackColumnWidth", "int", "0"),
    ("PairingsWhiteColumnWidth", "int", "0"),
    ("ImportEncoding", "text", "UTF-8"),
    ("ExportColumnDelimiter", "cdata", "f"),
    ("ExportWalllistShowTournamentTitle", "bool", "true"),
    ("ExportEncoding", "text", "UTF-8"),
    ("VersionCreated", "text", None),
    ("VersionSaved", "text", None),
    ("MakePairingTopGroup", "bool", "false"),
    ("MakePairingTopGroupEverywhere", "bool", "false"),
    ("MakePairingTopGroupStrictlyByTopBar", "bool", "false"),
    ("MakePairingTopGroupByNumberOfPlayersAuto", "bool", "true"),
    ("MakePairingTopGroupByNumberOfPlayers", "int", "0"),
    ("MakePairingTopGroupSeeding", "bool", "false"),
    ("MakePairingSeedingPlacementCriterion", "criterion", "SOS"),
    ("MakePairingTopGroupSeedingByRating", "bool", "false"),
    ("MakePairingTopGroupSeedingByRatingRound", "int", "0"),
    ("MakePairingOutsideTopGroupSameCountry", "bool", "false"),
    ("MakePairingOutsideTopGroupSameClub", "bool", "true"),
    ("MakePairingOutsideTopGroupSameNationality", "bool", "false"),
    ("MakePairingOutsideTopGroupStrengthDifference", "bool", "false"),
    ("MakePairingOutsideTopGroupStrengthDifferenceValue", "int", "0"),
    ("MakePairingOutsideTopGroupColorBalance", "bool", "true"),
    ("MakePairingOutsideTopGroupWeakOddMan", "bool", "true"),
    ("MakePairingOutsideTopGroupSeeding", "bool", "false"),
)
"""Scalar children of ``<Tournament>`` before ``<Walllist>`` (spec §1.1). After them come
``Walllist``, ``Country``…, ``DefaultCountry`` and ``DefaultNationality`` (text, written only
when set), ``IndividualParticipant``…, ``TournamentRound``…, ``UnwantedPairing``… (§B.16)."""

TOURNAMENT_TAIL: Final[tuple[Row, ...]] = (
    ("DefaultCountry", "text-opt", None),
    ("DefaultNationality", "text-opt", None),
)

WALLLIST: Final[tuple[Row, ...]] = (
    ("ShowCountry", "bool", "true"),
    ("ShowClub", "bool", "true"),
    ("ShowClubEgdName", "bool", "false"),
    ("ShowClubAbbreviateName", "bool", "false"),
    ("ShowLevels", "bool", "true"),
    ("ShortNotationForLevel", "bool", "true"),
    ("ShowBarMembership", "bool", "true"),
    ("ShowRatings", "bool", "false"),
    ("MarkPreliminaryRegisteredParticipants", "bool", "true"),
    ("MarkResultsByReferree", "bool", "true"),
    ("ShowColors", "bool", "true"),
    ("ShowHandicap", "bool", "true"),
    ("ShowWarningMissingPairing", "bool", "true"),
    ("Fontsize", "int", "12"),
    ("NameColumnWidth", "int", "0"),
    ("ClubColumnWidth", "int", "0"),
    ("ClubColumnAlignmentCenter", "bool", "false"),
    ("WeakSortCriteria", "int", "1"),
)
"""Scalar children of ``<Walllist>`` (spec §1.5), then ``SortCriterionDescriptor``…"""

PARTICIPANT: Final[tuple[Row, ...]] = (
    ("Id", "int", None),
    ("Joker", "bool", "false"),
    ("PreliminaryRegistration", "bool", "false"),
    ("ScoreAdjustment", "bool", "false"),
    ("ScoreAdjustmentValue", "int", "0"),
    ("SuperBarMember", "bool", "false"),
    ("Comment", "cdata-opt", None),
)
"""``<IndividualParticipant>`` before its ``NotPlayingInRound``… and ``<GoPlayer>`` (spec §1.2)."""

PLAYER: Final[tuple[Row, ...]] = (
    ("AsianName", "bool", "false"),
    ("FirstName", "cdata-opt", None),
    ("Surname", "cdata-opt", None),
    ("GoLevel", "level", None),
    ("Rating", "int", "0"),
    ("EgdPin", "int", "0"),
    ("Country", "text-opt", None),
    ("Club", "text-opt", None),
    ("Nationality", "text-opt", None),
)
"""``<GoPlayer>`` (spec §1.2)."""

GAME_PAIRING: Final[tuple[Row, ...]] = (
    ("ForcedPairing", "bool", "false"),
    ("PairingWithBye", "bool", "false"),
    ("Black", "int", None),
    ("White", "int", None),
    ("Handicap", "int", "0"),
    ("AllowJigo", "bool", "false"),
    ("Result", "text", "?-?"),
    ("ResultByReferee", "bool", "false"),
    ("ResultPoints", "int", "0"),
    ("BoardNumber", "int", None),
    ("BoardNumberFixed", "bool", "false"),
    ("Comment", "cdata-opt", None),
    ("CreationTime", "date-opt", None),
)
"""``<Pairing>`` of a game (spec §1.3). A bye writes only ``ForcedPairing``,
``PairingWithBye``, ``Black``, ``BoardNumber``, ``BoardNumberFixed``, [``Comment``],
[``CreationTime``] (spec §B.4)."""

BYE_ELEMENTS: Final = frozenset({"ForcedPairing", "PairingWithBye", "Black", "BoardNumber", "BoardNumberFixed",
                                 "Comment", "CreationTime"})

CDATA_ELEMENTS: Final = frozenset({"Name", "Description", "FirstName", "Surname", "Comment", "ExportColumnDelimiter"})

RESULTS: Final[dict[str, str]] = {
    "?-?": "unknown",
    "1-0": "black",
    "0-1": "white",
    "½-½": "jigo",
    "0-0": "both-lose",
    "1-1": "both-win",
}
"""MacMahon's six result short names, **Black first** (spec §1.3, §B.9) → ledger results."""

RESULT_NAMES: Final[dict[str, str]] = {v: k for k, v in RESULTS.items()}
