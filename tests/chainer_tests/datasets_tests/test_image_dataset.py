import pickle
import zipfile

import numpy
import pytest

from chainer.datasets import image_dataset

Image = pytest.importorskip('PIL.Image', reason='Pillow is not installed')


@pytest.fixture
def images(tmp_path):
    """Writes two RGB PNGs and a greyscale one; returns them by name."""
    rng = numpy.random.RandomState(0)
    arrays = {
        'a.png': rng.randint(0, 256, (4, 5, 3)).astype(numpy.uint8),
        'sub/b.png': rng.randint(0, 256, (4, 5, 3)).astype(numpy.uint8),
        'grey.png': rng.randint(0, 256, (3, 2)).astype(numpy.uint8),
    }
    (tmp_path / 'sub').mkdir()
    for name, array in arrays.items():
        Image.fromarray(array).save(tmp_path / name)
    return arrays


def _chw(array):
    return array[None] if array.ndim == 2 else array.transpose(2, 0, 1)


def test_image_dataset(tmp_path, images):
    d = image_dataset.ImageDataset(list(images), root=str(tmp_path))
    assert len(d) == 3
    for i, array in enumerate(images.values()):
        example = d[i]
        assert example.dtype == numpy.float32
        numpy.testing.assert_array_equal(example, _chw(array))
    assert d[2].shape == (1, 3, 2)


def test_image_dataset_from_list_file(tmp_path, images):
    listing = tmp_path / 'list.txt'
    listing.write_text('a.png\n  sub/b.png \n')
    d = image_dataset.ImageDataset(str(listing), root=str(tmp_path),
                                   dtype=numpy.uint8)
    assert len(d) == 2
    assert d[1].dtype == numpy.uint8
    numpy.testing.assert_array_equal(d[1], _chw(images['sub/b.png']))


def test_labeled_image_dataset(tmp_path, images):
    pairs = tmp_path / 'pairs.txt'
    pairs.write_text('a.png 3\ngrey.png 7\n')
    d = image_dataset.LabeledImageDataset(str(pairs), root=str(tmp_path),
                                          label_dtype=numpy.int64)
    x, t = d[1]
    numpy.testing.assert_array_equal(x, _chw(images['grey.png']))
    assert t.dtype == numpy.int64 and t.shape == () and int(t) == 7
    d = image_dataset.LabeledImageDataset([('a.png', 1)], root=str(tmp_path))
    assert d[0][1].dtype == numpy.int32


def test_labeled_image_dataset_bad_line(tmp_path):
    pairs = tmp_path / 'pairs.txt'
    pairs.write_text('a.png 3\nb.png\n')
    with pytest.raises(ValueError, match='invalid format at line 1'):
        image_dataset.LabeledImageDataset(str(pairs))


@pytest.fixture
def archive(tmp_path, images):
    path = tmp_path / 'images.zip'
    with zipfile.ZipFile(path, 'w') as zf:
        zf.writestr('sub/', '')
        for name in images:
            zf.write(tmp_path / name, name)
    return path


def test_zipped_image_dataset(archive, images):
    d = image_dataset.ZippedImageDataset(str(archive))
    assert len(d) == 3
    for i, array in enumerate(images.values()):
        numpy.testing.assert_array_equal(d[i], _chw(array))
    numpy.testing.assert_array_equal(
        d.get_example('grey.png'), _chw(images['grey.png']))
    # Pickling drops the open archive, which is reopened on use.
    restored = pickle.loads(pickle.dumps(d))
    numpy.testing.assert_array_equal(restored[0], _chw(images['a.png']))


def test_labeled_zipped_image_dataset(archive, images, tmp_path):
    labels = tmp_path / 'labels.txt'
    labels.write_text('sub/b.png 4\na.png 5\n')
    d = image_dataset.LabeledZippedImageDataset(str(archive), str(labels))
    assert len(d) == 2
    x, t = d[0]
    numpy.testing.assert_array_equal(x, _chw(images['sub/b.png']))
    assert int(t) == 4 and t.dtype == numpy.int32


def test_multi_zipped_image_dataset(archive, images):
    d = image_dataset.MultiZippedImageDataset([str(archive), str(archive)])
    assert len(d) == 6
    numpy.testing.assert_array_equal(d[3], _chw(images['a.png']))
    numpy.testing.assert_array_equal(d[5], _chw(images['grey.png']))


def test_missing_pillow_names_it(monkeypatch):
    monkeypatch.setattr(image_dataset, 'available', False)
    monkeypatch.setattr(image_dataset, '_import_error',
                        ImportError("No module named 'PIL'"))
    with pytest.raises(ImportError, match='Install Pillow'):
        image_dataset.ImageDataset([])
