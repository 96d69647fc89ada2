"""The rc file and clouds.yaml entry: tripleo-common's text, exactly, but
self-contained (OS_CLOUDNAME, not OS_CLOUD)."""

import os
import stat

import pytest
import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import credentials

OUTPUTS = {'KeystoneURL': 'https://overcloud.example.com:13000',
           'KeystoneAdminVip': 'fd00::7', 'AdminPassword': 'Abc123',
           'KeystoneRegion': 'regionTwo'}

# What tripleo-common 18.0.0's _create_overcloudrc_from_outputs returned for
# these outputs with no_proxy 'proxy.local,10.0.0.5' (measured, see the
# research spec of issue 17), with OS_CLOUDNAME for its OS_CLOUD (issue 36:
# a cloud no clouds.yaml holds stopped every command).
EXPECTED = """\
# Clear any old environment that may conflict.
for key in $( set | awk '{FS="="}  /^OS_/ {print $1}' ); do unset $key ; done
export OS_USERNAME=admin
export OS_PROJECT_NAME=admin
export OS_USER_DOMAIN_NAME=Default
export OS_PROJECT_DOMAIN_NAME=Default
export OS_NO_CACHE=True
export OS_CLOUDNAME=overcloud
export no_proxy='10.0.0.5,[fd00::7],overcloud.example.com,proxy.local'
export PYTHONWARNINGS='ignore:Certificate has no, ignore:A true SSLContext \
object is not available'
export OS_AUTH_TYPE=password
export OS_PASSWORD=Abc123
export OS_AUTH_URL=https://overcloud.example.com:13000
export OS_IDENTITY_API_VERSION=3
export OS_COMPUTE_API_VERSION=2.latest
export OS_IMAGE_API_VERSION=2
export OS_VOLUME_API_VERSION=3
export OS_REGION_NAME=regionTwo

# Add OS_CLOUDNAME to PS1
if [ -z "${CLOUDPROMPT_ENABLED:-}" ]; then
    export PS1=${PS1:-""}
    export PS1=\\${OS_CLOUDNAME:+"(\\$OS_CLOUDNAME)"}\\ $PS1
    export CLOUDPROMPT_ENABLED=1
fi
"""


def test_rc_text_is_tripleo_commons():
    text = credentials.rc_text('overcloud', OUTPUTS,
                               no_proxy='proxy.local,10.0.0.5')
    assert text == EXPECTED


def test_rc_defaults_and_quoting():
    text = credentials.rc_text('site1', {
        'KeystoneURL': 'http://192.0.2.5:5000/v2.0',
        'AdminPassword': "it's"})
    assert 'export OS_CLOUDNAME=site1\n' in text
    assert 'OS_CLOUD=' not in text
    assert 'export OS_REGION_NAME=regionOne\n' in text
    assert 'export OS_AUTH_URL=http://192.0.2.5:5000\n' in text
    assert 'export no_proxy=192.0.2.5\n' in text
    assert "export OS_PASSWORD='it'\"'\"'s'\n" in text


def test_missing_outputs_name_the_output():
    assert credentials.missing_outputs({'KeystoneURL': 'x'}) == [
        'AdminPassword']
    with pytest.raises(exceptions.StackOutputsError, match='KeystoneURL'):
        credentials.rc_text('overcloud', {'AdminPassword': 'p'})


def test_clouds_entry_prefers_the_public_endpoint():
    entry = credentials.clouds_entry(dict(OUTPUTS, EndpointMap={
        'KeystonePublic': {'uri_no_suffix': 'https://public:13000'}}))
    assert entry['auth']['auth_url'] == 'https://public:13000'
    assert entry['auth']['password'] == 'Abc123'
    assert entry['region_name'] == 'regionTwo'
    assert entry['identity_api_version'] == '3'


def test_write_keeps_other_clouds(tmp_path):
    clouds = tmp_path / 'clouds.yaml'
    clouds.write_text(yaml.safe_dump({'clouds': {'heat': {'x': 1}}}))
    rc, path = credentials.write('overcloud', OUTPUTS,
                                 str(tmp_path / 'overcloudrc'), str(clouds))
    data = yaml.safe_load(clouds.read_text())
    assert sorted(data['clouds']) == ['heat', 'overcloud']
    for name in (rc, path):
        assert stat.S_IMODE(os.stat(name).st_mode) == 0o600
