"""Warning categories of the framework."""


class PerformanceWarning(RuntimeWarning):
    """A slower code path is taken, e.g. a missing optional accelerator."""
