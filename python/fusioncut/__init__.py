"""fusioncut: a fusion-aware activation-recomputation partitioner for PyTorch."""

from fusioncut._core import __version__

__all__ = ["__version__"]
