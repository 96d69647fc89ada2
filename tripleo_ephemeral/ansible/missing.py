"""Name what the playbooks about to run use and this Ansible lacks.

:func:`check` runs ``walk_playbooks.py`` with the Python and environment
of the run (:class:`~.environment.PlaybookEnvironment`) through
:mod:`tripleo_ephemeral.process`, so modules and roles resolve as they will
in the run, and fails before it with one line per missing module or role:
the package that provides it and the tasks that use it. Nothing is faked:
what PyPI does not have (ansible-pacemaker, linux-system-roles) stays
missing, and only the playbooks that use it cannot run.
"""

import json
import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import process

WALKER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      'walk_playbooks.py')
#: Where what tripleo-heat-templates' tasks use and PyPI lacks comes from.
PROVIDERS = {
    'pacemaker_resource': 'ansible-pacemaker (an RDO RPM, not on PyPI)',
    'linux-system-roles.certificate':
        'linux-system-roles (a RHEL/Fedora RPM, not on PyPI; used with TLS '
        'everywhere)',
}
#: Variables a ``when`` on a missing thing's use is evaluated with.
GLOBAL_VARS = 'global_vars.yaml'
#: Tasks named per missing thing in the error (the rest are counted).
USES_SHOWN = 3


class Report:
    """What a walk found: ``playbooks`` (counts per playbook),
    ``missing`` and ``errors`` (lists of dicts)."""

    def __init__(self, data):
        self.playbooks = data.get('playbooks') or {}
        self.missing = data.get('missing') or []
        self.errors = data.get('errors') or []
        #: Uses of missing things behind a ``when`` known to be false.
        self.skipped = data.get('skipped') or 0

    def totals(self):
        """Summed plays, task files and tasks."""
        keys = ('plays', 'files', 'tasks')
        return {k: sum(c.get(k, 0) for c in self.playbooks.values())
                for k in keys}

    def problems(self):
        """One line per missing module or role, then per file that does
        not load."""
        lines = []
        for entry in self.missing:
            uses = entry['uses']
            shown = '; '.join(uses[:USES_SHOWN])
            if len(uses) > USES_SHOWN:
                shown += ' and %d more' % (len(uses) - USES_SHOWN)
            lines.append('%s %s (from %s) is not installed; used by %s' % (
                entry['kind'], entry['name'],
                PROVIDERS.get(entry['name'], 'no package known here'),
                shown))
        for error in self.errors:
            lines.append('%s does not load: %s' % (error['file'],
                                                   error['message']))
        return lines


def walk(environment, playbooks, runner=None):
    """Walk ``playbooks`` (paths) under ``environment``; return a
    :class:`Report`."""
    runner = runner or process.ProcessRunner()
    argv = [environment.python, WALKER]
    known = os.path.join(environment.config_dir, GLOBAL_VARS)
    if os.path.isfile(known):
        argv += ['--vars', known]
    env = dict(os.environ)
    env.update(environment.variables())
    env['PATH'] = os.pathsep.join([environment.bin_dir,
                                   env.get('PATH', os.defpath)])
    result = runner.run(argv + list(playbooks), env=env, timeout=600)
    try:
        return Report(json.loads(result.stdout))
    except ValueError as exc:
        raise exceptions.AnsibleError(
            'The playbook check printed no report (%s): run %s %s by hand '
            'to see why' % (exc, environment.python, WALKER))


def check(environment, playbooks, runner=None):
    """Fail when ``playbooks`` use a module or role that is not installed
    (or a file that does not load); return the :class:`Report`."""
    report = walk(environment, playbooks, runner)
    problems = report.problems()
    if problems:
        raise exceptions.TripleoAnsibleError(
            '%s cannot run with the Ansible in %s:\n%s' % (
                ', '.join(os.path.basename(p) for p in playbooks),
                environment.bin_dir, '\n'.join(problems)))
    return report
