"""Self-contained HTML reports (inline CSS and SVG plots, no scripts) for one run and for two compared."""

from .comparison_report import write_comparison_report
from .run_report import write_run_report

__all__ = ["write_comparison_report", "write_run_report"]
