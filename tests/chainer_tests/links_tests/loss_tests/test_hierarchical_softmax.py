import numpy
import pytest

import chainer
from chainer import gradient_check
from chainer.links.loss import hierarchical_softmax as hsm


def _x(*shape, seed=1):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype('f')


TREE = (3, (0, ((1, 2), 4)))


def test_huffman_tree_like_original():
    create = hsm.BinaryHierarchicalSoftmax.create_huffman_tree
    assert create({0: 3, 1: 1, 2: 1, 3: 4, 4: 2}) == TREE
    assert create({'a': 3, 'b': 1, 'c': 1, 'd': 4}) == \
        ('d', (('b', 'c'), 'a'))
    assert create({'x': 5}) == 'x'
    with pytest.raises(ValueError, match='Empty'):
        create({})


def test_tree_parser_tables_like_original():
    func = hsm.BinaryHierarchicalSoftmaxFunction(TREE, numpy.float32)
    assert func.parser_size == 4
    numpy.testing.assert_array_equal(
        func.paths, [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 0, 0, 1, 2])
    numpy.testing.assert_array_equal(
        func.codes, [-1, 1, -1, -1, 1, 1, -1, -1, 1, -1, 1, -1, -1, -1])
    numpy.testing.assert_array_equal(func.begins, [0, 2, 6, 10, 11, 14])
    with pytest.raises(ValueError, match='two child'):
        hsm.TreeParser(numpy.float32).parse((1, 2, 3))


def _nll(x, t, W, tree):
    # Walk the tree: left branch with probability sigmoid(w.x).
    def walk(node, path):
        if not isinstance(node, tuple):
            return {node: path}
        found = {}
        found.update(walk(node[0], path + [1]))
        found.update(walk(node[1], path + [-1]))
        return found

    codes = walk(tree, [])
    counter = iter(range(100))
    ids = {}

    def number(node, path):
        if isinstance(node, tuple):
            ids[tuple(path)] = next(counter)
            number(node[0], path + [1])
            number(node[1], path + [-1])

    number(tree, [])
    loss = 0.0
    for xi, ti in zip(x.astype(numpy.float64), t):
        code = codes[ti]
        for depth, c in enumerate(code):
            node = ids[tuple(code[:depth])]
            loss += numpy.logaddexp(0, -c * W[node].dot(xi))
    return loss


def test_loss_and_gradient_match_original():
    numpy.random.seed(0)
    link = hsm.BinaryHierarchicalSoftmax(3, TREE)
    assert link.W.shape == (4, 3)
    # Uniform(1) draws of Chainer 7.8.1 after seed 0.
    numpy.testing.assert_array_equal(link.W.array[0], numpy.array(
        [0.09762700647115707, 0.4303787350654602, 0.20552675426006317],
        numpy.float32))
    x = chainer.Variable(_x(4, 3))
    t = numpy.array([0, 3, 4, 1], 'i')
    loss = link(x, t)
    assert loss.shape == () and loss.dtype == numpy.float32
    numpy.testing.assert_allclose(loss.array, 7.127583026885986, rtol=1e-6)
    numpy.testing.assert_allclose(
        loss.array, _nll(x.array, t, link.W.array, TREE), rtol=1e-6)
    loss.backward()
    numpy.testing.assert_allclose(x.grad[3], [
        0.2750001847743988, -0.5212748050689697, -0.1864457130432129],
        rtol=1e-6)


def test_backward():
    with chainer.using_config('dtype', numpy.float64):
        link = hsm.BinaryHierarchicalSoftmax(3, TREE)
    t = numpy.array([0, 3, 4, 1, 1], 'i')
    gradient_check.check_backward(
        lambda x: link(x, t), _x(5, 3).astype(numpy.float64), None,
        params=(link.W,))


def test_type_check():
    link = hsm.BinaryHierarchicalSoftmax(3, TREE)
    with pytest.raises(chainer.utils.type_check.InvalidType):
        link(_x(2, 3), numpy.array([0, 1], numpy.int64))


@pytest.mark.gpu
def test_gpu_matches_cpu():
    from chainer.backends import cuda
    link = hsm.BinaryHierarchicalSoftmax(3, TREE)
    x = chainer.Variable(_x(4, 3))
    t = numpy.array([0, 3, 4, 1], 'i')
    link.cleargrads()
    loss = link(x, t)
    loss.backward()
    link.to_gpu()
    link.cleargrads()
    x_gpu = chainer.Variable(cuda.to_gpu(x.array))
    loss_gpu = link(x_gpu, cuda.to_gpu(t))
    loss_gpu.backward()
    numpy.testing.assert_allclose(cuda.to_cpu(loss_gpu.array), loss.array,
                                  rtol=1e-5)
    numpy.testing.assert_allclose(cuda.to_cpu(x_gpu.grad), x.grad,
                                  rtol=1e-5, atol=1e-6)


def _gapped_link():
    # words 0, 2 and 3; word 1 is not in the tree
    tree = hsm.BinaryHierarchicalSoftmax.create_huffman_tree(
        {0: 5, 2: 3, 3: 2})
    return hsm.BinaryHierarchicalSoftmax(2, tree)


def test_word_beyond_the_tree_raises_index_error():
    link = _gapped_link()
    x = numpy.ones((2, 2), numpy.float32)
    with pytest.raises(IndexError, match='index 4 is out of bounds'):
        link(x, numpy.array([0, 4], numpy.int32))


@pytest.mark.parametrize('word, message', [
    (-1, '0 <= t < 4, but -1'), (1, 'word 1 of t is not in the tree'),
])
def test_word_not_in_the_tree_raises(word, message):
    # Such a word got the path of another word, or none, silently.
    link = _gapped_link()
    x = numpy.ones((2, 2), numpy.float32)
    with pytest.raises(ValueError, match=message):
        link(x, numpy.array([word, 2], numpy.int32))
