"""One overcloud deployment run: inputs -> stack -> config-download -> Ansible.

The order matters and is the point of this module: every input is read and
checked before Heat is launched (:mod:`tripleo_ephemeral.deploy.inputs`),
Heat is always stopped and its database dumped, and the deployment status
and an install archive are written whatever happens. Each step returns
what the next one needs.
"""

import logging
import os
import time

from heatclient import exc as heat_exc

from tripleo_ephemeral.deploy import ansible_run
from tripleo_ephemeral.deploy import heat_client
from tripleo_ephemeral.deploy import lifecycle
from tripleo_ephemeral.deploy import progress
from tripleo_ephemeral.deploy import rendering
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import locking
from tripleo_ephemeral.overcloud import credentials
from tripleo_ephemeral.overcloud import inventory
from tripleo_ephemeral.overcloud import outputs as stack_outputs
from tripleo_ephemeral import workdir as workdir_mod

LOG = logging.getLogger(__name__)


class Result:
    """What a deploy ends with: the command shows it (``-f json``...)."""

    COLUMNS = ('status', 'stack', 'stack_id', 'stack_status', 'resources',
               'stack_seconds', 'ansible_seconds', 'work_dir',
               'config_download', 'dump', 'archive')

    def __init__(self, stack, status, **values):
        unknown = set(values) - set(self.COLUMNS)
        if unknown:
            raise TypeError('unknown result field(s): %s' % ', '.join(
                sorted(unknown)))
        self.values = dict(values, stack=stack, status=status)

    @property
    def status(self):
        return self.values['status']

    def __getitem__(self, column):
        return self.values.get(column)

    def row(self):
        """(columns, values), as a cliff ShowOne returns them."""
        return self.COLUMNS, tuple(self[c] for c in self.COLUMNS)


class Created:
    """A stack Heat finished creating."""

    def __init__(self, stack_id, status, seconds, resources):
        self.stack_id = stack_id
        self.status = status
        self.seconds = seconds
        self.resources = resources


