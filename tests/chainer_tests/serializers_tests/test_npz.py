"""NPZ serialization: layout, round trips, files of Chainer 7.8.1 (made by
fixtures/make_fixtures.py), errors and atomic writes."""

import importlib.util
import io
import os
import re
import subprocess
import textwrap
import zipfile

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import optimizers
from chainer import serializers
from chainer.serializers import npz

HERE = os.path.dirname(__file__)
FIXTURES = os.path.join(HERE, 'fixtures')
REFERENCE_PYTHON = '/work/refvenv/bin/python'


def _load_fixture_models():
    # The models of the fixtures are defined once, in the script that made
    # them; here it runs with this package.
    path = os.path.join(FIXTURES, 'make_fixtures.py')
    spec = importlib.util.spec_from_file_location('make_fixtures', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


models = _load_fixture_models()


def fixture_path(name):
    return os.path.join(FIXTURES, name)


def train_like_fixture(name, steps):
    model = models.Classifier()
    opt = models.OPTIMIZERS[name]().setup(model.predictor)
    rng = numpy.random.RandomState(3)
    for _ in range(steps):
        models.step(model, opt, rng)
    return model, opt, rng


def arrays_of(obj):
    return {key: numpy.asarray(value)
            for key, value in npz.serialize(obj).items()}


def read_npz(path):
    with numpy.load(path, allow_pickle=True) as f:
        return {key: f[key] for key in f.files}


def assert_same_layout(actual, expected):
    assert sorted(actual) == sorted(expected)
    for key, value in expected.items():
        assert actual[key].dtype == value.dtype, key
        assert actual[key].shape == value.shape, key
        if value.dtype == object:
            assert actual[key][()] is value[()]
        else:
            numpy.testing.assert_array_equal(actual[key], value, err_msg=key)


# DictionarySerializer --------------------------------------------------


def test_dictionary_serializer_paths_and_values():
    target = {}
    s = npz.DictionarySerializer(target)
    array = numpy.arange(3)
    assert s('/a', array) is array
    assert s('n', 5) == 5
    child = s['/sub/']['x']
    child('none', None)
    child('text', 'hello')
    assert target['a'] is array
    assert target['n'] == numpy.asarray(5) and target['n'].ndim == 0
    assert target['sub/x/none'].dtype == object
    assert target['sub/x/none'][()] is None
    assert str(target['sub/x/text']) == 'hello'
    assert sorted(target) == ['a', 'n', 'sub/x/none', 'sub/x/text']


def test_serialize_model_keys():
    model = models.Classifier()
    arrays = npz.serialize(model)
    assert sorted(arrays) == [
        'count', 'lazy', 'predictor/l1/W', 'predictor/l1/b',
        'predictor/l2/W', 'predictor/l2/b', 'stats']
    assert arrays['predictor/l1/W'] is model.predictor.l1.W.array
    assert arrays['lazy'][()] is None


# Files of Chainer 7.8.1 ------------------------------------------------


@pytest.mark.parametrize('name', sorted(models.OPTIMIZERS))
def test_load_original_files_and_resume(name):
    model = models.Classifier()
    opt = models.OPTIMIZERS[name]().setup(model.predictor)
    serializers.load_npz(fixture_path('model.npz'), model)
    serializers.load_npz(fixture_path('optimizers.npz'), opt,
                         path=name + '/')
    assert model.count == 2 and isinstance(model.count, int)
    numpy.testing.assert_array_equal(model.stats, [1., 1., 1.])
    assert model.lazy.array is None
    assert opt.t == 2 and opt.epoch == 0
    rule = model.predictor.l1.W.update_rule
    assert rule.t == 2
    state_names = {'Adam': ['m', 'v'], 'AMSGrad': ['m', 'v', 'vhat']}
    assert sorted(rule.state) == state_names[name]

    rng = numpy.random.RandomState(3)
    for _ in range(2):  # the gradients of the two saved steps
        for _, param in sorted(model.predictor.namedparams()):
            rng.uniform(-1, 1, param.shape)
    models.step(model, opt, rng)
    expected = read_npz(fixture_path('expected.npz'))
    for path, param in model.predictor.namedparams():
        numpy.testing.assert_array_equal(param.array, expected[name + path])


@pytest.mark.parametrize('name', sorted(models.OPTIMIZERS))
def test_files_written_here_have_the_original_layout(tmp_path, name):
    model, opt, _ = train_like_fixture(name, 2)
    serializers.save_npz(str(tmp_path / 'model.npz'), model)
    serializers.save_npz(str(tmp_path / 'opt.npz'), opt)
    if name == 'Adam':
        assert_same_layout(read_npz(tmp_path / 'model.npz'),
                           read_npz(fixture_path('model.npz')))
    original = read_npz(fixture_path('optimizers.npz'))
    prefix = name + '/'
    expected = {key[len(prefix):]: value for key, value in original.items()
                if key.startswith(prefix)}
    assert_same_layout(read_npz(tmp_path / 'opt.npz'), expected)


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(REFERENCE_PYTHON),
                    reason='no Chainer 7.8.1 installation to compare with')
