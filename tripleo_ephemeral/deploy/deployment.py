"""One overcloud deployment run: inputs -> stack -> config-download -> Ansible.

The order matters and is the point of this module: every input is read and
checked before Heat is launched (:mod:`.preparation`: the inputs,
:mod:`.inputs`, and their checks), and a bad one leaves the work dir as it
was (:mod:`.rollback`); from the launch on, Heat is always stopped and its
database dumped (:mod:`.heat_phase`), and the deployment status and an
install archive are written whatever happens (a forced stop, the second
Ctrl-C, skips the dump and the archive). Each step returns what the next
one needs.
"""

import contextlib
import logging
import os

from tripleo_ephemeral.archives import install_archives
from tripleo_ephemeral.ansible import project as ansible_project
from tripleo_ephemeral.ansible import run as ansible_run
from tripleo_ephemeral.deploy import choices
from tripleo_ephemeral.deploy import heat_phase
from tripleo_ephemeral.deploy import outcome
from tripleo_ephemeral.deploy import preparation
from tripleo_ephemeral import lap_clock
from tripleo_ephemeral.deploy import rendering
from tripleo_ephemeral.deploy import result
from tripleo_ephemeral.deploy import rollback
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.history import hooks as history
from tripleo_ephemeral import interruption
from tripleo_ephemeral import locking
from tripleo_ephemeral.overcloud import credentials
from tripleo_ephemeral.overcloud import outputs as stack_outputs
from tripleo_ephemeral import progress as progress_channel
from tripleo_ephemeral import workdir as workdir_mod

LOG = logging.getLogger(__name__)


