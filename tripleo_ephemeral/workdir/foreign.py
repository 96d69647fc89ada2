"""Work dirs another tool made: python-tripleoclient 17.x's, as it left them.

tripleoclient's default work dir is this product's (``~/overcloud-deploy/
<stack>``), and several of its names are too (``<stack>-passwords.yaml``,
``<stack>-deployment_status.yaml``, ``heat-launcher/``,
``config-download/``): on an undercloud that directory holds a live
deployment. This module recognises its layout (tripleoclient 20.0.0's
``utils.py``, ``heat_launcher.py`` and ``v1/overcloud_deploy.py``) and
words the one line that points at the way in, ``openstack overcloud
adopt``. It only reads.

What tripleoclient leaves in ``<work-dir>`` for stack ``S``::

    S-deployment_status.yaml          deployment_status: DEPLOY_SUCCESS
    S-passwords.yaml                  its generated passwords
    tripleo-S-passwords.yaml          (tripleo deploy, standalone)
    heat-launcher/                    heat.conf, heat-pod.yaml, ...
      heat-db.sql-<time>.tar.bzip2    each heat database dump (pod)
      log/heat-<time>.log-<time>.tar.bzip2
      tripleo_deploy-XXXX/            native/container scratch dirs
                                      (heat.sqlite.db: native's database)
    config-download/S/                the Ansible project
    outputs/<OutputName>              a file per stack output
    environment/tripleo-S-environment.yaml
    tripleo-heat-templates/           the rendered templates
    tripleo-S-{roles-data,network-data,virtual-ips,
               baremetal-deployment}.yaml
    Src, S-export.yaml, tempest-deployer-input.conf
    S-install-<time>.tar.bzip2        an archive after each deploy
"""

import fnmatch
import glob
import os

import yaml

from tripleo_ephemeral import workdir
from tripleo_ephemeral.overcloud import yamlfile

#: tripleoclient's databases in its heat dir: the pod launcher's dumps
#: (``heat-db.sql`` tarred as ``heat-db.sql-<time.time()>.tar.bzip2``),
#: the native launcher's SQLite file in its scratch dir.
DUMP_PATTERNS = ('heat-db.sql-*.tar.bzip2', 'tripleo_deploy-*/heat.sqlite.db')
#: Names in a heat dir only tripleoclient's launchers write.
HEAT_DIR_SIGNS = ('heat-db.sql-*.tar.bzip2', 'heat-pod.yaml',
                  'tripleo_deploy-*')
#: Names at the top of a work dir only tripleoclient writes (``*``: any
#: stack).
WORK_DIR_SIGNS = ('*-install-*.tar.bzip2', 'tripleo-*-passwords.yaml',
                  'environment', 'tempest-deployer-input.conf',
                  'tripleo-*-virtual-ips.yaml',
                  'tripleo-*-baremetal-deployment.yaml')
#: What both write; without this product's claim, tripleoclient's.
STATUS_SUFFIX = '-deployment_status.yaml'
#: The name the refusal suggests for the adopted work dir, beside it.
ADOPTED_SUFFIX = '-ephemeral'
#: The key file the adoption it suggests passes: what the docs have the
#: operator write (from-tripleoclient.rst, "Adopting a 17.1 deployment").
KEY_FILE = '~/heat-17.1-key'


def _matches(names, patterns):
    return sorted({n for n in names for p in patterns
                   if fnmatch.fnmatchcase(n, p)})


def status_text(path):
    """What the status file at ``path`` says, for a message: its
    ``deployment_status``, or what is wrong with it."""
    try:
        data = yamlfile.loads(yamlfile.read(path), json_first=False)
    except (OSError, UnicodeError, yaml.YAMLError) as exc:
        return 'unreadable: %s' % (getattr(exc, 'strerror', None) or
                                   type(exc).__name__)
    if isinstance(data, dict) and isinstance(
            data.get('deployment_status'), str):
        return data['deployment_status']
    text = repr(data)
    return 'not a deployment status: %s' % (
        text if len(text) <= 40 else text[:37] + '...')


class Tripleoclient:
    """What tripleoclient left in ``path`` (a directory), if anything."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        try:
            self.names = sorted(os.listdir(self.path))
        except (FileNotFoundError, NotADirectoryError):
            self.names = []
        self.heat_dir = os.path.join(self.path, workdir.HEAT_DIR)

    @property
    def status_files(self):
        return [n for n in self.names if n.endswith(STATUS_SUFFIX)]

    def heat_dir_signs(self):
        try:
            names = os.listdir(self.heat_dir)
        except (FileNotFoundError, NotADirectoryError):
            return []
        return ['%s/%s' % (workdir.HEAT_DIR, n)
                for n in _matches(names, HEAT_DIR_SIGNS)]

    def evidence(self):
        """The names that show tripleoclient's hand (none: not its)."""
        return (self.status_files + self.heat_dir_signs() +
                _matches(self.names, WORK_DIR_SIGNS))

    def newest_dump(self):
        """Its newest heat database (by time, as it chose), or None."""
        found = [p for pattern in DUMP_PATTERNS for p in glob.glob(
            os.path.join(glob.escape(self.heat_dir), pattern))]
        return max(found, key=os.path.getmtime) if found else None

    def stacks(self):
        return [n[:-len(STATUS_SUFFIX)] for n in self.status_files]

    def describe(self):
        """``overcloud-deployment_status.yaml: DEPLOY_SUCCESS,
        heat-launcher/heat-db.sql-...``: the evidence, for a message."""
        shown = []
        for name in self.evidence()[:2]:
            if name.endswith(STATUS_SUFFIX):
                name = '%s: %s' % (name, status_text(
                    os.path.join(self.path, name)))
            shown.append(name)
        return ', '.join(shown)

    def way_in(self, stack):
        """The adoption command that takes this deployment into a work dir
        of this product's own, beside it."""
        dump = self.newest_dump() or '<a dump of its heat database>'
        stack = stack if stack in self.stacks() or not self.stacks() \
            else self.stacks()[0]
        target = os.path.join(os.path.dirname(self.path),
                              os.path.basename(self.path) + ADOPTED_SUFFIX)
        return ('openstack overcloud adopt --stack %s --heat-db-dump %s '
                '--heat-db-auth-encryption-key %s --work-dir %s' % (
                    stack, dump, KEY_FILE, target))
