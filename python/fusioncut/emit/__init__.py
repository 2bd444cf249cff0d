"""Forward and backward GraphModules from a joint graph and a saved set (see ``modules``)."""

from fusioncut.emit.modules import (
    EmitError,
    Schedule,
    build_modules,
    build_modules_reference,
    schedule,
)
from fusioncut.emit.walks import NeedsReference

__all__ = ["EmitError", "NeedsReference", "Schedule", "build_modules", "build_modules_reference",
           "schedule"]
