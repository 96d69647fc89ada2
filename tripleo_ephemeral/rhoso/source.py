"""What an export reads of a work dir: the deployment as TripleO left it.

Everything comes from files a deploy (or ``overcloud adopt``) wrote; no
Heat runs and nothing is contacted:

=============================================== ============================
``outputs/<stack>-outputs.yaml``                the roles and networks data
                                                the stack was rendered with
                                                (``TripleoHeatTemplatesJinja2
                                                RenderingDataSources``),
                                                ``VipMap``
``config-download/<stack>/tripleo-ansible-      the hosts: canonical FQDN,
inventory.yaml``                                addresses, Ansible user
``config-download/<stack>/group_vars/<Role>``   what TripleO's Ansible had
``host_vars/<host>``, ``global_vars.yaml``      for every role and host
``<Role>/deploy_steps_tasks_step0.yaml``        kernel args, hugepages and
                                                tuned's isolated cores
``deploy_steps_selinux_playbook.yaml``          the SELinux mode
``<stack>-passwords.yaml``                      the passwords and keys
=============================================== ============================

:func:`read` checks that they are there and says in one line what is
missing; the rest of the package only asks a :class:`Deployment`.
"""

import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import network_data
from tripleo_ephemeral.overcloud import passwords as passwords_mod
from tripleo_ephemeral.overcloud import yamlfile

#: The stack output holding the roles and networks data (THT only).
DATA_SOURCES = 'TripleoHeatTemplatesJinja2RenderingDataSources'
CTLPLANE = network_data.CTLPLANE
#: What the export reads of every role's group_vars (THT renders them).
REQUIRED_GROUP_VARS = ('service_names', 'ctlplane_subnet_cidr',
                       'tripleo_network_config_template')
#: The step-0 tasks of THT's boot-params service: the roles they include.
STEP0_ROLES = ('tripleo_kernel', 'tuned')
STEP0_TASKS = 'deploy_steps_tasks_step0.yaml'
#: The playbook that sets SELinux's state (THT's ``SELinuxMode``).
SELINUX_PLAYBOOK = 'deploy_steps_selinux_playbook.yaml'


def _fail(message):
    raise exceptions.RhosoExportError(message)


class Host:
    """One overcloud host, as the inventory has it (``vars``: its
    inventory variables; ``host_vars``: its host_vars file)."""

    def __init__(self, name, role, inventory_vars, host_vars):
        self.name = name
        self.role = role
        self.vars = dict(inventory_vars or {})
        self.host_vars = dict(host_vars or {})

    @property
    def canonical_hostname(self):
        return (self.vars.get('canonical_hostname') or
                self.host_vars.get('fqdn_canonical'))

    @property
    def ctlplane_ip(self):
        return self.vars.get('ctlplane_ip') or self.vars.get('ansible_host')

    def ip(self, net_lower):
        """The host's address on a network (its ``name_lower``)."""
        return self.vars.get('%s_ip' % net_lower)

    def hostname(self, net_lower):
        return self.vars.get('%s_hostname' % net_lower)


class Role:
    """A role with hosts: its roles-data entry (``data``), the
    ``group_vars`` TripleO's Ansible had, its inventory group variables
    and its hosts in inventory order."""

    def __init__(self, name, data, group_vars, inventory_vars, hosts,
                 step0=None):
        self.name = name
        self.data = data or {}
        self.group_vars = group_vars or {}
        self.inventory_vars = inventory_vars or {}
        self.hosts = hosts
        #: role included at step 0 (tripleo_kernel, tuned) -> its vars
        self.step0 = step0 or {}

    @property
    def services(self):
        """The role's service names (``nova_compute``, ``ovn_controller``)."""
        return list(self.group_vars.get('service_names') or [])

    def config(self, key, default=None):
        """A hiera key of the role's config settings (``service_configs``)."""
        return (self.group_vars.get('service_configs') or {}).get(
            key, default)

    @property
    def networks(self):
        """The isolated networks of the role (TripleO ``name``s), in the
        order TripleO's NIC templates loop over them."""
        return list(self.group_vars.get('role_networks') or [])

    @property
    def ssh_user(self):
        return self.inventory_vars.get('ansible_ssh_user')


class Deployment:
    """A deployed (or adopted) stack as its work dir has it."""

    def __init__(self, workdir, outputs, inventory, global_vars, networks,
                 roles_data, roles, passwords, selinux_mode=None):
        self.workdir = workdir
        #: ``enforcing``, ``permissive``... (None: not in config-download)
        self.selinux_mode = selinux_mode
        self.stack = workdir.stack
        self.outputs = outputs
        self.inventory = inventory
        self.global_vars = global_vars or {}
        self.networks = networks
        self.roles_data = roles_data
        self.roles = roles
        self.passwords = passwords

    @property
    def adopted(self):
        return os.path.exists(self.workdir.adoption_file)

    @property
    def config_dir(self):
        return self.workdir.config_download_dir

    @property
    def vips(self):
        return dict(self.outputs.get('VipMap') or {})

    def network(self, net_lower):
        """The networks-data entry of ``net_lower`` (None for ctlplane)."""
        return next((n for n in self.networks
                     if n['name_lower'] == net_lower), None)

    def network_by_name(self, name):
        return next((n for n in self.networks if n['name'] == name), None)

    def hosts(self):
        return [h for role in self.roles.values() for h in role.hosts]

    def group_hosts(self, group):
        """Hosts of an inventory group (a service: ``mysql``), through its
        children."""
        names = set()

        def walk(name, seen):
            entry = self.inventory.get(name) or {}
            names.update(entry.get('hosts') or {})
            for child in entry.get('children') or {}:
                if child not in seen:
                    walk(child, seen | {child})

        walk(group, {group})
        return [h for h in self.hosts() if h.name in names]

    def tripleo_vars(self, host):
        """The variables TripleO's Ansible had for ``host`` when it
        rendered the NIC template: inventory group variables, the role's
        group_vars, the host's inventory variables, its host_vars, then
        global_vars.yaml (which the playbooks include_vars), in Ansible's
        order of precedence."""
        role = self.roles[host.role]
        merged = {}
        for group in ('allovercloud', self.stack, host.role):
            merged.update((self.inventory.get(group) or {}).get('vars') or {})
        merged.update(role.group_vars)
        merged.update(host.vars)
        merged.update(host.host_vars)
        merged.update(self.global_vars)
        merged.setdefault('inventory_hostname', host.name)
        return merged


