"""An iterator that reads the examples in worker processes."""

import collections
import multiprocessing
import multiprocessing.connection
import multiprocessing.sharedctypes
import pickle
import signal
import sys
import threading
import time
import traceback
import warnings

import numpy

from chainer.iterators import _statemachine


# How often (in seconds) waiting threads look at termination and timeouts.
_response_time = 0.1


def _raise_timeout_warning():
    warnings.warn(
        'Stalled dataset is detected. '
        'See the documentation of MultiprocessIterator for common causes and '
        'workarounds:\n'
        'https://docs.chainer.org/en/stable/reference/generated/'
        'chainer.iterators.MultiprocessIterator.html',
        MultiprocessIterator.TimeoutWarning)


class MultiprocessIterator(_statemachine.EpochIterator):
    """Dataset iterator that reads the examples in worker processes.

    It behaves as :class:`~chainer.iterators.SerialIterator`, except that
    the examples are read by ``n_processes`` worker processes and up to
    ``n_prefetch`` batches are read ahead by a background thread. Use it
    when reading an example is CPU-heavy Python code (decoding, data
    augmentation).

    The NumPy arrays of the examples come back from the workers through a
    block of shared memory, ``shared_mem`` bytes per example. When
    ``shared_mem`` is ``None`` the first batch is read in the calling
    process and the size of its largest example is used. Arrays that do
    not fit (with a warning) and all other values are pickled instead.

    On Linux the workers are forked, so the dataset need not be picklable;
    elsewhere Python's default start method is used. Workers ignore
    ``SIGINT``.

    A worker that dies (killed, crashed, or exited) makes the next ``next``
    raise :class:`RuntimeError`; an exception raised by the dataset in a
    worker is raised again by ``next``, with the worker's traceback as its
    cause. Call :meth:`finalize` (or use the iterator as a context
    manager) to stop the workers and the thread.

    .. note::
        A stall of the dataset longer than ``dataset_timeout`` seconds
        emits a :class:`MultiprocessIterator.TimeoutWarning`. Common causes
        are datasets that deadlock after ``fork`` (e.g. OpenCV's threads;
        call ``cv2.setNumThreads(0)``), or that wait on locks held by
        threads of the parent process.

    Args:
        dataset: The dataset.
        batch_size (int): The number of examples in a batch.
        repeat (bool): Whether to go on past the first epoch.
        shuffle (bool): As for :class:`~chainer.iterators.SerialIterator`.
        n_processes (int): The number of worker processes; the number of
            CPUs by default.
        n_prefetch (int): The number of batches read ahead.
        shared_mem (int): The shared memory size per example, in bytes;
            ``None`` to measure it on the first batch.
        order_sampler (callable): As for
            :class:`~chainer.iterators.SerialIterator`.
        dataset_timeout (float): Seconds of waiting for a batch before a
            :class:`MultiprocessIterator.TimeoutWarning`; ``None`` for no
            warning.
        maxtasksperchild (int): The number of tasks after which a worker
            is replaced by a new one; ``None`` to keep the workers.
    """

    class TimeoutWarning(RuntimeWarning):
        """Warning of a dataset that produced no batch in time."""

    _finalized = False
    _prefetch_loop = None
    _comm = None

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None,
                 n_processes=None, n_prefetch=1, shared_mem=None,
                 order_sampler=None, dataset_timeout=30.0,
                 maxtasksperchild=None):
        self.dataset = dataset
        self.batch_size = batch_size
        self.repeat = repeat
        self.shuffle = shuffle
        self.n_processes = n_processes or multiprocessing.cpu_count()
        self.n_prefetch = max(n_prefetch, 1)
        self.shared_mem = shared_mem
        self.dataset_timeout = dataset_timeout
        self._maxtasksperchild = maxtasksperchild
        self.order_sampler = _statemachine.resolve_order_sampler(
            shuffle, order_sampler)
        self._initialize_loop()

    def _initialize_loop(self):
        self._comm = _Communicator(self.n_prefetch, self.dataset_timeout)
        self.reset()
        # The workers and the thread start at the first batch, so that a
        # forked worker never inherits a half-started thread.
        self._prefetch_loop = _PrefetchLoop(
            self.dataset, self.batch_size, self.repeat, self.n_processes,
            self.shared_mem, self._comm, self.order_sampler,
            self._maxtasksperchild)

    def __next__(self):
        loop = self._prefetch_loop
        measured = None
        if loop.thread is None:
            if loop.measure_required():
                measured = loop.measure(self.dataset_timeout)
            loop.launch_thread()
        batch, state = measured or self._comm.get()
        self._previous_epoch_detail = self.epoch_detail
        self._state = state
        if batch is None:
            raise StopIteration
        return batch

    next = __next__

    def finalize(self):
        """Stops the prefetch thread and the worker processes.

        The iterator cannot be used afterwards.
        """
        if self._finalized:
            return
        if self._comm is not None:
            self._comm.terminate()
        if self._prefetch_loop is not None:
            self._prefetch_loop.terminate()
        self._comm = None
        self._prefetch_loop = None
        self._finalized = True

    def __copy__(self):
        other = MultiprocessIterator(
            self.dataset, self.batch_size, self.repeat, shuffle=None,
            n_processes=self.n_processes, n_prefetch=self.n_prefetch,
            shared_mem=self.shared_mem, order_sampler=self.order_sampler,
            dataset_timeout=self.dataset_timeout,
            maxtasksperchild=self._maxtasksperchild)
        other._reset_state(self.current_position, self.epoch,
                           self.is_new_epoch, self._state.order)
        other._previous_epoch_detail = self._previous_epoch_detail
        return other

    def serialize(self, serializer):
        """Saves or loads the position of the iterator.

        The keys are ``current_position``, ``epoch``, ``is_new_epoch``,
        ``order`` (only when the order is not the natural one) and
        ``previous_epoch_detail``, as in Chainer's snapshots, and the state
        of the order sampler's random generator (``order_sampler/...``).
        Batches read ahead are dropped.

        Args:
            serializer (~chainer.AbstractSerializer): The serializer.
        """
        current_position = serializer(
            'current_position', self.current_position)
        epoch = serializer('epoch', self.epoch)
        is_new_epoch = serializer('is_new_epoch', self.is_new_epoch)
        order = self._state.order
        if order is not None:
            # Loaded in place: copy first, as the prefetch thread shares
            # the current order.
            order = order.copy()
            try:
                serializer('order', order)
            except KeyError:
                serializer('_order', order)
        self._reset_state(current_position, epoch, is_new_epoch, order)
        self._load_previous_epoch_detail(serializer)
        _statemachine.serialize_order_sampler(serializer, self.order_sampler)

    def reset(self):
        """Goes back to the start of the first epoch.

        A new order is drawn and the batches read ahead are dropped.
        """
        state = self._initial_state()
        self._reset_state(*state)
        self._previous_epoch_detail = -1.

    def _reset_state(self, current_position, epoch, is_new_epoch, order):
        if self._finalized:
            raise NotImplementedError(
                'Reset of finalized MultiProcessIterator is currently not '
                'supported.')
        self._state = _statemachine.IteratorState(
            current_position, epoch, is_new_epoch, order)
        self._comm.reset(self._state)

    def __getstate__(self):
        state = {}

        def save(key, value):
            state[key] = value
            return value

        self.serialize(save)
        init = self.__dict__.copy()
        for key in ('_comm', '_state', '_prefetch_loop'):
            del init[key]
        state['init'] = init
        return state

    def __setstate__(self, state):
        self.__dict__.update(state['init'])
        self._initialize_loop()
        self._reset_state(state['current_position'], state['epoch'],
                          state['is_new_epoch'], state.get('order'))
        self._previous_epoch_detail = state['previous_epoch_detail']


