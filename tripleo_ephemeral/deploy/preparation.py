"""Everything a deploy checks before Heat, and what preparing writes.

A bad input costs nothing: :meth:`Preparation.check` reads and checks what
can be checked before anything is written (the inputs, the launcher's
prerequisites, the Ansible options); :meth:`Preparation.prepare` then
writes the generated environments and the create request into the work dir
(a :class:`~.rollback.Rollback` around it undoes them on failure) and
checks what needs the whole request: the parameters no template declares,
the passwords, ``--limit``, TripleO's Ansible, that Heat can start here.
"""

import os

from tripleo_ephemeral.ansible import run as ansible_run
from tripleo_ephemeral.deploy import input_checks
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import interruption
from tripleo_ephemeral.overcloud import passwords
from tripleo_ephemeral.overcloud import template_processing
from tripleo_ephemeral import redaction


class Preparation:
    """The checks and preparation of one deploy of ``inputs``
    (:class:`~.inputs.Inputs`); ``say`` prints a line of progress."""

    def __init__(self, inputs, say):
        self.inputs = inputs
        self.say = say

    def check(self, launcher, ansible):
        """Check what can be checked before anything is written (the
        inputs, the launcher's prerequisites, ``ansible``'s options), then
        make the work dir; return whether it existed, and the heat dir if
        this run makes it (a list, for the rollback)."""
        self.inputs.check(self.say)
        launcher.check_prerequisites()
        if ansible is not None:
            ansible_run.check_options(ansible)
        existed = os.path.isdir(self.inputs.workdir.path)
        new_heat_dir = [] if os.path.isdir(launcher.heat_dir) else [
            launcher.heat_dir]
        # Claimed in prepare, where a failure or a dry run undoes it.
        self.inputs.workdir.create(claim=False)
        return existed, new_heat_dir

    def while_heat_starts(self, launcher, ansible, early):
        """:meth:`prepare` while Heat's processes start up (``early``, and
        where the launcher can start them ahead:
        :meth:`~tripleo_ephemeral.heat_launcher.spawning.Spawner.spawn`); a
        failed check kills them, with no dump, before the rollback."""
        spawned = early and launcher.ephemeral and launcher.spawner.spawn(
            tied=True)
        try:
            return self.prepare(launcher, ansible, spawned=spawned)
        except BaseException:
            if spawned:
                with interruption.shielded('stopping Heat'):
                    launcher.spawner.unspawn()
            raise

    def prepare(self, launcher, ansible, spawned=False):
        """Read and check every input (writing the generated files), and
        check that Heat can start here (unless it is starting:
        ``spawned``); return the :class:`~.prepared.PreparedInputs`."""
        self.inputs.workdir.claim()
        prepared = self.inputs.prepare(self.say)
        # With --debug the request is logged: never its passwords.
        redaction.hide(*input_checks.parameter_values(
            prepared.create_args, passwords.PASSWORD_NAMES))
        self._check_parameters(prepared.create_args)
        if not self.inputs.request.generate_passwords:
            unset = input_checks.unset_parameters(
                prepared.create_args, passwords.PASSWORD_NAMES)
            if unset:
                raise exceptions.InputError(
                    'No environment gives %s, and --disable-password-'
                    'generation generates none: set them in an environment '
                    'file, or deploy without the option' % ', '.join(unset))
        if ansible is not None:
            input_checks.check_limit(ansible.limit, self.inputs.stack,
                                     prepared.servers)
        input_checks.check_tripleo_ansible(self.inputs.templates,
                                           ansible is not None, self.say)
        if not spawned:
            launcher.pre_start_check()
        for warning in prepared.removed:  # only now: every input passed
            self.say(warning)
        return prepared

    def _user_environments(self):
        paths = []
        for directory in self.inputs.request.environment_directories:
            paths.extend(
                template_processing.environment_directory_files(directory))
        return paths + list(self.inputs.request.environment_files)

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
            if self.inputs.request.strict:
                raise exceptions.InputError(
                    text + '; fix the environment, or deploy without '
                    '--strict')
            self.say('WARNING: ' + text)
