"""Forward and backward GraphModules from a joint graph and a saved set (see ``modules``);
``template`` replays one emission on structurally identical graphs."""

from fusioncut.emit.modules import (
    EmitError,
    Schedule,
    build_modules,
    build_modules_and_schedule,
    build_modules_reference,
    schedule,
    stamp_static_inputs,
)
from fusioncut.emit.template import Template
from fusioncut.emit.walks import NeedsReference

__all__ = ["EmitError", "NeedsReference", "Schedule", "Template", "build_modules",
           "build_modules_and_schedule", "build_modules_reference", "schedule",
           "stamp_static_inputs"]
