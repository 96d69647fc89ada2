"""The overcloud's life after the deploy: update, upgrade, external runs.

``update prepare``/``upgrade prepare`` are deploys with the templates'
``environments/lifecycle/<kind>-prepare.yaml`` put first
(:func:`prepare_environment`); they render the lifecycle playbooks. The run
commands then run those playbooks (:func:`run`): no Heat, one ansible-runner
run per playbook in order, stopping at the first failure, so the progress
lines and artifacts stay per playbook. As in tripleoclient the status file
is left alone: it tells how the last deploy ended.
"""

import os
import re

import yaml

from tripleo_ephemeral.ansible import run as ansible_run
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import locking
from tripleo_ephemeral.overcloud import inventory as inventory_mod
from tripleo_ephemeral.overcloud import outputs as stack_outputs
from tripleo_ephemeral.overcloud import yamlfile

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
LIFECYCLE_ENVIRONMENTS = os.path.join('environments', 'lifecycle')
#: Skipped by the deploy unless --inflight-validations (tripleoclient's).
INFLIGHT_VALIDATION_TAG = 'opendev-validation'


def prepare_environment(templates, kind):
    """``<templates>/environments/lifecycle/<kind>-prepare.yaml``."""
    path = os.path.join(templates, LIFECYCLE_ENVIRONMENTS,
                        '%s-prepare.yaml' % kind)
    if not os.path.isfile(path):
        raise exceptions.EnvironmentFileError(
            'Expected environment file %s not found in %s: %s prepare needs '
            'a template set that has it (check --templates)' % (
                os.path.relpath(path, templates), templates, kind))
    return path


def is_prepare_environment(path):
    """True for the lifecycle environments: a later deploy drops them."""
    return (os.path.basename(os.path.dirname(path)) == 'lifecycle' and
            re.match(r'^(update|upgrade)-prepare\.yaml$',
                     os.path.basename(path)) is not None)


def parse_limit(value):
    """tripleoclient's limit: commas, spaces and colons all separate hosts;
    the result is Ansible's ``a:b`` form (None or '' unchanged)."""
    if not value:
        return value
    return ':'.join(part.strip() for part in re.split(r'[, :]', value)
                    if part.strip())


def blacklist_limit(outputs):
    """``!h1:!h2`` for the hosts of the BlacklistedHostnames output (the
    deploy's limit when none is given), or None."""
    hosts = [h for h in (outputs or {}).get('BlacklistedHostnames') or []
             if h]
    return ':'.join('!%s' % h for h in hosts) or None


def skip_tags(skip, inflight_validations=False):
    """The deploy's skip tags: opendev-validation first unless inflight
    validations are on."""
    if inflight_validations:
        return skip or None
    return ','.join([INFLIGHT_VALIDATION_TAG] + ([skip] if skip else []))


def parse_extra_vars(items):
    """``-e/--extra-vars`` values (``key=value``, YAML or JSON) merged."""
    merged = {}
    for item in items or ():
        try:
            data = yamlfile.loads(item, strict=True)
        except yamlfile.DuplicateKeyError as exc:
            raise exceptions.InputFileError(
                'Extra vars %r give the key %s twice: keep one in '
                '--extra-vars' % (item, exc.key))
        except yaml.YAMLError:
            data = None
        if not isinstance(data, dict):
            if '=' not in item:
                raise exceptions.InputFileError(
                    'Extra vars %r are neither key=value nor a YAML/JSON '
                    'mapping: fix --extra-vars' % item)
            key, value = item.split('=', 1)
            data = {key.strip(): value}
        merged.update(data)
    return merged


def ssh_extravars(ssh_user=None, ssh_key=None):
    """Extra vars that override the rendered inventory's SSH user and the
    last deploy's key for one run."""
    extra = {}
    if ssh_user:
        extra['ansible_user'] = extra['ansible_ssh_user'] = ssh_user
    if ssh_key:
        extra['ansible_ssh_private_key_file'] = ssh_key
    return extra


def resolve_playbooks(config_dir, kind, names=None):
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


class RunResult:
    """What a run command shows (``-f json``)."""

    COLUMNS = ('status', 'stack', 'playbooks', 'limit', 'ansible_seconds',
               'unreachable', 'config_download')

    def __init__(self, **values):
        self.values = values

    def row(self):
        return self.COLUMNS, tuple(self.values.get(c) for c in self.COLUMNS)


def run_playbooks(config_dir, playbooks, options, out, **kwargs):
    """Run ``playbooks`` in order; return their :class:`PlaybookRun` s."""
    runs = []
    for playbook in playbooks:
        runs.append(ansible_run.run_playbook(config_dir, playbook, options,
                                             out, **kwargs))
    return runs


def run(workdir, kind, options, out, playbooks=None):
    """``overcloud <kind> run``: the kind's playbooks (or ``playbooks``)
    with ``options`` (:class:`~.ansible_run.AnsibleOptions`)."""
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


def saved_outputs(workdir):
    """The outputs the last deploy saved (for the blacklist, the rc...)."""
    outputs, _ = stack_outputs.load(workdir.outputs_file,
                                    workdir.deployments_file)
    return outputs


def load_inventory(workdir):
    """The rendered inventory of the work dir, as a dict."""
    path = os.path.join(workdir.config_download_dir,
                        inventory_mod.INVENTORY_FILE)
    if not os.path.isfile(path):
        raise exceptions.DeployError(
            'No inventory %s: deploy stack %s first, or check '
            '--stack/--work-dir' % (path, workdir.stack))
    return yamlfile.load(path, 'Inventory', exceptions.StackOutputsError,
                         strict=False) or {}
