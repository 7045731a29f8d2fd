"""Hierarchical softmax over a binary tree of words."""

import copy
import heapq

import numpy

from chainer import backend
from chainer import configuration
from chainer import device_resident
from chainer import function
from chainer.functions import _numerics
from chainer.functions.loss import _labels
from chainer.initializers import uniform
from chainer import link
from chainer.utils import type_check
from chainer import variable


class TreeParser:
    """Numbers the internal nodes of a binary tree and records, for each
    leaf, its path from the root.

    A tree is a leaf (any hashable object, usually a word ID) or a pair
    ``(left, right)`` of trees. Internal nodes are numbered in preorder.
    A step to the left child has code ``1``, to the right child ``-1``.

    Args:
        dtype: Data type of the codes.
    """

    def __init__(self, dtype):
        self.next_id = 0
        self.dtype = dtype

    def size(self):
        """Returns the number of internal nodes of the parsed tree."""
        return self.next_id

    def get_paths(self):
        """Returns a dict from each leaf to the ``int32`` array of the
        internal nodes on its path."""
        return self.paths

    def get_codes(self):
        """Returns a dict from each leaf to the array of the codes of the
        steps on its path."""
        return self.codes

    def parse(self, tree):
        """Parses a tree.

        Args:
            tree: The tree.
        """
        self.next_id = 0
        self.path = []
        self.code = []
        self.paths = {}
        self.codes = {}
        self._parse(tree)

    def _parse(self, node):
        if not isinstance(node, tuple):
            self.paths[node] = numpy.array(self.path, dtype=numpy.int32)
            self.codes[node] = numpy.array(self.code, dtype=self.dtype)
            return
        if len(node) != 2:
            raise ValueError('All internal nodes must have two child nodes')
        left, right = node
        self.path.append(self.next_id)
        self.next_id += 1
        self.code.append(1.0)
        self._parse(left)
        self.code[-1] = -1.0
        self._parse(right)
        self.path.pop()
        self.code.pop()


class BinaryHierarchicalSoftmaxFunction(device_resident.DeviceResident,
                                        function.Function):
    """Loss of a binary hierarchical softmax, summed over the batch.

    Args:
        tree: A binary tree of integer word IDs (see :class:`TreeParser`).
        dtype: Data type of the codes.

    Attributes:
        paths (:ref:`ndarray`): The internal nodes on the paths of all the
            words, concatenated in word order.
        codes (:ref:`ndarray`): The codes of those steps.
        begins (:ref:`ndarray`): Where the path of each word starts in
            ``paths``; the path of word ``i`` ends at ``begins[i + 1]``.
        parser_size (int): Number of internal nodes.
    """

    def __init__(self, tree, dtype):
        device_resident.DeviceResident.__init__(self)
        parser = TreeParser(dtype)
        parser.parse(tree)
        paths = parser.get_paths()
        codes = parser.get_codes()
        n_vocab = max(paths.keys()) + 1
        words = [i for i in range(n_vocab) if i in paths]
        self.paths = numpy.concatenate([paths[i] for i in words])
        self.codes = numpy.concatenate([codes[i] for i in words])
        lengths = [len(paths[i]) if i in paths else 0
                   for i in range(n_vocab)]
        self.begins = numpy.concatenate(
            ([0], numpy.cumsum(lengths))).astype(numpy.int32)
        self.parser_size = parser.size()

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't', 'W'))
        x_type, t_type, w_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 2,
            t_type.dtype == numpy.int32,
            t_type.ndim == 1,
            x_type.shape[0] == t_type.shape[0],
            w_type.dtype == x_type.dtype,
            w_type.ndim == 2,
            w_type.shape[0] == self.parser_size,
            w_type.shape[1] == x_type.shape[1],
        )

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.paths = visitor.visit_array(self.paths)
        self.codes = visitor.visit_array(self.codes)
        self.begins = visitor.visit_array(self.begins)

    def _steps(self, xp, t):
        # The nodes and codes on the paths of the targets, padded to the
        # longest path with node 0 and code 0.
        begin = self.begins[t]
        length = self.begins[t + 1] - begin
        offset = xp.arange(int(length.max()) if len(t) else 0)
        valid = offset < length[:, None]
        index = xp.where(valid, begin[:, None] + offset, 0)
        nodes = self.paths[index]
        codes = xp.where(valid, self.codes[index], 0).astype(
            self.codes.dtype, copy=False)
        return nodes, codes, valid

    def _check_words(self, t):
        # A word beyond the tree raises IndexError as indexing begins with
        # it does; a negative one, or one the tree lacks, would get the
        # path of another word or none, so it raises ValueError.
        _labels.check_labels(t, len(self.begins) - 1, 't', axis=0)
        if self.parser_size:
            missing = self.begins[t + 1] == self.begins[t]
            if missing.any():
                raise ValueError('word {} of t is not in the tree'.format(
                    int(t[missing][0])))

    def forward(self, inputs):
        x, t, W = inputs
        xp = backend.get_array_module(x)
        self._check_words(t)
        nodes, codes, valid = self._steps(xp, t)
        w = W[nodes]
        wxy = xp.einsum('bld,bd->bl', w, x) * codes
        losses = xp.logaddexp(0.0, -wxy) * valid
        self._nodes, self._codes, self._w, self._wxy = nodes, codes, w, wxy
        return xp.asarray(losses.sum(), dtype=x.dtype),

    def backward(self, inputs, grad_outputs):
        x, t, W = inputs
        gloss, = grad_outputs
        xp = backend.get_array_module(x)
        g = -gloss * self._codes / (1.0 + xp.exp(self._wxy))
        g = g.astype(x.dtype, copy=False)
        gx = xp.einsum('bl,bld->bd', g, self._w)
        contrib = (g[:, :, None] * x[:, None, :]).reshape(-1, x.shape[1])
        gW = xp.zeros_like(W)
        _numerics.add_at(gW, self._nodes.ravel(), contrib)
        return gx, None, gW


