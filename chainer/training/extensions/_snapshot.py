"""Extensions that save snapshots of the trainer or of any object."""

import os
import random
import warnings
import zipfile
import zlib

import numpy

from chainer import configuration
from chainer.iterators import _random_state
from chainer.serializers import npz
from chainer.training import extension
from chainer.training.extensions import snapshot_writers
from chainer.utils import argument


def _find_snapshot_files(fmt, path):
    """Returns ``(mtime, name)`` of the files of ``path`` matching ``fmt``,
    oldest first.

    A file matches when it starts with the text of ``fmt`` before its first
    ``{`` and ends with the text after its last ``}``.
    """
    prefix = fmt.split('{')[0]
    suffix = fmt.split('}')[-1]
    matched = [name for name in os.listdir(path)
               if name.startswith(prefix) and name.endswith(suffix)]
    return sorted(
        (os.stat(os.path.join(path, name)).st_mtime, name)
        for name in matched)


def _find_latest_snapshot(fmt, path):
    """Returns the newest file of ``path`` matching ``fmt``, or ``None``."""
    files = _find_snapshot_files(fmt, path)
    return files[-1][1] if files else None


def _find_stale_snapshots(fmt, path, n_retains):
    """Yields the files matching ``fmt`` but the ``n_retains`` newest."""
    files = _find_snapshot_files(fmt, path)
    for _, name in files[:max(len(files) - n_retains, 0)]:
        yield name


def _archive_problem(path):
    """Returns what is wrong with the NPZ (zip) archive ``path``, or
    ``None`` when every member is whole (checksums verified)."""
    try:
        with zipfile.ZipFile(path) as archive:
            bad = archive.testzip()
    except (OSError, EOFError, zipfile.BadZipFile, zlib.error) as e:
        return '{}: {}'.format(type(e).__name__, e)
    if bad is not None:
        return 'member {} has a wrong checksum'.format(bad)
    return None


def _pop_num_retain(kwargs):
    if 'num_retain' in kwargs:
        warnings.warn(
            'Argument `num_retain` is deprecated. '
            'Please use `n_retains` instead',
            DeprecationWarning)
        kwargs['n_retains'] = kwargs.pop('num_retain')


def snapshot_object(target, filename, savefun=None, **kwargs):
    """snapshot_object(target, filename, savefun=None, \
*, condition=None, writer=None, snapshot_on_error=False, \
n_retains=-1, autoload=False)

    Returns a trainer extension that saves snapshots of an object.

    It is :func:`snapshot` with a given ``target``: once per epoch by
    default, with priority -100.

    Args:
        target: The object to save (a link, an optimizer, ...).
        filename (str): The file name; a format string that gets the
            trainer, e.g. ``'model_{.updater.iteration}'``.
        savefun: The save function, see :func:`snapshot`.
        **kwargs: The keyword-only options of :func:`snapshot`.

    Returns:
        The extension.
    """
    _pop_num_retain(kwargs)
    return snapshot(target=target, filename=filename, savefun=savefun,
                    **kwargs)


def snapshot(savefun=None,
             filename='snapshot_iter_{.updater.iteration}', **kwargs):
    """snapshot(savefun=None, filename='snapshot_iter_{.updater.iteration}', \
*, target=None, condition=None, writer=None, snapshot_on_error=False, \
n_retains=-1, autoload=False)

    Makes a trainer extension that writes the whole trainer to a file.

    A trainer snapshot holds everything that changes during training (the
    models, the optimizers, the iterators, the extensions' states and the
    elapsed time) and the random state it draws from (NumPy's global
    generator, Python's :mod:`random`, each iterator's order sampler), so
    that loading it into an identically built trainer resumes the training
    where it stopped, drawing the same random numbers as a run that was
    never interrupted. The file is written in a temporary directory and
    moved into place; the temporary directories that a killed run left are
    removed before training.

    It is called once per epoch by default, with priority -100 (after the
    other extensions).

    Args:
        savefun: Called as ``savefun(path, serialized_target)``;
            :func:`~chainer.serializers.save_npz` by default. Not allowed
            together with ``writer``.
        filename (str or callable): The file name: a format string that
            gets the trainer, or a callable that takes the trainer and
            returns the name.
        target: The object to save; the trainer by default.
        condition: A callable without argument; no snapshot is taken when
            it returns ``False``.
        writer: A :mod:`~chainer.training.extensions.snapshot_writers`
            writer; a :class:`SimpleWriter` of ``savefun`` by default.
        snapshot_on_error (bool): Also take a snapshot when the training
            loop raises.
        n_retains (int): When positive, only this many newest snapshot
            files (matched by the prefix and suffix of a string
            ``filename``) are kept.
        autoload (bool): Before training, load the newest snapshot file
            matching a string ``filename`` in the output directory, if
            any, into the target (it must be an NPZ file). A damaged file
            (a truncated or corrupt archive) is skipped with a warning
            naming it, and the newest readable one before it is loaded.

    Returns:
        The extension.

    Example:
        Keeping the two latest snapshots, and resuming from the latest one
        when the training script starts again::

            trainer.extend(extensions.snapshot(n_retains=2, autoload=True),
                           trigger=(1, 'epoch'))
    """
    _pop_num_retain(kwargs)
    target, condition, writer, snapshot_on_error, n_retains, autoload = \
        argument.parse_kwargs(
            kwargs,
            ('target', None), ('condition', None), ('writer', None),
            ('snapshot_on_error', False), ('n_retains', -1),
            ('autoload', False))

    if savefun is not None and writer is not None:
        raise TypeError(
            'savefun and writer arguments cannot be specified together.')
    if writer is None:
        writer = snapshot_writers.SimpleWriter(
            savefun=npz.save_npz if savefun is None else savefun)

    return _Snapshot(
        target=target, condition=condition, writer=writer, filename=filename,
        snapshot_on_error=snapshot_on_error, n_retains=n_retains,
        autoload=autoload)


