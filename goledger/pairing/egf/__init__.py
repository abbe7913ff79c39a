"""goledger's own pairing engine ``egf`` (spec ``pairing.md`` §1.5): see
:mod:`goledger.pairing.egf.engine` for how it pairs and :mod:`goledger.pairing.egf.parameters`
for its rules as policy data."""

from goledger.pairing.egf.engine import ENGINE, EgfEngine
from goledger.pairing.egf.parameters import EgfParameters

__all__ = ["ENGINE", "EgfEngine", "EgfParameters"]
