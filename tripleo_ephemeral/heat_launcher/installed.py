"""Installed Heat: a long-lived Heat API reached through clouds.yaml.

Nothing is started, stopped, dumped or restored: the launcher only checks
that the API answers and hands out a session for it.
"""

import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_launcher import base
from tripleo_ephemeral.runner import api_owner


class InstalledHeatLauncher(base.HeatLauncher):
    """Use an existing Heat found through ``OS_CLOUD`` / clouds.yaml."""

    heat_type = 'installed'
    ephemeral = False

    def __init__(self, heat_dir, api_port=None, cloud=None, **kwargs):
        super().__init__(heat_dir, api_port or base.DEFAULT_API_PORT,
                         **kwargs)
        self.port_given = True  # not ours to choose
        self.cloud = cloud or os.environ.get('OS_CLOUD')
        self._region = None

    @property
    def database(self):
        return None

    def _cloud_region(self):
        if self._region is None:
            from openstack import config as os_config
            from openstack import exceptions as os_exceptions
            try:
                self._region = os_config.OpenStackConfig().get_one(
                    cloud=self.cloud)
            except (os_exceptions.ConfigException, KeyError) as exc:
                raise exceptions.LauncherError(
                    'Cannot find the installed Heat: %s; set OS_CLOUD to a '
                    'clouds.yaml entry or the OS_* variables' % exc)
        return self._region

    def session(self):
        return self._cloud_region().get_session()

    @property
    def endpoint(self):
        from keystoneauth1 import exceptions as ks_exceptions
        try:
            return self.session().get_endpoint(
                service_type='orchestration', interface='public')
        except ks_exceptions.ClientException as exc:
            raise exceptions.LauncherError(
                'Cannot find the orchestration endpoint of cloud %s: %s' %
                (self.cloud or '(OS_* variables)', exc))

    def prepare(self):
        return self

    def pre_start_check(self):
        pass  # nothing is started here

    def start(self, restore_db=False, tied=False):
        if restore_db:
            raise exceptions.LauncherError(
                'An installed Heat keeps its own database: --restore-db only '
                'applies to ephemeral heat types')
        from keystoneauth1 import exceptions as ks_exceptions
        endpoint = self.endpoint
        try:
            self.session().get(endpoint + '/stacks', raise_exc=True)
        except ks_exceptions.ClientException as exc:
            raise exceptions.LauncherError(
                'The installed Heat at %s does not answer: %s' % (
                    self.shown_endpoint, str(exc).replace(
                        endpoint, self.shown_endpoint)))
        return self

    @property
    def shown_endpoint(self):
        """The endpoint, an ephemeral Heat's API secret in it named, not
        given (another of this product's Heats, used as installed)."""
        return api_owner.shown(self.endpoint)

    def is_running(self):
        return True

    def stop(self, dump=True):
        return None

    def kill(self):
        pass

    def release(self):
        pass

    def describe(self):
        return {'heat_type': self.heat_type, 'api_url': self.shown_endpoint,
                'heat_dir': self.heat_dir, 'pid': None, 'database': None,
                'clouds_yaml': None}