def _load(path, what):
    if not os.path.exists(path):
        return None
    return yamlfile.load(path, what, exceptions.RhosoExportError,
                         strict=False)


def _step0(config_dir, role):
    """The variables of the role's step-0 tasks that include
    :data:`STEP0_ROLES` (``tripleo_kernel``: kernel args and hugepages;
    ``tuned``: the isolated cores), by role included; {} without THT's
    boot-params service."""
    tasks = _load(os.path.join(config_dir, role, STEP0_TASKS),
                  'config-download tasks file') or []
    found = {}
    for task in tasks if isinstance(tasks, list) else []:
        name = ((task or {}).get('include_role') or {}).get('name')
        if name in STEP0_ROLES:
            found[name] = dict(task.get('vars') or {})
    return found


def _selinux(config_dir):
    """The ``state`` of the ``selinux`` task THT's SELinux playbook runs,
    or None."""
    plays = _load(os.path.join(config_dir, SELINUX_PLAYBOOK),
                  'config-download SELinux playbook') or []
    for play in plays if isinstance(plays, list) else []:
        for task in (play or {}).get('tasks') or []:
            args = (task or {}).get('selinux')
            if isinstance(args, dict) and args.get('state'):
                return str(args['state'])
    return None


def _check_status(workdir):
    status = workdir.status()
    if status is None:
        _fail('%s holds no deployment of stack %s (no %s): deploy it '
              '("openstack overcloud deploy") or adopt it ("openstack '
              'overcloud adopt") first, or check --stack/--work-dir'
              % (workdir.path, workdir.stack,
                 os.path.basename(workdir.status_file)))
    if status != 'DEPLOY_SUCCESS':
        _fail('The last deploy of stack %s in %s ended %s: deploy it '
              'successfully first; an export reads what a successful '
              'deploy left' % (workdir.stack, workdir.path, status))


def read(workdir):
    """The :class:`Deployment` of the work dir ``workdir`` (a
    :class:`~tripleo_ephemeral.workdir.WorkDir`); RhosoExportError naming
    what is missing."""
    _check_status(workdir)
    try:
        outputs = workdir.saved_outputs()
    except exceptions.StackOutputsError as exc:
        _fail(str(exc))
    sources = outputs.get(DATA_SOURCES)
    if not isinstance(sources, dict) or not sources.get('roles_data'):
        _fail('Stack %s has no roles and networks data (its outputs lack '
              '%s, which tripleo-heat-templates give): only an overcloud '
              'of tripleo-heat-templates can be exported to RHOSO'
              % (workdir.stack, DATA_SOURCES))
    try:
        networks = network_data.validate_networks(
            sources.get('networks_data') or [], workdir.outputs_file)
    except exceptions.RolesDataError as exc:
        _fail(str(exc))
    config_dir = workdir.config_download_dir
    inventory_path = workdir.inventory_file
    inventory = _load(inventory_path, 'Ansible inventory')
    if not isinstance(inventory, dict):
        _fail('%s is missing: render config-download again with '
              '"openstack overcloud deploy --config-download-only '
              '--stack %s"' % (inventory_path, workdir.stack))
    global_vars = _load(os.path.join(config_dir, 'global_vars.yaml'),
                        'config-download global_vars')
    roles = {}
    for entry in sources['roles_data']:
        name = entry.get('name')
        group = inventory.get(name) or {}
        if not group.get('hosts'):
            continue
        group_vars = _load(os.path.join(config_dir, 'group_vars', name),
                           'config-download group_vars')
        if not isinstance(group_vars, dict):
            _fail('%s has no group_vars/%s: render config-download again '
                  'with "openstack overcloud deploy --config-download-only '
                  '--stack %s"' % (config_dir, name, workdir.stack))
        missing = [k for k in REQUIRED_GROUP_VARS if k not in group_vars]
        if missing:
            _fail('Stack %s lacks what an export reads: group_vars/%s has '
                  'no %s (tripleo-heat-templates render them, these '
                  'templates do not): only an overcloud of '
                  'tripleo-heat-templates can be exported to RHOSO'
                  % (workdir.stack, name, ', '.join(missing)))
        hosts = [Host(host, name, host_vars, _load(
                    os.path.join(config_dir, 'host_vars', host),
                    'config-download host_vars'))
                 for host, host_vars in group['hosts'].items()]
        roles[name] = Role(name, entry, group_vars, group.get('vars'),
                           hosts, _step0(config_dir, name))
    if not roles:
        _fail('The inventory %s has no hosts: there is nothing to adopt'
              % inventory_path)
    try:
        passwords = passwords_mod.load(workdir.passwords_file)
    except exceptions.PasswordsError as exc:
        _fail(str(exc))
    return Deployment(workdir, outputs, inventory, global_vars, networks,
                      sources['roles_data'], roles, passwords or {},
                      _selinux(config_dir))
