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
from tripleo_ephemeral.deployed_server_agent import conf
from tripleo_ephemeral.deployed_server_agent import push as agent_push
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
            default=conf.DEFAULT_POLLING_INTERVAL,
            action=parseractions.NonNegativeAction,
            help=_('Seconds between two polls of the agent (default: '
                   '%d)') % conf.DEFAULT_POLLING_INTERVAL)
        parser.add_argument(
            '--agent-command', metavar='<command>',
            default=conf.DEFAULT_AGENT_COMMAND,
            help=_('What the agent runs on new metadata (default: '
                   '%s)') % conf.DEFAULT_AGENT_COMMAND)
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
        from tripleo_ephemeral.deployed_server_agent import configure
        request = configure.AgentConfigRequest(
            workdir=self.workdir(parsed_args),
            cloud=getattr(self.app.options, 'cloud', None) or None,
            polling_interval=parsed_args.polling_interval,
            agent_command=parsed_args.agent_command,
            role_hosts=(dict(parsed_args.role_hosts) or
                        role_hosts_from_env(os.environ)),
            ssh_user=parsed_args.overcloud_ssh_user,
            ssh_key=parsed_args.overcloud_ssh_key,
            config_path=parsed_args.config_path,
            restart_command=parsed_args.restart_command)
        with errors.user_errors('--work-dir'):
            result = configure.configure(request)
        if result.failures:
            raise osc_exceptions.CommandError(
                _('%(count)d of %(total)d servers were not configured: '
                  '%(errors)s') % {'count': len(result.failures),
                                   'total': result.hosts,
                                   'errors': '; '.join(result.failures)})
        return COLUMNS, [(s.role, s.index, s.hostname, s.metadata_url,
                          s.source, s.config_file, s.host, s.pushed)
                         for s in result.servers]
