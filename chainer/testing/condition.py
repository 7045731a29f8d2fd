"""Decorators running a flaky test several times.

They work on methods of :class:`unittest.TestCase` classes and of plain
pytest classes. Every trial runs on a fresh instance of the test class,
between its own set-up and tear-down (``setUp``/``tearDown``, or pytest's
``setup_method``/``teardown_method``).
"""

import functools
import traceback
import unittest

try:
    from _pytest.outcomes import Skipped as _PytestSkipped
except ImportError:
    _PytestSkipped = unittest.SkipTest


class QuietTestRunner:
    """Runs a test suite without printing, returning its result."""

    def run(self, suite):
        """Runs ``suite`` and returns its :class:`unittest.TestResult`."""
        result = unittest.TestResult()
        suite(result)
        return result


class _Skip(Exception):
    # A trial was skipped; carries the reason.
    pass


def _run_trial(instance, f, args, kwargs):
    # Runs one trial of the test method ``f`` on a fresh instance. Returns
    # None on success or the formatted error; raises _Skip on a skip.
    if isinstance(instance, unittest.TestCase):
        trial = type(instance)(instance._testMethodName)
        setup, teardown = trial.setUp, trial.tearDown
    else:
        trial = type(instance)()
        method = getattr(trial, f.__name__)
        setup = getattr(trial, 'setup_method', None)
        teardown = getattr(trial, 'teardown_method', None)
        setup = setup and functools.partial(setup, method)
        teardown = teardown and functools.partial(teardown, method)
    try:
        if setup is not None:
            setup()
        try:
            f(trial, *args, **kwargs)
        finally:
            if teardown is not None:
                teardown()
    except unittest.SkipTest as e:
        raise _Skip(str(e))
    except _PytestSkipped as e:
        raise _Skip(e.msg)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:
        return traceback.format_exc()
    return None


def repeat_with_success_at_least(times, min_success):
    """Decorator running a test ``times`` times, requiring some successes.

    After each trial, the test passes if ``min_success`` trials have
    succeeded (so with ``min_success=0`` one trial is run, whatever its
    outcome), and fails as soon as that can no longer happen. A skipped
    trial skips the whole test.

    Args:
        times (int): The maximum number of trials.
        min_success (int): The number of successful trials needed.

    Returns:
        callable: The decorator for test methods.
    """
    assert times >= min_success

    def decorator(f):
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            assert len(args) > 0
            instance, args = args[0], args[1:]
            successes = 0
            errors = []
            for _ in range(times):
                try:
                    error = _run_trial(instance, f, args, kwargs)
                except _Skip as e:
                    raise unittest.SkipTest(str(e)) from None
                if error is None:
                    successes += 1
                else:
                    errors.append(error)
                if successes >= min_success:
                    return
                if len(errors) > times - min_success:
                    break
            message = '\nFail: {0}, Success: {1}'.format(
                len(errors), successes)
            if errors:
                message += '\n\nThe first error message:\n' + errors[0]
            raise AssertionError(message)
        return wrapper
    return decorator


def repeat(times):
    """Decorator requiring a test to succeed ``times`` times in a row.

    Args:
        times (int): How many times the test runs.

    Returns:
        callable: The decorator for test methods.
    """
    return repeat_with_success_at_least(times, times)


def retry(times):
    """Decorator requiring a test to succeed at least once in ``times``.

    Args:
        times (int): The maximum number of trials.

    Returns:
        callable: The decorator for test methods.
    """
    return repeat_with_success_at_least(times, 1)
