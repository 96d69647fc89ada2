"""One overcloud deployment: inputs -> stack -> config-download.

The order matters and is the point of this module: every input is read and
checked before Heat is launched (a bad file costs nothing), Heat is always
stopped and its database dumped, and the deployment status and an install
archive are written whatever happens.
"""

import datetime
import logging
import os
import time
import uuid

from heatclient import exc as heat_exc
import yaml

from tripleo_ephemeral.deploy import ansible_run
from tripleo_ephemeral.deploy import checks
from tripleo_ephemeral.deploy import heat_client
from tripleo_ephemeral.deploy import progress
from tripleo_ephemeral.deploy import workdir as workdir_mod
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral import locking
from tripleo_ephemeral.overcloud import config_download
from tripleo_ephemeral.overcloud import deployed_servers
from tripleo_ephemeral.overcloud import outputs as stack_outputs
from tripleo_ephemeral.overcloud import passwords
from tripleo_ephemeral.overcloud import roles as roles_mod
from tripleo_ephemeral.overcloud import template_processing
from tripleo_ephemeral.overcloud import tht_parameters

LOG = logging.getLogger(__name__)

#: Used with the bundled templates when no --deployed-servers is given.
SAMPLE_SERVERS = 'deployed-servers-sample.yaml'
#: Environments of a template set that turn roles into deployed servers;
#: included (when the set has them) whenever --deployed-servers is used.
DEPLOYED_SERVER_ENVIRONMENTS = (
    'environments/deployed-server-environment.yaml',
    'environments/deployed-server-bootstrap-environment.yaml',
)


class Result:
    def __init__(self, stack, status, **details):
        self.stack = stack
        self.status = status
        self.details = details

    def summary(self):
        lines = ['Overcloud %s: %s' % (self.stack, self.status)]
        for key, value in self.details.items():
            if value is not None:
                lines.append('  %-16s %s' % (key.replace('_', ' ') + ':',
                                             value))
        return '\n'.join(lines)


