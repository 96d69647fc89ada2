"""openstack overcloud deployed server agent config"""

import os

from osc_lib.cli import parseractions
from osc_lib.command import command
from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import ansible_options
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.deployed_server_agent import push as agent_push
from tripleo_ephemeral.deploy import heat_client
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.heat_launcher import installed
from tripleo_ephemeral.deployed_server_agent import servers as agent_config
from tripleo_ephemeral import workdir

COLUMNS = ('Role', 'Index', 'Hostname', 'Metadata URL', 'Source',
           'Config File', 'Host', 'Pushed')


def _role_hosts_arg(value):
    role, sep, hosts = value.partition('=')
    if not sep or not role or not hosts:
        raise ValueError(value)
    return role, [h for h in hosts.replace(',', ' ').split() if h]


_role_hosts_arg.__name__ = '<role>=<host>[,<host>...]'


def role_hosts_from_env(environ):
    """The guide's ``OVERCLOUD_ROLES`` and ``<role>_hosts`` variables."""
    roles = (environ.get('OVERCLOUD_ROLES') or '').split()
    return {role: (environ.get('%s_hosts' % role) or '').split()
            for role in roles}


class ConfigDeployedServerAgent(base.DeploymentCommand, command.Lister):
    """Write os-collect-config.conf for each deployed server of a stack.

    For a stack on a running Heat (an installed one, or one started with
    "openstack tripleo launch heat"; reached through OS_CLOUD), reads each
    OS::Heat::DeployedServer's metadata URL and writes the matching agent
    configuration into <work-dir>/os-collect-config/. With role hosts
    (--role-hosts, or OVERCLOUD_ROLES and <role>_hosts), also copies it to
    the servers over SSH and restarts the agent.
    """

    work_dir_options = options.WorkDirOptions(
        work_dir_help=_('Where %s/<role>-<index>.conf files are written') %
        workdir.AGENT_CONFIG_DIR)

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            '--polling-interval', metavar='<seconds>', type=int,
            default=agent_config.DEFAULT_POLLING_INTERVAL,
            action=parseractions.NonNegativeAction,
            help=_('Seconds between two polls of the agent (default: '
                   '%d)') % agent_config.DEFAULT_POLLING_INTERVAL)
        parser.add_argument(
            '--agent-command', metavar='<command>',
            default=agent_config.DEFAULT_AGENT_COMMAND,
            help=_('What the agent runs on new metadata (default: '
                   '%s)') % agent_config.DEFAULT_AGENT_COMMAND)
        ssh = parser.add_argument_group(_('Configuring the servers'))
        ssh.add_argument(
            '--role-hosts', metavar='<role>=<host>[,<host>...]',
            action='append', type=_role_hosts_arg, default=[],
            help=_('Addresses of the servers of a role, in index order '
                   '(repeatable); default: $OVERCLOUD_ROLES and '
                   '$<role>_hosts'))
        ansible_options.AnsibleArguments().add(
            parser, ssh, ssh_user_default=_('ssh\'s own; it needs '
                                            'password-less sudo'),
            ssh_key_default=_('ssh\'s own'))
        ssh.add_argument(
            '--config-path', metavar='<path>',
            default=agent_push.REMOTE_CONFIG,
            help=_('Agent configuration file on the servers (default: '
                   '%s)') % agent_push.REMOTE_CONFIG)
        ssh.add_argument(
            '--restart-command', metavar='<command>',
            default=agent_push.DEFAULT_RESTART,
            help=_('Run with sudo on each server after the file is written '
                   '(default: "%s"; "" for none)') %
            agent_push.DEFAULT_RESTART)
        return parser

    def take_action(self, parsed_args):
        self.log.debug('take_action(%s)', parsed_args)
        work_dir = self.work_dir(parsed_args)
        role_hosts = (dict(parsed_args.role_hosts) or
                      role_hosts_from_env(os.environ))
        with errors.user_errors('--work-dir'):
            servers = self._servers(parsed_args, work_dir)
            rows = self._write(servers, parsed_args, work_dir)
            failures = self._push(servers, rows, role_hosts, parsed_args,
                                  work_dir)
        if failures:
            raise osc_exceptions.CommandError(
                _('%(count)d of %(total)d servers were not configured: '
                  '%(errors)s') % {'count': len(failures),
                                   'total': sum(len(h) for h in
                                                role_hosts.values()),
                                   'errors': '; '.join(failures)})
        return COLUMNS, [rows[s.role, s.index] for s in servers]

    def _servers(self, parsed_args, work_dir):
        heat = installed.InstalledHeatLauncher(
            work_dir.heat_dir,
            cloud=getattr(self.app.options, 'cloud', None) or None)
        client = heat_client.make_client(heat.session())
        servers = agent_config.deployed_servers(client, parsed_args.stack)
        return agent_config.resolve_urls(client, servers, heat.endpoint)

    def _write(self, servers, parsed_args, work_dir):
        work_dir.create()
        fileutil.ensure_private_dir(work_dir.agent_config_dir)
        rows = {}
        for server in servers:
            path = work_dir.agent_config_file(server.role, server.index)
            fileutil.write_atomic(path, agent_config.render_conf(
                server.metadata_url, parsed_args.polling_interval,
                parsed_args.agent_command))
            rows[server.role, server.index] = [
                server.role, server.index, server.hostname,
                server.metadata_url, server.source, path, None, False]
        return rows

    def _push(self, servers, rows, role_hosts, parsed_args, work_dir):
        if not role_hosts:
            return []
        known_hosts = work_dir.agent_known_hosts
        failures = []
        for server, host in agent_config.assign_hosts(servers, role_hosts):
            row = rows[server.role, server.index]
            row[6] = host
            with open(row[5]) as f:
                text = f.read()
            try:
                agent_push.push(
                    host, text, user=parsed_args.overcloud_ssh_user,
                    key=parsed_args.overcloud_ssh_key,
                    known_hosts=known_hosts,
                    remote_path=parsed_args.config_path,
                    restart=parsed_args.restart_command)
            except exceptions.AgentPushError as exc:
                failures.append(str(exc))
                continue
            row[7] = True
        return failures
