"""Registration from a rating list (issue 34, points 3 and 4): the checks at the door.

``register --egd-pin PIN`` looks the PIN up in the ratings store (:mod:`goledger.ratings`)
and fills what the director did not type (surname, first name, country, club, rank from the
list's grade, grade, rating from the GoR); what he typed wins. The registration event names
the list (:class:`~goledger.ledger.events.ListProvenance`: source, date, SHA-256, the fields
taken from it). The refusals, each one sentence, nothing written:

* a PIN that is not 8 digits (:func:`check_pin`);
* a PIN already registered in this tournament (``record.register``);
* a PIN whose list name differs from the name given, unless ``force`` (naming the list's name);
* a PIN not in the list without a surname and a rank (with them it is registered, flagged
  ``listed=False``);
* a list newer than the tournament's ratings freeze (``change-rules ratings_date=``).

Without a ratings store on the machine a PIN cannot be checked: the registration needs the
names and rank typed, as before the store existed, and records no list.

>>> check_pin(" 13701534 ")
'13701534'
>>> check_pin("1234")
Traceback (most recent call last):
...
goledger.errors.CommandRejected: EGD PIN '1234' must be 8 digits
>>> same_name("Çelebican", "Barkın", "Celebican", "Barkin"), same_name("Müller", "", "Mueller", "Kai")
(True, True)
>>> same_name("Kai Mueller", "", "Mueller", "Kai"), same_name("Yilmaz", "Ali", "Celebican", "Barkin")
(True, False)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Final

import msgspec

from goledger.errors import CommandRejected
from goledger.i18n import N_
from goledger.i18n.messages import say, say_at
from goledger.i18n.numbers import numeric_date
from goledger.ledger import events as ev
from goledger.ratings.model import ListRef, RatedPlayer
from goledger.ratings.names import collapse, tokens

__all__ = ["FIELDS", "Filled", "check_freeze", "check_pin", "fill_from_list", "same_name"]

PathLike = str | os.PathLike[str]

FIELDS: Final = ("surname", "first_name", "country", "club", "rank", "grade", "rating")
"""The registration fields a list can fill, in the order the output names them."""


def check_pin(pin: str) -> str:
    """The PIN without blanks; refuses one that is not 8 digits."""
    text = pin.strip()
    if not (len(text) == 8 and text.isascii() and text.isdigit()):
        raise CommandRejected(say("EGD PIN %(pin)r must be 8 digits", pin=pin[:40]))
    return text


def _folded(*names: str) -> list[str]:
    return sorted(collapse(t) for n in names for t in tokens(n))


def same_name(surname: str, first_name: str, list_surname: str, list_first: str) -> bool:
    """Whether a name given at the desk is the list's name, up to case, accents, German
    ``ae``/``ä``, word order and a first name left out (a surname alone must be the list's
    surname; a surname and first names, the list's words)."""
    given = _folded(surname, first_name)
    if not given:
        return True
    return given == _folded(list_surname, list_first) or (not first_name.strip() and given == _folded(list_surname))


class Filled(msgspec.Struct, frozen=True, kw_only=True):
    """A registration's fields once the list was read: ``values`` every field,
    ``from_list`` those the list gave, ``provenance`` what the event records (``None``: no
    ratings store), ``note`` a sentence for the director."""

    values: dict[str, Any]
    from_list: tuple[str, ...]
    provenance: ev.ListProvenance | None
    listed: RatedPlayer | None
    ref: ListRef | None
    note: str = ""


def lookup(pin: str, ratings: PathLike | None, source: str = "egd") -> tuple[ListRef | None, RatedPlayer | None]:
    """The store's current list and the player with ``pin`` (``(None, None)``: no store)."""
    from goledger.ratings.store import RatingsStore, ratings_path

    if not ratings_path(ratings).is_file():
        return None, None
    with RatingsStore(ratings) as store:
        return store.lookup(pin, source)


def fill_from_list(given: dict[str, Any], pin: str, ratings: PathLike | None, force: bool = False,
                   source: str = "egd") -> Filled:
    """Complete ``given`` (the fields the director typed; empty text or ``None``: not given)
    from the list's entry for ``pin``, applying the checks of the module docstring that need
    no tournament state."""
    ref, listed = lookup(pin, ratings, source)
    typed = {k: v for k, v in given.items() if v not in ("", None)}
    if ref is None:
        return Filled(values=dict(given), from_list=(), provenance=None, listed=None, ref=None,
                      note="PIN not checked: no ratings store on this machine")
    if listed is None:
        if not typed.get("surname") or not typed.get("rank"):
            raise CommandRejected(say_at("EGD PIN %(pin)s is not in the %(source)s list of %(date)s; give --surname "
                                         "and --rank to register him anyway",
                                         N_("EGD PIN %(pin)s is not in the %(source)s list of %(date)s; give his "
                                            "surname and rank to register him anyway"), pin=pin, source=ref.source,
                                      date=numeric_date(ref.date)))
        provenance = ev.ListProvenance(source=ref.source, date=ref.date, sha256=ref.sha256, listed=False)
        return Filled(values=dict(given), from_list=(), provenance=provenance, listed=None, ref=ref,
                      note=f"PIN not in the {ref.source} list of {ref.date}: registered with the names given")
    if not force and not same_name(typed.get("surname", ""), typed.get("first_name", ""), listed.surname,
                                   listed.first_name):
        given_name = f"{typed.get('surname', '')} {typed.get('first_name', '')}".strip()
        raise CommandRejected(say_at(
            "EGD PIN %(pin)s is %(listed)s (%(country)s, %(club)s) in the %(source)s list of %(date)s, not %(given)s; "
            "use --force to register the PIN under the name given",
            N_("EGD PIN %(pin)s is %(listed)s (%(country)s, %(club)s) in the %(source)s list of %(date)s, not "
               "%(given)s; tick “Register anyway” to register the PIN under the name given"),
            pin=pin, listed=listed.full_name, country=listed.country, club=listed.club, source=ref.source,
            date=numeric_date(ref.date), given=given_name))
    from_list_values: dict[str, Any] = {
        "surname": listed.surname, "first_name": listed.first_name, "country": listed.country,
        "club": "" if listed.club.strip("x") == "" else listed.club, "rank": listed.grade, "grade": listed.grade,
        "rating": listed.gor,
    }
    values = dict(given)
    taken: list[str] = []
    kept: list[str] = []
    for name in FIELDS:
        value = from_list_values[name]
        if value in ("", None) or (name == "country" and value == "XX"):
            if name in typed:
                kept.append(name)
            continue
        if name in typed and not _agrees(name, typed[name], value):
            kept.append(name)
            continue
        values[name] = typed.get(name, value)  # a typed value that agrees with the list is the list's
        taken.append(name)
    provenance = ev.ListProvenance(source=ref.source, date=ref.date, sha256=ref.sha256, fields=tuple(taken))
    note = f"from the {ref.source} list of {ref.date}: {_words(taken) or 'nothing'}"
    if kept:
        note += f"; as given: {_words(kept)}"
    return Filled(values=values, from_list=tuple(taken), provenance=provenance, listed=listed, ref=ref, note=note)


def _agrees(name: str, typed: Any, listed: Any) -> bool:
    """Whether a typed field says what the list says (the desk's form, filled by a click
    on a search result, sends the list's own values)."""
    if name == "rating":
        return bool(typed == listed)
    if name in ("country", "rank", "grade"):
        return str(typed).strip().lower() == str(listed).lower()
    return str(typed).strip() == str(listed)


def _words(fields: Sequence[str]) -> str:
    return ", ".join(f.replace("_", " ") for f in fields)


def check_freeze(settings: Any, ref: ListRef | ev.ListProvenance | None) -> None:
    """Refuse a list newer than the tournament's ratings freeze (``ratings_date``)."""
    freeze = getattr(settings, "ratings_date", "")
    if ref is not None and freeze and ref.date > freeze:
        raise CommandRejected(say(
            "the %(source)s list of %(date)s is newer than this tournament's ratings freeze (%(freeze)s); import the "
            "list of %(freeze)s or move the freeze with 'change-rules ratings_date=YYYY-MM-DD'", source=ref.source,
            date=numeric_date(ref.date), freeze=numeric_date(freeze)))


REFRESHED: Final = ("country", "club", "rank", "grade", "rating")
"""What ``update-player --from-ratings`` takes from the list. Not the names: the director may
have typed them with their accents (``Çelebican``), which the ASCII list would undo; a list
name that is not the player's (:func:`same_name`) is refused as a wrong PIN instead."""


def refresh_changes(player: Any, ratings: PathLike | None, settings: Any, source: str = "egd") -> dict[str, Any]:
    """The changes that bring ``player`` up to the current list (``update-player
    --from-ratings``), with the list recorded as his ``rating_list``; refuses a player
    without a PIN, a PIN not in the list, a list name that is not his and a list newer than
    the freeze."""
    from goledger.ratings.store import ratings_path

    if not player.egd_pin:
        raise CommandRejected(say_at("%(player)s has no EGD PIN; give one with --egd-pin first",
                                     N_("%(player)s has no EGD PIN; give him one first"),
                                     player=f"{player.id} {player.full_name}"))
    ref, listed = lookup(player.egd_pin, ratings, source)
    if ref is None:
        raise CommandRejected(f"no ratings store at {ratings_path(ratings)}; import a list first with "
                              "'goledger ratings import FILE'")
    if listed is None:
        raise CommandRejected(say("EGD PIN %(pin)s of %(player)s is not in the %(source)s list of %(date)s",
                                  pin=player.egd_pin, player=f"{player.id} {player.full_name}", source=ref.source,
                                  date=numeric_date(ref.date)))
    check_freeze(settings, ref)
    if not same_name(player.surname, player.first_name, listed.surname, listed.first_name):
        raise CommandRejected(say_at("EGD PIN %(pin)s is %(listed)s in the %(source)s list of %(date)s, not "
                                     "%(name)s; correct the PIN with --egd-pin",
                                     N_("EGD PIN %(pin)s is %(listed)s in the %(source)s list of %(date)s, not "
                                     "%(name)s; correct his PIN"), pin=player.egd_pin, listed=listed.full_name,
                                     source=ref.source, date=numeric_date(ref.date), name=player.full_name))
    values = {"country": listed.country if listed.country != "XX" else "",
              "club": "" if listed.club.strip("x") == "" else listed.club, "rank": listed.grade,
              "grade": listed.grade, "rating": listed.gor}
    changes = {k: v for k, v in values.items() if v not in ("", None) and getattr(player, k) != v}
    provenance = ev.ListProvenance(source=ref.source, date=ref.date, sha256=ref.sha256,
                                   fields=tuple(k for k in REFRESHED if k in changes))
    if changes or player.rating_list != provenance:
        changes["rating_list"] = msgspec.to_builtins(provenance)
    return changes
