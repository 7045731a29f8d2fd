"""A test case that checks a distribution against its SciPy counterpart.

Subclass :class:`distribution_unittest` and define ``setUp_configure``,
which sets:

- ``dist``: the distribution class (or a callable taking the parameters
  as keyword arguments);
- ``scipy_dist``: the matching :mod:`scipy.stats` distribution;
- ``params`` and ``scipy_params``: the parameters of each (``params`` are
  arrays; they become Variables when the test's ``is_variable`` is true);
- ``test_targets``: the names of the checks to run, among
  ``batch_shape, cdf, entropy, event_shape, icdf, log_cdf, log_prob,
  log_survival, mean, prob, sample, stddev, support, survival, variance``;
- optionally ``options`` (more keyword arguments of ``dist``), ``support``
  (the expected string; ``'real'`` by default), ``continuous`` (``False``
  for a probability mass function), ``event_shape``.

The test class also needs ``shape`` (the batch shape), ``sample_shape``
and ``is_variable``, usually from :func:`chainer.testing.parameterize`,
and a ``sample_for_test`` method returning points of shape
``sample_shape + shape + event_shape``. With ``scipy_onebyone = True``,
SciPy is called once per distribution of the batch (for SciPy
distributions that do not broadcast their parameters).

Each check exists for the CPU (``test_<name>_cpu``) and the GPU
(``test_<name>_gpu``, marked ``gpu``); the checks not in ``test_targets``
are skipped.
"""

import functools
import unittest

import numpy

import chainer
from chainer.backends import cuda
from chainer.testing import array
from chainer.testing import attr
from chainer import utils


_TARGETS = frozenset((
    'batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf', 'log_cdf',
    'log_prob', 'log_survival', 'mean', 'prob', 'sample', 'stddev',
    'support', 'survival', 'variance'))

_N_SAMPLES = 100000


def skip_not_in_test_target(target):
    def decorator(check):
        @functools.wraps(check)
        def test(self, *args, **kwargs):
            if target not in self.test_targets:
                self.skipTest(
                    '\'{}\' does not exist in test_targets.'.format(target))
            check(self, *args, **kwargs)
        return test
    return decorator


def _on_device(target):
    """Makes ``test_<target>_cpu`` and ``test_<target>_gpu``.

    They call ``check_<target>`` by name, so that a subclass may override
    the check.
    """
    def cpu(self):
        getattr(self, 'check_' + target)(False)

    def gpu(self):
        getattr(self, 'check_' + target)(True)

    cpu.__name__ = cpu.__qualname__ = 'test_{}_cpu'.format(target)
    gpu.__name__ = gpu.__qualname__ = 'test_{}_gpu'.format(target)

    cpu = skip_not_in_test_target(target)(cpu)
    gpu = attr.gpu(skip_not_in_test_target(target)(gpu))
    return cpu, gpu


def _to_device(x, is_gpu):
    return cuda.to_gpu(x) if is_gpu else x


