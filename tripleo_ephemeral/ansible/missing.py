"""Name what the playbooks about to run use and this Ansible lacks.

:func:`check` runs ``walk_playbooks.py`` with the Python and environment
of the run (:class:`~.environment.PlaybookEnvironment`) through
:mod:`tripleo_ephemeral.process`, so modules and roles resolve as they will
in the run, and fails before it with one line per missing module or role:
the package that provides it and the tasks that use it. Only what the run
will run counts: the plays of the hosts of its ``--limit``, the tasks of its
``--tags``/``--skip-tags``, the ``when`` that can be told before it runs.
What PyPI does not have is looked for where an undercloud's RPMs install it
(:mod:`.search_paths`); for ansible-pacemaker's ``pacemaker_resource`` and
``pacemaker_cluster`` the product has its own, used when no other is found,
and :func:`which` says which one a run uses.
"""

import json
import os

from tripleo_ephemeral.ansible import search_paths
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import inventory as inventory_mod
from tripleo_ephemeral import process

WALKER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      'walk_playbooks.py')
#: Where what tripleo-heat-templates' tasks use and PyPI lacks comes from.
PROVIDERS = {
    'pacemaker_resource': 'ansible-pacemaker (an RDO RPM, not on PyPI)',
    'linux-system-roles.certificate':
        'linux-system-roles (a RHEL/Fedora RPM, not on PyPI, which installs '
        'it into /usr/share/ansible/roles; used with TLS everywhere)',
}
#: The modules the product has a fallback of (:data:`search_paths.
#: FALLBACK_MODULES`), and whose they stand in for.
FALLBACKS = {'pacemaker_resource': 'ansible-pacemaker',
             'pacemaker_cluster': 'ansible-pacemaker'}
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
        #: Uses of missing things, and includes, left out: a ``when``
        #: known to be false, tags that do not run.
        self.skipped = data.get('skipped') or 0
        #: Plays with no host in the run (its --limit).
        self.plays_skipped = data.get('plays_skipped') or []
        #: Tasks that run and cannot but fail: {where, why}.
        self.fails = data.get('fails') or []
        #: Where each of :data:`FALLBACKS` that runs is found.
        self.which = {k: v for k, v in (data.get('which') or {}).items()
                      if v}

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


def walk(environment, playbooks, runner=None, inventory=None,
         judge=True):
    """Walk ``playbooks`` (paths) under ``environment``; return a
    :class:`Report`. With ``judge``, only what a run of the environment's
    options (``--limit``, tags, extra vars) on ``inventory`` (default:
    config-download's) runs counts."""
    runner = runner or process.ProcessRunner()
    argv = [environment.python, WALKER]
    known = os.path.join(environment.config_dir, GLOBAL_VARS)
    if os.path.isfile(known):
        argv += ['--vars', known]
    for name in sorted(FALLBACKS):
        argv += ['--which', name]
    if judge:
        argv += _selection(environment, inventory)
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


def _selection(environment, inventory):
    options = environment.options
    inventory = inventory or os.path.join(environment.config_dir,
                                          inventory_mod.INVENTORY_FILE)
    argv = ['--inventory', inventory] if os.path.isfile(inventory) else []
    for flag, value in (('--limit', options.limit), ('--tags', options.tags),
                        ('--skip-tags', options.skip_tags)):
        if value:
            argv += [flag, value]
    if options.extravars:
        argv += ['--extra-vars', json.dumps(options.extravars)]
    return argv


def check(environment, playbooks, runner=None, inventory=None):
    """Fail when what ``playbooks`` run (on ``inventory``, with the
    environment's options) uses a module or role that is not installed
    (or a file that does not load); return the :class:`Report`."""
    report = walk(environment, playbooks, runner, inventory)
    problems = report.problems()
    if problems:
        options = environment.options
        narrowed = ''.join(' %s %s' % (flag, value) for flag, value in (
            ('--limit', options.limit), ('--tags', options.tags),
            ('--skip-tags', options.skip_tags)) if value)
        raise exceptions.TripleoAnsibleError(
            '%s%s cannot run with the Ansible in %s:\n%s' % (
                ', '.join(os.path.basename(p) for p in playbooks), narrowed,
                environment.bin_dir, '\n'.join(problems)))
    return report


def warnings(report):
    """One line per task that runs and cannot but fail (a task file it
    includes is not there, it sets no fact): a fault of the playbooks or
    roles, which no install here mends; the run will stop there."""
    return ['WARNING: %s %s: the run will fail at that task' % (
        entry['where'], entry['why']) for entry in report.fails]


def which(report):
    """The lines saying whose :data:`FALLBACKS` modules the run uses: the
    product's own (one line), or each other one's path."""
    own, lines = [], []
    for name, path in sorted(report.which.items()):
        if os.path.dirname(os.path.abspath(path)) == \
                search_paths.FALLBACK_MODULES:
            own.append(name)
        else:
            lines.append('Using %s from %s' % (name, path))
    if own:
        lines.insert(0, "Using tripleo-ephemeral's own %s (%s): no other "
                     'is found where this run looks (ANSIBLE_LIBRARY, '
                     "ansible.cfg's library, ~/.ansible/plugins/modules, "
                     '/usr/share/ansible/plugins/modules, where %s\'s RPM '
                     'puts them)' % (
                         ', '.join(own), search_paths.FALLBACK_MODULES,
                         ', '.join(sorted({FALLBACKS[n] for n in own}))))
    return lines