class _Communicator:
    """The queue of batches between the prefetch thread and the iterator.

    The iterator resets it to a new state (dropping the queued batches) or
    terminates it; the thread reads these requests with :meth:`check` and
    queues batches tagged with the reset count they were computed for, so
    that batches of a state older than the last reset are dropped.
    """

    STATUS_CONTINUE = 0
    STATUS_RESET = 1
    STATUS_TERMINATE = 2

    def __init__(self, n_prefetch, dataset_timeout):
        self.n_prefetch = n_prefetch
        self.dataset_timeout = dataset_timeout
        self._lock = threading.Lock()
        self._not_empty = threading.Condition(self._lock)
        self._not_full = threading.Condition(self._lock)
        self._batch_queue = collections.deque()
        self._status = _Communicator.STATUS_CONTINUE
        self._prefetch_state = None
        self._reset_count = 0
        self._error = None

    @property
    def is_terminated(self):
        with self._lock:
            return self._status == _Communicator.STATUS_TERMINATE

    # Called from the iterator.

    def get(self):
        with self._lock:
            start = time.monotonic()
            warned = False
            while not self._batch_queue:
                if self._error is not None:
                    raise self._error
                self._not_empty.wait(_response_time)
                if (not warned and self.dataset_timeout is not None
                        and time.monotonic() - start > self.dataset_timeout):
                    _raise_timeout_warning()
                    warned = True
            item = self._batch_queue.popleft()
            self._not_full.notify()
            return item

    def reset(self, prefetch_state):
        with self._lock:
            self._status = _Communicator.STATUS_RESET
            self._prefetch_state = prefetch_state
            self._drop_batches()

    def terminate(self):
        with self._lock:
            self._status = _Communicator.STATUS_TERMINATE
            self._drop_batches()

    def _drop_batches(self):
        self._batch_queue.clear()
        self._reset_count += 1
        self._not_full.notify()

    # Called from the prefetch thread.

    def check(self):
        with self._lock:
            status = self._status
            if status != _Communicator.STATUS_TERMINATE:
                self._status = _Communicator.STATUS_CONTINUE
            prefetch_state = None
            if status == _Communicator.STATUS_RESET:
                prefetch_state = self._prefetch_state
            return status, prefetch_state, self._reset_count

    def put(self, batch, prefetch_state, reset_count):
        with self._lock:
            while (len(self._batch_queue) >= self.n_prefetch
                   and reset_count == self._reset_count):
                self._not_full.wait()
            if reset_count == self._reset_count:
                self._batch_queue.append((batch, prefetch_state))
                self._not_empty.notify()

    def set_error(self, error):
        with self._lock:
            self._error = error
            self._not_empty.notify()


