"""goledger: an event-sourced tournament ledger for Go.

Record every fact of a tournament in an append-only, hash-chained SQLite log; rebuild
standings at any round and as of any event under named rule policies; exchange OpenGotha,
MacMahon, EGD and FIDE TRF files.
"""

__version__ = "0.1.0"
