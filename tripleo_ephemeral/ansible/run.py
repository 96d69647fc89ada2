"""Run the rendered config-download playbooks with ansible-runner.

The config-download directory is the runner's private data dir and its
project dir: ``ansible.cfg`` and ``ansible-playbook-command.sh`` (written by
every deploy, so that ``ansible-playbook`` can be re-run by hand from that
directory with the same settings; the lifecycle commands reuse the
ansible.cfg), ``ansible.log``, the SSH known hosts and
``artifacts/<ident>/`` all stay there. The environment of every run is
:class:`~tripleo_ephemeral.ansible.environment.PlaybookEnvironment`'s,
the script's too; before a run the playbooks are walked for modules and
roles that Ansible lacks (:mod:`tripleo_ephemeral.ansible.missing`).
"""

import dataclasses
import datetime
import logging
import os
import signal
import threading
import time
from typing import Any

from tripleo_ephemeral.ansible import ansible_cfg
from tripleo_ephemeral.ansible import progress as ansible_progress
from tripleo_ephemeral.ansible import project as ansible_project
from tripleo_ephemeral.ansible import ssh_masters
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.history import hooks as history
from tripleo_ephemeral import interruption
from tripleo_ephemeral.overcloud import inventory as inventory_mod
from tripleo_ephemeral.ansible import environment as env_mod
from tripleo_ephemeral.ansible import missing

LOG = logging.getLogger(__name__)

DEFAULT_PLAYBOOK = ansible_project.DEFAULT_PLAYBOOK
#: Runner artifact directories kept per config-download directory.
ARTIFACTS_KEPT = 5
#: What a run leaves in the config-download directory that rendering does
#: not make: kept when the directory is rendered again (ansible.cfg too:
#: the lifecycle commands run with the deploy's settings).
RUN_STATE = ('artifacts', ansible_cfg.ANSIBLE_CFG, ansible_cfg.ANSIBLE_LOG,
             ansible_cfg.KNOWN_HOSTS, '.ansible', env_mod.SCRIPT)
#: How often ansible-runner looks at the cancel flag (its default is 5 s).
CANCEL_POLL = 0.5
#: How long an interrupted run may take to end once cancelled.
CANCEL_WAIT = 10


@dataclasses.dataclass(frozen=True)
class AnsibleOptions:
    """What ``overcloud deploy`` and the lifecycle commands pass through to
    Ansible, read once from the command line and never changed (derive a
    new value with :meth:`replace`). ``timeout`` is in minutes (the whole
    run); ``override_cfg`` an ansible.cfg merged over the generated one;
    ``extravars`` a dict (copied)."""

    ssh_user: str | None = None
    ssh_key: str | None = None
    limit: str | None = None
    tags: str | None = None
    skip_tags: str | None = None
    forks: int | None = None
    playbook: str | None = None
    timeout: int | None = None
    override_cfg: str | None = None
    extravars: dict[str, Any] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, 'extravars', dict(self.extravars or {}))

    def replace(self, **changes: Any) -> 'AnsibleOptions':
        """A copy with ``changes``."""
        return dataclasses.replace(self, **changes)


class PlaybookRun:
    """A finished playbook: seconds, artifacts dir, unreachable hosts."""

    def __init__(self, playbook, seconds, artifacts, unreachable=()):
        self.playbook = playbook
        self.seconds = seconds
        self.artifacts = artifacts
        self.unreachable = sorted(unreachable)


def _path(bin_dir):
    """PATH with ``bin_dir`` first: its ansible-playbook runs."""
    return os.pathsep.join([bin_dir, os.environ.get('PATH', os.defpath)])


def _check(config_dir, playbook, options, inventory=None):
    for path, what in ((playbook, 'playbook'),
                       (inventory or os.path.join(
                           config_dir, inventory_mod.INVENTORY_FILE),
                        'inventory')):
        if not os.path.isfile(path):
            raise exceptions.AnsibleError(
                'The config-download %s %s is missing: render it with '
                '"openstack overcloud deploy" (--stack-only is enough)' % (
                    what, path))
    check_options(options)


