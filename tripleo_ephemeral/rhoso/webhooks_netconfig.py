"""infra-operator's NetConfig webhook (``apis/network/v1beta1/
netconfig_webhook.go``), in Python: one NetConfig per namespace; network
names and dns domains (which share one namespace) unique, dns domains of
the webhook's form; subnet names unique in a network, CIDRs unique across
all; a subnet's gateway, ranges, excluded addresses and next hops are
addresses of the subnet's family inside its CIDR, and a range's end comes
after its start.
"""

import ipaddress

from tripleo_ephemeral.rhoso import rules

NETCONFIG = 'NetConfig'
_webhook = rules.webhook
_ip = rules.ip


def _address(where, path, value, cidr):
    ip = _ip(value)
    if ip is None:
        return [_webhook(where, path, '%r is not an IP address' % (value,),
                         'write an address of %s' % cidr)]
    if ip.version != cidr.version or ip not in cidr:
        return [_webhook(where, path, '%s is not inside %s' % (ip, cidr),
                         'use an address of %s' % cidr)]
    return []


def _subnet_rules(where, path, subnet, cidrs):
    found = []
    try:
        cidr = ipaddress.ip_network(str(subnet.get('cidr')), strict=False)
    except ValueError:
        return [_webhook(where, path + '.cidr', 'cidr %r is not a CIDR'
                         % subnet.get('cidr'), 'write one (192.0.2.0/24)')]
    if str(cidr) in cidrs:
        found.append(_webhook(where, path + '.cidr', 'cidr %s is already '
                              'used by %s' % (cidr, cidrs[str(cidr)]),
                              'give each subnet its own CIDR'))
    cidrs.setdefault(str(cidr), path)
    if subnet.get('gateway'):
        found += _address(where, path + '.gateway', subnet['gateway'], cidr)
    for index, pool in enumerate(subnet.get('allocationRanges') or []):
        here = '%s.allocationRanges[%d]' % (path, index)
        for end in ('start', 'end'):
            found += _address(where, '%s.%s' % (here, end), pool.get(end),
                              cidr)
        start, last = _ip(pool.get('start')), _ip(pool.get('end'))
        if start and last and start.version == last.version and \
                start >= last:
            found.append(_webhook(where, here, 'start %s is not before end '
                                  '%s (the webhook wants end after start)'
                                  % (start, last), 'swap them' if start >
                                  last else 'give a range of two addresses '
                                  'or more'))
    for index, value in enumerate(subnet.get('excludeAddresses') or []):
        found += _address(where, '%s.excludeAddresses[%d]' % (path, index),
                          value, cidr)
    for index, route in enumerate(subnet.get('routes') or []):
        here = '%s.routes[%d]' % (path, index)
        try:
            ipaddress.ip_network(str(route.get('destination')), strict=False)
        except ValueError:
            found.append(_webhook(where, here + '.destination', '%r is not '
                                  'a CIDR' % route.get('destination'),
                                  'write one'))
        found += _address(where, here + '.nexthop', route.get('nexthop'),
                          cidr)
    return found


def check(documents):
    found = []
    netconfigs = rules.of(documents, NETCONFIG)
    if len(netconfigs) > 1:
        found.append(_webhook(
            netconfigs[1][0], 'metadata.name', 'there is already NetConfig '
            '%s; there can only be one' % rules.name_of(netconfigs[0][1]),
            'keep one'))
    for where, document in netconfigs:
        names, cidrs = {}, {}
        networks = (document.get('spec') or {}).get('networks') or []
        for index, network in enumerate(networks):
            path = 'spec.networks[%d]' % index
            for field, value in (('name', network.get('name')),
                                 ('dnsDomain', network.get('dnsDomain'))):
                if value in names:
                    found.append(_webhook(
                        where, '%s.%s' % (path, field), '%s %r is already '
                        'used at %s' % (field, value, names[value]),
                        'give each network its own name and dns domain'))
                names.setdefault(value, '%s.%s' % (path, field))
            domain = str(network.get('dnsDomain') or '')
            if not rules.DNS_DOMAIN.match(domain):
                found.append(_webhook(
                    where, path + '.dnsDomain', 'dnsDomain %r is not a dns '
                    'domain the webhook takes' % domain,
                    'write labels separated by dots, ending in letters, '
                    'without a trailing dot (internalapi.example.com)'))
            subnet_names = set()
            for sindex, subnet in enumerate(network.get('subnets') or []):
                here = '%s.subnets[%d]' % (path, sindex)
                if subnet.get('name') in subnet_names:
                    found.append(_webhook(where, here + '.name', 'subnet %s '
                                          'is defined twice' % subnet['name'],
                                          'give each subnet its own name'))
                subnet_names.add(subnet.get('name'))
                found += _subnet_rules(where, here, subnet, cidrs)
    return found
