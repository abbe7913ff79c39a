"""Events in words: the phrases of refusals, ``--retry`` conflicts, repair and audit reports and
the desk's log (``events.py``), in the language written in. A package of its own above
``replay`` so that the ledger holds no words and imports nothing of ``goledger.i18n``
(docs/architecture.md, ``tests/test_layers.py``)."""
