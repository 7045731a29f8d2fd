import chainer
from chainer.links.rnn import n_step_rnn
import chainer.utils

from chainermn import functions


class _MultiNodeNStepRNN(chainer.Chain):

    def __init__(self, link, communicator, rank_in, rank_out):
        super().__init__(actual_rnn=link)
        self.communicator = communicator
        self.rank_in = rank_in
        self.rank_out = rank_out
        if not isinstance(link, n_step_rnn.NStepRNNBase):
            raise ValueError('link must be NStepRNN and its inherited link')
        self.n_cells = link.n_cells

    def __call__(self, *inputs):
        cells = [None] * self.n_cells
        if self.rank_in is not None:
            cells = [functions.recv(self.communicator, rank=self.rank_in)
                     for _ in range(self.n_cells)]
        outputs = self.actual_rnn(*(tuple(cells) + inputs))
        cells = outputs[:-1]
        delegate_variable = None
        if self.rank_out is not None:
            cell = cells[0]
            for i in range(self.n_cells):
                delegate_variable = functions.send(
                    cell, self.communicator, rank=self.rank_out)
                if i < self.n_cells - 1:
                    cell, = functions.pseudo_connect(delegate_variable,
                                                     cells[i + 1])
        return outputs + (delegate_variable,)


def create_multi_node_n_step_rnn(actual_link, communicator, rank_in=None,
                                 rank_out=None):
    """Wraps a stacked RNN link for a model split over ranks.

    The returned link receives its initial states from ``rank_in`` (unless
    ``None``), runs ``actual_link``, and sends its final states to
    ``rank_out`` (unless ``None``). It returns the outputs of
    ``actual_link`` followed by a delegate variable; when ``rank_out`` is
    set, backward starts from it (see
    :func:`chainermn.functions.pseudo_connect`).

    Args:
        actual_link: A :class:`~chainer.links.NStepLSTM`,
            :class:`~chainer.links.NStepGRU`, NStepRNN or bidirectional
            variant.
        communicator: ChainerMN communicator.
        rank_in (int): Rank that sends the initial states, or ``None``.
        rank_out (int): Rank to send the final states to, or ``None``.
    """
    chainer.utils.experimental('chainermn.links.create_multi_node_n_step_rnn')
    return _MultiNodeNStepRNN(actual_link, communicator, rank_in, rank_out)
