import chainer


def get_device(device_id=None, use_chainerx=False):
    """Returns the device a test of ChainerMN runs on.

    Args:
        device_id (int): GPU id (e.g. ``comm.intra_rank``), or ``None`` for
            the CPU.
        use_chainerx (bool): Ask for a ChainerX device (which raises, as
            ChainerX is not available).

    Returns:
        ~chainer.backend.Device: ``@cupy:<id>`` or ``@numpy`` (ChainerX:
        ``cuda:<id>`` or ``native:0``).
    """
    if device_id is not None:
        spec = 'cuda:{}' if use_chainerx else '@cupy:{}'
        return chainer.get_device(spec.format(device_id))
    return chainer.get_device('native:0' if use_chainerx else '@numpy')