class BinaryHierarchicalSoftmax(link.Link):
    """Hierarchical softmax layer over a binary tree of words.

    The probability of a word is the product, along its path from the
    root, of the probabilities of the branches taken, each a sigmoid of
    the input vector dotted with the weight of the internal node. The
    call returns the negative log-likelihood of the targets, summed over
    the batch. With a Huffman tree (:meth:`create_huffman_tree`) frequent
    words have short paths.

    Args:
        in_size (int): Width of each input row.
        tree: A binary tree of the word IDs, as nested pairs.
        dtype: The parameter's dtype.

    Attributes:
        W (~chainer.Parameter): Weights of the internal nodes, of shape
            ``(number of internal nodes, in_size)``, initialized
            uniformly in ``[-1, 1]``.

    See: Morin and Bengio, `Hierarchical Probabilistic Neural Network
    Language Model <https://www.iro.umontreal.ca/~lisa/pointeurs/
    hierarchical-nnlm-aistats05.pdf>`_
    """

    def __init__(self, in_size, tree, dtype=None):
        super().__init__()
        dtype = configuration.get_dtype(dtype)
        self._func = BinaryHierarchicalSoftmaxFunction(tree, dtype)
        with self.init_scope():
            self.W = variable.Parameter(
                uniform.Uniform(1), (self._func.parser_size, in_size))

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self._func.device_resident_accept(visitor)

    @staticmethod
    def create_huffman_tree(word_counts):
        """Builds a Huffman tree from word counts.

        The two rarest subtrees are merged until one is left; ties are
        broken by the order of the words in ``word_counts``.

        Args:
            word_counts (dict): Count of each word.

        Returns:
            The tree, as nested pairs of words.

        .. admonition:: Example

            >>> L.BinaryHierarchicalSoftmax.create_huffman_tree(
            ...     {'a': 3, 'b': 1, 'c': 1, 'd': 4})
            ('d', (('b', 'c'), 'a'))
        """
        if not word_counts:
            raise ValueError('Empty vocabulary')
        heap = [(count, uid, word)
                for uid, (word, count) in enumerate(word_counts.items())]
        heapq.heapify(heap)
        while len(heap) >= 2:
            count1, id1, tree1 = heapq.heappop(heap)
            count2, id2, tree2 = heapq.heappop(heap)
            heapq.heappush(
                heap, (count1 + count2, min(id1, id2), (tree1, tree2)))
        return heap[0][2]

    def forward(self, x, t):
        """Computes the loss.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input vectors
                of shape ``(n, in_size)``.
            t (:class:`~chainer.Variable` or :ref:`ndarray`): Target words,
                ``int32`` of shape ``(n,)``, words of the tree. A word
                beyond the largest one raises :class:`IndexError`; a
                negative one, or one missing in the tree,
                :class:`ValueError`.

        Returns:
            ~chainer.Variable: The summed loss, a scalar.
        """
        return copy.copy(self._func)(x, t, self.W)
