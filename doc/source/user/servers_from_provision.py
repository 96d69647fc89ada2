"""A --deployed-servers file from "openstack overcloud node provision".

    python3 servers_from_provision.py overcloud-baremetal-deployed.yaml \
        [<stack>] > servers.yaml

Reads the environment tripleoclient's node provisioning wrote (its
<Role>Count, <Role>HostnameFormat, HostnameMap, DeployedServerPortMap and,
with --network-config, NodePortMap) and prints each role's hosts with their
control plane address and prefix length and their addresses on the
isolated networks.
"""

import sys

import yaml


def servers(parameters, stack='overcloud'):
    names = parameters.get('HostnameMap') or {}
    ctlplane_ports = parameters.get('DeployedServerPortMap') or {}
    node_ports = parameters.get('NodePortMap') or {}
    result = {}
    for key, count in parameters.items():
        role = key[:-len('Count')]
        fmt = parameters.get(role + 'HostnameFormat')
        if not key.endswith('Count') or not fmt or not count:
            continue
        for index in range(int(count)):
            generated = fmt.replace('%stackname%', stack).replace(
                '%index%', str(index))
            hostname = names.get(generated, generated)
            ports = node_ports.get(hostname) or {}
            ctlplane = ports.get('ctlplane') or {}
            address = ctlplane.get('ip_address')
            if not address:
                port = ctlplane_ports['%s-ctlplane' % hostname.lower()]
                address = port['fixed_ips'][0]['ip_address']
            host = {'hostname': hostname, 'ctlplane_ip': address}
            if '/' in (ctlplane.get('ip_subnet') or ''):
                host['ctlplane_cidr'] = int(
                    ctlplane['ip_subnet'].split('/')[1])
            networks = {net: port['ip_address']
                        for net, port in sorted(ports.items())
                        if net != 'ctlplane' and port.get('ip_address')}
            if networks:
                host['networks'] = networks
            result.setdefault(role, []).append(host)
    return result


def main(argv):
    with open(argv[1]) as f:
        parameters = (yaml.safe_load(f) or {}).get('parameter_defaults', {})
    stack = argv[2] if len(argv) > 2 else 'overcloud'
    yaml.safe_dump(servers(parameters, stack), sys.stdout,
                   default_flow_style=False, sort_keys=False)


if __name__ == '__main__':
    main(sys.argv)
