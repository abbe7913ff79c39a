"""``goledger publish``: vouch for the standings shown to the players (DESIGN §3, §6).

Publishing appends one ``Checkpoint`` event labelled ``published``: the round, the chain head
before it (``event_count`` = its sequence number, ``head`` = its hash), the policy and
criteria used, and ``digest`` = SHA-256 of the canonical JSON of the standings as shown
(:func:`goledger.audit.published.standings_digest`). The standings are computed inside the
write lock from the very events the checkpoint names, so nothing can slip in between.
``goledger standings --as-published R`` shows them again and ``goledger diff --published R``
compares them with the standings as corrected since.
"""

from __future__ import annotations

from collections.abc import Sequence

from goledger.commands.recording import Outcome, PathLike, default_actor
from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.ledger.subjects import all_subjects, record_subjects

__all__ = ["publish"]


def publish(
    db: PathLike,
    round: int,  # noqa: A002
    note: str = "",
    policy: str | None = None,
    criteria: Sequence[str] | None = None,
    *,
    actor: str = "",
    reason: str = "",
    expected_head: int | None = None,
    retry: bool = False,
) -> Outcome:
    """Publish the standings after ``round`` (default policy and criteria: the tournament's).

    Refuses a round outside the tournament or one with neither games nor byes yet.
    """
    from goledger.audit.published import PUBLISHED_LABEL, standings_digest, view_standings
    from goledger.replay.loading.load import fresh_state

    with Ledger.open(db) as ledger, ledger.writing(expected_head, keys_of=record_subjects if retry else None) as tx:
        state = fresh_state(tx)  # what is vouched for comes from the log, never from a cache
        if state.settings is None:
            raise CommandRejected(f"{db} has no tournament (its log has no TournamentCreated event)")
        if not 1 <= round <= state.rounds:
            raise CommandRejected(say("round %(round)d is outside 1..%(rounds)d of this tournament", round=round,
                                      rounds=state.rounds))
        if not state.games.get(round) and not state.byes.get(round):
            raise CommandRejected(say("round %(round)d has no games yet; there is nothing to publish", round=round))
        policy_name = policy or state.settings.policy
        table = view_standings(state, round, policy_name, criteria)
        digest = standings_digest(table)
        checkpoint = ev.Checkpoint(
            label=PUBLISHED_LABEL, round=round, event_count=tx.head.seq, head=tx.head.hash, digest=digest,
            policy=policy_name, criteria=table.criteria, note=note,
        )
        tx.depend(all_subjects([checkpoint]))  # --retry: it vouches for the state as it is now
        records = tx.append([checkpoint], actor=actor or default_actor(), reason=reason)
    unknown = sum(1 for g in state.games_of_round(round) if not g.result.is_known)
    pending = say("; %(n)d result(s) of round %(round)d still unknown", n=unknown, round=round) if unknown else ""
    return Outcome(
        say("published the standings after round %(round)d as of event %(event)d (policy %(policy)s, %(criteria)s; "
            "digest %(digest)s…)", round=round, event=checkpoint.event_count, policy=table.policy,
            criteria=", ".join(table.criteria), digest=digest[:16]) + pending,
        records,
    )