def test_files_written_here_load_in_chainer_7_8(tmp_path):
    model, opt, _ = train_like_fixture('Adam', 2)
    serializers.save_npz(str(tmp_path / 'model.npz'), model)
    serializers.save_npz(str(tmp_path / 'opt.npz'), opt,
                         compression=False)
    script = textwrap.dedent('''
        import importlib.util, sys
        import numpy, chainer
        spec = importlib.util.spec_from_file_location('m', sys.argv[1])
        models = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(models)
        model = models.Classifier()
        opt = models.OPTIMIZERS['Adam']().setup(model.predictor)
        chainer.serializers.load_npz(sys.argv[2], model)
        chainer.serializers.load_npz(sys.argv[3], opt)
        print(opt.t, model.count, model.lazy.array,
              float(model.predictor.l1.W.update_rule.state['v'].sum()))
    ''')
    out = subprocess.run(
        [REFERENCE_PYTHON, '-c', script,
         os.path.join(FIXTURES, 'make_fixtures.py'),
         str(tmp_path / 'model.npz'), str(tmp_path / 'opt.npz')],
        capture_output=True, text=True, check=True).stdout.split()
    v_sum = float(model.predictor.l1.W.update_rule.state['v'].sum())
    assert out[:3] == ['2', '2', 'None']
    assert float(out[3]) == pytest.approx(v_sum, rel=1e-6)


# Round trips -----------------------------------------------------------


@pytest.mark.parametrize('compression', [True, False])
def test_round_trip_through_path_and_file_object(tmp_path, compression):
    model, opt, _ = train_like_fixture('Adam', 2)
    path = str(tmp_path / 'model')
    serializers.save_npz(path, model, compression=compression)
    assert os.listdir(tmp_path) == ['model']  # no suffix, no temp file
    with zipfile.ZipFile(path) as archive:
        methods = {info.compress_type for info in archive.infolist()}
    expected = zipfile.ZIP_DEFLATED if compression else zipfile.ZIP_STORED
    assert methods == {expected}

    loaded = models.Classifier()
    serializers.load_npz(path, loaded)
    assert_same_layout(arrays_of(loaded), arrays_of(model))

    buffer = io.BytesIO()
    serializers.save_npz(buffer, opt, compression=compression)
    buffer.seek(0)
    opt2 = optimizers.Adam().setup(models.Classifier().predictor)
    serializers.load_npz(buffer, opt2)
    assert_same_layout(arrays_of(opt2), arrays_of(opt))


def test_save_dictionary_as_is(tmp_path):
    path = tmp_path / 'arrays.npz'
    serializers.save_npz(path, {'a/b': numpy.arange(4), 'file': 1.5})
    saved = read_npz(path)
    assert sorted(saved) == ['a/b', 'file']
    numpy.testing.assert_array_equal(saved['a/b'], numpy.arange(4))