class Deployment:
    def __init__(self, stack, work_dir, templates=None, environment_files=(),
                 environment_directories=(), roles_file=None,
                 networks_file=None, deployed_servers=None, timeout=240,
                 verbose_events=False, out=None, disable_validations=False,
                 skip_checks=()):
        self.stack = stack
        self.workdir = workdir_mod.WorkDir(work_dir, stack)
        self.templates = (templates or
                          template_processing.bundled_templates_dir())
        self.environment_files = list(environment_files)
        self.environment_directories = list(environment_directories)
        self.roles_file = roles_file or os.path.join(self.templates,
                                                     'roles_data.yaml')
        self.networks_file = networks_file or os.path.join(
            self.templates, 'network_data.yaml')
        if deployed_servers is None and templates is None:
            deployed_servers = os.path.join(self.templates, SAMPLE_SERVERS)
        self.deployed_servers = deployed_servers
        self.timeout = timeout
        self.verbose_events = verbose_events
        self._out = out
        self.disable_validations = disable_validations
        self.skip_checks = set(skip_checks)
        self._snapshot = None
        self._servers = None

    def say(self, text):
        if self._out is not None:
            self._out.write(text + '\n')
            self._out.flush()
        else:
            LOG.info('%s', text)

    # -- inputs ------------------------------------------------------------

    def prepare_request(self):
        """Read and check every input; return the stack create kwargs."""
        if not os.path.isdir(self.templates):
            raise exceptions.DeployError(
                'Templates directory %s not found; check '
                '--templates' % self.templates)
        roles = roles_mod.load_roles(self.roles_file)
        networks = roles_mod.load_networks(self.networks_file)
        work = self.workdir.path
        tdir = template_processing.prepare_templates(
            self.templates, work, roles, networks)
        env_files = []
        for directory in self.environment_directories:
            env_files.extend(
                template_processing.environment_directory_files(directory))
        env_files.extend(self.environment_files)
        generated = []
        if self.deployed_servers:
            given = {os.path.basename(p) for p in env_files}
            generated.extend(
                os.path.join(tdir, rel) for rel in DEPLOYED_SERVER_ENVIRONMENTS
                if os.path.exists(os.path.join(tdir, rel)) and
                os.path.basename(rel) not in given)
            path, self._servers = deployed_servers.prepare_environment(
                self.deployed_servers, roles, self.stack, work,
                roles_file=self.roles_file)
            generated.append(path)
            self._warn_removed_hosts()
        pw_path, _pw = passwords.ensure_passwords(work, self.stack)
        generated.append(pw_path)
        generated.append(self._write_deploy_parameters())
        # <Role>Services and container images, as tripleoclient computed
        # them; read from every environment, before the user's win.
        generated.append(tht_parameters.prepare_environment(
            tdir, roles, work, self.stack,
            template_processing.resource_registry(tdir) + generated +
            env_files))
        # Generated environments first: the user's -e files win.
        request = template_processing.stack_create_args(
            self.stack, tdir, generated + env_files,
            timeout_mins=self.timeout)
        self._check_against_last_success(generated + env_files, roles)
        self._save_inputs(roles, networks, generated + env_files)
        return request

    def _check_against_last_success(self, env_files, roles):
        """Stop before Heat on a change that would break the overcloud."""
        self._snapshot = checks.snapshot(env_files, roles, self._servers)
        previous = checks.load_last_success(self.workdir.path, self.stack)
        summary, violations = checks.compare(previous, self._snapshot,
                                             skip=self.skip_checks)
        for line in summary:
            self.say(line)
        if self.disable_validations:
            for rule_id, message in violations:
                self.say('Check %s skipped (--disable-validations): %s' %
                         (rule_id, message))
        else:
            checks.enforce(violations)

    def _write_deploy_parameters(self):
        path = self.workdir.join('%s-deploy-parameters.yaml' % self.stack)
        params = {
            'RootStackName': self.stack,
            'DeployIdentifier': int(time.time()),
            'StackAction': 'CREATE',
            'DeployIdentifierUUID': str(uuid.uuid4()),
        }
        fileutil.write_atomic(path, yaml.safe_dump(
            {'parameter_defaults': params}, default_flow_style=False))
        return path

    def _save_inputs(self, roles, networks, env_files):
        """Keep what was used: the next deploy compares against it."""
        saved = {
            'stack': self.stack,
            'templates': self.templates,
            'roles_file': self.roles_file,
            'networks_file': self.networks_file,
            'deployed_servers': self.deployed_servers,
            'deployed_servers_data': self._servers,
            'environment_files': env_files,
            'roles': roles,
            'networks': networks,
            'saved_at': datetime.datetime.now(
                datetime.timezone.utc).isoformat(),
        }
        fileutil.write_atomic(
            self.workdir.join('%s-deploy-inputs.yaml' % self.stack),
            yaml.safe_dump(saved, default_flow_style=False))

    # -- the run -----------------------------------------------------------

    def run(self, launcher, keep_running=False, ansible=None):
        """Deploy; ``ansible`` (AnsibleOptions) runs the playbooks too."""
        self.workdir.create()
        with locking.DirLock(self.workdir.path), \
                locking.DirLock(launcher.heat_dir):
            self.workdir.set_status(workdir_mod.DEPLOYING)
            details = {}
            status = workdir_mod.DEPLOY_FAILED
            try:
                request = self.prepare_request()
                details.update(self._stack(launcher, request, keep_running))
                details['config_download'] = self._render(
                    details.pop('_outputs'),
                    ansible.ssh_user if ansible is not None else None)
                if ansible is not None:
                    self.say('Running config-download in %s' %
                             details['config_download'])
                    details['ansible_seconds'] = round(
                        ansible_run.run_config_download(
                            details['config_download'], ansible, self.say),
                        1)
                status = workdir_mod.DEPLOY_SUCCESS
                checks.save_last_success(self.workdir.path, self.stack,
                                         self._snapshot)
            finally:
                self.workdir.set_status(status)
                try:
                    details['archive'] = self.workdir.archive()
                except exceptions.TripleoEphemeralError as exc:
                    LOG.warning('%s', exc)
        return Result(self.stack, status, work_dir=self.workdir.path,
                      **details)

    def _stack(self, launcher, request, keep_running):
        self.say('Launching Heat (%s) in %s' % (launcher.heat_type,
                                                launcher.heat_dir))
        started = time.monotonic()
        launcher.start()
        self.say('Heat ready in %.1fs at %s' % (time.monotonic() - started,
                                                launcher.endpoint))
        details = {}
        try:
            client = heat_client.make_client(
                launcher.session(),
                launcher.endpoint if launcher.ephemeral else None)
            details.update(self._create(client, request))
            details['_outputs'] = stack_outputs.fetch_and_save(
                client, details['stack_id'], self.workdir.path, self.stack)
        finally:
            if keep_running and launcher.ephemeral:
                self.say('Heat left running: export OS_CLOUD=heat or source '
                         '%s/heatrc; stop it with "openstack tripleo launch '
                         'heat --heat-dir %s --kill"' % (launcher.heat_dir,
                                                         launcher.heat_dir))
            elif launcher.ephemeral:
                dump = launcher.stop(dump=True)
                details['heat_db_dump'] = dump
                self.say('Heat stopped; database dumped to %s' % dump)
        return details

    def _create(self, client, request):
        self.say('Creating stack %s' % self.stack)
        started = time.monotonic()
        try:
            created = client.stacks.create(**request)
        except heat_exc.HTTPException as exc:
            raise exceptions.DeployError('Heat refused stack %s: %s' % (
                self.stack, _heat_message(exc)))
        stack_id = created['stack']['id']
        watcher = progress.StackWatcher(client, stack_id, out=self.say,
                                        verbose=self.verbose_events)
        status = watcher.wait()
        # Until the end was seen: the last events and the exact counts
        # after it are the report's, not the stack's.
        elapsed = watcher.ended - started
        counts = watcher.final_counts  # listed once, as the end was seen
        if status != 'CREATE_COMPLETE':
            failed = progress.failures(client, stack_id)
            for path, rtype, reason in failed:
                self.say('FAILED %s (%s): %s' % (path, rtype, reason))
            raise exceptions.DeployError(
                'Stack %s ended %s after %ds with %d failed resources (listed '
                'above); Heat\'s log is in %s' % (
                    self.stack, status, elapsed, len(failed),
                    os.path.join(self.workdir.heat_dir, 'log')))
        self.say('Stack %s %s in %.1fs (%d resources)' % (
            self.stack, status, elapsed, counts.total))
        return {'stack_id': stack_id, 'stack_status': status,
                'stack_seconds': round(elapsed, 1),
                'resources': counts.total}

    def _previous_inputs(self):
        try:
            with open(self.workdir.join(
                    '%s-deploy-inputs.yaml' % self.stack)) as f:
                return yaml.safe_load(f) or {}
        except (OSError, yaml.YAMLError):
            return {}

    def _warn_removed_hosts(self):
        """Say which servers the last deploy had and this one drops."""
        previous = self._previous_inputs().get('deployed_servers_data')
        for role, host in deployed_servers.removed_hosts(previous,
                                                         self._servers):
            self.say(deployed_servers.REMOVED_HOST_WARNING % {
                'host': host['hostname'], 'role': role,
                'ip': host['ctlplane_ip']})

    def _ssh_users(self, ssh_user):
        """Return render() kwargs: --overcloud-ssh-user wins over the file."""
        if ssh_user:
            return {'ssh_user': ssh_user}
        servers = self._servers
        if servers is None:
            servers = self._previous_inputs().get('deployed_servers_data')
        return {'host_ssh_users': {
            host['hostname']: host['ssh_user']
            for hosts in (servers or {}).values() for host in hosts
            if host.get('ssh_user')}}

    def _render(self, saved, ssh_user=None):
        outputs, deployments = saved
        dest = self.workdir.config_download_dir
        started = time.monotonic()
        config_download.render(outputs, dest, self.stack,
                               deployments=deployments,
                               **self._ssh_users(ssh_user))
        self.say('config-download rendered into %s in %.1fs' % (
            dest, time.monotonic() - started))
        return dest

    def render_saved(self):
        """--config-download-only: render from the outputs saved last time."""
        with locking.DirLock(self.workdir.path):
            dest = self._render(stack_outputs.load(self.workdir.path,
                                                   self.stack))
        return Result(self.stack, 'CONFIG_DOWNLOAD_RENDERED',
                      config_download=dest)


def _heat_message(exc):
    text = getattr(exc, 'error', None)
    if isinstance(text, dict):
        text = (text.get('error') or {}).get('message') or str(exc)
    text = str(text or exc)
    return ' '.join(text.split())
