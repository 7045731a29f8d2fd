__version__ = '7.8.1'


# The optional packages whose installed version Chainer checks, as Chainer
# 7.8 lists them: a name for messages, the distributions that provide it,
# the supported versions and where to read more. This project runs on CuPy
# 13 and 14; iDeep is not listed, as it does not install on the Python
# versions this project supports.
_optional_dependencies = [
    {
        'name': 'CuPy',
        'packages': [
            'cupy-cuda13x',
            'cupy-cuda12x',
            'cupy-cuda11x',
            'cupy',
        ],
        'specifier': '>=13.0.0,<15.0.0',
        'help': 'https://docs.cupy.dev/en/latest/install.html',
    },
]
