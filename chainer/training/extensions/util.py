"""A terminal progress bar redrawn in place with ANSI escape sequences."""

import collections
import sys
import time


class ProgressBar:
    """Base class of progress bars drawn on a terminal stream.

    :meth:`update` writes the lines of :meth:`get_lines` and moves the
    cursor back up, so that the next update overwrites them.

    Args:
        bar_length (int): The length of a bar in characters; 50 if
            ``None``.
        out: The stream written to; standard output if ``None``.
    """

    def __init__(self, bar_length=None, out=None):
        self._bar_length = 50 if bar_length is None else bar_length
        self._out = sys.stdout if out is None else out
        self._recent_timing = collections.deque([], maxlen=100)

    def update_speed(self, iteration, epoch_detail):
        """Records the position and returns the recent speed.

        Args:
            iteration (int): The current iteration.
            epoch_detail (float): The current fractional epoch.

        Returns:
            tuple: Iterations per second and epochs per second over the
            last (up to 100) updates; infinite when no time has passed.
        """
        now = time.time()
        self._recent_timing.append((iteration, epoch_detail, now))
        old_iteration, old_epoch, old_time = self._recent_timing[0]
        span = now - old_time
        if span == 0:
            return float('inf'), float('inf')
        return ((iteration - old_iteration) / span,
                (epoch_detail - old_epoch) / span)

    def get_lines(self):
        """Returns the lines to draw, each ending with a newline."""
        raise NotImplementedError

    def update(self):
        """Redraws the bar."""
        self.erase_console()
        lines = self.get_lines()
        for line in lines:
            self._out.write(line)
        self.move_cursor_up(len(lines))
        self.flush()

    def close(self):
        """Erases the bar."""
        self.erase_console()
        self.flush()

    def erase_console(self):
        """Erases from the cursor to the end of the screen."""
        self._out.write('\033[J')

    def move_cursor_up(self, n):
        """Moves the cursor up ``n`` lines."""
        self._out.write('\033[{:d}A'.format(n))

    def flush(self):
        """Flushes the stream if it can be flushed."""
        if hasattr(self._out, 'flush'):
            self._out.flush()
