"""The Fashion-MNIST loader, fed the MNIST mirror."""

from chainer import datasets


def test_loader(check_mnist_like_loader):
    check_mnist_like_loader(datasets.get_fashion_mnist,
                            'CHAINER_FASHION_MNIST_BASE_URL', 'fashion-mnist')


def test_label_names():
    assert datasets.get_fashion_mnist_labels() == [
        'T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal',
        'Shirt', 'Sneaker', 'Bag', 'Ankle boot']
