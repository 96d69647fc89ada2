"""Rendering stack outputs into the Ansible project tripleo-ansible runs.

The layout of the project directory (``config-download/<stack>/`` of the
work dir) follows what tripleo-common's ``Config`` wrote:

* ``<Role>/`` for every role of ``RoleData``: one ``<key>.yaml`` per
  RoleData key, plus ``<key>_step<N>.yaml`` for the per-step task lists;
* one file per ``RoleConfig`` key at the top (``deploy_steps_playbook.yaml``
  ...), plus ``<key>_step<N>.yaml`` for the external task lists;
* ``<Role>/<host>/<deployment name>`` for every software deployment;
* ``group_vars/<Role>``, ``host_vars/<host>``, ``deployments.yaml``,
  ``tripleo-ansible-inventory.yaml`` and its copy ``inventory/tripleo``;
* ``templates/heat-config.j2`` (tripleo-common's, copied from the installed
  package) and ``.gitignore``.

``tools/parity/config_download.py`` compares this with what tripleo-common
writes for the same stack; ``deployments.yaml`` is deliberately ours (the
deployments are applied without heat-agents).

Input is plain data (stack outputs and deployments); nothing here talks to
Heat.
"""

import importlib.resources
import json
import logging
import os
import re
import shutil

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.overcloud import deployment_files
from tripleo_ephemeral.overcloud import deployment_tasks
from tripleo_ephemeral.overcloud import inventory as inventory_mod
from tripleo_ephemeral.overcloud import yamlfile

LOG = logging.getLogger(__name__)

DEFAULT_STEPS_MAX = 6
EXTERNAL_TASKS = ('external_deploy_tasks', 'external_deploy_steps_tasks')
# RoleData task lists split per step: key -> number of steps (0..N-1).
PER_STEP_TASKS = {
    'upgrade_tasks': DEFAULT_STEPS_MAX,
    'deploy_steps_tasks': DEFAULT_STEPS_MAX,
    'update_tasks': DEFAULT_STEPS_MAX,
    'post_update_tasks': 4,
}
RUNNER_DIRS = ('artifacts', 'env', 'inventory', 'profiling_data', 'project',
               'roles')
#: tripleo-common's template of a deployment's heat-config file.
HEAT_CONFIG_TEMPLATE = ('tripleo_common', 'templates/heat-config.j2')
GITIGNORE = '*.tar.gz\n'

_STEP_RE = re.compile(r'\(?step(?:\|int)?\)?==(\d+)')


def task_steps(task):
    """Return the steps a task's ``when`` names, or None if it names none.

    ``when: step|int == 2`` (with optional spaces, ``|int`` and brackets,
    as a string or in a list) names step 2.
    """
    when = task.get('when') if isinstance(task, dict) else None
    if when is None:
        return None
    if not isinstance(when, list):
        when = [when]
    text = ''.join(re.sub(r'\s+', '', w) for w in when if isinstance(w, str))
    found = _STEP_RE.findall(text)
    return {int(s) for s in found} if found else None


def tasks_for_step(tasks, step):
    """Return the tasks of ``tasks`` that run at ``step``.

    Tasks naming no step run at every step.
    """
    selected = []
    for task in tasks or []:
        steps = task_steps(task)
        if steps is None or step in steps:
            selected.append(task)
    return selected


def output_file_name(name):
    """Return the file name of a RoleConfig key.

    Only the key's own basename decides: ``.yaml`` is appended when it has
    no extension (``deploy_steps_playbook`` -> ``deploy_steps_playbook.yaml``,
    ``container_puppet_script.sh`` unchanged, ``a.b/c`` -> ``c.yaml``).
    """
    base = os.path.basename(name.replace('\\', '/'))
    if not base or base in ('.', '..'):
        raise exceptions.StackOutputsError(
            'RoleConfig key %r is not a usable file name: rename it in the '
            'templates' % name)
    if not os.path.splitext(base)[1]:
        base += '.yaml'
    return base


class _Writer:
    """Writes files under one root and counts them."""

    def __init__(self, root):
        self.root = root
        self.count = 0

    def path(self, *parts):
        return os.path.join(self.root, *parts)

    def mkdir(self, *parts):
        path = self.path(*parts)
        fileutil.make_private_dirs(path)
        return path

    def text(self, text, *parts):
        self.count += 1
        return yamlfile.write_text(self.path(*parts), text, mode=0o600)

    def data(self, data, *parts):
        self.count += 1
        return yamlfile.write(self.path(*parts), data, mode=0o600)


def _write_role_data(writer, role_data):
    for role, data in role_data.items():
        writer.mkdir(role)
        for key, value in (data or {}).items():
            if key in EXTERNAL_TASKS:
                continue  # collected globally through RoleConfig
            if key == 'step_config':
                writer.text(value or '', role, 'step_config.pp')
            elif key == 'param_config':
                writer.text(json.dumps(value), role, 'param_config.json')
            else:
                for step in range(PER_STEP_TASKS.get(key, 0)):
                    writer.data(tasks_for_step(value, step), role,
                                '%s_step%d.yaml' % (key, step))
                writer.data(value, role, '%s.yaml' % key)


