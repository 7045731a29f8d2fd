"""The opsets a converter supports."""

import functools


def support(opset_versions):
    """Declares the opsets in which a converter's output changes.

    The decorated converter is called with the newest of ``opset_versions``
    that does not exceed the requested opset, so it only has to tell those
    versions apart. An opset older than all of them raises an error naming
    the function and the opset.

    >>> @support((7, 13))
    ... def convert_Foo(func, opset_version, *args):
    ...     return opset_version

    ``convert_Foo(f, 12, ...)`` sees 7, ``convert_Foo(f, 13, ...)`` and
    ``convert_Foo(f, 20, ...)`` see 13, and ``convert_Foo(f, 6, ...)``
    raises :class:`RuntimeError`.

    Args:
        opset_versions (tuple of int): Opsets where the converter's output
            changes; the smallest is the minimum it supports.
    """
    versions = sorted(opset_versions)

    def decorator(converter):
        @functools.wraps(converter)
        def wrapped(func, opset_version, *args, **kwargs):
            chosen = [v for v in versions if v <= opset_version]
            if not chosen:
                raise RuntimeError(
                    'ONNX-Chainer cannot convert `{}` of Chainer with ONNX '
                    'opset_version {}: the conversion needs opset {} or '
                    'newer'.format(
                        function_name(func), opset_version, versions[0]))
            return converter(func, chosen[-1], *args, **kwargs)
        wrapped.minimum_opset_version = versions[0]
        return wrapped
    return decorator


def function_name(func):
    """Returns the name a converter is looked up by for ``func``."""
    return getattr(func, 'custom_function_node_name',
                   type(func).__name__)


def unsupported(func, opset_version, reason):
    """Returns the error for a conversion that ``opset_version`` forbids."""
    return ValueError(
        'ONNX-Chainer cannot convert `{}` with ONNX opset_version {}: '
        '{}'.format(function_name(func), opset_version, reason))
