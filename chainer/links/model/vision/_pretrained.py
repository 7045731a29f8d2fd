"""What the pre-trained image classifiers (VGG, ResNet, GoogLeNet) share."""

import os
import sys

import numpy

try:
    from PIL import Image
    _pil_import_error = None
except ImportError as e:
    _pil_import_error = e

import chainer
from chainer.functions.array import reshape
from chainer.functions.math import average
from chainer import link
from chainer.utils import argument
from chainer.utils import imgproc


# Whether Pillow, which ``prepare`` needs, can be imported.
available = _pil_import_error is None


def _concat_examples():
    # chainer.dataset sits above the links: it is reached at call time.
    from chainer.dataset import convert
    return convert.concat_examples


def module_getattr(module_name):
    """Makes the ``__getattr__`` of a model module.

    The model modules of Chainer 7.8 have ``concat_examples`` (of
    :mod:`chainer.dataset.convert`) as an attribute; here it is looked up
    on first access, so that importing the links does not import
    :mod:`chainer.dataset`.

    Args:
        module_name (str): The ``__name__`` of the module.

    Returns:
        callable: The module's ``__getattr__``.
    """
    def __getattr__(name):
        if name == 'concat_examples':
            return _concat_examples()
        raise AttributeError(
            'module {!r} has no attribute {!r}'.format(module_name, name))
    return __getattr__


def prepare_image(image, size, mean):
    """Converts an image to a ``(3, H, W)`` BGR array minus a mean.

    Args:
        image (PIL.Image.Image or numpy.ndarray): An RGB (or gray) image. An
            array may have the shape ``(H, W)``, ``(H, W, C)`` or ``(C, H,
            W)``; its values are cast to ``uint8``.
        size (pair of ints or None): The ``(width, height)`` to resize to
            (with Pillow's default filter), or ``None`` to keep the size.
        mean (sequence of float): The mean of each channel, in BGR order.

    Returns:
        numpy.ndarray: The image in ``chainer.config.dtype``.
    """
    if _pil_import_error is not None:
        raise ImportError(
            'PIL cannot be loaded. Install Pillow!\n'
            'The actual import error is as follows:\n'
            + str(_pil_import_error))
    dtype = chainer.get_dtype()
    if isinstance(image, numpy.ndarray):
        if image.ndim == 3:
            if image.shape[0] == 1:
                image = image[0]
            elif image.shape[0] == 3:
                image = image.transpose(1, 2, 0)
        image = Image.fromarray(image.astype(numpy.uint8))
    image = image.convert('RGB')
    if size:
        image = image.resize(size)
    bgr = numpy.asarray(image, dtype=dtype)[:, :, ::-1]
    return (bgr - numpy.asarray(mean, dtype=dtype)).transpose(2, 0, 1)


def pretrained_path(pretrained_model):
    """The file a model loads its weights from, checked before building it.

    Args:
        pretrained_model: The ``pretrained_model`` argument of the model: a
            path or file object, or ``None``.

    Returns:
        The path or file to load, or ``None`` for random initialization.

    Raises:
        FileNotFoundError: If the file does not exist.
    """
    if not pretrained_model:
        return None
    if isinstance(pretrained_model, (str, os.PathLike)) \
            and not os.path.exists(pretrained_model):
        raise FileNotFoundError(
            'The pre-trained model file {} does not exist.'.format(
                pretrained_model))
    return pretrained_model


def models_directory():
    """The folder of the pre-trained models in the dataset root.

    Returns:
        str: ``$CHAINER_DATASET_ROOT/pfnet/chainer/models/``, created if
        missing.
    """
    from chainer.dataset import download
    return download.get_dataset_directory('pfnet/chainer/models/')


def load_converted_model(model, npz_name, find_caffemodel, convert):
    """Loads a converted Caffe model, converting it on the first use.

    The converted model is ``npz_name`` in :func:`models_directory`. When
    it is missing, the Caffe model is located (or downloaded), converted
    into that file and loaded; the file appears only once complete, and
    processes that ask for it at the same time convert it once (see
    :func:`chainer.dataset.download.cache_or_load_file`).

    Args:
        model (~chainer.Link): The model to load the weights into.
        npz_name (str): File name of the converted model.
        find_caffemodel (callable): Returns the path of the Caffe model;
            called only when the converted model is missing.
        convert (callable): ``convert(path_caffemodel, path_npz)`` writes
            the converted model.

    Returns:
        ~chainer.Link: ``model``.
    """
    from chainer.dataset import download
    path = os.path.join(models_directory(), npz_name)

    def load(path_npz):
        load_npz(path_npz, model)
        return model

    def create(path_npz):
        path_caffemodel = find_caffemodel()
        announce_conversion()
        convert(path_caffemodel, path_npz)
        return load(path_npz)

    return download.cache_or_load_file(path, create, load)


def announce_conversion():
    """Tells on the standard error that a Caffe model is being loaded, as
    Chainer 7.8 does before converting one."""
    sys.stderr.write(
        'Now loading caffemodel (usually it may take few minutes)\n')
    sys.stderr.flush()


def save_npz(path, link):
    """Saves a converted model, uncompressed, as Chainer 7.8 does."""
    from chainer.serializers import npz
    npz.save_npz(path, link, compression=False)


