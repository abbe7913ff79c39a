"""Small generated tournament files, so the hardening tests run on a fresh clone (without
``../shared``): OpenGotha XML saves, and names of any length in any script.

>>> data = opengotha_xml(5, 2, seed=1)
>>> data.startswith(b"<?xml version='1.0' encoding='UTF-8'"), data.count(b"<Player "), data.count(b"<ByePlayer ")
(True, 5, 2)
>>> len(long_name(random.Random(1), 200)) == 200
True
"""

from __future__ import annotations

import random
from typing import Final

from lxml import etree

__all__ = ["SCRIPTS", "long_name", "opengotha_xml"]

SCRIPTS: Final = {
    "latin": "abcdefghijklmnopqrstuvwxyzàéèçñøåäöüßœ",
    "turkish": "İıŞşĞğÇçÖöÜü" + "abcdefghijklmnoprstuvyz",
    "cjk": (
        "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡"
        "余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯"
        "龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
    ),
    "hangul": (
        "김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민"
        "진지엄채원천방공현함변염여추도소석선설마길연위표명기반라왕금옥육인맹제모탁국어은"
        "편"
    ),
    "hebrew": "אבגדהוזחטיכלמנסעפצקרשת",
    "arabic": "ابتثجحخدذرزسشصضطظعغفقكلمنهوي",
    "cyrillic": "абвгдежзийклмнопрстуфхцчшщыэюяАБВГДЕЖЗИКЛМНОПРСТУФХ",
    "greek": "αβγδεζηθικλμνξοπρστυφχψωΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ",
}
"""Letters of several scripts: Latin with diacritics, Turkish dotted/dotless I, CJK, Hangul,
right-to-left Hebrew and Arabic, Cyrillic, Greek."""


def long_name(rng: random.Random, length: int, script: str | None = None) -> str:
    """A name of exactly ``length`` characters in one script (chosen at random when not
    given), with a space every few letters (never leading or trailing)."""
    letters = SCRIPTS[script or rng.choice(sorted(SCRIPTS))]
    out = []
    while len(out) < length:
        if out and out[-1] != " " and len(out) < length - 1 and rng.random() < 0.12:
            out.append(" ")
        else:
            out.append(rng.choice(letters))
    return "".join(out)


_RESULTS: Final = (
    "RESULT_WHITEWINS", "RESULT_BLACKWINS", "RESULT_EQUAL", "RESULT_WHITEWINS_BYDEF", "RESULT_UNKNOWN",
    "RESULT_BOTHLOSE", "RESULT_BLACKWINS_BYDEF",
)
_GENERAL: Final = {
    "basicTime": "60", "beginDate": "2026-05-30", "canByoYomiTime": "300", "complementaryTimeSystem": "CANBYOYOMI",
    "director": "A. Director", "endDate": "2026-05-31", "fischerTime": "10", "genCountNotPlayedGamesAsHalfPoint":
    "false", "genMMBar": "4D", "genMMFloor": "20K", "genMMS2ValueAbsent": "1", "genMMS2ValueBye": "2",
    "genMMZero": "30K", "genNBW2ValueAbsent": "0", "genNBW2ValueBye": "2", "genRoundDownNBWMMS": "true",
    "komi": "7.5", "location": "Generated City", "nbMovesCanTime": "15", "numberOfCategories": "1",
    "shortName": "gen", "size": "19", "stdByoYomiTime": "30",
}


def _rank(rng: random.Random) -> str:
    value = rng.randint(-25, 6)
    return f"{value + 1}D" if value >= 0 else f"{-value}K"


