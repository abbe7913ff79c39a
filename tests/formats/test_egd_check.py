"""``goledger egd-check`` and the desk's EGD check page on the real EGD tables of
``../shared/realdata/egd`` with the real EGD list (issue 47, item 3): a known finding of each
kind, pinned line for line. The tables carry no PIN, so the PIN kinds are pinned on a real
table after the corrections a director would make (``update-player``, through the CLI)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ..conftest import SHARED, needs_shared, run_cli
from ..desk_server import TOKEN, DeskServer

EGD_DIR = SHARED / "realdata" / "egd" if SHARED else Path("missing")
LIST = SHARED / "realdata" / "ratinglists" / "Miautomat_egf-streaming__allworld_lp.html" if SHARED else Path("x")

pytestmark = needs_shared


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ratings") / "ratings.db"
    result = run_cli("ratings", "import", LIST, "--ratings", path)
    assert result.code == 0, result
    return path


def _imported(name: str, folder: Path) -> Path:
    db = folder / f"{name}.db"
    result = run_cli("import", "egd", EGD_DIR / f"{name}.h9", "--db", db, "-q", cwd=folder)
    assert result.code == 0, result
    return db


def _lines(db: Path, store: Path, folder: Path) -> list[str]:
    result = run_cli("egd-check", "--db", db, "--ratings", store, cwd=folder)
    assert result.code == 0, result
    return result.out.splitlines()


def test_each_kind_is_found_on_the_real_tables(store: Path, tmp_path: Path) -> None:
    veterans = _lines(_imported("lucvannier_opengotha__Veterans", tmp_path), store, tmp_path)
    assert veterans[0].startswith("Veterans: 14 players checked against the egd list of 2019-02-22")
    assert ("pin-missing: Mizessyn François (p0001): has no EGD PIN; the list has Mizessyn Francois (PIN 10386541, "
            "FR 44Na, 2d, GoR 2191); fix: if it is him, goledger update-player p0001 --egd-pin 10386541") in veterans
    juvisy = _lines(_imported("lucvannier_opengotha__Tournoi_de_Juvisy", tmp_path), store, tmp_path)
    assert ("grade: Lemoine Theo (p0003): declares 1d but his GoR 1729 is about 4k: the EGD queries such a "
            "declaration; fix: check the rank with the player (update-player p0003 --rank R)") in juvisy
    assert ("club: Daguenet Mathieu (p0002): has club '92Le' (written '92Le'); the EGD list says 95Va; fix: "
            "update-player p0002 --club 95Va, if he is still a member") in juvisy
    jusandan = _lines(_imported("p3l_wallist__jusandan", tmp_path), store, tmp_path)
    assert ("name: Sörlin Weiying (p0001): is not in the EGD list as written; the list has Soerlin Weiying (PIN "
            "14762825, SE Sto, 6d, GoR 2502); fix: if it is him, write the name as the EGD does and give his PIN "
            "(update-player p0001 --surname \"Soerlin\" --first-name \"Weiying\" --egd-pin 14762825)") in jusandan
    assert ("country: Ouchterlony Erik (p0005): has country SW, which is not a country code; the EGD list says SE; "
            "fix: update-player p0005 --country SE, if he still plays for it") in jusandan
    assert any(line.startswith("class: the imported class CL[] is no EGF class") for line in jusandan)
    essai = _lines(_imported("lucvannier_opengotha__Essai", tmp_path), store, tmp_path)
    assert any(line.startswith("class: the imported class CL[X] is no EGF class") for line in essai)
    assert not any(line.startswith("class:") for line in veterans)  # CL[A] with TM[82]: consistent


def test_pin_kinds_after_corrections(store: Path, tmp_path: Path) -> None:
    """goledger refuses a PIN given twice, so the table itself says it: Juvisy's lines 2 and 3
    end with the same ``|PIN``, as a table typed by hand could."""
    lines = (EGD_DIR / "lucvannier_opengotha__Tournoi_de_Juvisy.h9").read_bytes().split(b"\n")
    for i, line in enumerate(lines):
        if b"Daguenet Mathieu" in line or b"Lemoine Theo" in line:
            lines[i] = line.rstrip() + b" |14898851"
    (tmp_path / "juvisy.h9").write_bytes(b"\n".join(lines))
    db = tmp_path / "juvisy.db"
    assert run_cli("import", "egd", "juvisy.h9", "--db", db, "-q", cwd=tmp_path).code == 0
    edits = [["p0001", "--egd-pin", "99999999"], ["p0005", "--surname", "Ivanov", "--first-name", "Maxim"],
             ["p0006", "--surname", "Perroux", "--first-name", "Étienne"]]
    for edit in edits:
        assert run_cli("update-player", *edit, "--db", db, cwd=tmp_path).code == 0, edit
    result = run_cli("egd-check", "--db", db, "--ratings", store, "--json", cwd=tmp_path)
    assert result.code == 0, result
    data = json.loads(result.out)
    by_kind: dict[str, list[str]] = {}
    for finding in data["findings"]:
        by_kind.setdefault(finding["kind"], []).append(finding["line"])
    assert by_kind["pin-unknown"] == ["pin-unknown: Minieri Davide (p0001): PIN 99999999 is not in the EGD list; fix: "
                                      "check the PIN (goledger ratings search \"Minieri Davide\"), or remove it "
                                      "(update-player p0001 --egd-pin '')"]
    assert by_kind["pin-duplicate"] == ["pin-duplicate: Lemoine Theo (p0003): has PIN 14898851, as Daguenet Mathieu "
                                        "(p0002); fix: give each his own PIN (goledger update-player p0003 --egd-pin "
                                        "PIN)"]
    assert any(line.startswith("name: Daguenet Mathieu (p0002): PIN 14898851 is Roullier Louise") for line in
               by_kind["name"])
    assert by_kind["homonym"][0].startswith("homonym: Ivanov Maxim (p0005): has no EGD PIN and the list has 5 players "
                                            "of that name: Ivanov Maxim (PIN ")
    assert by_kind["duplicate"] == ["duplicate: Perroux Etienne (p0007): has the name of p0006 (Perroux Étienne, 2k): "
                                    "the EGD takes them for one player entered twice; fix: unregister the duplicate, "
                                    "or give each his EGD PIN (update-player p0007 --egd-pin PIN)"]
    missing = run_cli("egd-check", "--db", db, "--ratings", tmp_path / "none.db", cwd=tmp_path)
    assert missing.code == 1 and "no ratings store at" in missing.err


def test_the_desk_page_lists_the_findings(store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = _imported("lucvannier_opengotha__Veterans", tmp_path)
    monkeypatch.setenv("GOLEDGER_RATINGS", str(store))
    with DeskServer(db) as desk:
        status, _, _ = desk.get("/desk/egd-check")
        assert status == 401
        status, body, _ = desk.get("/desk/egd-check", headers={"Authorization": f"Bearer {TOKEN}"})
    assert status == 200, body
    assert "14 players checked against the EGD list of 2019-02-22: 16 finding(s)" in body
    assert "Change a player" in body and 'class="finding-grade"' in body


def test_the_export_says_what_the_egd_will_reject(store: Path, tmp_path: Path) -> None:
    db = _imported("lucvannier_opengotha__Veterans", tmp_path)
    plain = run_cli("export", "egd", "--db", db, "-o", "plain.h9", cwd=tmp_path)
    checked = run_cli("export", "egd", "--db", db, "-o", "checked.h9", "--check", "--ratings", store, "--report",
                      "r.json", cwd=tmp_path)
    assert plain.code == 0 and checked.code == 0, checked
    assert (tmp_path / "plain.h9").read_bytes() == (tmp_path / "checked.h9").read_bytes()  # nothing refused
    entries = json.loads((tmp_path / "r.json").read_text())["entries"]
    warned = [e["message"] for e in entries if e["kind"] == "egd-check"]
    assert len(warned) == 16 and any("update-player p0001 --egd-pin 10386541" in m for m in warned)
