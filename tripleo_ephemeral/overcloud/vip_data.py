"""VIP data: the virtual IPs of the overcloud, in THT's ``vip_data`` format.

The file (``--vip-file``; tripleo-heat-templates' ``vip_data_default.yaml``
by default) is a list of entries such as::

    - network: internal_api       # a network's name_lower, or ctlplane
      ip_address: 172.16.2.5      # optional: else allocated from the pool
      dns_name: overcloud         # optional (default: overcloud)
      name: internal_api_vip      # optional port name
      subnet: internal_api_subnet # optional: the subnet to allocate from

as ``openstack overcloud network vip provision`` took it. Every network
with ``vip: true`` that the file does not list gets a VIP anyway (THT would
otherwise give it the control plane's address), and so does ctlplane.
"""

import ipaddress

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import network_data
from tripleo_ephemeral.overcloud import yamlfile

DEFAULT_DNS_NAME = 'overcloud'
#: What THT's vip_data_default.yaml holds: used when a template set has no
#: such file.
DEFAULT_VIPS = [{'network': network_data.CTLPLANE,
                 'dns_name': DEFAULT_DNS_NAME}]
_KEYS = {'network', 'ip_address', 'dns_name', 'name', 'subnet'}


def _fail(path, message):
    raise exceptions.RolesDataError('VIP data file %s: %s' % (path, message))


def load_vips(path):
    """Return the entries of the VIP file ``path``, checked for shape."""
    data = yamlfile.load(path, 'VIP data file', exceptions.RolesDataError)
    return validate_vips(data, path)


def validate_vips(data, path='<VIP data>'):
    """Check the shape of parsed VIP data; return a list of entries."""
    if data is None:
        data = []
    if not isinstance(data, list):
        _fail(path, 'must be a list of entries such as "- network: '
              'internal_api"')
    vips = []
    for index, entry in enumerate(data):
        if not isinstance(entry, dict) or not isinstance(
                entry.get('network'), str):
            _fail(path, 'entry %d needs "network: <name_lower or ctlplane>"'
                  % index)
        unknown = set(entry) - _KEYS
        if unknown:
            _fail(path, 'the %s entry has unknown key(s) %s; use %s' % (
                entry['network'], ', '.join(sorted(unknown)),
                ', '.join(sorted(_KEYS))))
        entry = dict(entry)
        entry.setdefault('dns_name', DEFAULT_DNS_NAME)
        if entry.get('ip_address') is not None:
            try:
                entry['ip_address'] = str(ipaddress.ip_address(
                    str(entry['ip_address'])))
            except ValueError:
                _fail(path, 'the %s entry: ip_address %r is not an IP '
                      'address' % (entry['network'], entry['ip_address']))
        vips.append(entry)
    return vips


def complete(vips, networks, path='<VIP data>'):
    """Check ``vips`` against the networks; add the missing ones.

    Returns ``(vips, added)``: the entries in order (the file's, then one
    for each ``vip: true`` network the file leaves out, then ctlplane if it
    is missing) and the names of the networks that were added.
    """
    by_lower = {n['name_lower']: n for n in network_data.enabled(networks)}
    seen = set()
    for entry in vips:
        net = entry['network']
        if net in seen:
            _fail(path, 'network %s has two VIPs; keep one' % net)
        seen.add(net)
        if net == network_data.CTLPLANE:
            continue
        network = by_lower.get(net)
        if network is None:
            _fail(path, 'network %s is not in the networks data (VIPs can '
                  'be on ctlplane%s)' % (net, ''.join(
                      ', ' + n for n in by_lower)))
        if not network.get('vip'):
            _fail(path, 'network %s has no VIP (the networks data does not '
                  'set vip: true on %s): remove the entry or set vip: true'
                  % (net, network['name']))
        if entry.get('subnet') and entry['subnet'] not in (
                network.get('subnets') or {}):
            _fail(path, 'the %s entry names subnet %s, which network %s '
                  'does not have' % (net, entry['subnet'], network['name']))
    added = [lower for lower, network in by_lower.items()
             if network.get('vip') and lower not in seen]
    if network_data.CTLPLANE not in seen:
        added.append(network_data.CTLPLANE)
    completed = list(vips) + [{'network': net, 'dns_name': DEFAULT_DNS_NAME}
                              for net in added]
    return completed, added
