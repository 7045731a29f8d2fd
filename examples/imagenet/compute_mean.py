#!/usr/bin/env python
"""Computes the mean image of a list of labeled images.

The list file has one ``path label`` pair per line (the format of
train_imagenet.py); the images must all have the same size. The mean is
saved with :func:`numpy.save` as a float32 array of shape ``(3, H, W)``.
"""
import argparse
import sys

import numpy as np

import chainer


def compute_mean(dataset):
    """Returns the mean of the images of a dataset of (image, label) pairs.

    Args:
        dataset: A dataset whose examples are ``(image, label)`` tuples of
            equally shaped images.

    Returns:
        numpy.ndarray: The mean image (float32).
    """
    print('compute mean image')
    n = len(dataset)
    sum_image = None
    for i, (image, _) in enumerate(dataset):
        if sum_image is None:
            sum_image = np.zeros(image.shape, dtype=np.float64)
        sum_image += image
        sys.stderr.write('{} / {}\r'.format(i + 1, n))
        sys.stderr.flush()
    sys.stderr.write('\n')
    return (sum_image / n).astype(np.float32)


def main(argv=None):
    parser = argparse.ArgumentParser(description='Compute images mean array')
    parser.add_argument('dataset',
                        help='Path to training image-label list file')
    parser.add_argument('--root', '-R', default='.',
                        help='Root directory path of image files')
    parser.add_argument('--output', '-o', default='mean.npy',
                        help='path to output mean array')
    args = parser.parse_args(argv)

    dataset = chainer.datasets.LabeledImageDataset(args.dataset, args.root)
    mean = compute_mean(dataset)
    np.save(args.output, mean)


if __name__ == '__main__':
    main()
