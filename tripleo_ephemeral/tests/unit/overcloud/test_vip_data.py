import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import network_data
from tripleo_ephemeral.overcloud import vip_data
from tripleo_ephemeral.tests.unit import fakes

NETS = network_data.validate_networks(fakes.NETWORK_ISOLATION)


def test_missing_vips_are_added():
    vips = vip_data.validate_vips([
        {'network': 'external', 'ip_address': '10.0.0.5'}])
    done, added = vip_data.complete(vips, NETS)
    assert added == ['storage', 'storage_mgmt', 'internal_api', 'ctlplane']
    assert done[0] == {'network': 'external', 'ip_address': '10.0.0.5',
                       'dns_name': 'overcloud'}
    assert [v['network'] for v in done] == ['external'] + added
    # THT's default: ctlplane only, nothing to add without networks.
    assert vip_data.complete(vip_data.DEFAULT_VIPS, []) == (
        vip_data.DEFAULT_VIPS, [])


@pytest.mark.parametrize('data, fragment', [
    ({'network': 'x'}, 'must be a list'),
    ([{'ip_address': '10.0.0.5'}], 'needs "network'),
    ([{'network': 'external', 'fixed_ip': '1.2.3.4'}], 'unknown key'),
    ([{'network': 'external', 'ip_address': 'x'}], 'not an IP'),
])
def test_invalid_shape(data, fragment):
    with pytest.raises(exceptions.RolesDataError, match=fragment):
        vip_data.validate_vips(data, 'v.yaml')


@pytest.mark.parametrize('entries, fragment', [
    ([{'network': 'tenant'}], 'network tenant has no VIP (the networks '
     'data does not set vip: true on Tenant)'),
    ([{'network': 'nope'}], 'network nope is not in the networks data'),
    ([{'network': 'external'}, {'network': 'external'}], 'two VIPs'),
    ([{'network': 'external', 'subnet': 'x'}], 'names subnet x'),
])
def test_invalid_against_networks(entries, fragment):
    with pytest.raises(exceptions.RolesDataError) as e:
        vip_data.complete(vip_data.validate_vips(entries), NETS, 'v.yaml')
    assert fragment in str(e.value) and 'v.yaml' in str(e.value)
