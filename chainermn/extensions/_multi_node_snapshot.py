import io

from chainer.serializers import load_npz
from chainer.serializers import save_npz
from chainer.training.extension import Extension
from chainer.training.extensions._snapshot import _find_latest_snapshot


def multi_node_snapshot(comm, snapshot, replica_sets):
    """Wraps a snapshot extension for a multi-rank job.

    The ranks are split into *replica sets*: the ranks of a set hold the
    same state (e.g. rank 0, which alone has the reporting extensions, and
    all the others). Only the lowest rank of each set saves, under the
    snapshot's file name followed by ``.<rank>``; with ``autoload`` it
    loads the latest snapshot and sends the state to the other ranks of its
    set, so the job resumes even with another number of ranks.

    A replica set is a rank or an iterable of ranks; the ranks not named
    form one last set. With 4 ranks, ``[0]`` means ``[{0}, {1, 2, 3}]``,
    ``[0, 1]`` means ``[{0}, {1}, {2, 3}]`` and ``[]`` means
    ``[{0, 1, 2, 3}]``. Example::

        snapshot = multi_node_snapshot(comm, extensions.snapshot(), [0])
        trainer.extend(snapshot, trigger=(1, 'epoch'))

    Args:
        comm: ChainerMN communicator.
        snapshot: An extension made by
            :func:`~chainer.training.extensions.snapshot`.
        replica_sets (list): The replica sets.

    Returns:
        The trainer extension.
    """
    return _MultiNodeSnapshot(comm, snapshot, replica_sets)


def _parse_replica_sets(replica_sets, size):
    sets = []
    for replica_set in replica_sets:
        if isinstance(replica_set, int):
            ranks = {replica_set}
        else:
            ranks = set(replica_set)
        for rank in ranks:
            assert 0 <= rank < size
        sets.append(ranks)
    named = set().union(*sets)
    rest = set(range(size)) - named
    if rest:
        sets.append(rest)
    # Every rank in exactly one set.
    assert size == sum(len(s) for s in sets)
    assert size == len(set().union(*sets))
    return sets


class _MultiNodeSnapshot(Extension):

    def __init__(self, comm, snapshot, replica_sets):
        assert comm is not None
        assert snapshot is not None
        self.comm = comm
        self.snapshot = snapshot
        # Run when the wrapped snapshot would: after the extensions that
        # write the state (LogReport), so that a resumed log misses nothing.
        self.priority = snapshot.priority
        if callable(snapshot.filename):
            base = snapshot.filename

            def filename_with_rank(trainer):
                return '{}.{}'.format(base(trainer), comm.rank)

            snapshot.filename = filename_with_rank
        else:
            snapshot.filename = '{}.{}'.format(snapshot.filename, comm.rank)
        self.master = None
        self.replica_set = []
        for ranks in _parse_replica_sets(replica_sets, comm.size):
            if comm.rank in ranks:
                self.master = min(ranks)
                self.replica_set = ranks
                break
        assert self.master is not None

    @property
    def is_master(self):
        return self.master == self.comm.rank

    def initialize(self, trainer):
        if self.is_master:
            self.snapshot.initialize(trainer)
        if not self.snapshot.autoload:
            return
        target = trainer if self.snapshot._target is None \
            else self.snapshot._target
        if self.is_master:
            filename = _find_latest_snapshot(self.snapshot.filename,
                                             trainer.out)
            data = None
            if filename is not None:
                buf = io.BytesIO()
                save_npz(buf, target)
                data = buf.getvalue()
            for rank in self.replica_set:
                if rank != self.comm.rank:
                    self.comm.send_obj(data, rank)
        else:
            data = self.comm.recv_obj(self.master)
            if data is not None:
                load_npz(io.BytesIO(data), target)

    def on_error(self, trainer, e, t):
        if self.is_master:
            self.snapshot.on_error(trainer, e, t)

    def __call__(self, trainer):
        if self.is_master:
            self.snapshot(trainer)

    def finalize(self):
        if self.is_master:
            self.snapshot.finalize()