def load_caffemodel(path):
    """Reads a ``.caffemodel`` file into a
    :class:`~chainer.links.caffe.CaffeFunction`."""
    from chainer.links.caffe import caffe_function
    return caffe_function.CaffeFunction(path)


def copy_link_params(dst, src, bias=True):
    """Copies the weight ``W`` (and the bias ``b``) of one link to another.

    The arrays of ``dst`` are kept and written into, so the values of
    ``src`` broadcast to their shapes.

    Args:
        dst (~chainer.Link): The link to write to.
        src (~chainer.Link): The link of the Caffe model.
        bias (bool): Whether to copy the bias too.
    """
    dst.W.array[...] = src.W.array
    if bias:
        dst.b.array[...] = src.b.array


def load_npz(path, model):
    """Loads a pre-trained model file into ``model``."""
    from chainer.serializers import npz
    npz.load_npz(path, model)


class PretrainedModel(link.Chain):

    """Base of the image classifiers whose layers can be extracted.

    A subclass gives :attr:`functions`, the ordered layers, and the
    preprocessing constants; this class runs them.
    """

    # BGR mean subtracted by ``prepare``.
    _mean = None
    # Layers returned by ``extract`` by default.
    _extract_layers = ('pool5',)
    # Retired keyword of ``forward`` (the train/test switch of Chainer v1).
    _retired_mode_arg = 'test'
    # Layers computed from the output of an earlier layer instead of the
    # previous one: {layer: source layer}.
    _branch_sources = {}

    @property
    def functions(self):
        """collections.OrderedDict: Layer names and the callables that
        compute each layer from the previous one."""
        raise NotImplementedError

    @property
    def available_layers(self):
        """list of str: Names of the layers ``forward`` can return."""
        return list(self.functions.keys())

    def _check_retired_args(self, kwargs, *extra):
        if kwargs:
            messages = {
                name: '{} argument is not supported anymore. '
                'Use chainer.using_config'.format(name)
                for name in (self._retired_mode_arg,) + extra}
            argument.check_unexpected_kwargs(kwargs, **messages)
            argument.assert_kwargs_empty(kwargs)

    def forward(self, x, layers=None, **kwargs):
        """forward(self, x, layers=['prob'])

        Computes the requested layers.

        The layers are computed in the order of :attr:`functions` up to the
        last requested one.

        Args:
            x (~chainer.Variable or :ref:`ndarray`): Images made by
                ``prepare``, of shape ``(N, 3, H, W)``.
            layers (list of str): Names of the layers to return; ``['prob']``
                if ``None``.

        Returns:
            dict: The output :class:`~chainer.Variable` of each requested
            layer, by name.
        """
        if layers is None:
            layers = ['prob']
        self._check_retired_args(kwargs)

        targets = set(layers)
        sources = set(self._branch_sources.values())
        saved = {}
        activations = {}
        h = x
        for key, funcs in self.functions.items():
            if not targets:
                break
            if key in self._branch_sources:
                h = saved[self._branch_sources[key]]
            for func in funcs:
                h = func(h)
            if key in targets:
                activations[key] = h
                targets.remove(key)
            if key in sources:
                saved[key] = h
        return activations

    def extract(self, images, layers=None, size=(224, 224), **kwargs):
        """extract(self, images, layers=None, size=(224, 224))

        Prepares images and computes the requested layers.

        It is ``forward`` on the images converted by ``prepare``. It keeps
        the current configuration: to extract features without a graph and
        in test mode, use ``chainer.using_config('train', False)`` and
        ``chainer.using_config('enable_backprop', False)``.

        Args:
            images (iterable of PIL.Image.Image or numpy.ndarray): RGB
                images.
            layers (list of str): Names of the layers to return (``['fc7']``
                for VGG, ``['pool5']`` for the others, if ``None``).
            size (pair of ints): Size the images are resized to; ``None``
                keeps them as they are (they must then share one size).

        Returns:
            dict: The output :class:`~chainer.Variable` of each requested
            layer, by name.
        """
        if layers is None:
            layers = list(self._extract_layers)
        self._check_retired_args(kwargs, 'volatile')
        x = self._prepare_batch(images, size)
        return self(chainer.Variable(self.device.send(x)), layers=layers)

    def predict(self, images, oversample=True):
        """Computes the class probabilities of images.

        It runs in test mode without building a graph.

        Args:
            images (iterable of PIL.Image.Image or numpy.ndarray): RGB
                images.
            oversample (bool): If ``True``, averages the probabilities of
                ten 224x224 crops of each image resized to 256x256 (corners,
                center and their mirrors); otherwise uses the center crop.

        Returns:
            ~chainer.Variable: Probabilities of shape ``(N, 1000)``.
        """
        x = self._prepare_batch(images, (256, 256))
        if oversample:
            x = imgproc.oversample(x, crop_dims=(224, 224))
        else:
            x = x[:, :, 16:240, 16:240]
        with chainer.no_backprop_mode(), \
                chainer.using_config('train', False):
            x = chainer.Variable(self.device.send(x))
            y = self(x, layers=['prob'])['prob']
            if oversample:
                y = reshape.reshape(y, (len(y) // 10, 10) + y.shape[1:])
                y = average.average(y, axis=1)
        return y

    def _prepare_batch(self, images, size):
        return _concat_examples()(
            [prepare_image(image, size, self._mean) for image in images])