def test_uninitialized_parameter_is_initialized_by_load(tmp_path):
    source = models.Classifier()
    source.lazy.initialize((2, 2))
    source.lazy.array[...] = 7.
    serializers.save_npz(tmp_path / 'm.npz', source)
    target = models.Classifier()
    serializers.load_npz(tmp_path / 'm.npz', target)
    numpy.testing.assert_array_equal(target.lazy.array, 7.)
    # And a saved None leaves an initialized parameter alone.
    serializers.save_npz(tmp_path / 'm.npz', models.Classifier())
    serializers.load_npz(tmp_path / 'm.npz', target)
    numpy.testing.assert_array_equal(target.lazy.array, 7.)


def test_path_strict_and_ignore_names(tmp_path):
    model, _, _ = train_like_fixture('Adam', 1)
    holder = chainer.Chain()
    with holder.init_scope():
        holder.model = model
    serializers.save_npz(tmp_path / 'h.npz', holder)

    loaded = models.Classifier()
    serializers.load_npz(tmp_path / 'h.npz', loaded, path='model/')
    assert_same_layout(arrays_of(loaded), arrays_of(model))

    bigger = models.Classifier()
    with bigger.init_scope():
        bigger.extra = chainer.Parameter(numpy.full(2, 3., 'f'))
    with pytest.raises(KeyError, match='model/extra'):
        serializers.load_npz(tmp_path / 'h.npz', bigger, path='model/')
    serializers.load_npz(tmp_path / 'h.npz', bigger, path='model/',
                         strict=False)
    numpy.testing.assert_array_equal(bigger.extra.array, 3.)
    numpy.testing.assert_array_equal(
        bigger.predictor.l1.W.array, model.predictor.l1.W.array)

    fresh = models.Classifier()
    before = fresh.predictor.l2.W.array.copy()
    serializers.load_npz(
        tmp_path / 'h.npz', fresh, path='model/',
        ignore_names=['model/count', lambda key: key.endswith('l2/W')])
    assert fresh.count == 0
    numpy.testing.assert_array_equal(fresh.predictor.l2.W.array, before)
    serializers.load_npz(tmp_path / 'h.npz', fresh, path='model/',
                         ignore_names='model/count')
    assert fresh.count == 0
    with pytest.raises(ValueError, match='ignore_names'):
        serializers.load_npz(tmp_path / 'h.npz', fresh, path='model/',
                             ignore_names=[1])


def test_deserializer_on_a_dictionary():
    d = npz.NpzDeserializer({'x': numpy.arange(3.), 'n': numpy.asarray(4),
                             'f': numpy.asarray(0.5)})
    target = numpy.zeros(3, numpy.float32)
    assert d('x', target) is target
    numpy.testing.assert_array_equal(target, [0., 1., 2.])
    assert d('n', 0) == 4 and type(d('n', 0)) is int
    assert d('f', 1.0) == 0.5
    with pytest.raises(TypeError, match='safely deserialize'):
        d('f', 1)
    assert d('x', None) is not None


@pytest.mark.parametrize('saved, shape', [
    ((3,), (2, 3)), ((1, 3), (2, 3)), ((), (4,)), ((3,), (2,)),
])
def test_deserializer_refuses_another_shape_even_if_it_broadcasts(
        saved, shape):
    # Chainer copies with broadcasting; a saved array of another shape is
    # a mistake, refused with the ValueError Chainer raises when the shapes
    # do not broadcast.
    d = npz.NpzDeserializer({'x': numpy.ones(saved)})
    target = numpy.zeros(shape)
    pattern = r"'x'.*shape {}.*shape {}".format(
        re.escape(str(saved)), re.escape(str(shape)))
    with pytest.raises(ValueError, match=pattern):
        d('x', target)
    numpy.testing.assert_array_equal(target, 0)


