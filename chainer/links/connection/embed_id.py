"""Embedding layer: a lookup table of vectors."""

from chainer.functions.connection import embed_id
from chainer import initializers
from chainer import link
from chainer import variable


class EmbedID(link.Link):
    """Embedding layer, holding the table of
    :func:`~chainer.functions.embed_id`.

    Maps integer IDs in ``[0, in_size)`` to rows of ``W``.

    Args:
        in_size (int): Number of IDs (the vocabulary size).
        out_size (int): Width of each embedding.
        initialW: Initializer of ``W``; ``None`` means
            ``Normal(1.0)``.
        ignore_label (int or None): An ID that maps to the zero vector
            (and gets no gradient).

    Attributes:
        W (~chainer.Parameter): Table of shape ``(in_size, out_size)``.
        ignore_label (int or None): The ignored ID.

    .. admonition:: Example

        >>> embed = L.EmbedID(5, 2, ignore_label=-1)
        >>> embed(np.array([0, -1], np.int32)).shape
        (2, 2)
    """

    ignore_label = None

    def __init__(self, in_size, out_size, initialW=None, ignore_label=None):
        super().__init__()
        self.ignore_label = ignore_label
        if initialW is None:
            initialW = initializers.Normal(1.0)
        with self.init_scope():
            self.W = variable.Parameter(initialW, (in_size, out_size))

    @classmethod
    def from_params(cls, W, ignore_label=None):
        """Makes a link holding a copy of the given table.

        Args:
            W (:class:`~chainer.Variable` or :ref:`ndarray`): Table of
                shape ``(in_size, out_size)``.
            ignore_label (int or None): The ignored ID.

        Returns:
            EmbedID: The new link.
        """
        in_size, out_size = W.shape
        return cls(in_size, out_size, initialW=variable.as_array(W),
                   ignore_label=ignore_label)

    def forward(self, x):
        """Looks the IDs up.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Integer IDs
                of any shape.

        Returns:
            ~chainer.Variable: The vectors, of shape ``x.shape +
            (out_size,)``.
        """
        return embed_id.embed_id(x, self.W, ignore_label=self.ignore_label)
