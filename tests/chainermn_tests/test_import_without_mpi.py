"""``import chainermn`` works without mpi4py; using MPI names the package."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

# A meta path entry that makes ``import mpi4py`` fail as if not installed.
_SCRIPT = '''
import sys

class _NoMpi4py:
    def find_spec(self, name, path=None, target=None):
        if name == 'mpi4py' or name.startswith('mpi4py.'):
            raise ImportError('No module named ' + repr(name))
        return None

sys.meta_path.insert(0, _NoMpi4py())
import chainermn
import chainermn.communicators.naive_communicator
import chainermn.functions, chainermn.links, chainermn.extensions
assert chainermn.MultiNodeChainList is not None
try:
    chainermn.create_communicator('naive')
except ImportError as e:
    print('IMPORT-ERROR:', e)
else:
    print('NO ERROR')
'''


def test_import_without_mpi4py():
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join(
        [ROOT] + [p for p in env.get('PYTHONPATH', '').split(os.pathsep)
                  if p])
    result = subprocess.run([sys.executable, '-c', _SCRIPT], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, timeout=120)
    assert result.returncode == 0, result.stdout
    assert 'IMPORT-ERROR:' in result.stdout
    assert 'mpi4py' in result.stdout.split('IMPORT-ERROR:')[1]
    assert 'pip install mpi4py mpich' in result.stdout