def test_trajectory_after_resume_matches_uninterrupted(tmp_path):
    rng = numpy.random.RandomState(0)
    data = [(rng.uniform(-1, 1, (8, 4)).astype('f'),
             rng.randint(0, 2, 8).astype(numpy.int32)) for _ in range(6)]

    def run(model, opt, batches):
        for x, t in batches:
            opt.update(lambda: F.softmax_cross_entropy(
                F.linear(F.relu(F.linear(
                    x, model.predictor.l1.W, model.predictor.l1.b)),
                    model.predictor.l2.W, model.predictor.l2.b), t))

    full = models.Classifier()
    full_opt = optimizers.Adam(alpha=0.01).setup(full)
    run(full, full_opt, data)

    first = models.Classifier()
    first_opt = optimizers.Adam(alpha=0.01).setup(first)
    run(first, first_opt, data[:3])
    serializers.save_npz(tmp_path / 'model.npz', first)
    serializers.save_npz(tmp_path / 'opt.npz', first_opt)

    resumed = models.Classifier()
    resumed_opt = optimizers.Adam(alpha=0.01).setup(resumed)
    serializers.load_npz(tmp_path / 'model.npz', resumed)
    # The rule of the never-updated 'lazy' parameter saved no state; as in
    # the original, only a non-strict load accepts that.
    with pytest.raises(KeyError, match='lazy'):
        serializers.load_npz(tmp_path / 'opt.npz', resumed_opt)
    resumed_opt = optimizers.Adam(alpha=0.01).setup(resumed)
    serializers.load_npz(tmp_path / 'opt.npz', resumed_opt, strict=False)
    run(resumed, resumed_opt, data[3:])
    assert resumed_opt.t == full_opt.t == 6
    for (path, p), (_, q) in zip(sorted(resumed.namedparams()),
                                 sorted(full.namedparams())):
        numpy.testing.assert_array_equal(p.array, q.array, err_msg=path)


# Errors ------------------------------------------------------------------


def snapshot(model, opt):
    return {key: numpy.array(value, copy=True)
            for key, value in {**arrays_of(model),
                               **{'opt/' + k: v
                                  for k, v in arrays_of(opt).items()}}
            .items()}


def assert_unchanged(model, opt, before):
    after = snapshot(model, opt)
    assert_same_layout(after, before)


@pytest.fixture
def trained(tmp_path):
    model, opt, _ = train_like_fixture('Adam', 2)
    holder = _Both(model, opt)
    serializers.save_npz(tmp_path / 'both.npz', holder)
    target_model, target_opt, _ = train_like_fixture('Adam', 1)
    return tmp_path / 'both.npz', _Both(target_model, target_opt)


class _Both:
    """A model and its optimizer saved in one file."""

    def __init__(self, model, opt):
        self.model = model
        self.opt = opt

    def serialize(self, serializer):
        self.opt.serialize(serializer['opt'])
        self.model.serialize(serializer['model'])


def rewrite(path, change):
    arrays = read_npz(path)
    change(arrays)
    numpy.savez(path, **arrays)


@pytest.mark.parametrize('change, error, pattern', [
    (lambda a: a.pop('model/predictor/l2/b'), KeyError,
     "'model/predictor/l2/b' is not found in .*both.npz"),
    (lambda a: a.pop('opt/l2/W/v'), KeyError, 'opt/l2/W/v'),
    (lambda a: a.update({'model/predictor/l2/W': numpy.zeros((3, 2), 'f')}),
     ValueError, r"'model/predictor/l2/W' .*shape \(3, 2\).*\(2, 3\)"),
    (lambda a: a.update({'model/stats': numpy.zeros(3, complex)}),
     TypeError, "'model/stats'.*complex128"),
    (lambda a: a.update({'model/count': numpy.asarray(1.5)}),
     TypeError, 'model/count'),
])
def test_mismatch_raises_naming_the_key(trained, change, error, pattern):
    path, target = trained
    rewrite(path, change)
    before = snapshot(target.model, target.opt)
    with pytest.raises(error, match=pattern):
        serializers.load_npz(path, target)
    assert_unchanged(target.model, target.opt, before)


class _Counting:
    """Reports the calls of its ``serialize`` to a callback."""

    def __init__(self, calls):
        self.on_call = calls.append
        self.x = numpy.zeros(2, numpy.float32)

    def serialize(self, serializer):
        self.on_call(self)
        serializer('x', self.x)
        serializer('y', None)


