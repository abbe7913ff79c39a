"""Every HTML page goledger writes, on several ledgers, to compare two versions of the renderer.

``python -m benchmarks.html_outputs make FOLDER`` writes the ledgers (the sample, EGC 2011 from
``../shared/realdata`` when present, a knockout, a team league, one with hostile names and
control characters written as an older goledger did); ``… render FOLDER OUT`` writes each page
(the CLI's ``--format html`` of every printout, ``goledger slips``, ``goledger bracket``, the
desk's print pages) to ``OUT``; ``… compare OLD NEW`` says, page by page, whether the bytes are
the same and, if not, whether the DOM and text are (both parsed with lxml.html, the ``<style>``
text left out).
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
EVIL = "Evil\x1b]0;pwn\x07\u202e\x00\x01"
HOSTILE = ['<script>alert("x")</script>', "O'Brien & \"Sons\"", "Tom & Jerry <b>"]


def make(folder: Path) -> None:
    from goledger import commands
    from goledger.commands.teams import pair_teams, team_add, team_assign
    from goledger.ledger import events as ev
    from goledger.ledger.store import Ledger

    folder.mkdir(parents=True, exist_ok=True)
    for f in folder.glob("*.db*"):
        f.unlink()
    (folder / "sample.db").write_bytes((REPO / "samples" / "sample.db").read_bytes())
    egc = SHARED / "realdata" / "opengotha" / "lucvannier_opengotha__egc2011.xml"
    if egc.exists():
        from goledger.formats.opengotha import import_opengotha

        import_opengotha(egc, folder / "egc.db")
    # a knockout of 8, two rounds played
    sys.path.insert(0, str(REPO))
    from tests.systems_support import new_event, play_out

    ko = new_event(folder, "knockout", 8, None, name="knockout.db")
    play_out(ko, max_rounds=2)
    dko = new_event(folder, "double-knockout", 6, None, name="double.db")
    play_out(dko, max_rounds=3)
    # a knockout of hostile names (quotes, markup, a name longer than its box, control characters)
    hko = folder / "hostileko.db"
    commands.new(hko, 'KO <i>"&"</i>', None, "knockout")
    names = [*HOSTILE, EVIL, "A very long name that does not fit in its box at all", "\u202eRTL", "Plain"]
    with Ledger.open(hko) as ledger, ledger.writing() as tx:
        tx.append([ev.PlayerRegistered(player_id=f"p{i + 1:04d}", surname=n, rank=f"{i + 1}k")
                   for i, n in enumerate(names)], actor=EVIL)
    play_out(hko, max_rounds=2)
    # a team league
    db = folder / "league.db"
    commands.new(db, "League & <Co>", 2, "team-swiss", options={"boards": 2})
    for surname, rank in (("Sato", "2d"), ("Ito", "1k"), ("Abe", "4k"), ("Mori", "5k"), ("O'Neil", "6k"),
                          ("<b>Bold</b>", "7k"), ("Kim", "8k"), ("Lee", "9k")):
        commands.register(db, surname, "X", rank)
    for t in ("Lions", "Tigers & Co", "<Bears>", "Owls"):
        team_add(db, t)
    for team, pids in (("Lions", (1, 2)), ("Tigers & Co", (3, 4)), ("<Bears>", (5, 6)), ("Owls", (7, 8))):
        for board, pid in enumerate(pids, start=1):
            team_assign(db, team, f"p{pid:04d}", board)
    pair_teams(db, 1, "Lions", "Tigers & Co")
    pair_teams(db, 1, "<Bears>", "Owls")
    for t in (1, 2, 3):
        commands.result(db, 1, t, "white" if t % 2 else "black")
    # hostile names, and control characters written as an older goledger did
    db = folder / "hostile.db"
    commands.new(db, 'Cup <script>alert(1)</script> & "Co"', 3)
    for i, name in enumerate(HOSTILE):
        commands.register(db, name, "A&B", f"{i + 1}k", "FR", "<club>")
    with Ledger.open(db) as ledger, ledger.writing() as tx:
        tx.append([
            ev.PlayerRegistered(player_id="p0004", surname=EVIL, first_name=EVIL, rank="3d", club=EVIL),
            ev.PlayerRegistered(player_id="p0006", surname="\u202eRTL override", first_name="x", rank="4k"),
            ev.PlayerRegistered(player_id="p0005", surname="Sixth", first_name=EVIL, rank="2k", club=EVIL),
            ev.GamePaired(round=1, table=1, white="p0001", black="p0002"),
            ev.GamePaired(round=1, table=2, white="p0003", black="p0004"),
            ev.GamePaired(round=1, table=3, white="p0006", black="p0005"),
            ev.ResultRecorded(round=1, table=1, result="white"),
            ev.ResultRecorded(round=1, table=3, result="black"),
        ], actor=EVIL, reason=EVIL)


INDIVIDUAL = {
    "pairings": ["pairings", "-r", "1", "-f", "html"],
    "pairings-name": ["pairings", "-r", "1", "--by", "name", "-f", "html"],
    "wall": ["wall-list", "-f", "html"],
    "standings-wall": ["standings", "--wall", "-f", "html"],
    "players": ["players", "-f", "html"],
    "crosstable": ["crosstable", "-f", "html"],
    "slips": ["slips", "-r", "1"],
    "slips8": ["slips", "-r", "1", "--per-page", "8"],
}
SYSTEM = {"places": ["standings", "-f", "html"], "bracket": ["bracket", "-f", "html"]}
TEAMS = {
    "team-pairings": ["team", "pairings", "-r", "1", "-f", "html"],
    "team-sheets": ["team", "sheets", "-r", "1", "-f", "html"],
    "team-crosstable": ["team", "crosstable", "-f", "html"],
    "team-standings": ["standings", "-f", "html"],
}
DESK = {"print-pairings": "/print/pairings/1", "print-pairings-name": "/print/pairings/1?by=name",
        "print-slips": "/print/slips/1", "print-slips8": "/print/slips/1?per_page=8", "print-players": "/print/players",
        "print-wall": "/print/wall"}


def render(folder: Path, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200"}
    env.pop("GOLEDGER_DB", None)
    for db in sorted(folder.glob("*.db")):
        kind = {"knockout": SYSTEM, "double": SYSTEM, "hostileko": SYSTEM, "league": TEAMS}.get(db.stem, INDIVIDUAL)
        for name, argv in kind.items():
            done = subprocess.run([sys.executable, "-m", "goledger", *argv, "--db", str(db)], capture_output=True,
                                  env=env)
            if done.returncode == 0:
                (out / f"{db.stem}.{name}.html").write_bytes(done.stdout)
            else:
                print(db.stem, name, "exit", done.returncode, done.stderr.decode()[-300:], file=sys.stderr)
        if kind is INDIVIDUAL:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                from starlette.testclient import TestClient

                from goledger.web import create_app

                client = TestClient(create_app(db, "token-for-html-outputs"))
                for name, url in DESK.items():
                    r = client.get(url)
                    (out / f"{db.stem}.{name}.html").write_bytes(r.content if r.status_code == 200 else b"")


def _tree(data: bytes) -> object:
    from lxml import html

    root = html.fromstring(data)
    for style in root.iter("style"):
        style.text = ""

    def walk(e: object) -> object:
        return (e.tag, sorted(e.attrib.items()), (e.text or ""), [walk(c) for c in e], (e.tail or ""))  # type: ignore[attr-defined]

    return walk(root)


def _loose(data: bytes) -> object:
    """:func:`_tree` without the whitespace between elements and the head's viewport line."""
    from lxml import html

    root = html.fromstring(data)
    for style in root.iter("style"):
        style.text = ""
    for meta in root.xpath("//meta[@name='viewport']"):
        meta.getparent().remove(meta)

    def walk(e: object) -> object:
        return (e.tag, sorted(e.attrib.items()), (e.text or "").strip(), [walk(c) for c in e],  # type: ignore[attr-defined]
                (e.tail or "").strip())  # type: ignore[attr-defined]

    return walk(root)


def compare(old: Path, new: Path) -> int:
    bad = 0
    for a in sorted(old.glob("*.html")):
        b = new / a.name
        if not b.exists():
            print(f"MISSING  {a.name}")
            bad += 1
            continue
        x, y = a.read_bytes(), b.read_bytes()
        if x == y:
            print(f"same     {a.name}  ({len(x)} bytes)")
        elif not x or not y:
            print(f"EMPTY    {a.name}")
            bad += 1
        elif _tree(x) == _tree(y):
            print(f"dom=     {a.name}  (bytes differ: {len(x)} → {len(y)})")
        elif _loose(x) == _loose(y):
            print(f"dom~     {a.name}  (the same but for whitespace between elements and the viewport line)")
        else:
            print(f"DIFFER   {a.name}")
            bad += 1
    return bad


if __name__ == "__main__":
    cmd, *args = sys.argv[1:]
    if cmd == "make":
        make(Path(args[0]))
    elif cmd == "render":
        render(Path(args[0]), Path(args[1]))
    else:
        sys.exit(1 if compare(Path(args[0]), Path(args[1])) else 0)
