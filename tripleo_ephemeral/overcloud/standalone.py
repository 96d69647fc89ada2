"""What ``openstack tripleo deploy`` generated on top of an overcloud's
deployed-server parameters (tripleoclient's ``tripleoclient-hosts-
portmaps.yaml``), for one host deploying the Standalone role.

:func:`adjust` adds to the environment
:mod:`~tripleo_ephemeral.overcloud.deployed_environment` built: the cloud
names, the public VIP port, the Redis and OVN DB VIPs without Neutron, the
OVN bridge MACs, and the control plane MTU and routes the user's
environments ask for (``InterfaceLocalMtu``, ``ControlPlaneStaticRoutes``).
"""

import ipaddress

from tripleo_ephemeral.overcloud import deployed_environment

#: THT's NeutronBridgeMappings default, which tripleoclient assumed too.
DEFAULT_BRIDGE_MAPPINGS = ['datacentre:br-ex']
MAC_FORMAT = 'fa:16:3a:00:53:%02X'


def bridge_macs(hostname, bridge_mappings=None):
    """``OVNStaticBridgeMacMappings``: a MAC per physical network."""
    mappings = bridge_mappings or DEFAULT_BRIDGE_MAPPINGS
    if isinstance(mappings, str):
        mappings = [m for m in mappings.split(',') if m]
    return {hostname: {mapping.split(':')[0]: MAC_FORMAT % index
                       for index, mapping in enumerate(mappings)}}


def adjust(environment, hostname, local_ip, control_ip, public_ip,
           domain='localdomain', user_parameters=None):
    """Add tripleo deploy's parameters to ``environment`` (in place).

    ``local_ip`` is an ``ipaddress`` interface (address and prefix),
    ``control_ip`` and ``public_ip`` addresses; ``user_parameters`` the
    merged ``parameter_defaults`` of the user's environments.
    """
    user = user_parameters or {}
    params = environment['parameter_defaults']
    cidr = str(local_ip.network)
    public = ipaddress.ip_address(str(public_ip))
    params.update({
        'CloudName': str(public),
        'CloudDomain': domain,
        'CloudNameInternal': '%s.internalapi.%s' % (hostname, domain),
        'CloudNameStorage': '%s.storage.%s' % (hostname, domain),
        'CloudNameStorageManagement': '%s.storagemgmt.%s' % (hostname,
                                                             domain),
        'CloudNameCtlplane': '%s.ctlplane.%s' % (hostname, domain),
        'IPPool': {'external': [str(public)]},
        'ExternalNetCidr': '%s/%d' % (public, local_ip.network.prefixlen),
        'RedisVirtualFixedIPs': [{'ip_address': str(control_ip),
                                  'use_neutron': False}],
        'OVNDBsVirtualFixedIPs': [{'ip_address': str(control_ip),
                                   'use_neutron': False}],
        'OVNStaticBridgeMacMappings': bridge_macs(
            hostname, user.get('NeutronBridgeMappings')),
    })
    params['DeployedServerPortMap']['public_virtual_ip'] = {
        'fixed_ips': [{'ip_address': str(public)}],
        'subnets': [{'cidr': cidr, 'ip_version': public.version}],
        'network': {'name': deployed_environment.CTLPLANE, 'tags': [cidr]}}
    params['VipPortMap'].setdefault('external', {
        'ip_address': str(public),
        'ip_address_uri': ('[%s]' % public if public.version == 6
                           else str(public)),
        'ip_subnet': '%s/%d' % (public, local_ip.network.prefixlen)})
    attributes = params['CtlplaneNetworkAttributes']
    attributes['network']['mtu'] = user.get('InterfaceLocalMtu',
                                            attributes['network']['mtu'])
    attributes['subnets'][deployed_environment.CTLPLANE_SUBNET][
        'host_routes'] = user.get('ControlPlaneStaticRoutes') or []
    return environment