def test_load_is_one_pass_and_undoes_values_read_before_an_error(tmp_path):
    # serialize runs once, as in the original; unlike the original, the
    # value loaded before the missing key is put back.
    numpy.savez(tmp_path / 'c.npz', x=numpy.ones(2, numpy.float32))
    calls = []
    target = _Counting(calls)
    with pytest.raises(KeyError, match="'y'"):
        serializers.load_npz(tmp_path / 'c.npz', target)
    assert calls == [target]
    numpy.testing.assert_array_equal(target.x, [0., 0.])
    calls.clear()
    serializers.load_npz(tmp_path / 'c.npz', target, strict=False)
    assert calls == [target]
    numpy.testing.assert_array_equal(target.x, [1., 1.])


def test_optimizer_state_missing_in_the_file_raises(tmp_path):
    model, opt, _ = train_like_fixture('Adam', 1)
    serializers.save_npz(tmp_path / 'o.npz', opt)
    rewrite(tmp_path / 'o.npz', lambda a: a.pop('l2/b/v'))
    fresh = optimizers.Adam().setup(models.Classifier().predictor)
    with pytest.raises(KeyError, match='l2/b/v'):
        serializers.load_npz(tmp_path / 'o.npz', fresh)


def test_truncated_file(trained):
    path, target = trained
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])
    before = snapshot(target.model, target.opt)
    with pytest.raises(ValueError, match='both.npz is not a readable NPZ'):
        serializers.load_npz(path, target)
    assert_unchanged(target.model, target.opt, before)


def test_corrupt_entry(tmp_path):
    model, opt, _ = train_like_fixture('Adam', 2)
    path = tmp_path / 'm.npz'
    serializers.save_npz(path, model, compression=False)
    data = bytearray(path.read_bytes())
    # Damage the array data of a member: its CRC no longer matches.
    start = data.index(b'\x93NUMPY', data.index(b'stats.npy'))
    header_size = 10 + int.from_bytes(data[start + 8:start + 10], 'little')
    data[start + header_size + 1] ^= 0xFF
    path.write_bytes(bytes(data))
    target = models.Classifier()
    before = snapshot(target, opt)
    with pytest.raises(ValueError, match="cannot read 'stats' from"):
        serializers.load_npz(path, target)
    assert_unchanged(target, opt, before)


def test_not_an_npz_archive(tmp_path):
    numpy.save(tmp_path / 'a.npy', numpy.arange(3))
    with pytest.raises(ValueError, match='not an NPZ archive'):
        serializers.load_npz(tmp_path / 'a.npy', models.Classifier())
    (tmp_path / 'b.npz').write_bytes(b'')
    with pytest.raises(ValueError, match='not a readable NPZ'):
        serializers.load_npz(tmp_path / 'b.npz', models.Classifier())
    with pytest.raises(FileNotFoundError):
        serializers.load_npz(tmp_path / 'missing.npz', models.Classifier())


class _Exploit:
    def __reduce__(self):
        return (os.system, ('echo hacked > /dev/null',))


def test_pickled_code_in_a_file_is_not_run(tmp_path):
    path = tmp_path / 'evil.npz'
    serializers.save_npz(path, models.Classifier())
    payload = numpy.empty((), dtype=object)
    payload[()] = _Exploit()
    rewrite(path, lambda arrays: arrays.update(count=payload))
    model = models.Classifier()
    with pytest.raises(ValueError, match='refusing to load'):
        serializers.load_npz(path, model)
    assert model.count == 0


def test_object_arrays_of_builtin_values_load(tmp_path):
    path = tmp_path / 'values.npz'
    numpy.savez(path, values=numpy.asarray(None), items=numpy.asarray(
        [1, 'a', None], dtype=object))
    with numpy.load(path) as f:
        d = npz.NpzDeserializer(f)
        assert d('values', numpy.zeros(2)) is None
        assert list(d('items', None)) == [1, 'a', None]


# Atomic writes -----------------------------------------------------------


class _Failing:
    def serialize(self, serializer):
        serializer('a', numpy.arange(3))
        raise RuntimeError('boom')


