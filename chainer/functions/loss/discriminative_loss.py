import numpy

from chainer import backend
from chainer.functions.activation import relu
from chainer.functions.array import broadcast
from chainer.functions.array import get_item
from chainer.functions.array import reshape
from chainer.functions.array import where
from chainer.functions.math import basic_math
from chainer.functions.math import sqrt
from chainer.functions.math import sum as sum_module


def _l1_norm(x, axis=None):
    return sum_module.sum(basic_math.absolute(x), axis=axis)


def _l2_norm(x, axis=None):
    squared = sum_module.sum(x * x, axis=axis)
    xp = backend.get_array_module(squared)
    # The slope of sqrt is infinite at 0: a zero vector gets the gradient
    # 0 rather than NaN.
    nonzero = squared.array > 0
    one = xp.ones((), squared.dtype)
    norm = sqrt.sqrt(where.where(nonzero, squared, one))
    return where.where(nonzero, norm, xp.zeros((), squared.dtype))


class DiscriminativeMarginBasedClusteringLoss(object):

    """Discriminative margin-based clustering loss.

    The loss of `Semantic Instance Segmentation with a Discriminative Loss
    Function <https://arxiv.org/abs/1708.02551>`_, for instance
    segmentation: the network embeds each pixel, and the loss pulls the
    embeddings of the pixels of one instance together and pushes the
    centers of different instances apart. It has three terms:

    - the variance term (pull): the distances of the pixel embeddings of an
      instance to their mean, beyond ``delta_v``;
    - the distance term (push): the distances between the means of two
      instances, below ``2 * delta_d``;
    - the regularization term: the norms of the means, a weak pull towards
      the origin.

    Args:
        delta_v (float): The distance to the mean of an instance from which
            its pixels are penalized.
        delta_d (float): Half the distance between two means below which
            they are penalized.
        max_embedding_dim (int): The number of instances, which is also the
            number of embedding dimensions; positive.
        norm (int): The norm of the distances: 1 or 2.
        alpha (float): The weight of the variance term.
        beta (float): The weight of the distance term.
        gamma (float): The weight of the regularization term.

    """

    def __init__(self, delta_v=0.5, delta_d=1.5,
                 max_embedding_dim=10, norm=1,
                 alpha=1.0, beta=1.0, gamma=0.001):
        self.delta_v = delta_v
        self.delta_d = delta_d
        self.alpha = alpha
        self.beta = beta
        self.gamma = gamma
        self.max_embedding_dim = max_embedding_dim
        if self.max_embedding_dim <= 0:
            raise ValueError('Max number of embeddings has to be positive!')
        if norm == 1:
            self.norm = _l1_norm
        elif norm == 2:
            self.norm = _l2_norm
        else:
            raise ValueError('For discriminative loss, '
                             'norm can only be 1 or 2. '
                             'Obtained the value : {}'.format(norm))

    def __call__(self, embeddings, labels):
        """Computes the three terms of the loss.

        Args:
            embeddings (:class:`~chainer.Variable` or :ref:`ndarray`): The
                embeddings of the pixels, of shape (batch size,
                ``max_embedding_dim``, height, width).
            labels (:ref:`ndarray`): The instance of each pixel, an integer
                array of shape (batch size, height, width); instance ``c``
                is labelled ``c + 1`` for ``c`` below ``max_embedding_dim``,
                other values (such as 0, the background) belong to none.

        Returns:
            tuple of :class:`~chainer.Variable`: The variance term times
            ``alpha``, the distance term times ``beta`` and the
            regularization term times ``gamma``.
        """
        n_instance = self.max_embedding_dim
        if embeddings.ndim != 4 or embeddings.shape[1] != n_instance:
            raise ValueError(
                'embeddings must have the shape (batch size, '
                'max_embedding_dim={}, height, width), but its shape is '
                '{}'.format(n_instance, embeddings.shape))
        xp = backend.get_array_module(embeddings)
        batch, dim, height, width = embeddings.shape

        # masks[c, b, 0, h, w]: whether pixel (h, w) of image b belongs to
        # instance c; the embeddings are broadcast along the instances.
        instance_labels = xp.arange(1, n_instance + 1).reshape(-1, 1, 1, 1)
        masks = (labels[None] == instance_labels)[:, :, None]
        emb = broadcast.broadcast_to(
            reshape.reshape(embeddings, (1, batch, dim, height, width)),
            (n_instance, batch, dim, height, width))

        # The mean embedding of each instance in each image.
        counts = xp.maximum(masks.sum(axis=(2, 3, 4)), 1)
        means = sum_module.sum(emb * masks, axis=(3, 4))
        means = means / counts[:, :, None].astype(means.dtype)

        # Regularization term
        l_reg = sum_module.sum(self.norm(means, (1, 2)))
        l_reg = l_reg * (1. / (n_instance * batch))

        # Variance term
        centered = reshape.reshape(means, means.shape + (1, 1)) - emb
        l_var = self.norm(centered * masks, 2)
        l_var = relu.relu(l_var - self.delta_v) ** 2
        l_var = sum_module.sum(l_var, (1, 2, 3))
        pixels = xp.maximum(masks.sum(axis=(1, 2, 3, 4)), 1)
        l_var = l_var / pixels.astype(l_var.dtype)
        l_var = sum_module.sum(l_var) * (1. / n_instance)

        # Distance term, over all the pairs of different instances
        first, second = [
            xp.asarray(i) for i in numpy.triu_indices(n_instance, 1)]
        dist = self.norm(
            get_item.get_item(means, first)
            - get_item.get_item(means, second), 2)
        l_dist = sum_module.sum(relu.relu(2 * self.delta_d - dist) ** 2)
        l_dist = l_dist * (1. / max(len(first) * batch, 1))

        return self.alpha * l_var, self.beta * l_dist, self.gamma * l_reg