def _always_true():
    return True


class _Snapshot(extension.Extension):
    """The extension made by :func:`snapshot` and :func:`snapshot_object`.
    """

    trigger = 1, 'epoch'
    priority = -100

    def __init__(self, target=None, condition=None, writer=None,
                 filename='snapshot_iter_{.updater.iteration}',
                 snapshot_on_error=False, n_retains=-1, autoload=False):
        self._target = target
        self.filename = filename
        self.condition = _always_true if condition is None else condition
        self.writer = snapshot_writers.SimpleWriter() if writer is None \
            else writer
        self._snapshot_on_error = snapshot_on_error
        self.n_retains = n_retains
        self.autoload = autoload

    def initialize(self, trainer):
        """Removes the temporary files of snapshots that a killed run left,
        loads the latest readable snapshot (with ``autoload``) and installs
        the removal of stale snapshots (with ``n_retains``)."""
        target = trainer if self._target is None else self._target
        outdir = trainer.out
        if isinstance(self.filename, str) and os.path.isdir(outdir):
            snapshot_writers.remove_abandoned_temporaries(
                outdir, self.filename.split('{')[0])
        if self.autoload:
            snapshot_file = self._find_readable_snapshot(outdir)
            if snapshot_file is None:
                if configuration.is_debug():
                    print('No snapshot file that matches {} was found'
                          .format(self.filename))
            else:
                npz.load_npz(snapshot_file, target)
                if configuration.is_debug():
                    print('Snapshot loaded from', snapshot_file)

        if (hasattr(self.writer, '_add_cleanup_hook')
                and self.n_retains > 0
                and isinstance(self.filename, str)):
            def _cleanup():
                for name in _find_stale_snapshots(
                        self.filename, outdir, self.n_retains):
                    os.remove(os.path.join(outdir, name))

            self.writer._add_cleanup_hook(_cleanup)

    def _find_readable_snapshot(self, outdir):
        # The newest snapshot file whose archive is whole; the damaged
        # newer ones are skipped with a warning (and left in place).
        if not os.path.isdir(outdir):
            return None
        for _, name in reversed(_find_snapshot_files(self.filename, outdir)):
            path = os.path.join(outdir, name)
            problem = _archive_problem(path)
            if problem is None:
                return path
            warnings.warn(
                'The snapshot file {} is damaged ({}); it is skipped and '
                'the newest readable snapshot before it is loaded.'.format(
                    path, problem), RuntimeWarning)
        return None

    def serialize(self, serializer):
        """Saves or loads the random state that training draws from.

        A snapshot of the trainer (no ``target``) holds the states of
        NumPy's global random generator and of Python's :mod:`random`
        (keys ``random_state/numpy`` and ``random_state/python`` under the
        extension), so that a run resumed from it draws the same numbers
        (shuffled orders, dropout masks, ...) as the run that was never
        interrupted. Snapshots without them (older ones, Chainer's) load as
        they are; Chainer 7.8 loads these files and ignores the keys.

        Args:
            serializer (~chainer.AbstractSerializer): The serializer.
        """
        if self._target is not None:
            return
        s = serializer['random_state']
        _random_state.serialize(s, 'numpy', numpy.random.random.__self__)
        _random_state.serialize(s, 'python', random._inst)

    def on_error(self, trainer, exc, tb):
        """Takes a snapshot if ``snapshot_on_error`` is set."""
        if self._snapshot_on_error:
            self._make_snapshot(trainer)

    def __call__(self, trainer):
        if self.condition():
            self._make_snapshot(trainer)

    def _make_snapshot(self, trainer):
        target = trainer if self._target is None else self._target
        serialized_target = npz.serialize(target)
        filename = self.filename
        if callable(filename):
            filename = filename(trainer)
        else:
            filename = filename.format(trainer)
        self.writer(filename, trainer.out, serialized_target)

    def finalize(self):
        """Finalizes the writer."""
        if hasattr(self.writer, 'finalize'):
            self.writer.finalize()
