import os
import shutil
import tempfile
import time
import warnings

import chainer
from chainer.training import extension


def create_multi_node_checkpointer(name, comm, cp_interval=5,
                                   gc_interval=5, path=None):
    """Creates a checkpointer that keeps per-rank generations of snapshots.

    Each rank saves its own ``<name>.<rank>.<iteration>`` file; at start-up
    :meth:`maybe_load` resumes every rank from the latest iteration that
    all ranks have saved. Old generations beyond ``cp_interval`` are
    removed. Deprecated: use
    :func:`chainermn.extensions.multi_node_snapshot`.

    Use it as a trainer extension, and call
    ``checkpointer.maybe_load(trainer, optimizer)`` before
    ``trainer.run()`` (after the extensions with state are added).

    Args:
        name (str): Identifier of the run.
        comm: ChainerMN communicator.
        cp_interval (int): Number of generations to keep.
        gc_interval (int): Interval of the removal of old generations.
        path (str): Folder of the files; the trainer's ``out`` if ``None``.
    """
    warnings.warn('Checkpointer is deprecated. '
                  'Use chainer.extensions.multi_node_snapshot instead.',
                  DeprecationWarning)
    return _MultiNodeCheckpointer(name, comm, cp_interval, gc_interval, path)


class _CheckpointStats:

    def __init__(self):
        self.timings = []
        self.begin = None

    def start(self):
        self.begin = time.time()

    def end(self):
        if self.begin is None:
            return
        now = time.time()
        self.timings.append({'b': self.begin, 'd': now - self.begin})
        self.begin = None

    def report(self):
        if not self.timings:
            return 'No stats available'
        durations = [t['d'] for t in self.timings]
        return ('Snapshot duration stats (sec): avg={:f}, min={:f}, max={:f}'
                .format(sum(durations) / len(durations), min(durations),
                        max(durations)))


class _MultiNodeCheckpointer(extension.Extension):

    def __init__(self, name, comm, cp_interval, gc_interval, path):
        assert name is not None
        assert cp_interval > 0
        assert gc_interval > 0
        assert comm is not None
        self.name = name
        self.cp_interval = cp_interval
        self.gc_interval = gc_interval
        self.comm = comm
        self.files = []
        self.stats = _CheckpointStats()
        self.path = path
        if path is not None:
            os.makedirs(path, exist_ok=True)

    def __call__(self, trainer):
        if self.path is None:
            self.path = trainer.out
        self.save(trainer, trainer.updater.iteration)

    def save(self, target, iteration):
        """Saves ``target``; every rank must call it at the same time."""
        filename = self._filename(iteration)
        self.stats.start()
        _save(self.path, filename, target)
        self.stats.end()
        self.files.append(filename)
        if len(self.files) - self.cp_interval > 5:
            self._sync_file_list(remove_remainder=True)

    def finalize(self):
        """Removes every snapshot this rank saved."""
        assert self.path is not None
        for filename in self.files:
            try:
                os.remove(os.path.join(self.path, filename))
            except OSError:
                pass
        self.files = []

    def get_stats(self):
        """Returns a summary of the time spent saving."""
        return self.stats.report()

    def _sync_file_list(self, remove_remainder=False):
        file_lists = self.comm.gather_obj(self.files)
        common = None
        if self.comm.rank == 0:
            if file_lists is None:
                raise RuntimeError('Can\'t gather checkpoint file names')
            if not file_lists:
                self.files = []
                return
            common = None
            for files in file_lists:
                iters = {p[2] for p in self._parse_filenames(files) if p}
                common = iters if common is None else common & iters
            common = sorted(common)[-self.cp_interval:]
        common = self.comm.bcast_obj(common)
        files = self._filenames(common)
        if remove_remainder:
            for filename in set(self.files) - set(files):
                try:
                    os.remove(os.path.join(self.path, filename))
                except OSError:
                    pass
        self.files = files

    def _filenames(self, iterations):
        return [self._filename(i) for i in iterations]

    def _filename(self, iteration):
        return '{:s}.{:d}.{:d}'.format(self.name, self.comm.rank, iteration)

    def _parse_filenames(self, filenames):
        return [self._parse_filename(f) for f in filenames]

    def _parse_filename(self, filename):
        parts = filename.split('.')
        if len(parts) != 3:
            return None
        name, rank, iteration = parts
        if name != self.name:
            return None
        return name, int(rank), int(iteration)

    def maybe_load(self, trainer, optimizer=None, path=None):
        """Resumes from the latest snapshot that every rank has, if any."""
        if self.path is None:
            self.path = path if path is not None else trainer.out
        try:
            local_files = os.listdir(self.path)
        except OSError:
            local_files = []
        local_iters = [p[2] for p in self._parse_filenames(local_files)
                       if p and p[0] == self.name and p[1] == self.comm.rank]
        self.files = self._filenames(local_iters)
        self._sync_file_list()
        iters = [p[2] for p in self._parse_filenames(self.files)]
        if iters:
            _load(self.path, self._filename(max(iters)), trainer)
            if optimizer is not None:
                optimizer.__setattr__('needs_broadcast', False)


def _load(path, filename, target):
    chainer.serializers.load_npz(os.path.join(path, filename), target)


def _save(path, filename, target):
    # Written to a temporary file and moved, so a crash never leaves a
    # partial snapshot under the final name.
    os.makedirs(path, exist_ok=True)
    fd, tmppath = tempfile.mkstemp(prefix='tmp-' + filename, dir=path)
    try:
        chainer.serializers.save_npz(tmppath, target)
    except Exception:
        os.close(fd)
        os.remove(tmppath)
        raise
    os.close(fd)
    shutil.move(tmppath, os.path.join(path, filename))
