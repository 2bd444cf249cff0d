"""Dynamic shapes: analyse a joint graph once, re-solve per size (docs/dynamic.md).

    sizes      SizeTable, SymbolInfo, SizeError (SizeOverflowError: sizes too large for exact
               weights): the symbols and element-count expressions
    symexpr    SizeProgram: expressions compiled to integer monomials (no sympy per solve)
    plan       plan, Plan, SizedDecision: decide once, re-solve per size
    sweep      Plan.breakpoints: the decisions along one symbol
    certify    check_optimal_over_ranges, RangeReport: one decision over a box of sizes
"""

from fusioncut.dynamic.certify import RangeReport, check_optimal_over_ranges
from fusioncut.dynamic.plan import Plan, SizedDecision, plan
from fusioncut.dynamic.sizes import (
    SizeError, SizeOverflowError, SizeTable, SymbolInfo, UnbackedSizeWarning,
)

__all__ = [
    "Plan",
    "RangeReport",
    "SizeError",
    "SizeOverflowError",
    "SizeTable",
    "SizedDecision",
    "SymbolInfo",
    "UnbackedSizeWarning",
    "check_optimal_over_ranges",
    "plan",
]
