import unittest

import pytest

from chainer.testing import condition


def _make_case(decorator, outcomes):
    """A TestCase whose ``test_it`` follows ``outcomes`` trial by trial.

    Each outcome is 'ok', 'fail', 'error' or 'skip'. The returned log
    records the calls of setUp, the test and tearDown.
    """
    log = []

    class Case(unittest.TestCase):

        def setUp(self):
            log.append('setUp')

        def tearDown(self):
            log.append('tearDown')

        @decorator
        def test_it(self):
            outcome = outcomes[log.count('test')]
            log.append('test')
            if outcome == 'fail':
                self.fail('failure #{}'.format(log.count('test')))
            if outcome == 'error':
                raise ValueError('error #{}'.format(log.count('test')))
            if outcome == 'skip':
                self.skipTest('skipped on purpose')

    return Case, log


def _run(case_class):
    result = unittest.TestResult()
    case_class('test_it').run(result)
    return result


class TestRetry:

    def test_succeeds_after_failures(self):
        case, log = _make_case(
            condition.retry(3), ['fail', 'error', 'ok'])
        result = _run(case)
        assert result.wasSuccessful()
        assert log.count('test') == 3
        # One setUp/tearDown pair per trial, plus the outer pair.
        assert log.count('setUp') == 4
        assert log.count('tearDown') == 4

    def test_stops_at_first_success(self):
        case, log = _make_case(condition.retry(5), ['ok'] * 5)
        assert _run(case).wasSuccessful()
        assert log.count('test') == 1

    def test_fails_when_all_trials_fail(self):
        case, log = _make_case(condition.retry(2), ['fail', 'error'])
        result = _run(case)
        assert len(result.failures) == 1
        message = result.failures[0][1]
        assert 'Fail: 2, Success: 0' in message
        assert 'The first error message:' in message
        assert 'failure #1' in message
        assert log.count('test') == 2


class TestRepeat:

    def test_all_successes(self):
        case, log = _make_case(condition.repeat(3), ['ok'] * 3)
        assert _run(case).wasSuccessful()
        assert log.count('test') == 3

    def test_fails_at_first_failure(self):
        case, log = _make_case(
            condition.repeat(4), ['ok', 'error', 'ok', 'ok'])
        result = _run(case)
        assert len(result.failures) == 1
        assert 'Fail: 1, Success: 1' in result.failures[0][1]
        assert 'ValueError: error #2' in result.failures[0][1]
        assert log.count('test') == 2


class TestRepeatWithSuccessAtLeast:

    def test_enough_successes(self):
        case, log = _make_case(
            condition.repeat_with_success_at_least(5, 2),
            ['fail', 'ok', 'fail', 'ok', 'ok'])
        assert _run(case).wasSuccessful()
        assert log.count('test') == 4

    def test_too_many_failures(self):
        case, log = _make_case(
            condition.repeat_with_success_at_least(4, 3),
            ['ok', 'fail', 'fail', 'ok'])
        result = _run(case)
        assert not result.wasSuccessful()
        assert 'Fail: 2, Success: 1' in result.failures[0][1]
        assert log.count('test') == 3

    def test_zero_successes_needed_runs_one_trial(self):
        case, log = _make_case(
            condition.repeat_with_success_at_least(10, 0), ['fail'] * 10)
        assert _run(case).wasSuccessful()
        assert log.count('test') == 1

    def test_min_success_above_times(self):
        with pytest.raises(AssertionError):
            condition.repeat_with_success_at_least(2, 3)

    def test_skip_skips_the_test(self):
        case, log = _make_case(condition.repeat(3), ['skip', 'ok', 'ok'])
        result = _run(case)
        assert result.skipped
        assert result.skipped[0][1] == 'skipped on purpose'
        assert log.count('test') == 1


class _PlainCase:

    calls = []

    def setup_method(self, method):
        self.ready = True
        self.calls.append('setup')

    def teardown_method(self, method):
        self.calls.append('teardown')

    @condition.retry(3)
    def test_flaky(self):
        assert self.ready
        self.calls.append('test')
        assert self.calls.count('test') == 2

    @condition.repeat(2)
    def test_pytest_skip(self):
        pytest.skip('not here')


def test_plain_class():
    _PlainCase.calls = []
    _PlainCase().test_flaky()
    assert _PlainCase.calls == ['setup', 'test', 'teardown'] * 2


def test_plain_class_pytest_skip():
    with pytest.raises(unittest.SkipTest, match='not here'):
        _PlainCase().test_pytest_skip()


class TestRetryCollected(unittest.TestCase):

    trials = 0

    @condition.retry(3)
    def test_passes_on_second_trial(self):
        TestRetryCollected.trials += 1
        self.assertEqual(TestRetryCollected.trials, 2)


def test_quiet_test_runner():
    case, log = _make_case(lambda f: f, ['fail'])
    suite = unittest.TestSuite([case('test_it')])
    result = condition.QuietTestRunner().run(suite)
    assert len(result.failures) == 1 and log.count('test') == 1
