"""EGF tournament class and adjusted time: re-exported from :mod:`goledger.rating.classes`,
where they live since the rating preview (a layer below the formats) weighs games by class."""

from goledger.rating.classes import (
    CLASS_MIN_ADJUSTED_MINUTES,
    adjusted_minutes,
    adjusted_seconds,
    describe_time,
    egf_class,
)

__all__ = ["CLASS_MIN_ADJUSTED_MINUTES", "adjusted_minutes", "adjusted_seconds", "describe_time", "egf_class"]
