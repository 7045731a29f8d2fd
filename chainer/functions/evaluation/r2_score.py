from chainer import backend
from chainer import function
from chainer.utils import type_check


class R2_score(function.Function):

    """Coefficient of determination of a regression; not differentiable."""

    def __init__(self, sample_weight, multioutput):
        if sample_weight is not None:
            raise NotImplementedError()
        if multioutput not in ('uniform_average', 'raw_values'):
            raise ValueError('invalid multioutput argument')
        self.sample_weight = sample_weight
        self.multioutput = multioutput

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('pred', 'true'))
        pred_type, true_type = in_types
        type_check.expect(
            pred_type.dtype.kind == 'f',
            true_type.dtype.kind == 'f',
            pred_type.ndim >= 1,
            pred_type.shape == true_type.shape,
        )

    def forward(self, inputs):
        pred, true = inputs
        xp = backend.get_array_module(pred, true)
        dtype = pred.dtype
        ss_res = ((true - pred) ** 2).sum(axis=0)
        if true.shape[0]:
            deviation = true - true.mean(axis=0)
        else:
            deviation = true
        ss_tot = (deviation ** 2).sum(axis=0)
        # A constant target has no variance to explain: the score is 0.
        defined = ss_tot != 0
        score = xp.where(
            defined, 1 - ss_res / xp.where(defined, ss_tot, 1), 0)
        score = score.astype(dtype, copy=False)
        if self.multioutput == 'uniform_average':
            return xp.asarray(score.mean(), dtype=dtype),
        return xp.asarray(score),


def r2_score(pred, true, sample_weight=None, multioutput='uniform_average'):
    """Coefficient of determination (:math:`R^2`) of a regression.

    .. math::

        R^2 = 1 - \\frac{\\sum_i (t_i - p_i)^2}{\\sum_i (t_i - \\bar{t})^2}

    computed along the first (sample) axis for each output. An output
    whose true values are all equal scores 0.

    Args:
        pred (:class:`~chainer.Variable` or :ref:`ndarray`): The predicted
            values, of a float dtype, with samples along the first axis.
        true (:class:`~chainer.Variable` or :ref:`ndarray`): The true
            values, of a float dtype and of the shape of ``pred``.
        sample_weight: Not supported: it must be ``None``.
        multioutput (str): ``'uniform_average'`` (default) averages the
            scores of all the outputs; ``'raw_values'`` returns each of
            them.

    Returns:
        ~chainer.Variable: The score of each output (of shape
        ``pred.shape[1:]``) or their mean (0-dimensional), of the dtype of
        ``pred``; not differentiable.

    Raises:
        NotImplementedError: If ``sample_weight`` is given.
        ValueError: If ``multioutput`` is neither value above.

    .. admonition:: Example

        >>> pred = np.array([[1., 2.], [2., 3.], [3., 5.]], np.float32)
        >>> true = np.array([[1., 2.], [2., 2.], [3., 6.]], np.float32)
        >>> F.r2_score(pred, true, multioutput='raw_values').array
        array([1.    , 0.8125], dtype=float32)

    """
    return R2_score(sample_weight, multioutput)(pred, true)
