"""One overcloud deployment run: inputs -> stack -> config-download -> Ansible.

The order matters and is the point of this module: every input is read and
checked before Heat is launched (:mod:`tripleo_ephemeral.deploy.inputs`,
:mod:`.input_checks`), and a bad one leaves the work dir as it was
(:mod:`.rollback`); from the launch on, Heat is always stopped and its
database dumped (:mod:`.heat_phase`), and the deployment status and an
install archive are written whatever happens (a forced stop, the second
Ctrl-C, skips the dump and the archive). Each step returns what the next
one needs.
"""

import contextlib
import logging
import os

from tripleo_ephemeral.deploy import ansible_project
from tripleo_ephemeral.deploy import ansible_run
from tripleo_ephemeral.deploy import heat_phase
from tripleo_ephemeral.deploy import input_checks
from tripleo_ephemeral.deploy import lifecycle
from tripleo_ephemeral.deploy import outcome
from tripleo_ephemeral.deploy import phases as deploy_phases
from tripleo_ephemeral.deploy import rendering
from tripleo_ephemeral.deploy import result
from tripleo_ephemeral.deploy import rollback
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.history import hooks as history
from tripleo_ephemeral import interruption
from tripleo_ephemeral import locking
from tripleo_ephemeral.overcloud import credentials
from tripleo_ephemeral.overcloud import passwords
from tripleo_ephemeral.overcloud import template_processing
from tripleo_ephemeral import progress as progress_channel
from tripleo_ephemeral import workdir as workdir_mod

LOG = logging.getLogger(__name__)


