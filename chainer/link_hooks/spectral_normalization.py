"""Spectral normalization of the weight of a link."""

from chainer import backend
from chainer import configuration
from chainer.functions.math import matmul
from chainer.link_hooks import _weight_hook
from chainer.links.connection import deconvolution_2d
from chainer.links.connection import deconvolution_nd
from chainer import utils
from chainer import variable


def l2normalize(xp, v, eps):
    """Returns ``v / (||v|| + eps)``.

    Args:
        xp (module): ``numpy`` or ``cupy``.
        v (:ref:`ndarray`): A vector.
        eps (float): Guard against division by zero.
    """
    return v / (xp.linalg.norm(v) + eps)


def update_approximate_vectors(weight_matrix, u, n_power_iteration, eps):
    """Runs power iterations towards the first singular vectors.

    Args:
        weight_matrix (~chainer.Variable): The matrix ``W`` of shape
            ``(m, n)``.
        u (:ref:`ndarray`): Current estimate of the left singular vector,
            of shape ``(m,)``.
        n_power_iteration (int): Number of iterations.
        eps (float): Guard of the normalizations.

    Returns:
        tuple: The new left and right vectors ``(u, v)``.
    """
    weight_matrix = weight_matrix.array
    xp = backend.get_array_module(weight_matrix)
    for _ in range(n_power_iteration):
        v = l2normalize(xp, xp.dot(u, weight_matrix), eps)
        u = l2normalize(xp, xp.dot(weight_matrix, v), eps)
    return u, v


def calculate_max_singular_value(weight_matrix, u, v):
    """Returns the estimate ``u^T W v`` of the largest singular value,
    differentiable with respect to ``W``.

    Args:
        weight_matrix (~chainer.Variable): The matrix ``W``.
        u (:ref:`ndarray`): Left singular vector estimate.
        v (:ref:`ndarray`): Right singular vector estimate.
    """
    return matmul.matmul(matmul.matmul(u, weight_matrix), v)


class SpectralNormalization(_weight_hook.WeightHook):
    """Divides the weight of a link by its largest singular value at each
    forward call.

    The weight is seen as a matrix whose rows are the output channels
    (the first axis, or the second one for deconvolutions), and its
    largest singular value ``sigma`` is estimated by power iteration with
    a persistent vector ``<weight_name>_u`` registered on the link. During
    the call, the link sees ``W / sigma`` (``gamma * W / sigma`` with
    ``use_gamma``) instead of ``W``; the gradient flows to ``W``.

    The hook must be added to a link with :meth:`~chainer.Link.add_hook`;
    it cannot be used as a context manager.

    Args:
        n_power_iteration (int): Power iterations per call.
        eps (float): Guard of the vector normalizations.
        use_gamma (bool): Whether to learn a scale ``gamma`` of the
            normalized weight, a parameter registered on the link and
            initialized to the largest singular value.
        factor (float): If given, the weight is divided by ``sigma /
            factor`` instead, so that its spectral norm is ``factor``.
        weight_name (str): Name of the weight parameter.
        name (str): Name of the hook; ``'SpectralNormalization'`` by
            default.

    .. admonition:: Example

        >>> from chainer.link_hooks import SpectralNormalization
        >>> layer = L.Linear(3, 4)
        >>> layer = layer.add_hook(SpectralNormalization())
        >>> y = layer(np.ones((2, 3), np.float32))
        >>> layer.W_u.shape
        (4,)

    See: Miyato et al., `Spectral Normalization for Generative Adversarial
    Networks <https://arxiv.org/abs/1802.05957>`_
    """

    name = 'SpectralNormalization'

    def __init__(self, n_power_iteration=1, eps=1e-6, use_gamma=False,
                 factor=None, weight_name='W', name=None):
        assert n_power_iteration > 0
        self.n_power_iteration = n_power_iteration
        self.eps = eps
        self.use_gamma = use_gamma
        self.factor = factor
        self.weight_name = weight_name
        self.vector_name = weight_name + '_u'
        self._initialized = False
        self.axis = 0
        if name is not None:
            self.name = name

    def added(self, link):
        super().added(link)
        if isinstance(link, (deconvolution_2d.Deconvolution2D,
                             deconvolution_nd.DeconvolutionND)):
            self.axis = 1
        if getattr(link, self.weight_name).array is not None:
            self._prepare_parameters(link)

    def deleted(self, link):
        delattr(link, self.vector_name)
        if self.use_gamma:
            del link.gamma

    def forward_preprocess(self, cb_args):
        link = cb_args.link
        if not self._initialized:
            self._prepare_parameters(link, cb_args.args[0])
        self.original_weight = getattr(link, self.weight_name)
        setattr(link, self.weight_name, self.normalize_weight(link))

    def _prepare_parameters(self, link, input_variable=None):
        weight = getattr(link, self.weight_name)
        if weight.array is None and input_variable is not None:
            link._initialize_params(input_variable.shape[1])
        if weight.shape[self.axis] == 0:
            raise ValueError('Expect {}.shape[{}] > 0'.format(
                self.weight_name, self.axis))
        u = link.xp.random.normal(size=(weight.shape[self.axis],))
        setattr(link, self.vector_name, u.astype(weight.dtype))
        link.register_persistent(self.vector_name)
        if self.use_gamma:
            _, s, _ = link.xp.linalg.svd(self.reshape_W(weight.array))
            with link.init_scope():
                link.gamma = variable.Parameter(utils.force_array(s[0]))
        self._initialized = True

    def normalize_weight(self, link):
        """Returns the normalized weight of the link, as a variable.

        Outside recomputation, the power iteration also advances, and in
        training mode the persistent vector is updated.

        Args:
            link (~chainer.Link): The link.
        """
        W = getattr(link, self.weight_name)
        u = getattr(link, self.vector_name)
        weight_matrix = self.reshape_W(W)
        recomputing = configuration.config.in_recomputing
        if recomputing:
            v = self.v
        else:
            with backend.using_device(link.device):
                u, v = update_approximate_vectors(
                    weight_matrix, u, self.n_power_iteration, self.eps)
        sigma = calculate_max_singular_value(weight_matrix, u, v)
        if self.factor is not None:
            sigma /= self.factor
        if self.use_gamma:
            W = link.gamma * W / sigma
        else:
            W = W / sigma
        if not recomputing:
            self.v = v
            if configuration.config.train:
                with backend.using_device(link.device):
                    backend.copyto(getattr(link, self.vector_name), u)
        return W

    def reshape_W(self, W):
        """Views the weight as a matrix with the normalized axis first.

        Args:
            W (~chainer.Variable or :ref:`ndarray`): The weight.
        """
        if self.axis != 0:
            axes = [self.axis] + [i for i in range(W.ndim) if i != self.axis]
            W = W.transpose(axes)
        if W.ndim == 2:
            return W
        return W.reshape(W.shape[0], -1)
