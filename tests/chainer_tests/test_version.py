import chainer
from chainer import _version


def test_version():
    assert chainer.__version__ == _version.__version__ == '7.8.1'


def test_optional_dependencies():
    deps = _version._optional_dependencies
    assert [dep['name'] for dep in deps] == ['CuPy']
    for dep in deps:
        assert set(dep) == {'name', 'packages', 'specifier', 'help'}
        assert dep['packages'][-1] == 'cupy'
        assert dep['specifier'].startswith('>=')
        assert dep['help'].startswith('https://')