class Deployment:
    """Runs a deploy of ``inputs`` (:class:`~.inputs.Inputs`), as their
    request (:class:`~.request.DeployRequest`) says."""

    def __init__(self, inputs, out=None, phases=None):
        self.inputs = inputs
        self.stack = inputs.stack
        self.workdir = inputs.workdir
        self._say = progress_channel.channel(out)
        #: the Heat phase of the run under way (a
        #: :class:`~.heat_phase.HeatPhase`)
        self._heat = None
        #: seconds per phase of this run (the result's ``phase_seconds``):
        #: ``phases`` when the command started the clock, else from here
        self.phases = phases if phases is not None else lap_clock.started()

    @property
    def request(self):
        """The :class:`~.request.DeployRequest` of the inputs."""
        return self.inputs.request

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
        workdir = self.workdir
        phases = self.phases
        preparing = preparation.Preparation(self.inputs, self.say, phases)
        existed, new_heat_dir = preparing.check(
            launcher, ansible if run_ansible else None)
        phases.lap('checks')
        values = {'work_dir': workdir.path}
        spawn = (launcher.spawner.undone_on_failure() if launcher.ephemeral
                 else contextlib.nullcontext())
        with locking.DirLock(workdir.path), \
                locking.DirLock(launcher.heat_dir), spawn:
            self._report_unfinished()
            # Heat may start ahead where the rollback undoes what it writes
            # (its heat dir is the work dir's, and its logs are copied).
            early = os.path.dirname(launcher.heat_dir) == os.path.abspath(
                workdir.path)
            with rollback.Rollback(
                    workdir.path, dirs=[workdir.templates_dir] + (
                        [launcher.heat_dir] if early else []),
                    say=self.say, existed=existed, created=new_heat_dir,
                    copied=[launcher.files.log_dir]), \
                    interruption.activity('checking the inputs'), \
                    interruption.on_force('Heat', launcher.kill):
                prepared = preparing.while_heat_starts(
                    launcher, ansible if run_ansible else None, early)
            status = workdir_mod.DEPLOY_FAILED
            previous = workdir.status()
            workdir.set_status(workdir_mod.DEPLOYING)
            phases.lap('inputs')
            self._heat = heat_phase.HeatPhase(
                self.stack, workdir, self.say,
                verbose_events=self.request.verbose_events,
                phases=phases)
            ssh_user = ansible.ssh_user if ansible is not None else None
            render_settings = rendering.settings(
                ssh_user, prepared.servers, self.request.python_interpreter)
            builds = []  # config-download, rendered while Heat stops

            def start_render(outputs, deployments):
                builds.append(rendering.Build(
                    workdir, outputs, deployments, render_settings).start())
            try:
                created, outputs, deployments, values['dump'] = (
                    self._heat.run(launcher, prepared, keep_running,
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
                        workdir, outputs, deployments, render_settings,
                        self.say, phases=phases,
                        build=builds[0] if builds else None)
                rendering.copy_project(values['config_download'],
                                       self.request.config_copies,
                                       self.stack, self.say)
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
                    workdir, None if run_ansible else self.say))
                phases.lap('changes')
                workdir.save(workdir.last_success_file, prepared.snapshot)
                workdir.save(workdir.stack_size_file, {
                    'request': prepared.digest,
                    'resources': created.resources,
                    'stack_seconds': values['stack_seconds']})
            finally:
                for build in builds:  # unless swapped in, nothing is kept
                    build.discard()
                if self._heat.stage.changed() or \
                        status == workdir_mod.DEPLOY_SUCCESS:
                    workdir.set_status(status)
                    outcome.record(launcher, values.get('dump'),
                                   status == workdir_mod.DEPLOY_SUCCESS)
                    phases.lap('status')
                    values['archive'] = self._archive(
                        status == workdir_mod.DEPLOY_SUCCESS)
                    phases.lap('archive')
                else:
                    outcome.unchanged(workdir, previous, self.say, launcher)
        values['phase_seconds'] = phases.values()
        return result.Result(self.stack, status, **values)

    def prepare_only(self, launcher, keep=False, ansible=None):
        """Stop before Heat: check every input as :meth:`run` does, then
        keep what preparing wrote into the work dir (``keep``,
        --setup-only) or undo it all (--dry-run). Status CHECKED or
        PREPARED; the work dir's deployment status is not touched."""
        workdir = self.workdir
        preparing = preparation.Preparation(self.inputs, self.say)
        existed, new_heat_dir = preparing.check(launcher, ansible)
        # An existing heat dir is locked as a deploy locks it (the check may
        # stop a Heat left running there); none is made for this.
        heat_lock = (contextlib.nullcontext() if new_heat_dir else
                     locking.DirLock(launcher.heat_dir))
        with locking.DirLock(workdir.path), heat_lock, rollback.Rollback(
                workdir.path, dirs=[workdir.templates_dir], say=self.say,
                existed=existed, undo=not keep), \
                interruption.activity('checking the inputs'):
            preparing.prepare(launcher, ansible)
        self.say('%s: stopped before Heat, as asked' % (
            'Inputs prepared in %s' % workdir.path if keep else
            'Every input checked; the work dir is as it was'))
        return result.Result(self.stack, 'PREPARED' if keep else 'CHECKED',
                             work_dir=(workdir.path if keep or existed
                                       else None))

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
                path = install_archives.Archives(self.workdir).write(
                    succeeded=succeeded)
            except exceptions.WorkDirError as exc:
                self.say('WARNING: %s' % exc)
                return None
        left_out = install_archives.Archives(self.workdir).members()[1]
        if left_out:
            self.say('Not in the install archive, as not this product\'s '
                     '(they stay in %s): %s' % (self.workdir.path,
                                                ', '.join(left_out)))
        return path

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
            self.workdir.clouds_file, no_proxy=self.request.no_proxy)
        self.say('Overcloud rc file: %s (cloud %s in %s)' % (
            rc, self.stack, clouds))

    def _ansible(self, config_dir, ansible, outputs):
        blacklist = stack_outputs.blacklist_limit(outputs)
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
        workdir = self.workdir
        values = {'work_dir': workdir.path}
        status = workdir_mod.DEPLOY_FAILED
        with locking.DirLock(workdir.path):
            workdir.set_status(workdir_mod.DEPLOYING)
            given = choices.given(self.request)
            _keep_choices(workdir, workdir.deploy_inputs_file, given)
            try:
                values['config_download'], outputs = rendering.render_saved(
                    workdir, self.say, self.inputs.previous_servers(),
                    ssh_user=ansible.ssh_user if ansible else None,
                    python_interpreter=self.request.python_interpreter)
                rendering.copy_project(values['config_download'],
                                       self.request.config_copies,
                                       self.stack, self.say)
                if ansible is not None:
                    values['ansible_seconds'] = self._ansible(
                        values['config_download'], ansible, outputs)
                status = workdir_mod.DEPLOY_SUCCESS
                _keep_choices(workdir, workdir.last_success_file, given)
                values.update(history.result_values(
                    workdir, self.say if ansible is None else None))
            finally:
                workdir.set_status(status)
                values['archive'] = self._archive(
                    status == workdir_mod.DEPLOY_SUCCESS)
        return result.Result(self.stack, status, **values)


def _keep_choices(workdir, path, given):
    """Record the choices of a render of the saved outputs in the saved
    file ``path`` (the inputs, the last success), when it exists."""
    saved = workdir.load(path)
    if isinstance(saved, dict) and saved.get('choices') != given:
        saved['choices'] = given
        workdir.save(path, saved)
