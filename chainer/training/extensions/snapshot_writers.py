"""Writers: how a snapshot extension writes its files.

A writer gets the file name, the output directory and the serialized
target (a flat dict of arrays made by
:func:`chainer.serializers.npz.serialize`) and saves it, synchronously
(:class:`SimpleWriter`), in a new thread or process per snapshot
(:class:`ThreadWriter`, :class:`ProcessWriter`) or through a queue
consumed by one thread or process (:class:`ThreadQueueWriter`,
:class:`ProcessQueueWriter`). Every file is first written into a
temporary directory beside its destination and then moved into place, so
a reader never sees a partial snapshot; the temporary directories that a
killed process leaves are removed by the next save of the same name and by
the snapshot extension before training.
"""

import glob
import multiprocessing
import os
import queue
import shutil
import threading

from chainer.serializers import _temporary_files
from chainer.serializers import npz
from chainer import utils


def remove_abandoned_temporaries(outdir, prefix):
    """Removes the temporary directories of snapshots that a killed process
    left in ``outdir``.

    Args:
        outdir (str): The output directory.
        prefix (str): The start of the snapshot file names whose
            temporary directories (``tmp<prefix>...``) to look at.

    Returns:
        list of str: The directories removed.
    """
    return _temporary_files.remove_abandoned(os.path.join(
        glob.escape(outdir), glob.escape('tmp' + prefix) + '*'))


class Writer:
    """Base of the snapshot writers.

    Subclasses implement :meth:`__call__`, usually through :meth:`save`.
    """

    def __init__(self):
        self._post_save_hooks = []

    def __call__(self, filename, outdir, target):
        """Writes a snapshot.

        Args:
            filename (str): The file name (already formatted).
            outdir (str): The output directory (the trainer's ``out``).
            target (dict): The serialized object.
        """
        raise NotImplementedError

    def __del__(self):
        self.finalize()

    def finalize(self):
        """Waits for pending writes; called at the end of training."""

    def save(self, filename, outdir, target, savefun, **kwds):
        """Saves ``target`` with ``savefun`` atomically, then runs the
        post-save hooks.

        The file is written in a temporary directory
        ``<outdir>/tmp<filename><random>``, held locked while in use;
        those of the same file name that a killed process left are removed
        first.

        Args:
            filename (str): The file name.
            outdir (str): The output directory.
            target (dict): The serialized object.
            savefun: Called as ``savefun(path, target, **kwds)``.
            **kwds: Passed to ``savefun``.
        """
        remove_abandoned_temporaries(outdir, filename)
        with utils.tempdir(prefix='tmp' + filename, dir=outdir) as tmpdir:
            with _temporary_files.holding(tmpdir):
                tmppath = os.path.join(tmpdir, filename)
                savefun(tmppath, target, **kwds)
                shutil.move(tmppath, os.path.join(outdir, filename))
        self._post_save()

    def _add_cleanup_hook(self, hook_fun):
        """Adds a callable (no argument) run after each save, such as the
        removal of stale snapshots."""
        self._post_save_hooks.append(hook_fun)

    def _post_save(self):
        for hook in self._post_save_hooks:
            hook()


class SimpleWriter(Writer):
    """Writer that saves in the calling thread.

    Args:
        savefun: Called as ``savefun(path, target, **kwds)``;
            :func:`~chainer.serializers.save_npz` by default.
        **kwds: Keyword arguments of ``savefun``.
    """

    def __init__(self, savefun=npz.save_npz, **kwds):
        super().__init__()
        self._savefun = savefun
        self._kwds = kwds

    def __call__(self, filename, outdir, target):
        self.save(filename, outdir, target, self._savefun, **self._kwds)