def check_options(options):
    """Fail on options that cannot work, before anything runs."""
    if options.ssh_key:
        try:
            with open(options.ssh_key, 'rb') as f:
                head = f.read(64)
        except OSError as exc:
            raise exceptions.AnsibleError(
                'SSH key %s cannot be read (%s): check --overcloud-ssh-key'
                % (options.ssh_key, exc.strerror or exc))
        if b'PRIVATE KEY' not in head:
            raise exceptions.AnsibleError(
                'SSH key %s is not a private key: give --overcloud-ssh-key '
                'the private key file (not the .pub)' % options.ssh_key)


def run_config_download(config_dir, options, out):
    """Run the deploy playbook of ``config_dir`` (writing its ansible.cfg
    and command script from ``options``); return seconds taken."""
    config_dir = os.path.abspath(config_dir)
    options = ansible_project.with_saved_key(config_dir, options)
    playbook = os.path.join(config_dir,
                            options.playbook or DEFAULT_PLAYBOOK)
    _check(config_dir, playbook, options)
    ansible_project.write_files(config_dir, options)
    return run_playbook(config_dir, playbook, options, out).seconds


def run_playbook(config_dir, playbook, options, out, inventory=None,
                 tolerate_unreachable=False):
    """Run ``playbook`` as :func:`_run_playbook`, recording in the
    config-download history the version it applied (or failed to). A run
    refused before Ansible starts (a missing file, module or role) is no
    run: nothing is recorded."""
    config_dir = os.path.abspath(config_dir)
    inventory = inventory or os.path.join(config_dir,
                                          inventory_mod.INVENTORY_FILE)
    ready = _ready(config_dir, playbook, options, inventory)
    with history.recording_run(config_dir, playbook, options.limit,
                               options.tags, options.skip_tags):
        return _run_playbook(config_dir, playbook, options, out, inventory,
                             tolerate_unreachable, ready)


def _ready(config_dir, playbook, options, inventory):
    """Check that ``playbook`` can run (the files, options, modules and
    roles it needs; the ansible.cfg is written if there is none); return
    its environment and what the check found."""
    _check(config_dir, playbook, options, inventory)
    env = ansible_project.environment(config_dir, options)
    cfg = os.path.join(config_dir, ansible_cfg.ANSIBLE_CFG)
    if not os.path.exists(cfg):
        fileutil.write_atomic(cfg, ansible_cfg.text(
            config_dir, options, tripleo=env.ansible is not None,
            search=env.search_paths(for_files=True)))
    with interruption.activity('checking the playbooks'):
        checked = missing.check(env, [playbook], inventory=inventory)
    return env, checked


def _run_playbook(config_dir, playbook, options, out, inventory,
                  tolerate_unreachable, ready):
    """Run ``playbook`` (a path) in ``config_dir`` with the ansible.cfg
    there, in the environment :func:`_ready` checked (``ready``); return a
    :class:`PlaybookRun`.

    With ``tolerate_unreachable`` hosts that cannot be reached do not fail
    the run (``overcloud node delete`` of a dead node); they are reported.
    """
    env, checked = ready
    for line in missing.which(checked) + missing.warnings(checked):
        out(line)
    ident = datetime.datetime.now(datetime.timezone.utc).strftime(
        '%Y%m%d-%H%M%S-%f')
    envvars = dict(env.variables(), ANSIBLE_FORCE_COLOR='False',
                   ANSIBLE_NOCOLOR='True', PATH=_path(env.bin_dir))
    extravars = dict(options.extravars)
    progress = ansible_progress.PlayProgress(out)
    started = time.monotonic()
    out('Running %s on %s (log: %s)' % (
        os.path.basename(playbook), options.limit or 'all hosts',
        os.path.join(config_dir, ansible_cfg.ANSIBLE_LOG)))
    # ssh's ControlPersist masters outlive ansible-playbook: give them a
    # directory of their own and close them after the run, so nothing is
    # left running (and those of a command killed before it could).
    ssh_masters.sweep_stale()
    control_dir = ssh_masters.control_dir()
    envvars['ANSIBLE_SSH_CONTROL_PATH_DIR'] = control_dir
    try:
        runner = _run(config_dir, playbook, options, envvars, ident,
                      progress, out, inventory, extravars,
                      env.fact_cache)
    finally:
        ssh_masters.close_ssh_masters(control_dir)
    progress.finish()
    elapsed = time.monotonic() - started
    artifacts = os.path.join(config_dir, 'artifacts', ident)
    unreachable = {f.host for f in progress.failures if f.unreachable}
    failed = [f for f in progress.failures if not f.unreachable]
    tolerated = (tolerate_unreachable and not failed and
                 runner.status in ('successful', 'failed') and
                 runner.rc in (0, 4))
    if not tolerated and (runner.status != 'successful' or runner.rc != 0):
        if runner.status == 'timeout':
            raise exceptions.AnsibleError(
                'Ansible did not finish %s within %s minutes; see %s' % (
                    os.path.basename(playbook), options.timeout,
                    os.path.join(config_dir, ansible_cfg.ANSIBLE_LOG)))
        raise exceptions.AnsibleError(
            _failure_message(runner, progress, config_dir, artifacts))
    out('Ansible finished in %.1fs; artifacts in %s' % (elapsed, artifacts))
    return PlaybookRun(playbook, elapsed, artifacts, unreachable)


