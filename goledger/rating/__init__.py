"""Rating previews (issue 21): what the EGD's GoR (:mod:`~goledger.rating.gor`,
:mod:`~goledger.rating.preview`) and the Hungarian MGE rules (:mod:`~goledger.rating.mge`)
would make of a tournament, computed from the ledger before it is submitted.

The package sits beside ``audit`` above ``replay``: it reads folded state and never writes.
"""