class StandardWriter(Writer):
    """Base class of writers that save in a new worker for each snapshot.

    A call waits for the previous worker before starting the next one.

    Args:
        savefun: Called as ``savefun(path, target, **kwds)``.
        **kwds: Keyword arguments of ``savefun``.
    """

    _started = False
    _finalized = False
    _worker = None

    def __init__(self, savefun=npz.save_npz, **kwds):
        super().__init__()
        self._savefun = savefun
        self._kwds = kwds

    def __call__(self, filename, outdir, target):
        if self._started:
            self._worker.join()
            self._started = False
        self._filename = filename
        self._worker = self.create_worker(filename, outdir, target,
                                          **self._kwds)
        self._worker.start()
        self._started = True

    def create_worker(self, filename, outdir, target, **kwds):
        """Returns an unstarted worker (with ``start`` and ``join``) that
        saves the snapshot."""
        raise NotImplementedError

    def finalize(self):
        """Waits for the last worker."""
        if self._started:
            if not self._finalized:
                self._worker.join()
            self._started = False
        self._finalized = True


class ThreadWriter(StandardWriter):
    """Writer that saves each snapshot in a new thread.

    Args:
        savefun: Called as ``savefun(path, target, **kwds)``.
        **kwds: Keyword arguments of ``savefun``.
    """

    def create_worker(self, filename, outdir, target, **kwds):
        return threading.Thread(
            target=self.save,
            args=(filename, outdir, target, self._savefun), kwargs=kwds)


class ProcessWriter(StandardWriter):
    """Writer that saves each snapshot in a new process.

    Forking an MPI process may be unsafe; prefer :class:`ThreadWriter`
    there.

    Args:
        savefun: Called as ``savefun(path, target, **kwds)``.
        **kwds: Keyword arguments of ``savefun``.
    """

    def create_worker(self, filename, outdir, target, **kwds):
        return multiprocessing.Process(
            target=self.save,
            args=(filename, outdir, target, self._savefun), kwargs=kwds)


class QueueWriter(Writer):
    """Base class of writers that queue snapshots for one consumer.

    The consumer starts at construction and runs the queued tasks in
    order; :meth:`finalize` waits for the queue to drain.

    Args:
        savefun: Used to make the default task, a :class:`SimpleWriter`.
        task: A callable with the interface of :meth:`Writer.__call__`,
            run for each snapshot instead of the default task.
    """

    _started = False
    _finalized = False
    _queue = None
    _consumer = None

    def __init__(self, savefun=npz.save_npz, task=None):
        super().__init__()
        self._task = self.create_task(savefun) if task is None else task
        self._queue = self.create_queue()
        self._consumer = self.create_consumer(self._queue)
        self._consumer.start()
        self._started = True
        self._finalized = False

    def __call__(self, filename, outdir, target):
        self._queue.put([self._task, filename, outdir, target])

    def create_task(self, savefun):
        """Returns the default task: a :class:`SimpleWriter`."""
        return SimpleWriter(savefun=savefun)

    def create_queue(self):
        """Returns the queue."""
        raise NotImplementedError

    def create_consumer(self, q):
        """Returns an unstarted worker that runs :meth:`consume`."""
        raise NotImplementedError

    def consume(self, q):
        """Runs queued tasks until a ``None`` arrives.

        The post-save hooks run after each task.
        """
        while True:
            task = q.get()
            if task is None:
                q.task_done()
                return
            task[0](task[1], task[2], task[3])
            self._post_save()
            q.task_done()

    def finalize(self):
        """Stops the consumer after the queued snapshots are written."""
        if self._started:
            if not self._finalized:
                self._queue.put(None)
                self._queue.join()
                self._consumer.join()
            self._started = False
        self._finalized = True


class ThreadQueueWriter(QueueWriter):
    """Writer whose queue is consumed by one thread.

    Args:
        savefun: Used to make the default task.
        task: The task run for each snapshot.
    """

    def create_queue(self):
        return queue.Queue()

    def create_consumer(self, q):
        return threading.Thread(target=self.consume, args=(q,))


class ProcessQueueWriter(QueueWriter):
    """Writer whose queue is consumed by one process.

    Forking an MPI process may be unsafe; prefer
    :class:`ThreadQueueWriter` there.

    Args:
        savefun: Used to make the default task.
        task: The task run for each snapshot.
    """

    def create_queue(self):
        return multiprocessing.JoinableQueue()

    def create_consumer(self, q):
        return multiprocessing.Process(target=self.consume, args=(q,))