class _PrefetchLoop:
    """The background thread reading batches through the worker pool."""

    _thread = None
    _pool = None
    _terminating = False

    def __init__(self, dataset, batch_size, repeat, n_processes, mem_size,
                 comm, order_sampler, maxtasksperchild):
        self.dataset = dataset
        self.batch_size = batch_size
        self.repeat = repeat
        self.n_processes = n_processes
        self.mem_size = mem_size
        self._comm = comm
        self.order_sampler = order_sampler
        self.maxtasksperchild = maxtasksperchild
        self.prefetch_state = None
        self._allocate_shared_memory()

    @property
    def thread(self):
        return self._thread

    def terminate(self):
        self._terminating = True
        # The thread uses the pool: stop it first.
        if self._thread is not None:
            self._thread.join()
        if self._pool is not None:
            self._pool.terminate()
        self._thread = None
        self._pool = None

    def measure_required(self):
        return self.mem_size is None

    def measure(self, dataset_timeout):
        """Reads the first batch here and sizes the shared memory on it."""
        _, indices = self._advance()
        if indices is None:
            return None, self.prefetch_state
        result = []
        errors = []

        def fetch():
            try:
                result.extend(self.dataset[index] for index in indices)
            except BaseException as e:
                errors.append(e)

        if dataset_timeout is None:
            fetch()
        else:
            fetcher = threading.Thread(target=fetch, daemon=True)
            fetcher.start()
            fetcher.join(dataset_timeout)
            if fetcher.is_alive():
                _raise_timeout_warning()
            fetcher.join()
        if errors:
            raise errors[0]
        self.mem_size = max(map(_measure, result), default=0)
        self._allocate_shared_memory()
        return result, self.prefetch_state

    def _allocate_shared_memory(self):
        if self.mem_size is None:
            self.mem_bulk = None
        else:
            self.mem_bulk = multiprocessing.sharedctypes.RawArray(
                'b', self.batch_size * self.mem_size)

    def launch_thread(self):
        self._pool = _WorkerPool(
            self.n_processes, self.dataset, self.mem_size, self.mem_bulk,
            self.maxtasksperchild)
        thread = threading.Thread(
            target=self._run, name='prefetch_loop', daemon=True)
        thread.start()
        self._thread = thread
        return thread

    def _run(self):
        try:
            while not self._terminating and self._task():
                pass
        except BaseException as e:
            self._comm.set_error(e)

    def _advance(self):
        # Moves prefetch_state one batch forward. Returns the reset count
        # the batch belongs to and its indices (None past the end of a
        # non-repeating iteration), or None once terminated.
        status, prefetch_state, reset_count = self._comm.check()
        if status == _Communicator.STATUS_RESET:
            self.prefetch_state = prefetch_state
        elif status == _Communicator.STATUS_TERMINATE:
            return None
        self.prefetch_state, indices = _statemachine.iterator_statemachine(
            self.prefetch_state, self.batch_size, self.repeat,
            self.order_sampler, len(self.dataset))
        return reset_count, indices

    def _task(self):
        # Reads one batch; returns whether the loop goes on.
        advanced = self._advance()
        if advanced is None:
            return False
        reset_count, indices = advanced
        batch = None
        if indices is not None:
            data = self._pool.fetch(
                indices, lambda: self._comm.is_terminated)
            if data is None:
                return False
            mem = self.mem_bulk
            batch = [_unpack(example, mem) for example in data]
        self._comm.put(batch, self.prefetch_state, reset_count)
        return True


