"""The players' keys (issue 46): personal keys kept beside the ledger, never in it
(:mod:`goledger.keys.store`)."""

from goledger.keys.store import (
    KEY_BYTES,
    KEY_LENGTH,
    KEYS_SUFFIX,
    ensure_keys,
    issue_key,
    keys_for,
    keys_path,
    player_actor,
    player_for_key,
    resolve_player,
    revoke_key,
    well_formed,
)

__all__ = [
    "KEYS_SUFFIX",
    "KEY_BYTES",
    "KEY_LENGTH",
    "ensure_keys",
    "issue_key",
    "keys_for",
    "keys_path",
    "player_actor",
    "player_for_key",
    "resolve_player",
    "revoke_key",
    "well_formed",
]
