"""Logging for fusioncut: the ``fusioncut`` logger and the decision trace artifact.

Quiet by default (a ``NullHandler``). ``FUSIONCUT_LOG=debug`` or ``FUSIONCUT_LOG=info`` in
the environment attaches a stderr handler at that level when fusioncut is imported;
applications that configure ``logging`` themselves need nothing from here.

``log_decision(decision, ...)`` is the one call the partition flow makes after deciding: it
logs a one-line summary at INFO, the saved set at DEBUG, and, when ``torch._logging``
structured tracing is on (``TORCH_TRACE=...``, read by tlparse), emits the decision as an
artifact named ``fusioncut_decision`` whose payload is JSON (``decision.summary()``). Building
the payload costs nothing unless one of those is enabled.

This module sits below everything else in fusioncut: it imports no fusioncut module (torch's
trace hook is found through ``_torch_compat`` once a decision has loaded it), and the byte
formatting it shares with the reports (``format_bytes``) lives here.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from typing import Any

__all__ = ["ENV_VAR", "TRACE_ARTIFACT", "configure_from_env", "format_bytes", "log_decision",
           "logger"]

ENV_VAR = "FUSIONCUT_LOG"
TRACE_ARTIFACT = "fusioncut_decision"

logger = logging.getLogger("fusioncut")
logger.addHandler(logging.NullHandler())

_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING,
           "error": logging.ERROR}
_env_handler: logging.Handler | None = None


def configure_from_env(value: str | None = None) -> int | None:
    """Apply ``FUSIONCUT_LOG`` (or ``value``): returns the level set, or None when unset.

    An unknown value is reported once on stderr and ignored (a typo must not break a run).
    Calling again replaces the handler this function added earlier, never another one.
    """
    global _env_handler
    if value is None:
        value = os.environ.get(ENV_VAR)
    if not value:
        return None
    level = _LEVELS.get(value.strip().lower())
    if level is None:
        print(f"fusioncut: ignoring {ENV_VAR}={value!r}; expected one of "
              + ", ".join(_LEVELS), file=sys.stderr)
        return None
    if _env_handler is not None:
        logger.removeHandler(_env_handler)
    _env_handler = logging.StreamHandler()
    _env_handler.setFormatter(logging.Formatter("[%(name)s %(levelname)s] %(message)s"))
    logger.addHandler(_env_handler)
    logger.setLevel(level)
    return level


def _trace_fn():
    """torch's ``trace_structured``, through ``_torch_compat``, which is loaded whenever a
    decision exists (this module never imports torch itself: ``import fusioncut`` stays
    torch-free)."""
    compat = sys.modules.get("fusioncut._torch_compat")
    return compat.trace_structured() if compat is not None else None


def log_decision(decision: Any, **extra: Any) -> None:
    """Log a ``Decision`` (see the module docstring). ``extra`` (e.g. ``decide_s=0.01``) is
    added to the payload; must be JSON-able."""
    trace = _trace_fn()
    tracing = trace is not None and _trace_active()
    if not (tracing or logger.isEnabledFor(logging.INFO)):
        return
    summary = decision.summary(**extra)
    if logger.isEnabledFor(logging.INFO):
        logger.info("decision: %d nodes, saved %d values: %s of activations, %s of parameters "
                    "and static inputs (free), %s of other graph inputs; %s",
                    summary["num_nodes"], len(summary["saved"]),
                    format_bytes(summary["activation_bytes"]),
                    format_bytes(summary["static_bytes"]), format_bytes(summary["input_bytes"]),
                    ", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                              for k, v in extra.items()) or "no timings")
    if logger.isEnabledFor(logging.DEBUG):
        for s in summary["saved"]:
            logger.debug("saved %s (%s, %s): %s", s["name"], s["op"], format_bytes(s["bytes"]),
                         s["why"])
    if tracing:
        trace("artifact",
              metadata_fn=lambda: {"name": TRACE_ARTIFACT, "encoding": "json"},
              payload_fn=lambda: json.dumps(summary))


def format_bytes(n: int | float | None) -> str:
    """``1536`` -> ``"1.5 KiB"``; None -> ``"-"``."""
    if n is None:
        return "-"
    n = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"


def _trace_active() -> bool:
    """Whether torch's structured trace log has a handler (TORCH_TRACE set)."""
    try:
        return bool(logging.getLogger("torch.__trace").handlers)
    except Exception:
        return False


configure_from_env()