class _RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker process."""

    def __init__(self, tb):
        super().__init__(tb)
        self.tb = tb

    def __str__(self):
        return self.tb


class _Worker:
    __slots__ = ('process', 'conn', 'n_tasks', 'chunk')

    def __init__(self, process, conn):
        self.process = process
        self.conn = conn
        self.n_tasks = 0
        self.chunk = None  # the (start, stop) of the task it works on


def _mp_context():
    # Forking keeps datasets usable without pickling them, as Chainer's
    # workers always were on Linux.
    if sys.platform.startswith('linux'):
        return multiprocessing.get_context('fork')
    return multiprocessing.get_context()


class _WorkerPool:
    """Worker processes reading examples, each over its own pipe.

    Tasks are chunks of a batch, handed to idle workers. Waiting on the
    pipes and on the process sentinels together lets a worker's death be
    seen at once: it raises :class:`RuntimeError` instead of leaving the
    batch unfinished forever.
    """

    def __init__(self, n_processes, dataset, mem_size, mem_bulk,
                 maxtasksperchild):
        self._context = _mp_context()
        self._worker_args = (dataset, mem_size, mem_bulk)
        self._maxtasksperchild = maxtasksperchild
        self._workers = []
        for _ in range(n_processes):
            self._workers.append(self._start_worker())

    @property
    def pids(self):
        """list of int: The process IDs of the current workers."""
        return [worker.process.pid for worker in self._workers]

    def _start_worker(self):
        parent_conn, child_conn = self._context.Pipe()
        process = self._context.Process(
            target=_worker_main, args=(child_conn,) + self._worker_args,
            daemon=True)
        process.start()
        child_conn.close()
        return _Worker(process, parent_conn)

    def fetch(self, indices, is_cancelled):
        """Reads the examples of a batch.

        Args:
            indices (numpy.ndarray): The dataset indices.
            is_cancelled: A function telling whether to give up.

        Returns:
            list: The examples (packed in the shared memory where they fit),
            or ``None`` if cancelled.
        """
        n = len(indices)
        chunk_size = -(-n // (4 * len(self._workers)))
        pending = collections.deque(
            (start, min(start + chunk_size, n))
            for start in range(0, n, chunk_size))
        results = [None] * n
        busy = {}
        while pending or busy:
            for worker in self._workers:
                if pending and worker.chunk is None:
                    start, stop = pending.popleft()
                    self._send(worker, [
                        (i, indices[i]) for i in range(start, stop)])
                    worker.chunk = start, stop
                    busy[worker.conn] = worker
            ready = multiprocessing.connection.wait(
                list(busy) + [w.process.sentinel for w in self._workers],
                _response_time)
            if not ready:
                if is_cancelled():
                    return None
                continue
            for conn in ready:
                worker = busy.pop(conn, None)
                if worker is not None:
                    start, stop = worker.chunk
                    results[start:stop] = self._receive(worker)
                    worker.chunk = None
                    self._count_task(worker)
            for worker in self._workers:
                if worker.process.sentinel in ready:
                    self._raise_dead(worker)
        return results

    def _send(self, worker, task):
        try:
            worker.conn.send(task)
        except OSError:
            self._raise_dead(worker)

    def _receive(self, worker):
        try:
            ok, payload = worker.conn.recv()
        except (EOFError, OSError):
            self._raise_dead(worker)
        if not ok:
            error, tb = payload
            error.__cause__ = _RemoteTraceback(tb)
            raise error
        return payload

    def _raise_dead(self, worker):
        worker.process.join(1)
        code = worker.process.exitcode
        if code is not None and code < 0:
            try:
                how = 'was killed by {}'.format(signal.Signals(-code).name)
            except ValueError:
                how = 'was killed by signal {}'.format(-code)
        else:
            how = 'exited with code {}'.format(code)
        raise RuntimeError(
            'A worker process of MultiprocessIterator (pid {}) {} while '
            'reading the dataset. Examples that crash the interpreter, or a '
            'process killed from outside (e.g. by the out-of-memory '
            'killer), cause this.'.format(worker.process.pid, how))

    def _count_task(self, worker):
        worker.n_tasks += 1
        if (self._maxtasksperchild is not None
                and worker.n_tasks >= self._maxtasksperchild):
            worker.conn.send(None)
            worker.process.join()
            worker.conn.close()
            self._workers[self._workers.index(worker)] = self._start_worker()

    def terminate(self):
        """Kills the workers and waits for them."""
        for worker in self._workers:
            if worker.process.is_alive():
                worker.process.terminate()
        for worker in self._workers:
            worker.process.join()
            worker.conn.close()
        self._workers = []


def _worker_main(conn, dataset, mem_size, mem_bulk):
    # The loop of a worker process: read (position, index) tasks, answer
    # (True, examples) or (False, (exception, traceback text)); None stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        try:
            examples = []
            for i, index in task:
                example = dataset[index]
                if mem_bulk is not None:
                    offset = i * mem_size
                    example = _pack(example, mem_bulk, offset,
                                    offset + mem_size)
                examples.append(example)
            conn.send((True, examples))
        except Exception as e:
            conn.send((False, (_picklable(e), traceback.format_exc())))


def _picklable(error):
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return RuntimeError('{}: {}'.format(type(error).__name__, error))
    return error


class _PackedNdarray:
    """A NumPy array written in the shared memory, and where to find it."""

    __slots__ = ('shape', 'dtype', 'offset')

    def __init__(self, shape, dtype, offset):
        self.shape = shape
        self.dtype = dtype
        self.offset = offset

    @classmethod
    def pack(cls, array, mem, offset):
        """Writes an array in ``mem`` at ``offset``."""
        total = offset + array.nbytes
        if total > len(mem):
            raise ValueError(
                'Shared memory size is too small. expect:{}, actual:{}'.format(
                    total, len(mem)))
        target = numpy.frombuffer(mem, array.dtype, array.size, offset)
        target[...] = array.ravel()
        dtype = array.dtype
        # A builtin dtype travels as its short string, a structured one
        # whole.
        return cls(array.shape, dtype.str if dtype.isbuiltin else dtype,
                   offset)

    def __reduce__(self):
        # Compact pickles: one is sent per array of every example.
        return _PackedNdarray, (self.shape, self.dtype, self.offset)

    def unpack(self, mem):
        """Returns a copy of the array read from ``mem``."""
        dtype = numpy.dtype(self.dtype)
        size = 1
        for n in self.shape:
            size *= n
        array = numpy.frombuffer(mem, dtype, size, self.offset)
        return array.reshape(self.shape).copy()


def _arrays_of(example):
    if isinstance(example, numpy.ndarray):
        return [example]
    if type(example) in (tuple, list):
        values = example
    elif type(example) is dict:
        values = example.values()
    else:
        return []
    return [v for v in values if isinstance(v, numpy.ndarray)]


def _measure(example):
    """Returns the bytes of the NumPy arrays of an example."""
    return sum(array.nbytes for array in _arrays_of(example))


def _pack(example, mem, offset, limit):
    """Moves the NumPy arrays of an example into the shared memory.

    Arrays (alone, or values of a tuple, list or dict) are written from
    ``offset`` on while they fit below ``limit`` and replaced by
    :class:`_PackedNdarray`; the others are left to pickling, with a
    warning.
    """
    if len(mem) == 0:
        return example
    start = offset
    over = False

    def pack(value):
        nonlocal offset, over
        if not isinstance(value, numpy.ndarray):
            return value
        if value.nbytes + offset > limit:
            over = True
            return value
        packed = _PackedNdarray.pack(value, mem, offset)
        offset += value.nbytes
        return packed

    t = type(example)
    if t is tuple or t is list:
        packed = t(pack(v) for v in example)
    elif t is dict:
        packed = {k: pack(v) for k, v in example.items()}
    else:
        packed = pack(example)
    if over:
        warnings.warn(
            'Shared memory size is too small.\n'
            'Please set shared_mem option for MultiprocessIterator.\n'
            'Expect shared memory size: {} bytes.\n'
            'Actual shared memory size: {} bytes.'.format(
                _measure(example), limit - start),
            UserWarning)
    return packed


def _unpack(example, mem):
    """Copies the arrays of a packed example out of the shared memory."""
    if mem is None or len(mem) == 0:
        return example
    t = type(example)
    if t is tuple or t is list:
        return t(v.unpack(mem) if type(v) is _PackedNdarray else v
                 for v in example)
    if t is dict:
        return {k: v.unpack(mem) if type(v) is _PackedNdarray else v
                for k, v in example.items()}
    if t is _PackedNdarray:
        return example.unpack(mem)
    return example