class Deployment:
    """Runs a deploy of ``inputs`` (:class:`~.inputs.Inputs`)."""

    def __init__(self, inputs, out=None, verbose_events=False,
                 strict=False, no_proxy='', python_interpreter=None,
                 config_copies=()):
        self.inputs = inputs
        #: directories the rendered Ansible project is also copied into
        self.config_copies = tuple(config_copies)
        self.stack = inputs.stack
        self.workdir = inputs.workdir
        self.verbose_events = verbose_events
        self.strict = strict
        self.no_proxy = no_proxy
        self.python_interpreter = python_interpreter
        self._say = progress_channel.channel(out)
        #: the Heat phase of the run under way (a
        #: :class:`~.heat_phase.HeatPhase`)
        self._heat = None
        #: seconds per phase of this run (the result's ``phase_seconds``)
        self.phases = deploy_phases.started()

    def say(self, text):
        """One line of progress (the command's stderr), never the result;
        through :func:`~tripleo_ephemeral.progress.channel`."""
        self._say(text)

    def run(self, launcher, keep_running=False, ansible=None,
            run_ansible=True):
        """Deploy; ``ansible`` (AnsibleOptions) writes config-download's
        ansible.cfg and command script and, with ``run_ansible`` (not
        --stack-only), runs the playbooks too.

        Only a deploy that gets as far as launching Heat records a status
        and an archive: until then any error undoes what preparing wrote.
        """
        wd = self.workdir
        phases = self.phases
        existed, new_heat_dir = self._checked(
            launcher, ansible if run_ansible else None)
        phases.lap('checks')
        values = {'work_dir': wd.path}
        with locking.DirLock(wd.path), locking.DirLock(launcher.heat_dir):
            self._report_unfinished()
            # Heat may start ahead where the rollback undoes what it writes
            # (its heat dir is the work dir's, and its logs are copied).
            early = os.path.dirname(launcher.heat_dir) == os.path.abspath(
                wd.path)
            with rollback.Rollback(
                    wd.path, dirs=[wd.templates_dir] + (
                        [launcher.heat_dir] if early else []),
                    say=self.say, existed=existed, created=new_heat_dir,
                    copied=[launcher.files.log_dir]), \
                    interruption.activity('checking the inputs'), \
                    interruption.on_force('Heat', launcher.kill):
                request = self._prepare_while_heat_starts(
                    launcher, ansible if run_ansible else None, early)
            status = workdir_mod.DEPLOY_FAILED
            previous = wd.status()
            wd.set_status(workdir_mod.DEPLOYING)
            phases.lap('inputs')
            self._heat = heat_phase.HeatPhase(
                self.stack, wd, self.say, verbose_events=self.verbose_events,
                phases=phases)
            ssh_user = ansible.ssh_user if ansible is not None else None
            render_settings = rendering.settings(
                ssh_user, request.servers, self.python_interpreter)
            builds = []  # config-download, rendered while Heat stops

            def start_render(outputs, deployments):
                builds.append(rendering.Build(
                    wd, outputs, deployments, render_settings).start())
            try:
                created, outputs, deployments, values['dump'] = (
                    self._heat.run(launcher, request, keep_running,
                                   on_outputs=start_render))
                values.update(stack_id=created.stack_id,
                              stack_status=created.status,
                              stack_seconds=round(created.seconds, 1),
                              resources=created.resources,
                              engine_tunings=launcher.engine_tunings())
                self._write_credentials(outputs)
                phases.lap('rc_file')
                with interruption.activity('rendering config-download'):
                    values['config_download'] = rendering.render(
                        wd, outputs, deployments, render_settings, self.say,
                        phases=phases, build=builds[0] if builds else None)
                rendering.copy_project(values['config_download'],
                                       self.config_copies, self.stack,
                                       self.say)
                phases.lap('copies')
                if ansible is not None and run_ansible:
                    # Writes the files as it runs, with the run's --limit.
                    values['ansible_seconds'] = self._ansible(
                        values['config_download'], ansible, outputs)
                    phases.lap('ansible')
                elif ansible is not None:
                    ansible_project.write_files(
                        values['config_download'], ansible, require=False)
                    phases.lap('ansible_files')
                status = workdir_mod.DEPLOY_SUCCESS
                values.update(history.result_values(
                    wd, None if run_ansible else self.say))
                phases.lap('changes')
                wd.save(wd.last_success_file, request.snapshot)
                wd.save(wd.stack_size_file, {
                    'request': request.digest, 'resources': created.resources,
                    'stack_seconds': values['stack_seconds']})
            finally:
                for build in builds:  # unless swapped in, nothing is kept
                    build.discard()
                if self._heat.stage.changed() or \
                        status == workdir_mod.DEPLOY_SUCCESS:
                    wd.set_status(status)
                    outcome.record(launcher, values.get('dump'),
                                   status == workdir_mod.DEPLOY_SUCCESS)
                    phases.lap('status')
                    values['archive'] = self._archive(
                        status == workdir_mod.DEPLOY_SUCCESS)
                    phases.lap('archive')
                else:
                    outcome.unchanged(wd, previous, self.say, launcher)
        values['phase_seconds'] = phases.values()
        return result.Result(self.stack, status, **values)

    def prepare_only(self, launcher, keep=False, ansible=None):
        """Stop before Heat: check every input as :meth:`run` does, then
        keep what preparing wrote into the work dir (``keep``,
        --setup-only) or undo it all (--dry-run). Status CHECKED or
        PREPARED; the work dir's deployment status is not touched."""
        wd = self.workdir
        existed, new_heat_dir = self._checked(launcher, ansible)
        # An existing heat dir is locked as a deploy locks it (the check may
        # stop a Heat left running there); none is made for this.
        heat_lock = (contextlib.nullcontext() if new_heat_dir else
                     locking.DirLock(launcher.heat_dir))
        with locking.DirLock(wd.path), heat_lock, rollback.Rollback(
                wd.path, dirs=[wd.templates_dir], say=self.say,
                existed=existed, undo=not keep), \
                interruption.activity('checking the inputs'):
            self._prepare(launcher, ansible)
        self.say('%s: stopped before Heat, as asked' % (
            'Inputs prepared in %s' % wd.path if keep else
            'Every input checked; the work dir is as it was'))
        return result.Result(self.stack, 'PREPARED' if keep else 'CHECKED',
                             work_dir=wd.path if keep or existed else None)

    def _checked(self, launcher, ansible):
        """Check what can be checked before anything is written (the
        inputs, the launcher's prerequisites, ``ansible``'s options), then
        make the work dir; return whether it existed, and the heat dir if
        this run makes it (a list, for the rollback)."""
        self.inputs.check(self.say)
        launcher.check_prerequisites()
        if ansible is not None:
            ansible_run.check_options(ansible)
        existed = os.path.isdir(self.workdir.path)
        new_heat_dir = [] if os.path.isdir(launcher.heat_dir) else [
            launcher.heat_dir]
        self.workdir.create()
        return existed, new_heat_dir

    def _prepare_while_heat_starts(self, launcher, ansible, early):
        """:meth:`_prepare` while Heat's processes start up (``early``, and
        where the launcher can start them ahead:
        :meth:`~.base.HeatLauncher.spawn`); a failed check kills them,
        with no dump, before the rollback."""
        spawned = early and launcher.spawn(tied=True)
        try:
            return self._prepare(launcher, ansible, spawned=spawned)
        except BaseException:
            if spawned:
                with interruption.shielded('stopping Heat'):
                    launcher.unspawn()
            raise

    def _prepare(self, launcher, ansible, spawned=False):
        """Read and check every input (writing the generated files), and
        check that Heat can start here (unless it is starting:
        ``spawned``); return the request."""
        request = self.inputs.prepare(self.say)
        self._check_parameters(request.create_args)
        if not self.inputs.generate_passwords:
            unset = input_checks.unset_parameters(
                request.create_args, passwords.PASSWORD_NAMES)
            if unset:
                raise exceptions.InputError(
                    'No environment gives %s, and --disable-password-'
                    'generation generates none: set them in an environment '
                    'file, or deploy without the option' % ', '.join(unset))
        if ansible is not None:
            input_checks.check_limit(ansible.limit, self.stack,
                                     request.servers)
        input_checks.check_tripleo_ansible(self.inputs.templates,
                                           ansible is not None, self.say)
        if not spawned:
            launcher.pre_start_check()
        for warning in request.removed:  # only now: every input passed
            self.say(warning)
        return request

    def _user_environments(self):
        paths = []
        for directory in self.inputs.environment_directories:
            paths.extend(
                template_processing.environment_directory_files(directory))
        return paths + list(self.inputs.environment_files)

    def _check_parameters(self, create_args):
        """Warn (fail with ``strict``) on parameters no template declares."""
        found = input_checks.undeclared_parameters(
            create_args, self._user_environments())
        for path, names in sorted(found.items()):
            text = ('%s sets %s, which no template of this deployment '
                    'declares: %s no effect (a typo, or a service that is '
                    'not deployed?)' % (
                        path, ', '.join(names),
                        'it has' if len(names) == 1 else 'they have'))
            if self.strict:
                raise exceptions.InputError(
                    text + '; fix the environment, or deploy without '
                    '--strict')
            self.say('WARNING: ' + text)

    def _report_unfinished(self):
        if self.workdir.status() == workdir_mod.DEPLOYING:
            self.say('The last deploy in %s did not finish (its status is '
                     'still %s): cleaning up what it left' % (
                         self.workdir.path, workdir_mod.DEPLOYING))

    def _archive(self, succeeded):
        if interruption.forced():
            self.say('No install archive: the stop was forced')
            return None
        with interruption.shielded('writing the install archive'):
            try:
                return self.workdir.archives.write(succeeded=succeeded)
            except exceptions.WorkDirError as exc:
                self.say('WARNING: %s' % exc)
                return None

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
            ansible = ansible.replace(limit=blacklist)
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
                rendering.copy_project(values['config_download'],
                                       self.config_copies, self.stack,
                                       self.say)
                if ansible is not None:
                    values['ansible_seconds'] = self._ansible(
                        values['config_download'], ansible, outputs)
                status = workdir_mod.DEPLOY_SUCCESS
                values.update(history.result_values(
                    wd, self.say if ansible is None else None))
            finally:
                wd.set_status(status)
                values['archive'] = self._archive(
                    status == workdir_mod.DEPLOY_SUCCESS)
        return result.Result(self.stack, status, **values)
