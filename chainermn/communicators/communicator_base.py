"""The interface every ChainerMN communicator implements."""

import abc
import contextlib
import warnings


class CommunicatorBase(metaclass=abc.ABCMeta):
    """Interface of the communicators of ChainerMN.

    The methods are named after the MPI operations they perform
    (``bcast`` is ``MPI_Bcast``). Those without a suffix move NumPy (or
    CuPy) arrays through MPI buffers without pickling; those with the
    ``_obj`` suffix move arbitrary picklable Python objects. On top of them
    come the operations on a model: :meth:`bcast_data` (parameters) and
    :meth:`multi_node_mean_grad` (gradients).

    Configurations (``batched_copy``, ``allreduce_grad_dtype``) are set
    with :meth:`set_config` and read with :meth:`get_config`; an attribute
    assigned inside :meth:`config_scope` is recorded as a configuration.
    """

    def __init__(self):
        self._within_config_scope = False

    @property
    def rank(self):
        """Rank (process id in the communicator) of this process."""
        raise NotImplementedError()

    @property
    def size(self):
        """Number of processes in the communicator."""
        raise NotImplementedError()

    @property
    def intra_rank(self):
        """Rank of this process among the processes of its machine."""
        raise NotImplementedError()

    @property
    def intra_size(self):
        """How many processes share this process's host."""
        raise NotImplementedError()

    @property
    def inter_rank(self):
        """Rank of the machine of this process among the machines."""
        raise NotImplementedError()

    @property
    def inter_size(self):
        """Number of machines taking part in the communicator."""
        raise NotImplementedError()

    @property
    def _configs(self):
        return self.__dict__.setdefault('_config_values', {})

    def set_config(self, name, **kwargs):
        """Sets a configuration of the communicator.

        Args:
            name (str): The configuration's label.
            kwargs: Its value and options, depending on the configuration.

        Raises:
            ValueError: The communicator has no such configuration.
        """
        raise ValueError('Unknown config: {}'.format(name))

    def get_config(self, name=None):
        """Returns a configuration value, or all of them as a dict.

        Args:
            name (str): Name of the configuration; ``None`` for all.
        """
        if name is not None:
            return self._configs[name]
        return self._configs

    @property
    def within_config_scope(self):
        """``True`` inside :meth:`config_scope`."""
        return self.__dict__.get('_within_config_scope', False)

    @contextlib.contextmanager
    def config_scope(self):
        """A scope in which assigned attributes are recorded as configs."""
        old = self.within_config_scope
        self.__dict__['_within_config_scope'] = True
        try:
            yield
        finally:
            self.__dict__['_within_config_scope'] = old

    def __setattr__(self, name, value):
        if self.within_config_scope:
            self._configs[name] = value
        super().__setattr__(name, value)

    @abc.abstractmethod
    def split(self, color, key):
        """Splits the communicator, as ``MPI_Comm_split`` does.

        Args:
            color (int): Processes with the same color form a group.
            key (int): Orders the ranks inside the new group.

        Returns:
            A communicator of the same class over the new group.
        """

    @abc.abstractmethod
    def alltoall(self, xs):
        """Sends ``xs[i]`` to rank ``i`` and returns what each rank sent.

        Args:
            xs (tuple of arrays): One array per rank.

        Returns:
            tuple of arrays: The array received from each rank.
        """

    @abc.abstractmethod
    def send(self, data, dest, tag):
        """Sends an array, or a tuple of arrays, to ``dest``."""

    @abc.abstractmethod
    def recv(self, source, tag):
        """Receives what :meth:`send` sent from ``source``."""

    @abc.abstractmethod
    def bcast(self, data, max_buf_len=None, root=0):
        """Broadcasts an array from ``root`` and returns it on every rank."""

    @abc.abstractmethod
    def gather(self, data, root=0):
        """Gathers one array per rank to ``root`` (a tuple there)."""

    @abc.abstractmethod
    def allgather(self, x):
        """Gathers one array per rank to every rank, as a tuple."""

    @abc.abstractmethod
    def allreduce(self, data):
        """Returns the element-wise sum of ``data`` over the ranks."""

    @abc.abstractmethod
    def scatter(self, xs, root=0):
        """Sends ``xs[i]`` from ``root`` to rank ``i``."""

    def finalize(self):
        """Releases the resources of the communicator.

        The communicator must not be used afterwards.
        """

    @abc.abstractmethod
    def send_obj(self, obj, dest, tag):
        """Sends a picklable object to ``dest``."""

    @abc.abstractmethod
    def recv_obj(self, source, tag):
        """Receives an object sent by :meth:`send_obj`."""

    @abc.abstractmethod
    def bcast_obj(self, obj, max_buf_len=None, root=0):
        """Broadcasts a picklable object from ``root``."""

    @abc.abstractmethod
    def gather_obj(self, obj, root=0):
        """Gathers one object per rank to ``root`` as a list."""

    @abc.abstractmethod
    def allreduce_obj(self, obj):
        """Returns the sum (``+``) of ``obj`` over all ranks on every rank."""

    @abc.abstractmethod
    def bcast_data(self, model):
        """Broadcasts the parameters of ``model`` from rank 0."""

    def broadcast_data(self, model):
        """Same as :meth:`bcast_data` (the older name)."""
        self.bcast_data(model)

    @abc.abstractmethod
    def multi_node_mean_grad(self, model, zero_fill=False):
        """Replaces the gradients of ``model`` by their mean over the ranks.

        Args:
            model (~chainer.Link): The link whose gradients are averaged.
            zero_fill (bool): If ``True``, a parameter that is initialized
                but has no gradient takes part with zeros (every rank must
                send the same set of arrays); if ``False``, parameters
                without a gradient are skipped. Uninitialized parameters
                are always skipped.
        """

    def allreduce_grad(self, model, zero_fill=False):
        """Deprecated name of :meth:`multi_node_mean_grad`."""
        warnings.warn('allreduce_grad() is deprecated.', DeprecationWarning)
        self.multi_node_mean_grad(model, zero_fill)
