def create_empty_dataset(dataset):
    """Returns a dataset of empty examples, as long as ``dataset``.

    For model-parallel ranks whose model takes no input (it starts with
    :func:`chainermn.functions.recv`): the iterator still needs examples to
    count epochs with.

    Args:
        dataset: The dataset whose length to take.

    Returns:
        list: ``len(dataset)`` empty tuples.
    """
    return [()] * len(dataset)
