"""Link hook measuring the time the forward method of each link takes."""

from chainer.function_hooks import _timing
from chainer import link_hook


class TimerHook(_timing.Timer, link_hook.LinkHook):
    """Link hook measuring the elapsed time of the forward calls of links.

    On the CPU the time is taken with :func:`time.perf_counter`, on the GPU
    with CUDA events around the call. A link called inside another one (a
    child of a chain) is recorded too, but only outermost calls add to
    :meth:`total_time`.

    .. admonition:: Example

       >>> model = L.Linear(3, 2)
       >>> from chainer.link_hooks import TimerHook
       >>> hook = TimerHook()
       >>> with hook:
       ...     y = model(np.ones((1, 3), np.float32))
       >>> hook.print_report()  # doctest: +SKIP
       LinkName  ElapsedTime  Occurrence
         Linear     45.32us           1

    Attributes:
        call_history (list): ``(link_class_name, elapsed_seconds)`` pairs
            in the order the calls finished.
        table (dict): Multipliers from seconds to the supported units.
    """

    name = 'TimerHook'
    _name_column = 'LinkName'

    def forward_preprocess(self, args):
        self.xp = args.link.xp
        self._start(self.xp)

    def forward_postprocess(self, args):
        link = args.link
        assert link.xp == self.xp
        self._stop(link.__class__.__name__)