def discriminative_margin_based_clustering_loss(
        embeddings, labels,
        delta_v, delta_d, max_embedding_dim,
        norm=1, alpha=1.0, beta=1.0, gamma=0.001):
    """Discriminative margin-based clustering loss.

    The loss of `Semantic Instance Segmentation with a Discriminative Loss
    Function <https://arxiv.org/abs/1708.02551>`_, for instance
    segmentation: the network embeds each pixel, and the loss pulls the
    embeddings of the pixels of one instance together (the variance term)
    and pushes the centers of different instances apart (the distance
    term), with a weak pull of the centers towards the origin (the
    regularization term). See
    :class:`~chainer.functions.loss.discriminative_loss.\
DiscriminativeMarginBasedClusteringLoss`.

    Args:
        embeddings (:class:`~chainer.Variable` or :ref:`ndarray`): The
            embeddings of the pixels, of shape (batch size,
            ``max_embedding_dim``, height, width).
        labels (:ref:`ndarray`): The instance of each pixel, an integer
            array of shape (batch size, height, width); instance ``c`` is
            labelled ``c + 1``, other values belong to no instance.
        delta_v (float): The distance to the mean of an instance from which
            its pixels are penalized.
        delta_d (float): Half the distance between two means below which
            they are penalized.
        max_embedding_dim (int): The number of instances and of embedding
            dimensions.
        norm (int): The norm of the distances: 1 (default) or 2.
        alpha (float): The weight of the variance term.
        beta (float): The weight of the distance term.
        gamma (float): The weight of the regularization term.

    Returns:
        tuple of :class:`~chainer.Variable`: The variance term times
        ``alpha``, the distance term times ``beta`` and the regularization
        term times ``gamma``.

    .. admonition:: Example

        >>> emb = np.zeros((1, 2, 2, 2), np.float32)
        >>> emb[0, 0, :, 1] = 1
        >>> labels = np.array([[[1, 2], [1, 2]]], np.int32)
        >>> l_var, l_dist, l_reg = \\
        ...     F.discriminative_margin_based_clustering_loss(
        ...         emb, labels, 0.5, 1.5, 2)
        >>> print(l_var.array, l_dist.array, l_reg.array)
        0.0 4.0 0.0005

    """
    loss = DiscriminativeMarginBasedClusteringLoss(
        delta_v, delta_d, max_embedding_dim, norm, alpha, beta, gamma)
    return loss(embeddings, labels)
