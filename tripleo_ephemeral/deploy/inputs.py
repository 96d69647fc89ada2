"""Every input of a deploy, read and checked before Heat is launched.

A bad file costs nothing: roles, networks, servers, templates and
environments are read, the generated environments are written into the work
dir, the create request is built and the new inputs are checked against the
last successful deploy, all before a launcher is started.
"""

import datetime
import os
import time
import uuid

from tripleo_ephemeral.deploy import checks
from tripleo_ephemeral.deploy import choices
from tripleo_ephemeral.deploy import deleted_hosts
from tripleo_ephemeral.deploy import prepared
from tripleo_ephemeral.deploy import template_cache
from tripleo_ephemeral.overcloud import deployed_environment
from tripleo_ephemeral.overcloud import deployed_servers
from tripleo_ephemeral.overcloud import environment_file
from tripleo_ephemeral.overcloud import input_paths
from tripleo_ephemeral.overcloud import ip_allocation
from tripleo_ephemeral.overcloud import network_data
from tripleo_ephemeral.overcloud import passwords
from tripleo_ephemeral.overcloud import roles as roles_mod
from tripleo_ephemeral.overcloud import template_processing
from tripleo_ephemeral.overcloud import tht_parameters
from tripleo_ephemeral.overcloud import vip_data
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import lap_clock
from tripleo_ephemeral import workdir as workdir_mod

#: Used with the bundled templates when no --deployed-servers is given.
SAMPLE_SERVERS = 'deployed-servers-sample.yaml'
#: Environments of a template set that turn roles into deployed servers;
#: included (when the set has them) whenever --deployed-servers is used.
DEPLOYED_SERVER_ENVIRONMENTS = (
    'environments/deployed-server-environment.yaml',
    'environments/deployed-server-bootstrap-environment.yaml',
)


class Checked:
    """The inputs read and checked (:meth:`Inputs.check`): nothing of it
    is written yet."""

    def __init__(self, roles, networks, environment_files, servers=None,
                 vips=None, addresses=None):
        self.roles = roles
        self.networks = networks
        self.environment_files = environment_files
        self.servers = servers
        self.vips = vips
        self.addresses = addresses


