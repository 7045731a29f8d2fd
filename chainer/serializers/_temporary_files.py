"""Temporary files that a killed process leaves behind, and their removal.

A writer holds an advisory lock (:func:`fcntl.flock`) on each temporary
file or directory it writes, for as long as it may still use it; the kernel
drops the lock when the process dies, however it dies. A later save that
owns such names (the same target path, the same snapshot name) removes the
ones nobody holds any more, and never one that a live writer, in this
process or another, is still writing. Where :mod:`fcntl` does not exist
(Windows) nothing is locked and nothing is removed.
"""

import contextlib
import glob
import os
import shutil

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None


class Hold:
    """A lock held on temporary paths while they are being written.

    Example:
        >>> hold = Hold()
        >>> try:
        ...     hold.take(tmp_path)
        ...     write(tmp_path)
        ...     os.replace(tmp_path, path)
        ... finally:
        ...     hold.release()
    """

    def __init__(self):
        self._fds = []

    def take(self, path):
        """Locks ``path`` (a file or a directory) until :meth:`release`."""
        if fcntl is None:
            return
        fd = os.open(path, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except BaseException:
            os.close(fd)
            raise
        self._fds.append(fd)

    def release(self):
        """Drops the locks taken."""
        while self._fds:
            os.close(self._fds.pop())


@contextlib.contextmanager
def holding(path):
    """Holds ``path`` locked while the block runs."""
    hold = Hold()
    try:
        hold.take(path)
        yield
    finally:
        hold.release()


def remove_abandoned(pattern):
    """Removes the files and directories matching ``pattern`` that no live
    writer holds.

    Args:
        pattern (str): A :mod:`glob` pattern of temporary names, e.g.
            ``'/out/.model.npz.*.tmp'``.

    Returns:
        list of str: The paths removed.
    """
    if fcntl is None:
        return []
    removed = []
    for path in glob.glob(pattern):
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue
            if os.path.isdir(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                with contextlib.suppress(FileNotFoundError):
                    os.remove(path)
            removed.append(path)
        finally:
            os.close(fd)
    return removed