def opengotha_xml(
    players: int,
    rounds: int,
    seed: int = 1,
    *,
    name_length: int | None = None,
    teams: int = 0,
    name: str = "Generated Open",
) -> bytes:
    """An OpenGotha-like save: ``players`` players (names of ``name_length`` characters in
    any script when given), ``rounds`` rounds of random pairings with results, a bye
    whenever the count is odd, a few absences, and ``teams`` teams of four boards."""
    rng = random.Random(seed)
    root = etree.Element("Tournament", dataVersion="201", fullVersionNumber="3.51.02", runningMode="SAL")
    players_el = etree.SubElement(root, "Players")
    keys: list[str] = []
    absent: dict[str, str] = {}
    seen: set[str] = set()
    for i in range(players):
        while True:
            if name_length:
                surname = long_name(rng, name_length)
                first = long_name(rng, max(1, name_length // 4))
            else:
                surname = rng.choice(["Sato", "Kim", "Müller", "Dubois", "Yılmaz", "Nagy", "O'Brien", "Chen"])
                first = f"{rng.choice(['Ken', 'Anna', 'Léa', 'İlker', 'Zoë'])}{i}"
            key = (surname + first).replace(" ", "").upper()
            if key not in seen:
                break
        seen.add(key)
        keys.append(key)
        participating = "".join("0" if rng.random() < 0.03 else "1" for _ in range(20))
        absent[key] = participating
        rank = _rank(rng)
        etree.SubElement(
            players_el, "Player", agaExpirationDate="", agaId="", club=rng.choice(["Par", "Ber", "Ist"]),
            country=rng.choice(["FR", "DE", "TR", "JP"]), egfPin=str(10000000 + i), ffgLicence="",
            ffgLicenceStatus="", firstName=first, grade=rank, name=surname, participating=participating, rank=rank,
            rating=str(rng.randint(100, 2700)), ratingOrigin="EGF", registeringStatus="FIN", smmsCorrection="0",
        )
    games_el = etree.SubElement(root, "Games")
    byes: list[tuple[int, str]] = []
    for r in range(1, rounds + 1):
        present = [k for k in keys if absent[k][r - 1] == "1"]
        rng.shuffle(present)
        if len(present) % 2:
            byes.append((r, present.pop()))
        for t in range(len(present) // 2):
            etree.SubElement(
                games_el, "Game", blackPlayer=present[2 * t + 1], handicap=str(rng.choice([0, 0, 0, 2])),
                knownColor="true", result=rng.choice(_RESULTS), roundNumber=str(r), tableNumber=str(t + 1),
                whitePlayer=present[2 * t],
            )
    if byes:
        bye_el = etree.SubElement(root, "ByePlayers")
        for r, key in byes:
            etree.SubElement(bye_el, "ByePlayer", player=key, roundNumber=str(r))
    tps = etree.SubElement(root, "TournamentParameterSet")
    etree.SubElement(tps, "GeneralParameterSet", name=name, numberOfRounds=str(rounds), **_GENERAL)
    etree.SubElement(tps, "HandicapParameterSet", hdBasedOnMMS="true", hdCeiling="9", hdCorrection="1",
                     hdNoHdRankThreshold="1D")
    placement = etree.SubElement(etree.SubElement(tps, "PlacementParameterSet"), "PlacementCriteria")
    for number, crit in enumerate(("MMS", "SOSM", "SOSOSM", "NULL", "NULL", "NULL"), start=1):
        etree.SubElement(placement, "PlacementCriterion", name=crit, number=str(number))
    if teams:
        teams_el = etree.SubElement(root, "Teams")
        for t in range(teams):
            team = etree.SubElement(teams_el, "Team", teamName=f"Team {t + 1}", teamNumber=str(t + 1))
            for board, key in enumerate(keys[4 * t: 4 * t + 4], start=1):
                etree.SubElement(team, "Board", boardNumber=str(board), player=key, roundNumber="1")
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=False, pretty_print=True)


def exported_seeds(fmt: str) -> list[bytes]:
    """Small files written by goledger's own exporters (``egd``, ``macmahon``, ``trf``) from
    generated tournaments: seeds for fuzzing that need no ``../shared``."""
    import msgspec

    from benchmarks.generate import generate_events
    from goledger.ledger import events as ev
    from goledger.replay.fold.state import fold

    out: list[bytes] = []
    for players, rounds, seed, length in ((9, 3, 2, 0), (14, 4, 3, 0), (7, 2, 4, 30)):
        rng = random.Random(seed)
        events = []
        for event in generate_events(players, rounds, seed=seed):
            if length and isinstance(event, ev.PlayerRegistered):
                event = msgspec.structs.replace(event, surname=long_name(rng, length), first_name=long_name(rng, 8))
            events.append(event)
        state = fold(events)
        if fmt == "egd":
            from goledger.formats.egd.write import write_egd

            data, _ = write_egd(state, None, "utf-8", "free", None, None, source="generated")
        elif fmt == "macmahon":
            from goledger.formats.macmahon.write import write_macmahon

            data, _ = write_macmahon(state, source="generated")
        elif fmt == "trf":
            from goledger.formats.trf.write import write_trf

            data, _ = write_trf(state, None, False, False, False, source="generated")
        else:
            raise ValueError(f"no exporter {fmt!r}")
        out.append(data)
    return out
