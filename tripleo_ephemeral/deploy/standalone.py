"""The inputs of ``openstack tripleo deploy``: a Standalone overcloud.

The same deploy as ``openstack overcloud deploy``, of one host (this
machine's short hostname, at ``--local-ip``) in the standalone role, with
tripleoclient's ``tripleo deploy`` defaults: THT's
``roles_data_standalone.yaml``, no isolated networks, the control plane VIP
at ``--control-virtual-ip`` or the host's own address, and what it
generated on top (:mod:`tripleo_ephemeral.overcloud.standalone`).
"""

import dataclasses
import ipaddress
import os
import socket

from tripleo_ephemeral.deploy import inputs
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import network_data
from tripleo_ephemeral.overcloud import standalone
from tripleo_ephemeral.overcloud import tht_parameters

ROLES_FILE = 'roles_data_standalone.yaml'
DEFAULT_ROLE = 'Standalone'
DEFAULT_STACK = 'standalone'
DEFAULT_TIMEOUT_MINS = 30
#: tripleoclient's tripleo deploy ran Ansible locally as root.
SSH_USER = 'root'


def short_hostname():
    return socket.gethostname().split('.')[0].lower()


def data_file(path, templates):
    """``-r``/``-n`` of tripleo deploy: absolute, else relative to the
    templates (tripleoclient's ``fetch_roles_file``), else to the current
    directory."""
    if not path or os.path.isabs(path):
        return path
    under = os.path.join(templates, path)
    return under if os.path.exists(under) else os.path.abspath(path)


def _address(value, option, interface=False):
    try:
        if interface:
            if '/' not in str(value):
                raise ValueError(value)
            return ipaddress.ip_interface(str(value))
        return ipaddress.ip_address(str(value))
    except ValueError:
        raise exceptions.DeployedServersError(
            '%s %s is not %s' % (option, value, (
                'an address with its prefix, e.g. 192.168.24.2/24'
                if interface else 'an IP address')))


@dataclasses.dataclass(frozen=True)
class StandaloneHost:
    """The one host of ``tripleo deploy``: this machine (its short hostname
    unless ``hostname``) at ``local_ip`` (address/prefix), in ``role``."""

    local_ip: str
    control_virtual_ip: str | None = None
    public_virtual_ip: str | None = None
    role: str = DEFAULT_ROLE
    local_domain: str = 'localdomain'
    hostname: str | None = None


class StandaloneInputs(inputs.Inputs):
    """:class:`~tripleo_ephemeral.deploy.inputs.Inputs` of one host: the
    request's ``standalone`` (a :class:`StandaloneHost`)."""

    def __init__(self, request):
        super().__init__(request)
        host = request.standalone
        self.roles_file = (data_file(request.roles_file, self.templates) or
                           os.path.join(self.templates, ROLES_FILE))
        self.networks_file = (data_file(request.networks_file,
                                        self.templates) or os.devnull)
        self.deployed_servers = None
        self.local_ip = _address(host.local_ip, '--local-ip', interface=True)
        self.control_ip = _address(host.control_virtual_ip,
                                   '--control-virtual-ip') \
            if host.control_virtual_ip else self.local_ip.ip
        self.public_ip = _address(host.public_virtual_ip,
                                  '--public-virtual-ip') \
            if host.public_virtual_ip else self.local_ip.ip
        self.role = host.role
        self.hostname = host.hostname or short_hostname()
        self.cloud_domain = host.local_domain

    def _servers(self):
        return {self.role: [{
            'hostname': self.hostname, 'ctlplane_ip': str(self.local_ip.ip),
            'ctlplane_cidr': str(self.local_ip.network),
            'ssh_user': SSH_USER, 'networks': {}}]}

    def _servers_name(self):
        return '<--local-ip %s>' % self.local_ip

    def _vips(self):
        vip = {'network': network_data.CTLPLANE,
               'ip_address': str(self.control_ip), 'dns_name': 'overcloud'}
        if self.control_ip == self.local_ip.ip:
            vip['owner'] = 'host %s' % self.hostname   # the host's own
        return [vip], '<--control-virtual-ip>'

    def adjust_environment(self, environment, checked, env_files):
        user = tht_parameters.merged_environment(env_files)[
            'parameter_defaults']
        standalone.adjust(environment, self.hostname, self.local_ip,
                          self.control_ip, self.public_ip,
                          domain=self.cloud_domain, user_parameters=user)
