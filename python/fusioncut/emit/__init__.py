"""Forward and backward GraphModules from a joint graph and a saved set (see ``modules``)."""

from fusioncut.emit.modules import EmitError, build_modules, build_modules_reference

__all__ = ["EmitError", "build_modules", "build_modules_reference"]
