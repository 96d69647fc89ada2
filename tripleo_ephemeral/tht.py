"""tripleo-heat-templates on this machine: where they are, how to get them.

An undercloud has them at ``/usr/share/openstack-tripleo-heat-templates``
(the distribution's package). Elsewhere they come from THT's source
distribution on PyPI: its wheel is empty, and installing its sdist with pip
installs no templates either (its setup.cfg declares no data files) while
pulling in tripleo-common and Ansible. So :func:`install` downloads the
sdist and extracts the template set under ``<prefix>/share/``, the second
place :func:`find` looks.
"""

import logging
import os
import shutil
import sys
import tarfile
import tempfile

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil

LOG = logging.getLogger(__name__)

#: The release this project is tested with.
VERSION = '18.0.0'
DISTRIBUTION = 'tripleo-heat-templates'
DIR_NAME = 'openstack-tripleo-heat-templates'
#: Where the distributions' packages put them (tripleoclient's default).
SYSTEM_DIR = os.path.join('/usr', 'share', DIR_NAME)
#: Parts of the sdist that are not templates.
_NOT_TEMPLATES = ('releasenotes', 'doc', 'zuul.d', '.zuul.yaml',
                  'tripleo_heat_templates.egg-info')


def prefix_dir(prefix=None):
    """``<prefix>/share/openstack-tripleo-heat-templates``."""
    return os.path.join(prefix or sys.prefix, 'share', DIR_NAME)


def candidates(prefix=None):
    """Where ``--templates`` without a directory looks, in order."""
    return [SYSTEM_DIR, prefix_dir(prefix)]


def is_template_set(path):
    """Whether ``path`` holds a tripleo-heat-templates tree."""
    return all(os.path.isfile(os.path.join(path, name))
               for name in ('overcloud.j2.yaml', 'roles_data.yaml'))


def find(prefix=None):
    """The installed tripleo-heat-templates, or TemplatesNotFoundError."""
    for path in candidates(prefix):
        if is_template_set(path):
            return path
    raise exceptions.TemplatesNotFoundError(
        'tripleo-heat-templates not found in %s: install them with '
        '"openstack tripleo templates install", or pass --templates <dir>'
        % ' or '.join(candidates(prefix)))


def installed_version(path):
    """The version recorded in ``path``'s PKG-INFO, or None."""
    try:
        with open(os.path.join(path, 'PKG-INFO')) as f:
            for line in f:
                if line.startswith('Version:'):
                    return line.split(':', 1)[1].strip()
    except OSError:
        pass
    return None


def install(runner, version=VERSION, dest=None, force=False):
    """Download THT ``version``'s sdist and extract it to ``dest``.

    Returns ``(dest, installed)``; ``installed`` is False when ``dest``
    already held that version (and not ``force``). The tree is extracted
    beside ``dest`` and renamed into place, so a failure leaves the
    previous one whole.
    """
    dest = os.path.abspath(dest or prefix_dir())
    if (not force and is_template_set(dest) and
            installed_version(dest) == version):
        return dest, False
    parent = os.path.dirname(dest)
    fileutil.make_private_dirs(parent, 0o755)  # a venv's, for its users
    work = tempfile.mkdtemp(prefix='.%s.' % os.path.basename(dest),
                            dir=parent)
    try:
        runner.run([sys.executable, '-m', 'pip', 'download', '--no-deps',
                    '--no-binary', ':all:', '--disable-pip-version-check',
                    '-q', '%s==%s' % (DISTRIBUTION, version), '-d', work])
        sdists = [n for n in os.listdir(work) if n.endswith('.tar.gz')]
        if len(sdists) != 1:
            raise exceptions.TemplatesNotFoundError(
                'pip downloaded %s instead of one %s sdist' % (
                    sdists or 'nothing', DISTRIBUTION))
        tree = _extract(os.path.join(work, sdists[0]), work, version)
        if os.path.exists(dest):
            old = dest + '.old'
            shutil.rmtree(old, ignore_errors=True)
            os.replace(dest, old)
            os.replace(tree, dest)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(tree, dest)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    LOG.info('Installed %s %s in %s', DISTRIBUTION, version, dest)
    return dest, True


def _extract(sdist, work, version):
    top = '%s-%s' % (DISTRIBUTION, version)
    with tarfile.open(sdist) as tar:
        members = [m for m in tar.getmembers()
                   if m.name.split('/')[0] == top and
                   (m.name.split('/') + [''])[1] not in _NOT_TEMPLATES]
        tar.extractall(work, members=members, filter='data')
    tree = os.path.join(work, top)
    if not is_template_set(tree):
        raise exceptions.TemplatesNotFoundError(
            '%s does not hold tripleo-heat-templates (no overcloud.j2.yaml '
            'or roles_data.yaml)' % sdist)
    return tree
