"""Parse human-written sizes ("20GB", "1.5GiB") and durations ("12h", "1h30m") from profiles.

Both parsers accept plain numbers too, and raise ValueError (with the reason) on anything else;
`archiver.profile` turns that into a ProfileError naming the key.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal

# Decimal (SI) units as disk and network vendors use them, and binary (IEC) units.
SIZE_UNITS: dict[str, int] = {
    "b": 1,
    "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
    "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40,
}
DURATION_UNITS: dict[str, int] = {"d": 86400, "h": 3600, "m": 60, "s": 1}

_NUMBER = r"(?:\d+(?:\.\d*)?|\.\d+)"
_SIZE_RE = re.compile(rf"\s*({_NUMBER})\s*([A-Za-z]*)\s*")
_DURATION_RE = re.compile(rf"(?:\s*{_NUMBER}\s*[dhms])+\s*")
_DURATION_PART_RE = re.compile(rf"({_NUMBER})\s*([dhms])")


def _plain_number(value: object) -> float | int | None:
    """`value` if it is an int or float (never a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value


def parse_size(value: object) -> int:
    """Bytes in `value`: an int, or a string like "123", "800KB", "20GB", "1.5GiB" (units: B,
    KB, MB, GB, TB = powers of 1000; KiB, MiB, GiB, TiB = powers of 1024; case-insensitive).
    Fractions are rounded down to whole bytes."""
    number = _plain_number(value)
    if number is not None:
        if not math.isfinite(number) or number < 0 or number != int(number):
            raise ValueError(f"not a whole number of bytes >= 0: {value!r}")
        return int(number)
    if not isinstance(value, str):
        raise ValueError(f"not a size: {value!r}")
    match = _SIZE_RE.fullmatch(value)
    if match is None:
        raise ValueError(f"not a size: {value!r}")
    unit = match.group(2).lower()
    if unit and unit not in SIZE_UNITS:
        raise ValueError(f"unknown size unit {match.group(2)!r}")
    return int(Decimal(match.group(1)) * SIZE_UNITS[unit or "b"])


def parse_duration(value: object) -> float:
    """Seconds in `value`: a number, or a string like "90", "45s", "30m", "12h", "1d", "1h30m",
    "1.5h" (units d, h, m, s, largest first, each at most once)."""
    number = _plain_number(value)
    if number is not None:
        if not math.isfinite(number) or number < 0:
            raise ValueError(f"not a number of seconds >= 0: {value!r}")
        return float(number)
    if not isinstance(value, str):
        raise ValueError(f"not a duration: {value!r}")
    if re.fullmatch(rf"\s*{_NUMBER}\s*", value):
        return float(value)
    if _DURATION_RE.fullmatch(value) is None:
        raise ValueError(f"not a duration: {value!r}")
    parts = _DURATION_PART_RE.findall(value)
    units = [unit for _, unit in parts]
    order = list(DURATION_UNITS)
    if sorted(units, key=order.index) != units or len(set(units)) != len(units):
        raise ValueError(f"units out of order or repeated in {value!r}; write e.g. 1d2h30m")
    return float(sum(Decimal(amount) * DURATION_UNITS[unit] for amount, unit in parts))
