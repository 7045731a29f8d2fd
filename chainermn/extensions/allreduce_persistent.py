import chainer
import chainer.training.extension


def _namedpersistents(model):
    assert isinstance(model, chainer.Link)
    for lname, link in model.namedlinks():
        for pname in link._persistent:
            yield lname + '/' + pname, link.__dict__[pname]


class AllreducePersistent(chainer.training.extension.Extension):
    """Averages the persistent arrays of a model over the ranks.

    Mainly for the moving statistics of batch normalization, which each
    rank otherwise accumulates from its own batches only: run it before
    evaluating or saving the model. Persistent values that are not arrays
    (integer counters) are left alone.

    Args:
        model (~chainer.Link): The model.
        comm: ChainerMN communicator.
    """

    trigger = 1, 'epoch'
    priority = chainer.training.extension.PRIORITY_WRITER + 1

    def __init__(self, model, comm):
        self.model = model
        self.comm = comm

    def __call__(self, trainer=None):
        for _, value in sorted(_namedpersistents(self.model),
                               key=lambda item: item[0]):
            if hasattr(value, 'dtype'):
                self.comm._multi_node_mean(None, value)