class distribution_unittest(unittest.TestCase):

    """Base test case of distributions; see the module documentation."""

    scipy_onebyone = False

    def setUp(self):
        self.support = 'real'
        if not hasattr(self, 'event_shape'):
            self.event_shape = ()
        self.continuous = True
        self.test_targets = set()
        self.options = {}

        self.setUp_configure()

        unknown = self.test_targets - _TARGETS
        if unknown:
            raise ValueError('invalid target(s): {}'.format(unknown))

        if self.is_variable:
            self.params = {
                k: chainer.Variable(v) for k, v in self.params.items()}

    def scipy_onebyone_params_iter(self):
        """Yields the SciPy parameters of each distribution of the batch."""
        for index in numpy.ndindex(self.shape):
            yield {k: v[index] for k, v in self.scipy_params.items()}

    def _make_dist(self, is_gpu):
        params = dict(self.params)
        if is_gpu:
            params = {
                k: (chainer.Variable(cuda.to_gpu(v.array))
                    if isinstance(v, chainer.Variable) else cuda.to_gpu(v))
                for k, v in params.items()}
        params.update(self.options)
        return self.dist(**params)

    @property
    def cpu_dist(self):
        """The distribution under test, with parameters on the CPU."""
        return self._make_dist(False)

    @property
    def gpu_dist(self):
        """The distribution under test, with parameters on the GPU."""
        return self._make_dist(True)

    def _dist(self, is_gpu):
        return self.gpu_dist if is_gpu else self.cpu_dist

    def _scipy_onebyone_stat(self, name, shape):
        stat = getattr(self.scipy_dist, name)
        values = [stat(**params)
                  for params in self.scipy_onebyone_params_iter()]
        return numpy.vstack(values).reshape(shape)

    # Shapes and support

    def check_batch_shape(self, is_gpu):
        self.assertEqual(self._dist(is_gpu).batch_shape, self.shape)

    def check_event_shape(self, is_gpu):
        self.assertEqual(self._dist(is_gpu).event_shape, self.event_shape)

    def check_support(self, is_gpu):
        self.assertEqual(self._dist(is_gpu).support, self.support)

    # Functions of points

    def _check_function(self, is_gpu, method, scipy_name):
        smp = self.sample_for_test()
        actual = getattr(self._dist(is_gpu), method)(
            _to_device(smp, is_gpu)).array
        expected = getattr(self.scipy_dist, scipy_name)(
            smp, **self.scipy_params)
        array.assert_allclose(actual, expected)

    def check_cdf(self, is_gpu):
        self._check_function(is_gpu, 'cdf', 'cdf')

    def check_log_cdf(self, is_gpu):
        self._check_function(is_gpu, 'log_cdf', 'logcdf')

    def check_survival(self, is_gpu):
        self._check_function(is_gpu, 'survival_function', 'sf')

    def check_log_survival(self, is_gpu):
        self._check_function(is_gpu, 'log_survival_function', 'logsf')

    def check_prob(self, is_gpu):
        self._check_function(
            is_gpu, 'prob', 'pdf' if self.continuous else 'pmf')

    def check_icdf(self, is_gpu):
        smp = numpy.random.uniform(
            1e-5, 1 - 1e-5, self.sample_shape + self.shape
        ).astype(numpy.float32)
        actual = self._dist(is_gpu).icdf(_to_device(smp, is_gpu)).array
        expected = self.scipy_dist.ppf(smp, **self.scipy_params)
        array.assert_allclose(actual, expected)

    def check_log_prob(self, is_gpu):
        smp = self.sample_for_test()
        actual = self._dist(is_gpu).log_prob(_to_device(smp, is_gpu)).array
        scipy_log_prob = (self.scipy_dist.logpdf if self.continuous
                          else self.scipy_dist.logpmf)
        if not self.scipy_onebyone:
            expected = scipy_log_prob(smp, **self.scipy_params)
        else:
            n_sample = utils.size_of_shape(self.sample_shape)
            n_batch = utils.size_of_shape(self.shape)
            n_event = utils.size_of_shape(self.event_shape)
            # Points of each distribution of the batch, batch-major.
            per_dist = numpy.swapaxes(
                smp.reshape(n_sample, n_batch, n_event), 0, 1).reshape(
                    (n_batch,) + self.sample_shape + self.event_shape)
            expected = numpy.vstack([
                scipy_log_prob(points, **params)
                for params, points in zip(
                    self.scipy_onebyone_params_iter(), per_dist)])
            expected = expected.reshape(n_batch, -1).T.reshape(
                self.sample_shape + self.shape)
        array.assert_allclose(actual, expected)

    # Statistics

    def check_entropy(self, is_gpu):
        actual = self._dist(is_gpu).entropy.array
        if self.scipy_onebyone:
            expected = self._scipy_onebyone_stat('entropy', self.shape)
        else:
            expected = self.scipy_dist.entropy(**self.scipy_params)
        array.assert_allclose(actual, expected)

    def _check_moment(self, is_gpu, name, scipy_name):
        dist = self._dist(is_gpu)
        actual = getattr(dist, name).array
        if self.scipy_onebyone:
            expected = self._scipy_onebyone_stat(
                scipy_name, self.shape + self.cpu_dist.event_shape)
        else:
            expected = getattr(self.scipy_dist, scipy_name)(
                **self.scipy_params)
        array.assert_allclose(actual, expected)

    def check_mean(self, is_gpu):
        self._check_moment(is_gpu, 'mean', 'mean')

    def check_variance(self, is_gpu):
        self._check_moment(is_gpu, 'variance', 'var')

    def check_stddev(self, is_gpu):
        actual = self._dist(is_gpu).stddev.array
        expected = self.scipy_dist.std(**self.scipy_params)
        array.assert_allclose(actual, expected)

    # Sampling

    def check_sample(self, is_gpu):
        smp1 = self._dist(is_gpu).sample(
            sample_shape=(_N_SAMPLES,) + self.sample_shape).array
        smp1 = cuda.to_cpu(smp1)
        event_shape = self.cpu_dist.event_shape
        if self.scipy_onebyone:
            smp2 = numpy.vstack([
                self.scipy_dist.rvs(
                    size=(_N_SAMPLES,) + self.sample_shape, **params)
                for params in self.scipy_onebyone_params_iter()])
            smp2 = smp2.reshape(
                (utils.size_of_shape(self.shape), _N_SAMPLES)
                + self.sample_shape + event_shape)
            smp2 = numpy.moveaxis(smp2, 0, smp2.ndim - len(event_shape) - 1)
            smp2 = smp2.reshape(
                (_N_SAMPLES,) + self.sample_shape + self.shape + event_shape)
        else:
            smp2 = self.scipy_dist.rvs(
                size=(_N_SAMPLES,) + self.sample_shape + self.shape,
                **self.scipy_params)
        array.assert_allclose(
            smp1.mean(axis=0), smp2.mean(axis=0), atol=3e-2, rtol=3e-2)
        array.assert_allclose(
            smp1.std(axis=0), smp2.std(axis=0), atol=3e-2, rtol=3e-2)

    test_batch_shape_cpu, test_batch_shape_gpu = _on_device('batch_shape')
    test_cdf_cpu, test_cdf_gpu = _on_device('cdf')
    test_entropy_cpu, test_entropy_gpu = _on_device('entropy')
    test_event_shape_cpu, test_event_shape_gpu = _on_device('event_shape')
    test_icdf_cpu, test_icdf_gpu = _on_device('icdf')
    test_log_cdf_cpu, test_log_cdf_gpu = _on_device('log_cdf')
    test_log_prob_cpu, test_log_prob_gpu = _on_device('log_prob')
    test_log_survival_cpu, test_log_survival_gpu = _on_device('log_survival')
    test_mean_cpu, test_mean_gpu = _on_device('mean')
    test_prob_cpu, test_prob_gpu = _on_device('prob')
    test_sample_cpu, test_sample_gpu = _on_device('sample')
    test_stddev_cpu, test_stddev_gpu = _on_device('stddev')
    test_support_cpu, test_support_gpu = _on_device('support')
    test_survival_cpu, test_survival_gpu = _on_device('survival')
    test_variance_cpu, test_variance_gpu = _on_device('variance')