class Inputs:
    """The inputs of one deploy: its request (a
    :class:`~.request.DeployRequest`), with the files it leaves unset
    resolved.

    Paths are absolute (relative ones were made so against the current
    directory, as tripleoclient read them); unset files default to the
    template set's (:mod:`~tripleo_ephemeral.overcloud.input_paths`).
    """

    def __init__(self, request):
        self.request = request
        self.stack = request.stack
        self.workdir = request.workdir
        self.templates = (request.templates or
                          template_processing.bundled_templates_dir())
        self.roles_file = (request.roles_file or
                           input_paths.default_roles_file(self.templates))
        self.networks_file = (request.networks_file or
                              input_paths.default_networks_file(
                                  self.templates))
        self.vip_file = request.vip_file or input_paths.default_vip_file(
            self.templates)
        self.deployed_servers = request.deployed_servers
        if self.deployed_servers is None and request.templates is None:
            self.deployed_servers = os.path.join(self.templates,
                                                 SAMPLE_SERVERS)
        self.cloud_domain = 'localdomain'
        self._checked = None

    def size(self):
        """(nodes, roles with nodes) of the deployment, for --heat-type
        auto: from the servers file, else the roles' CountDefault."""
        servers = self._servers()
        if servers is not None:
            counts = {role: len(hosts) for role, hosts in servers.items()}
        else:
            counts = {r['name']: int(r.get('CountDefault') or 0)
                      for r in roles_mod.load_roles(self.roles_file)}
        return sum(counts.values()), sum(1 for c in counts.values() if c)

    def previous_servers(self):
        """The servers the last deploy used (its saved inputs), or None."""
        saved = self.workdir.load(self.workdir.deploy_inputs_file) or {}
        return saved.get('deployed_servers_data')

    def check(self, say):
        """Read and check every input; write nothing. Bad input fails here
        in one line, before the work dir is touched. Done once."""
        if self._checked is None:
            self._checked = self._check(say)
        return self._checked

    def _check(self, say):
        workdir_mod.check_stack_name(self.stack)
        checks.check_skip_ids(sorted(set(self.request.skip_checks)))
        if not os.path.isdir(self.templates):
            raise exceptions.DeployError(
                'Templates directory %s not found; check --templates' %
                self.templates)
        for path, what, option in (
                (self.roles_file, 'Roles data file', '-r'),
                (self.networks_file, 'Networks data file', '-n'),
                (self.vip_file, 'VIP data file', '--vip-file')):
            if path:
                input_paths.check_data_file(path, what, option)
        roles, implied = roles_mod.with_implied_tags(
            roles_mod.load_roles(self.roles_file))
        for role, tag in implied:
            say('Role %s has no %r tag: added, as tripleo-heat-templates\' '
                'process-templates adds it (add it to %s)' % (
                    role, tag, self.roles_file))
        networks = network_data.load_networks(self.networks_file)
        env_files = []
        for directory in self.request.environment_directories:
            env_files.extend(
                template_processing.environment_directory_files(directory))
        env_files.extend(self.request.environment_files)
        for path in env_files:
            if os.path.isfile(path):
                environment_file.check(path)
        env_files = [input_paths.environment_path(
            path, self.templates, self.workdir.templates_dir)
            for path in env_files]
        checked = Checked(roles, networks, env_files)
        servers = self._servers()
        if servers is not None:
            servers = deleted_hosts.leave_out(self.workdir, servers, say)
        if servers is None:
            with_hosts = [r for r in roles if r.get('CountDefault')]
        else:
            deployed_servers.check_roles(servers, roles, self._servers_name(),
                                         self.roles_file)
            with_hosts = [r for r in roles if servers.get(r['name'])]
        network_data.check_role_networks(with_hosts, networks,
                                         self.roles_file)
        if servers is not None:
            deployed_environment.check_hostname_formats(
                servers, roles, self.stack, self.roles_file)
            vips, vip_path = self._vips()
            vips, added = vip_data.complete(vips, networks, vip_path)
            if added:
                say('VIPs added for %s: %s lists none for them (dns_name %s)'
                    % (', '.join(added), vip_path,
                       vip_data.DEFAULT_DNS_NAME))
            checked.servers, checked.vips = servers, vips
            checked.addresses = ip_allocation.allocate(
                servers, roles, networks, vips,
                previous=self.workdir.load(self.workdir.ip_allocations_file),
                servers_path=self._servers_name(), vip_path=vip_path,
                record_path=self.workdir.ip_allocations_file)
        return checked

    def _servers(self):
        """The deployed servers (role -> hosts), or None."""
        if not self.deployed_servers:
            return None
        return deployed_servers.load_servers(self.deployed_servers)

    def _servers_name(self):
        return self.deployed_servers

    def _vips(self):
        """(VIP entries, what to call their source in messages)."""
        if self.vip_file:
            return vip_data.load_vips(self.vip_file), self.vip_file
        return vip_data.DEFAULT_VIPS, '<no --vip-file: ctlplane only>'

    def adjust_environment(self, environment, checked, env_files):
        """What a kind of deploy adds to the deployed servers environment
        (changed in place); nothing for an overcloud."""

    def prepare(self, say, phases=None):
        """Read, write and check everything; return the
        :class:`~.prepared.PreparedInputs`.

        ``say`` prints a line of progress (the check summary, warnings);
        ``phases`` (a :class:`~tripleo_ephemeral.lap_clock.Phases`) takes
        ``templates`` (the template set copied and rendered),
        ``parameters`` (the generated environments) and ``environments``
        (heatclient reading the templates and environments into the
        request).
        """
        phases = phases if phases is not None else lap_clock.Phases()
        checked = self.check(say)
        workdir = self.workdir
        roles, servers = checked.roles, checked.servers
        with template_cache.compiled_templates() as compiled:
            tdir = template_processing.prepare_templates(
                self.templates, workdir.templates_dir, roles, checked.networks,
                bytecode_cache=compiled)
        phases.lap('templates')
        env_files = checked.environment_files
        generated = []
        removed = []
        if servers is not None:
            given = {os.path.basename(p) for p in env_files}
            generated.extend(
                os.path.join(tdir, rel) for rel in DEPLOYED_SERVER_ENVIRONMENTS
                if os.path.exists(os.path.join(tdir, rel)) and
                os.path.basename(rel) not in given)
            environment = deployed_environment.build(
                servers, roles, checked.networks, checked.addresses,
                self.stack, templates_dir=tdir, cloud_domain=self.cloud_domain)
            self.adjust_environment(environment, checked, env_files)
            generated.append(deployed_environment.write(
                environment, workdir.deployed_servers_file))
            workdir.save(workdir.ip_allocations_file,
                         checked.addresses.record())
            removed = self._removed_hosts(servers)
            if checked.addresses.new:  # said once every input passed
                new = checked.addresses.describe_new()
                removed.insert(0, (
                    'Would allocate %s (--dry-run keeps nothing)' % new
                    if self.request.stop == 'dry-run' else
                    'Allocated %s (kept in %s)' % (
                        new, workdir.ip_allocations_file)))
        if self.request.generate_passwords:
            generated.append(passwords.ensure_passwords(
                workdir.passwords_file)[0])
        elif os.path.exists(workdir.passwords_file):
            generated.append(workdir.passwords_file)  # used as it is
        generated.append(self._write_deploy_parameters())
        # <Role>Services and container images, as tripleoclient computed
        # them; read from every environment, before the user's win.
        generated.append(tht_parameters.prepare_environment(
            roles, workdir.tht_parameters_file,
            template_processing.resource_registry(tdir) + generated +
            env_files,
            disable_container_prepare=self.request.disable_container_prepare))
        # Generated environments first: the user's -e files win.
        all_envs = generated + env_files
        if os.path.exists(workdir.passwords_file):
            taken = passwords.take_given(workdir.passwords_file, all_envs)
            if taken:
                say('The passwords file %s holds %s as your environment '
                    'files give them (they win in the stack)' % (
                        workdir.passwords_file, ', '.join(taken)))
        phases.lap('parameters')
        with template_cache.ParsedTemplates().installed():
            create_args = template_processing.stack_create_args(
                self.stack, tdir, all_envs, timeout_mins=self.request.timeout)
        phases.lap('environments')
        snapshot = self._check_against_last_success(all_envs, roles,
                                                    servers, say)
        self._save(roles, checked.networks, all_envs, servers)
        return prepared.PreparedInputs(
            create_args, servers, snapshot, prepared.request_digest(
                create_args, volatile=[workdir.deploy_parameters_file]),
            removed)

    def _check_against_last_success(self, env_files, roles, servers, say):
        """Stop before Heat on a change that would break the overcloud."""
        snapshot = checks.snapshot(env_files, roles, servers,
                                   choices.given(self.request))
        previous = self.workdir.load(self.workdir.last_success_file)
        if self.request.kept_choices:
            say('Kept from the last successful deploy: %s' % ', '.join(
                '%s %s' % item for item in self.request.kept_choices))
        summary, violations = checks.compare(
            previous, snapshot, skip=set(self.request.skip_checks))
        for line in summary:
            say(line)
        if self.request.disable_validations:
            for rule_id, message in violations:
                say('Check %s skipped (--disable-validations): %s' %
                    (rule_id, message))
        else:
            checks.enforce(violations)
        return snapshot

    def _write_deploy_parameters(self):
        params = dict(self.request.parameters)
        params.update({
            'RootStackName': self.stack,
            'DeployIdentifier': int(time.time()),
            'StackAction': 'CREATE',
            'DeployIdentifierUUID': str(uuid.uuid4()),
        })
        if self.request.skip_deploy_identifier:  # as tripleoclient's
            params['DeployIdentifier'] = ''
            del params['DeployIdentifierUUID']
        return self.workdir.save(self.workdir.deploy_parameters_file, {
            'parameter_defaults': params})

    def _save(self, roles, networks, env_files, servers):
        """Keep what was used: the next deploy compares against it."""
        self.workdir.save(self.workdir.deploy_inputs_file, {
            'stack': self.stack,
            'templates': self.templates,
            'roles_file': self.roles_file,
            'networks_file': self.networks_file,
            'vip_file': self.vip_file,
            'deployed_servers': self.deployed_servers,
            'deployed_servers_data': servers,
            'environment_files': env_files,
            'choices': choices.given(self.request),
            'roles': roles,
            'networks': networks,
            'saved_at': datetime.datetime.now(
                datetime.timezone.utc).isoformat(),
        })

    def _removed_hosts(self, servers):
        """The warnings for the servers the last deploy had and this one
        drops."""
        return [deployed_servers.REMOVED_HOST_WARNING % {
            'host': host['hostname'], 'role': role,
            'ip': host['ctlplane_ip']} for role, host in
            deployed_servers.removed_hosts(self.previous_servers(), servers)]
