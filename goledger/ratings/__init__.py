"""The ratings store: rating lists (the EGD's, later the FFG's or AGA's) kept apart from any
ledger, one store per machine, reused by every tournament (issue 34).

* :mod:`goledger.ratings.model`: the value types (a rated player, a list's identity, an
  unparsed line);
* :mod:`goledger.ratings.names`: how a name is folded for matching (accents and letters of
  every Latin alphabet to ASCII, ``ä``/``ae``, any order of the words);
* :mod:`goledger.ratings.store`: the SQLite file (written through sqlite-utils, with a
  full-text index), its default path, atomic replacement of a list, and the search.

The readers of the list files live in :mod:`goledger.formats.ratinglists`, beside the other
formats; the store knows nothing of tournaments.
"""