def _write_role_config(writer, role_config):
    for name, value in (role_config or {}).items():
        if name in EXTERNAL_TASKS:
            for step in range(DEFAULT_STEPS_MAX):
                writer.data(tasks_for_step(value, step),
                            '%s_step%d.yaml' % (name, step))
        filename = output_file_name(name)
        if isinstance(value, (list, dict)):
            writer.data(value, filename)
        else:
            writer.text('' if value is None else str(value), filename)


def server_names(outputs, host_network=inventory_mod.HOST_NETWORK):
    """Return ``(server id -> host, server id -> role)`` from the outputs."""
    ids = (outputs.get('ServerIdData') or {}).get('server_ids') or {}
    names, roles = {}, {}
    for role, nets in (outputs.get('RoleNetHostnameMap') or {}).items():
        fqdns = (nets or {}).get(host_network) or []
        for index, fqdn in enumerate(fqdns):
            role_ids = ids.get(role) or []
            if index < len(role_ids) and role_ids[index]:
                names[role_ids[index]] = inventory_mod.short_name(
                    fqdn, host_network)
                roles[role_ids[index]] = role
    return names, roles


def _write_deployments(writer, deployments, names, roles):
    per_host = {}
    template = deployment_files.template() if deployments else None
    for deployment in deployments or []:
        server_id = deployment.get('server_id')
        if server_id not in names:
            LOG.debug('Skipping deployment %s of unknown server %s',
                      deployment.get('id'), server_id)
            continue
        host, role = names[server_id], roles[server_id]
        name, text = deployment_files.document(deployment, server_id,
                                               template)
        writer.mkdir(role, host)
        writer.text(text, role, host, name)
        kinds = per_host.setdefault(host, {
            'pre_network': [], 'pre_deployments': [],
            'post_deployments': []})
        bucket = kinds[deployment_files.kind(deployment)]
        if name not in bucket:
            bucket.append(name)
    return per_host


def _forget_hosts(dest, hosts, roles):
    """Remove what an earlier render wrote for ``hosts``."""
    for host in hosts:
        paths = [os.path.join(dest, 'host_vars', host)] + [
            os.path.join(dest, role, host) for role in roles]
        for path in paths:
            if os.path.isdir(path):
                shutil.rmtree(path)
            elif os.path.exists(path):
                os.unlink(path)


def render(outputs, dest, stack_name, deployments=None,
           ssh_user=inventory_mod.DEFAULT_SSH_USER, host_ssh_users=None,
           ansible_python_interpreter=None, stack_environment=None,
           excluded_hosts=()):
    """Render ``outputs`` (and ``deployments``) into the directory ``dest``.

    ``outputs`` is ``{output_key: value}``, ``deployments`` the list
    :func:`tripleo_ephemeral.overcloud.outputs.fetch_deployments` returns
    and ``stack_environment`` what the inventory reads of the stack's
    environment. ``excluded_hosts`` (short names) are left out as if the
    stack did not have them. Returns the number of files written.
    """
    if not isinstance(outputs, dict) or 'RoleData' not in outputs:
        raise exceptions.StackOutputsError(
            'Stack %s has no RoleData output: the templates are not an '
            'overcloud template set' % stack_name)
    fileutil.make_private_dirs(dest)
    for sub in RUNNER_DIRS:
        fileutil.make_private_dirs(os.path.join(dest, sub))
    writer = _Writer(dest)

    _write_role_data(writer, outputs.get('RoleData') or {})
    _write_role_config(writer, outputs.get('RoleConfig') or {})

    names, roles = server_names(outputs)
    excluded = {h.lower() for h in excluded_hosts or ()}
    if excluded:
        _forget_hosts(dest, excluded, outputs.get('RoleData') or {})
        names = {i: h for i, h in names.items() if h not in excluded}
    per_host = _write_deployments(writer, deployments, names, roles)

    writer.mkdir('group_vars')
    group_vars = outputs.get('RoleGroupVars') or {}
    for role in sorted(set(roles.values())):
        writer.data(group_vars.get(role) or {}, 'group_vars', role)

    writer.mkdir('host_vars')
    host_vars_map = outputs.get('AnsibleHostVarsMap') or {}
    for server_id, host in sorted(names.items(), key=lambda i: i[1]):
        role = roles[server_id]
        kinds = per_host.get(host, {})
        host_vars = {
            'pre_network_%s' % role: kinds.get('pre_network', []),
            'pre_deployments_%s' % role: kinds.get('pre_deployments', []),
            'post_deployments_%s' % role: kinds.get('post_deployments', []),
        }
        host_vars.update((host_vars_map.get(role) or {}).get(host) or {})
        writer.data(host_vars, 'host_vars', host)

    writer.data(deployment_tasks.tasks(), 'deployments.yaml')
    inventory = inventory_mod.build(
        outputs, stack_name, ssh_user=ssh_user, host_ssh_users=host_ssh_users,
        ansible_python_interpreter=ansible_python_interpreter,
        stack_environment=stack_environment, excluded_hosts=excluded)
    writer.data(inventory, inventory_mod.INVENTORY_FILE)
    writer.data(inventory, *inventory_mod.INVENTORY_COPY)
    writer.mkdir('templates')
    package, name = HEAT_CONFIG_TEMPLATE
    writer.text(importlib.resources.files(package).joinpath(name)
                .read_text(), 'templates', os.path.basename(name))
    writer.text(GITIGNORE, '.gitignore')
    LOG.info('Rendered %d config-download files into %s', writer.count,
             dest)
    return writer.count
