"""One bounded check per numeric field, shared by ``Options``, ``Device`` and the budgets
PyTorch hands over (torch's config, region annotations).

Every check compares the value exactly against its bounds before anything converts it:
``float(10**400)`` raises ``OverflowError`` and ``repr(10**5000)`` raises ``ValueError``
(Python's 4,300-digit limit), so a huge int is refused here, by name, instead of failing
later in a hash, a log line or the cost model. ``bool`` is refused where a number is
expected (``True`` is an ``int``), NaN fails every comparison and so every range.

A new field reuses it in one line, e.g. in a ``__post_init__``::

    check_number("Device", "host_bandwidth", self.host_bandwidth, 1.0, MAX_BANDWIDTH)
    check_number("Options", "offload_budget_bytes", value, 0, MAX_BYTES, integer=True)

``check_number`` takes a value computed with numpy (``np.int64``, ``np.float32``) as the builtin
it stands for (``plain_number``) and returns that builtin; a dataclass converts its fields with
``plain_number`` before checking them, so that it holds the builtins.

Nothing here imports torch or numpy.
"""

from __future__ import annotations

import numbers

__all__ = ["check_number", "plain_number", "shown"]


def plain_number(value: object) -> object:
    """``value`` as a builtin ``int`` or ``float`` when it is a real number of another type (a
    numpy scalar, a ``Fraction``): a budget computed with numpy is accepted, and compares,
    hashes and prints as the builtin does. Anything else (a bool, a string, None, a builtin
    number, a float it cannot become) comes back unchanged, for ``check_number`` to judge."""
    if isinstance(value, bool) or type(value) in (int, float) \
            or not isinstance(value, numbers.Real):
        return value
    try:
        return int(value) if isinstance(value, numbers.Integral) else float(value)
    except (OverflowError, ValueError, TypeError):
        return value


def shown(value: object) -> str:
    """``repr(value)`` as an error message can hold it: a huge int by its size, a long text
    cut short (``repr`` of a 5,000-digit int raises)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an int of {value.bit_length()} bits"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a hostile __repr__ must not hide the real error
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


def check_number(owner: str, name: str, value: object, lo: float, hi: float, *,
                 integer: bool = False, lo_open: bool = False,
                 valid: str | None = None) -> int | float:
    """``plain_number(value)``, after raising ``ValueError("{owner}: {name} = {value} is
    invalid; expected {valid}")`` unless it is an int (``integer``) or an int or float, not a
    bool, in ``[lo, hi]`` (``(lo, hi]`` with ``lo_open``). ``valid`` overrides the
    description of the range."""
    value = plain_number(value)
    kinds = (int,) if integer else (int, float)
    ok = isinstance(value, kinds) and not isinstance(value, bool) and (
        (lo < value if lo_open else lo <= value) and value <= hi)  # NaN: both False
    if not ok:
        if valid is None:
            left = "(" if lo_open else "["
            valid = (f"an integer in [{lo}, {hi}]" if integer
                     else f"a number in {left}{lo:g}, {hi:g}]")
        raise ValueError(f"{owner}: {name} = {shown(value)} is invalid; expected {valid}")
    return value
