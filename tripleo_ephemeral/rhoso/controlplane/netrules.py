"""What the OpenShift networking documents must be beyond their schemas.

Their CRDs leave the substance to their controllers: nmstate's
``desiredState`` and the attachment's ``config`` are opaque to the API
server. The rules here are the ones their consumers apply:

* MetalLB's webhooks (metallb v0.14.9 ``internal/k8s/webhooks/
  webhookv1beta1``, ``internal/config/config.go``): pools and
  advertisements live in ``metallb-system``; each address is a CIDR or a
  ``FIRST-LAST`` range of one family, start before end; no two pools
  overlap; an advertisement names pools that exist (else it silently
  advertises nothing);
* Multus and whereabouts (k8snetworkplumbingwg whereabouts
  ``pkg/types/types.go``): ``config`` is JSON naming the attachment, with
  a ``type``; whereabouts' ``range`` is a CIDR holding ``range_start`` and
  ``range_end``;
* nmstate: interface names unique and at most 15 characters, a VLAN's id
  1-4094 on a ``base-iface``, addresses with a prefix length of their
  family.
"""

import ipaddress
import json

from tripleo_ephemeral.rhoso import problems as problems_mod

RULE = 'webhook'
NAMESPACE = 'metallb-system'


def _problem(where, path, message, fix):
    return problems_mod.Problem(where, path, message, fix, RULE)


def pool_ranges(document):
    """``[(first, last)]`` of an IPAddressPool; ValueError if malformed."""
    result = []
    for text in (document.get('spec') or {}).get('addresses') or []:
        text = str(text)
        if '-' in text:
            first, _, last = text.partition('-')
            first = ipaddress.ip_address(first.strip())
            last = ipaddress.ip_address(last.strip())
            if first.version != last.version or first > last:
                raise ValueError('invalid IP range %r' % text)
        else:
            cidr = ipaddress.ip_network(text, strict=False)
            first, last = cidr[0], cidr[-1]
        result.append((first, last))
    return result


def nad_range(document):
    """``(cidr, first, last)`` of an attachment's whereabouts IPAM;
    ValueError if malformed, None without whereabouts."""
    config = json.loads((document.get('spec') or {}).get('config') or '')
    if not isinstance(config, dict):
        raise ValueError('config is not a JSON object')
    ipam = config.get('ipam') or {}
    if ipam.get('type') != 'whereabouts':
        return None
    cidr = ipaddress.ip_network(ipam.get('range'), strict=False)
    first = ipaddress.ip_address(ipam.get('range_start') or cidr[1])
    last = ipaddress.ip_address(ipam.get('range_end') or cidr[-2])
    if first not in cidr or last not in cidr or first > last:
        raise ValueError('range_start..range_end %s..%s is not inside range '
                         '%s' % (first, last, cidr))
    return cidr, first, last


def _metallb(documents):
    found, pools = [], {}
    for where, document in documents:
        kind = document.get('kind')
        if kind not in ('IPAddressPool', 'L2Advertisement'):
            continue
        namespace = (document.get('metadata') or {}).get('namespace')
        if namespace != NAMESPACE:
            found.append(_problem(where, 'metadata.namespace', 'resource '
                                  'must be created in %s namespace'
                                  % NAMESPACE, 'set namespace: %s'
                                  % NAMESPACE))
        if kind == 'IPAddressPool':
            try:
                ranges = pool_ranges(document)
            except ValueError as exc:
                found.append(_problem(where, 'spec.addresses', str(exc),
                                      'write CIDRs or FIRST-LAST ranges'))
                continue
            if not ranges:
                found.append(_problem(where, 'spec.addresses', 'pool has no '
                                      'prefixes defined', 'add addresses'))
            name = document['metadata']['name']
            for other, other_ranges in pools.items():
                for a, b in ranges:
                    if any(a <= d and c <= b and a.version == c.version
                           for c, d in other_ranges):
                        found.append(_problem(
                            where, 'spec.addresses', 'pool %s overlaps '
                            'pool %s' % (name, other), 'give the pools '
                            'disjoint ranges'))
            pools[name] = ranges
    for where, document in documents:
        if document.get('kind') != 'L2Advertisement':
            continue
        for name in (document.get('spec') or {}).get('ipAddressPools') or []:
            if name not in pools:
                found.append(_problem(
                    where, 'spec.ipAddressPools', 'names no IPAddressPool of '
                    'the export (%s): it would advertise nothing' % name,
                    'name one of %s' % ', '.join(sorted(pools))))
    return found


def _nads(documents):
    found = []
    for where, document in documents:
        if document.get('kind') != 'NetworkAttachmentDefinition':
            continue
        try:
            config = json.loads((document.get('spec') or {}).get('config')
                                or '')
            nad_range(document)
        except (ValueError, TypeError) as exc:
            found.append(_problem(where, 'spec.config', 'is not a CNI '
                                  'configuration: %s' % exc, 'write JSON with '
                                  'cniVersion, name, type and ipam'))
            continue
        name = (document.get('metadata') or {}).get('name')
        if config.get('name') != name or not config.get('type'):
            found.append(_problem(where, 'spec.config', 'the CNI name %r or '
                                  'type %r does not fit attachment %s'
                                  % (config.get('name'), config.get('type'),
                                     name), 'name it after the attachment '
                                  'and give its type'))
    return found


def _interface(where, path, iface, found):
    name = str(iface.get('name') or '')
    if not name or len(name) > 15:
        found.append(_problem(where, path + '.name', 'interface name %r is '
                              'empty or longer than 15 characters' % name,
                              'use a shorter name'))
    if iface.get('type') == 'vlan':
        vlan = iface.get('vlan') or {}
        if not vlan.get('base-iface') or not isinstance(
                vlan.get('id'), int) or not 1 <= vlan['id'] <= 4094:
            found.append(_problem(where, path + '.vlan', 'a VLAN needs a '
                                  'base-iface and an id 1-4094',
                                  'give both'))
    for family, bits in (('ipv4', 32), ('ipv6', 128)):
        for index, address in enumerate((iface.get(family) or {}).get(
                'address') or []):
            try:
                ip = ipaddress.ip_address(address.get('ip'))
                prefix = int(address.get('prefix-length'))
                if ip.max_prefixlen != bits or not 0 < prefix <= bits:
                    raise ValueError(address)
            except (ValueError, TypeError, AttributeError):
                found.append(_problem(where, '%s.%s.address[%d]' % (
                    path, family, index), 'not an %s address with its '
                    'prefix-length' % family, 'fix the address'))


def _policies(documents):
    found = []
    for where, document in documents:
        if document.get('kind') != 'NodeNetworkConfigurationPolicy':
            continue
        state = (document.get('spec') or {}).get('desiredState') or {}
        names = []
        for index, iface in enumerate(state.get('interfaces') or []):
            path = 'spec.desiredState.interfaces[%d]' % index
            if not isinstance(iface, dict):
                found.append(_problem(where, path, 'is not a mapping',
                                      'write an interface'))
                continue
            _interface(where, path, iface, found)
            if iface.get('name') in names:
                found.append(_problem(where, path + '.name', 'interface %s '
                                      'twice' % iface.get('name'),
                                      'keep one'))
            names.append(iface.get('name'))
    return found


def check(documents):
    """The problems of the networking ``(where, document)`` list."""
    return _metallb(documents) + _nads(documents) + _policies(documents)
