"""A chain that computes the loss and accuracy of a classifier."""

from chainer.functions.evaluation import accuracy
from chainer.functions.loss import softmax_cross_entropy
from chainer import link
from chainer import reporter


class Classifier(link.Chain):
    """Wraps a predictor to compute its loss (and accuracy) on labelled
    examples.

    A call takes the predictor's arguments plus the label ``t``, selected
    by ``label_key``: the predictor's output ``y`` and ``t`` give
    ``lossfun(y, t)``, which is returned. The loss, and the accuracy
    ``accfun(y, t)`` when :attr:`compute_accuracy` is set, are reported to
    the current reporter as ``'loss'`` and ``'accuracy'``.

    Args:
        predictor (~chainer.Link): The predictor, registered as the child
            ``predictor``.
        lossfun (callable): Loss function;
            :func:`~chainer.functions.softmax_cross_entropy` by default.
        accfun (callable): Accuracy function;
            :func:`~chainer.functions.accuracy` by default.
        label_key (int or str): Which argument of a call is the label: its
            position among the positional arguments, or its keyword.

    Attributes:
        predictor (~chainer.Link): The predictor.
        lossfun (callable): The loss function.
        accfun (callable): The accuracy function.
        y (~chainer.Variable): Output of the predictor in the last call.
        loss (~chainer.Variable): Loss of the last call.
        accuracy (~chainer.Variable): Accuracy of the last call.
        compute_accuracy (bool): Whether to compute (and report) the
            accuracy.

    .. admonition:: Example

        >>> model = L.Classifier(L.Linear(3, 2))
        >>> x = np.zeros((4, 3), np.float32)
        >>> t = np.array([0, 1, 1, 0], np.int32)
        >>> loss = model(x, t)
        >>> float(model.accuracy.array)
        0.5
    """

    compute_accuracy = True

    def __init__(self, predictor,
                 lossfun=softmax_cross_entropy.softmax_cross_entropy,
                 accfun=accuracy.accuracy, label_key=-1):
        if not isinstance(label_key, (int, str)):
            raise TypeError('label_key must be int or str, but is %s' %
                            type(label_key))
        super().__init__()
        self.lossfun = lossfun
        self.accfun = accfun
        self.y = None
        self.loss = None
        self.accuracy = None
        self.label_key = label_key
        with self.init_scope():
            self.predictor = predictor

    def forward(self, *args, **kwargs):
        """Computes the loss, reports it, and returns it.

        Args:
            *args: Positional arguments of the predictor, with the label
                among them when ``label_key`` is an int.
            **kwargs: Keyword arguments of the predictor, with the label
                among them when ``label_key`` is a str.

        Returns:
            ~chainer.Variable: The loss.
        """
        key = self.label_key
        if isinstance(key, int):
            if not -len(args) <= key < len(args):
                raise ValueError('Label key %d is out of bounds' % key)
            t = args[key]
            if key == -1:
                args = args[:-1]
            else:
                args = args[:key] + args[key + 1:]
        else:
            if key not in kwargs:
                raise ValueError('Label key "%s" is not found' % key)
            t = kwargs.pop(key)
        self.y = None
        self.loss = None
        self.accuracy = None
        self.y = self.predictor(*args, **kwargs)
        self.loss = self.lossfun(self.y, t)
        reporter.report({'loss': self.loss}, self)
        if self.compute_accuracy:
            self.accuracy = self.accfun(self.y, t)
            reporter.report({'accuracy': self.accuracy}, self)
        return self.loss