def _run(config_dir, playbook, options, envvars, ident, progress, out,
         inventory, extravars, fact_cache):
    """ansible-runner in a thread; the command's signals cancel it."""
    cancel = threading.Event()
    pids = []

    def _on_event(event):
        if not pids and event.get('pid'):
            pids.append(event['pid'])  # ansible-playbook's
        return progress(event)

    import ansible_runner  # when Ansible runs, not when a parser is built

    try:
        thread, runner = ansible_runner.run_async(
            private_data_dir=config_dir, project_dir=config_dir,
            playbook=playbook, inventory=inventory,
            envvars=envvars, ident=ident, extravars=extravars or None,
            limit=options.limit, tags=options.tags,
            skip_tags=options.skip_tags, forks=options.forks,
            timeout=int(options.timeout * 60) if options.timeout else None,
            rotate_artifacts=ARTIFACTS_KEPT, quiet=True,
            fact_cache=fact_cache, fact_cache_type='jsonfile',
            settings={'pexpect_timeout': CANCEL_POLL},
            event_handler=_on_event, cancel_callback=cancel.is_set)
    except (OSError, RuntimeError, ValueError) as exc:
        raise exceptions.AnsibleError(
            'Could not run Ansible in %s: %s' % (config_dir, exc))
    with interruption.on_force('Ansible', lambda: _kill(pids)), \
            interruption.activity('running Ansible'):
        try:
            while thread.is_alive():
                thread.join(0.2)
        except BaseException:
            # ansible-runner kills ansible-playbook's process group at its
            # next look at the flag; killed now, it starts no more ssh
            # masters meanwhile (nor after this command, if that look came
            # too late).
            cancel.set()
            out('Stopping Ansible%s' % (' (pid %d)' % pids[0] if pids
                                        else ''))
            _kill(pids)
            with interruption.shielded('stopping Ansible'):
                thread.join(CANCEL_WAIT)
            raise
    return runner


def _kill(pids):
    """Kill ansible-playbook's process group (a forced stop)."""
    for pid in pids:
        try:
            os.killpg(os.getpgid(pid), signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _failure_message(runner, progress, config_dir, artifacts):
    log = os.path.join(config_dir, ansible_cfg.ANSIBLE_LOG)
    if progress.failures:
        first = progress.failures[0]
        hosts = sorted({f.host for f in progress.failures})
        return ('Ansible failed on %s at task "%s": %s (log: %s)' % (
            ', '.join(hosts), first.task, first.message, log))
    stdout = os.path.join(artifacts, 'stdout')
    return ('Ansible ended %s with exit status %s before any task failed; '
            'see %s and %s' % (runner.status, runner.rc, stdout, log))