def test_failed_save_keeps_the_old_file(tmp_path):
    path = tmp_path / 'model.npz'
    model = models.Classifier()
    serializers.save_npz(path, model)
    before = path.read_bytes()
    with pytest.raises(RuntimeError, match='boom'):
        serializers.save_npz(path, _Failing())
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ['model.npz']
    with pytest.raises(RuntimeError):
        serializers.save_npz(tmp_path / 'new.npz', _Failing())
    assert os.listdir(tmp_path) == ['model.npz']


def test_saved_file_is_readable_by_others(tmp_path):
    umask = os.umask(0o022)
    os.umask(umask)
    serializers.save_npz(tmp_path / 'm.npz', models.Classifier())
    mode = os.stat(tmp_path / 'm.npz').st_mode & 0o777
    assert mode == 0o666 & ~umask


def test_saving_over_a_file_keeps_its_permissions(tmp_path):
    path = tmp_path / 'm.npz'
    path.write_bytes(b'')
    os.chmod(path, 0o600)
    serializers.save_npz(path, models.Classifier())
    assert os.stat(path).st_mode & 0o777 == 0o600
    serializers.load_npz(path, models.Classifier())


def test_saving_to_a_symbolic_link_writes_its_target(tmp_path):
    target = tmp_path / 'store' / 'm.npz'
    target.parent.mkdir()
    link = tmp_path / 'latest.npz'
    link.symlink_to(target)
    model = models.Classifier()
    serializers.save_npz(link, model)
    assert link.is_symlink() and target.stat().st_size > 0
    serializers.load_npz(target, models.Classifier())
    assert sorted(os.listdir(target.parent)) == ['m.npz']


def test_plain_arrays_are_saved_without_pickle(tmp_path):
    # Plain arrays are stored without pickle, so numpy.load reads them
    # with allow_pickle=False.
    serializers.save_npz(tmp_path / 'm.npz', {'a': numpy.ones(2)})
    with numpy.load(tmp_path / 'm.npz', allow_pickle=False) as f:
        numpy.testing.assert_array_equal(f['a'], 1.)


# Recurrent links -------------------------------------------------------
# fixtures/original_rnn_links.npz was written by Chainer 7.8.1's save_npz
# from the chain of _recurrent_chain(0), built right after
# numpy.random.seed(0).


def _recurrent_chain(seed):
    numpy.random.seed(seed)
    chain = chainer.Chain()
    with chain.init_scope():
        chain.lstm = chainer.links.LSTM(2, 3)
        chain.nstep = chainer.links.NStepBiLSTM(1, 2, 1, 0.0)
        chain.gru = chainer.links.NStepGRU(1, 1, 1, 0.0)
    return chain


def _param_arrays(chain):
    return {name[1:]: p.array for name, p in chain.namedparams()}


def test_recurrent_links_load_chainer_7_8_file():
    chain = _recurrent_chain(1)
    path = fixture_path('original_rnn_links.npz')
    serializers.load_npz(path, chain)
    with numpy.load(path) as f:
        saved = {key: f[key] for key in f.files}
    arrays = _param_arrays(chain)
    assert sorted(arrays) == sorted(saved)
    for key, value in saved.items():
        numpy.testing.assert_array_equal(arrays[key], value, err_msg=key)
    # The same draws as Chainer 7.8.1 for the same seed.
    for key, value in _param_arrays(_recurrent_chain(0)).items():
        numpy.testing.assert_array_equal(value, saved[key], err_msg=key)


def test_recurrent_links_saved_keys_and_round_trip(tmp_path):
    path = str(tmp_path / 'links.npz')
    saved_chain = _recurrent_chain(0)
    serializers.save_npz(path, saved_chain)
    original_path = fixture_path('original_rnn_links.npz')
    with numpy.load(path) as f, numpy.load(original_path) as original:
        assert sorted(f.files) == sorted(original.files)
    chain = _recurrent_chain(2)
    serializers.load_npz(path, chain)
    expected = _param_arrays(saved_chain)
    for key, value in _param_arrays(chain).items():
        numpy.testing.assert_array_equal(value, expected[key], err_msg=key)
    assert chain.nstep.ws[1][3] is chain.nstep[1].w3
