"""Helpers shared by the profiling hooks to print their report tables."""


def choose_unit(value, factors):
    """Picks the largest unit in which ``value`` is at least one.

    Args:
        value (float): A quantity in the base unit.
        factors (list): ``(unit, factor)`` pairs, from the largest unit to
            the smallest; ``value * factor`` is the quantity in ``unit``.

    Returns:
        tuple: The chosen ``(unit, factor)``; the smallest unit when
        ``value`` is below one in all of them.

    """
    for unit, factor in factors:
        if value * factor >= 1:
            return unit, factor
    return factors[-1]


def format_quantities(values, factors, unit):
    """Formats quantities as text such as ``'12.34ms'``.

    Args:
        values (list): Quantities in the base unit.
        factors (list): ``(unit, factor)`` pairs as for :func:`choose_unit`.
        unit (str): A unit name from ``factors``; ``'auto'`` for the unit
            that suits the largest value, used for all of them; or
            ``'auto_foreach'`` for the unit that suits each value.

    Returns:
        list of str: The formatted quantities.

    """
    if unit == 'auto_foreach':
        chosen = [choose_unit(value, factors) for value in values]
    else:
        if unit == 'auto':
            pair = choose_unit(max(values, default=0), factors)
        else:
            pair = (unit, dict(factors)[unit])
        chosen = [pair] * len(values)
    return [f'{value * factor:3.2f}{name}'
            for value, (name, factor) in zip(values, chosen)]


def write_table(columns, file):
    """Writes columns of text right-aligned, two spaces apart.

    Args:
        columns (list): Lists of strings, each headed by its title.
        file: A writable text stream; flushed when it can be.

    """
    widths = [max(len(cell) for cell in column) for column in columns]
    for row in zip(*columns):
        cells = [cell.rjust(width) for cell, width in zip(row, widths)]
        file.write('  '.join(cells))
        file.write('\n')
    if hasattr(file, 'flush'):
        file.flush()
