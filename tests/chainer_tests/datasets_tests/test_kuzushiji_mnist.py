"""The Kuzushiji-MNIST loader, fed the MNIST mirror."""

from chainer import datasets


def test_loader(check_mnist_like_loader):
    check_mnist_like_loader(datasets.get_kuzushiji_mnist,
                            'CHAINER_KUZUSHIJI_MNIST_BASE_URL',
                            'kuzushiji_mnist')


def test_label_names():
    labels = datasets.get_kuzushiji_mnist_labels()
    assert len(labels) == 10
    assert labels[0] == ('o', '\u304a') and labels[9] == ('wo', '\u3092')
