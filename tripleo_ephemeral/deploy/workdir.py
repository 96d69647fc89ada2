"""The work dir: the whole memory of a deployment between deploys.

``<work-dir>/`` holds ``heat-launcher/`` (the launcher's artifacts),
``outputs/``, ``config-download/<stack>/``, ``<stack>-passwords.yaml``,
``<stack>-deployment_status.yaml`` and the install archives
``<stack>-install-<UTC timestamp>.tar.gz``.
"""

import datetime
import logging
import os
import tarfile

import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil

LOG = logging.getLogger(__name__)

DEPLOYING = 'DEPLOYING'
DEPLOY_SUCCESS = 'DEPLOY_SUCCESS'
DEPLOY_FAILED = 'DEPLOY_FAILED'

#: Install archives kept per stack (the reference never pruned any).
ARCHIVES_KEPT = 5


class WorkDir:
    def __init__(self, path, stack):
        self.path = os.path.abspath(os.path.expanduser(path))
        self.stack = stack

    def join(self, *names):
        return os.path.join(self.path, *names)

    @property
    def heat_dir(self):
        return self.join('heat-launcher')

    @property
    def outputs_dir(self):
        return self.join('outputs')

    @property
    def config_download_dir(self):
        return self.join('config-download', self.stack)

    @property
    def status_file(self):
        return self.join('%s-deployment_status.yaml' % self.stack)

    def create(self):
        fileutil.ensure_private_dir(self.path)
        return self

    def set_status(self, status):
        fileutil.write_atomic(self.status_file, yaml.safe_dump(
            {'deployment_status': status}, default_flow_style=False))
        LOG.debug('Deployment status of %s: %s', self.stack, status)

    def status(self):
        try:
            with open(self.status_file) as f:
                return (yaml.safe_load(f) or {}).get('deployment_status')
        except FileNotFoundError:
            return None

    def archive(self, now=None):
        """Write ``<stack>-install-<UTC timestamp>.tar.gz`` of the work dir.

        Members keep their modes (secrets stay 0600); the archive is 0600
        itself; earlier archives, the live database and lock files are left
        out. Older archives beyond :data:`ARCHIVES_KEPT` are removed.
        """
        now = now or datetime.datetime.now(datetime.timezone.utc)
        name = '%s-install-%s.tar.gz' % (self.stack,
                                         now.strftime('%Y%m%d-%H%M%S'))
        path = self.join(name)

        def _filter(info):
            base = os.path.basename(info.name)
            if (base.startswith('%s-install-' % self.stack) or
                    base.startswith('.') or base.startswith('heat.sqlite')):
                return None
            return info

        try:
            with fileutil.atomic_open(path, binary=True) as raw:
                with tarfile.open(fileobj=raw, mode='w:gz',
                                  compresslevel=6) as tar:
                    tar.add(self.path, arcname=os.path.basename(self.path),
                            filter=_filter)
        except OSError as exc:
            raise exceptions.WorkDirError(
                'Could not write the install archive %s: %s' %
                (path, exc.strerror or exc))
        self._prune_archives()
        return path

    def archives(self):
        prefix = '%s-install-' % self.stack
        return sorted((self.join(n) for n in os.listdir(self.path)
                       if n.startswith(prefix) and n.endswith('.tar.gz')),
                      reverse=True)

    def _prune_archives(self):
        for old in self.archives()[ARCHIVES_KEPT:]:
            LOG.debug('Removing old install archive %s', old)
            os.unlink(old)


def safe_extract(archive, dest):
    """Extract ``archive`` into ``dest`` refusing paths that leave it."""
    with tarfile.open(archive) as tar:
        tar.extractall(dest, filter='data')