class Deployment:
    """Runs a deploy of ``inputs`` (:class:`~.inputs.Inputs`)."""

    def __init__(self, inputs, out=None, verbose_events=False, no_proxy='',
                 python_interpreter=None):
        self.inputs = inputs
        self.stack = inputs.stack
        self.workdir = inputs.workdir
        self.verbose_events = verbose_events
        self.no_proxy = no_proxy
        self.python_interpreter = python_interpreter
        self._out = out

    def say(self, text):
        """One line of progress (the command's stderr), never the result."""
        if self._out is not None:
            self._out.write(text + '\n')
            self._out.flush()
        else:
            LOG.info('%s', text)

    def run(self, launcher, keep_running=False, ansible=None):
        """Deploy; ``ansible`` (AnsibleOptions) runs the playbooks too."""
        # Bad input fails before anything is written to the work dir.
        self.inputs.check(self.say)
        wd = self.workdir.create()
        values = {'work_dir': wd.path}
        status = workdir_mod.DEPLOY_FAILED
        with locking.DirLock(wd.path), locking.DirLock(launcher.heat_dir):
            wd.set_status(workdir_mod.DEPLOYING)
            try:
                request = self.inputs.prepare(self.say)
                created, outputs, deployments, values['dump'] = (
                    self._stack(launcher, request, keep_running))
                values.update(stack_id=created.stack_id,
                              stack_status=created.status,
                              stack_seconds=round(created.seconds, 1),
                              resources=created.resources)
                self._write_credentials(outputs)
                ssh_user = ansible.ssh_user if ansible is not None else None
                values['config_download'] = rendering.render(
                    wd, outputs, deployments, rendering.settings(
                        ssh_user, request.servers, self.python_interpreter),
                    self.say)
                if ansible is not None:
                    values['ansible_seconds'] = self._ansible(
                        values['config_download'], ansible, outputs)
                status = workdir_mod.DEPLOY_SUCCESS
                wd.save(wd.last_success_file, request.snapshot)
                wd.save(wd.stack_size_file, {
                    'request': request.digest, 'resources': created.resources,
                    'stack_seconds': values['stack_seconds']})
            finally:
                wd.set_status(status)
                try:
                    values['archive'] = wd.archive()
                except exceptions.WorkDirError as exc:
                    LOG.warning('%s', exc)
        return Result(self.stack, status, **values)

    def _stack(self, launcher, request, keep_running):
        """Launch Heat, create the stack, save its outputs, stop Heat.

        Returns (:class:`Created`, outputs, deployments, dump path).
        """
        self.say('Launching Heat (%s) in %s' % (launcher.heat_type,
                                                launcher.heat_dir))
        started = time.monotonic()
        launcher.start()
        self.say('Heat ready in %.1fs at %s' % (time.monotonic() - started,
                                                launcher.endpoint))
        dump = None
        try:
            client = heat_client.make_client(
                launcher.session(),
                launcher.endpoint if launcher.ephemeral else None)
            created = self._create(client, request.create_args,
                                   self._expected_size(request.digest))
            outputs, deployments = stack_outputs.fetch_and_save(
                client, created.stack_id, self.workdir.outputs_file,
                self.workdir.deployments_file)
            stack_outputs.fetch_and_save_environment(
                client, created.stack_id, self.workdir.stack_environment_file,
                inventory.STACK_ENVIRONMENT_PARAMETERS)
        finally:
            if keep_running and launcher.ephemeral:
                self.say('Heat left running: export OS_CLOUD=heat or source '
                         '%s/heatrc; stop it with "openstack tripleo launch '
                         'heat --heat-dir %s --kill"' % (launcher.heat_dir,
                                                         launcher.heat_dir))
            elif launcher.ephemeral:
                dump = launcher.stop(dump=True)
                self.say('Heat stopped; database dumped to %s' % dump)
        return created, outputs, deployments, dump

    def _expected_size(self, digest):
        """The resources of the stack, if the last successful deploy of the
        same request recorded them (the progress then knows its total)."""
        size = self.workdir.load(self.workdir.stack_size_file) or {}
        if digest and size.get('request') == digest:
            return size.get('resources')
        return None

    def _create(self, client, create_args, expected=None):
        self.say('Creating stack %s%s' % (self.stack, (
            ' (%d resources, as the last deploy of the same request)' %
            expected) if expected else ''))
        started = time.monotonic()
        try:
            stack_id = client.stacks.create(**create_args)['stack']['id']
        except heat_exc.HTTPException as exc:
            raise exceptions.DeployError('Heat refused stack %s: %s' % (
                self.stack, _heat_message(exc)))
        watcher = progress.StackWatcher(client, stack_id, out=self.say,
                                        verbose=self.verbose_events,
                                        expected_total=expected)
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
        return Created(stack_id, status, elapsed, counts.total)

    def _write_credentials(self, outputs):
        """``<stack>rc`` and the ``<stack>`` cloud of the work dir's
        clouds.yaml, when the templates give a Keystone endpoint."""
        missing = credentials.missing_outputs(outputs)
        if missing:
            self.say('No %s rc file: the stack has no %s output' % (
                self.stack, ', '.join(missing)))
            return
        rc, clouds = credentials.write(
            self.stack, outputs, self.workdir.rc_file,
            self.workdir.clouds_file, no_proxy=self.no_proxy)
        self.say('Overcloud rc file: %s (cloud %s in %s)' % (
            rc, self.stack, clouds))

    def _ansible(self, config_dir, ansible, outputs):
        blacklist = lifecycle.blacklist_limit(outputs)
        if not ansible.limit and blacklist:
            ansible.limit = blacklist
            self.say('Leaving out the BlacklistedHostnames: --limit %s'
                     % ansible.limit)
        elif blacklist:
            self.say('[WARNING] DeploymentServerBlacklist is defined and will '
                     'be ignored because --limit has been specified.')
        self.say('Running config-download in %s' % config_dir)
        return round(ansible_run.run_config_download(config_dir, ansible,
                                                     self.say), 1)

    def render_saved(self, ansible=None):
        """--config-download-only: no Heat; render again from the outputs
        saved last time, then run the deploy playbook (``ansible``)."""
        wd = self.workdir
        values = {'work_dir': wd.path}
        status = workdir_mod.DEPLOY_FAILED
        with locking.DirLock(wd.path):
            wd.set_status(workdir_mod.DEPLOYING)
            try:
                values['config_download'], outputs = rendering.render_saved(
                    wd, self.say, self.inputs.previous_servers(),
                    ssh_user=ansible.ssh_user if ansible else None,
                    python_interpreter=self.python_interpreter)
                if ansible is not None:
                    values['ansible_seconds'] = self._ansible(
                        values['config_download'], ansible, outputs)
                status = workdir_mod.DEPLOY_SUCCESS
            finally:
                wd.set_status(status)
                try:
                    values['archive'] = wd.archive()
                except exceptions.WorkDirError as exc:
                    LOG.warning('%s', exc)
        return Result(self.stack, status, **values)


def _heat_message(exc):
    text = getattr(exc, 'error', None)
    if isinstance(text, dict):
        text = (text.get('error') or {}).get('message') or str(exc)
    text = str(text or exc)
    return ' '.join(text.split())
