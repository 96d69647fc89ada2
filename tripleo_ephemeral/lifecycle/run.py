"""The overcloud's life after the deploy: update, upgrade, external runs.

``update prepare``/``upgrade prepare`` are deploys with the templates'
``environments/lifecycle/<kind>-prepare.yaml`` put first
(:func:`~tripleo_ephemeral.overcloud.input_paths.prepare_environment`); they
render the lifecycle playbooks. The run commands then run those playbooks
(:func:`run`): no Heat, one ansible-runner run per playbook in order,
stopping at the first failure, so the progress lines and artifacts stay per
playbook. As in tripleoclient the status file
is left alone: it tells how the last deploy ended.
"""

from collections.abc import Sequence
import dataclasses
import os
from typing import TYPE_CHECKING

from tripleo_ephemeral.ansible import run as ansible_run
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import locking


if TYPE_CHECKING:  # a command passes its WorkDir
    from tripleo_ephemeral import workdir as workdir_mod

#: What each run command runs, in order (tripleoclient 20.0.0's lists).
PLAYBOOKS = {
    'update': ('update_steps_playbook.yaml',),
    'upgrade': ('upgrade_steps_playbook.yaml', 'deploy_steps_playbook.yaml',
                'post_upgrade_steps_playbook.yaml'),
    'external-update': ('external_update_steps_playbook.yaml',),
    'external-upgrade': ('external_upgrade_steps_playbook.yaml',),
}
#: The prepare command that renders each kind's playbooks.
PREPARED_BY = {'update': 'update prepare', 'upgrade': 'upgrade prepare',
               'external-update': 'update prepare',
               'external-upgrade': 'upgrade prepare'}


def resolve_playbooks(config_dir: str, kind: str,
                      names: Sequence[str] | None = None) -> list[str]:
    """Absolute playbook paths: ``names`` (None or ``['all']`` for the
    kind's own) as given, else relative to ``config_dir``."""
    if not names or list(names) == ['all']:
        names = PLAYBOOKS[kind]
    paths = []
    for name in names:
        path = name if os.path.isabs(name) else os.path.join(config_dir,
                                                             name)
        if not os.path.isfile(path):
            raise exceptions.AnsibleError(
                'Playbook %s not found in %s: run "openstack overcloud %s" '
                'first (or check --playbook)' % (name, config_dir,
                                                 PREPARED_BY[kind]))
        paths.append(path)
    return paths


@dataclasses.dataclass(frozen=True)
class RunResult:
    """How a run ended (``<KIND>_RUN_SUCCESS``), and what it ran."""

    status: str
    stack: str | None = None
    #: the playbooks run, in order (their names)
    playbooks: list[str] | None = None
    limit: str | None = None
    ansible_seconds: float | None = None
    #: the hosts Ansible could not reach
    unreachable: list[str] | None = None
    #: the Ansible project run
    config_download: str | None = None


def run_playbooks(config_dir: str, playbooks: Sequence[str],
                  options: ansible_run.AnsibleOptions, out: object,
                  **kwargs: object) -> list[ansible_run.PlaybookRun]:
    """Run ``playbooks`` in order; return their :class:`PlaybookRun` s."""
    runs = []
    for playbook in playbooks:
        runs.append(ansible_run.run_playbook(config_dir, playbook, options,
                                             out, **kwargs))
    return runs


def run(workdir: 'workdir_mod.WorkDir', kind: str,
        options: ansible_run.AnsibleOptions, out: object,
        playbooks: Sequence[str] | None = None) -> RunResult:
    """``overcloud <kind> run``: the kind's playbooks (or ``playbooks``)
    with ``options``
    (:class:`~tripleo_ephemeral.ansible.run.AnsibleOptions`)."""
    config_dir = workdir.config_download_dir
    if not os.path.isdir(config_dir):
        raise exceptions.DeployError(
            'No config-download directory %s: deploy stack %s first, or '
            'check --stack/--work-dir' % (config_dir, workdir.stack))
    paths = resolve_playbooks(config_dir, kind, playbooks)
    with locking.DirLock(workdir.path):
        runs = run_playbooks(config_dir, paths, options, out)
    return RunResult(
        status='%s_RUN_SUCCESS' % kind.upper().replace('-', '_'),
        stack=workdir.stack, playbooks=[os.path.basename(p) for p in paths],
        limit=options.limit,
        ansible_seconds=round(sum(r.seconds for r in runs), 1),
        unreachable=sorted({h for r in runs for h in r.unreachable}),
        config_download=config_dir)
