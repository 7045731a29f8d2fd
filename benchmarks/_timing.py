"""Shared timing helpers of the benchmarks."""

import time


def _round_ms(func, number):
    start = time.perf_counter()
    for _ in range(number):
        func()
    return (time.perf_counter() - start) / number * 1e3


def best_ms(func, repeat, number):
    """Returns the best average time of ``func`` in milliseconds.

    Args:
        func: A callable without arguments.
        repeat (int): How many rounds to time.
        number (int): Calls per round.
    """
    func()
    return min(_round_ms(func, number) for _ in range(repeat))


def compare_ms(funcs, repeat, number):
    """Times several callables in alternating rounds.

    Alternating keeps a change in the machine's load from favouring one of
    them; the best round of each is reported.

    Args:
        funcs (dict): Callables without arguments, by name.
        repeat (int): How many rounds to time each.
        number (int): Calls per round.

    Returns:
        dict: The best milliseconds per call, by name.
    """
    for func in funcs.values():
        func()
    best = {name: float('inf') for name in funcs}
    for _ in range(repeat):
        for name, func in funcs.items():
            best[name] = min(best[name], _round_ms(func, number))
    return best
