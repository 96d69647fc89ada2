"""The overcloud's rc file and clouds.yaml entry, from the stack outputs.

The rc text is tripleo-common's (``overcloudrc``, what tripleoclient wrote
as ``<stack>rc``): the same variables in the same order, values quoted for
the shell, but self-contained: it names the cloud ``OS_CLOUDNAME`` (the
prompt's, as TripleO's rc files did before clouds.yaml) rather than
``OS_CLOUD``. tripleo-common's ``OS_CLOUD=<stack>`` needs a ``<stack>``
cloud where openstacksdk looks (THT's keystone service wrote it to
``/etc/openstack/clouds.yaml`` during the Ansible run): without it every
``openstack`` command stopped with "Cloud <stack> was not found", and on an
undercloud it would name tripleoclient's overcloud instead. With the OS_*
variables alone, openstacksdk makes the cloud from them, in any shell.
:func:`clouds_entry` is the entry THT's keystone service writes, for the
work dir's clouds.yaml (``OS_CLIENT_CONFIG_FILE``).

Values in, text or dicts out; :func:`write` puts both files where it is
told (0600).
"""

import ipaddress
import os
import shlex
import urllib.parse

import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.overcloud import yamlfile

#: The outputs the rc needs; without them nothing is written.
REQUIRED_OUTPUTS = ('KeystoneURL', 'AdminPassword')
DEFAULT_REGION = 'regionOne'
#: API versions tripleo-common put in the rc.
API_VERSIONS = (('OS_IDENTITY_API_VERSION', '3'),
                ('OS_COMPUTE_API_VERSION', '2.latest'),
                ('OS_IMAGE_API_VERSION', '2'),
                ('OS_VOLUME_API_VERSION', '3'))

_CLEAR = ("# Clear any old environment that may conflict.\n"
          "for key in $( set | awk '{FS=\"=\"}  /^OS_/ {print $1}' ); "
          "do unset $key ; done\n")
_PROMPT = ('\n'
           '# Add OS_CLOUDNAME to PS1\n'
           'if [ -z "${CLOUDPROMPT_ENABLED:-}" ]; then\n'
           '    export PS1=${PS1:-""}\n'
           '    export PS1=\\${OS_CLOUDNAME:+"(\\$OS_CLOUDNAME)"}\\ $PS1\n'
           '    export CLOUDPROMPT_ENABLED=1\n'
           'fi\n')
_WARNINGS = ('ignore:Certificate has no, ignore:A true SSLContext object is '
             'not available')


def _bracket_ipv6(value):
    try:
        if ipaddress.ip_address(value).version == 6:
            return '[%s]' % value
    except ValueError:
        pass
    return value


def missing_outputs(outputs):
    """The :data:`REQUIRED_OUTPUTS` the stack did not give."""
    return [name for name in REQUIRED_OUTPUTS
            if not (outputs or {}).get(name)]


def rc_text(stack, outputs, no_proxy=''):
    """The rc file of ``stack`` from its outputs (KeystoneURL,
    KeystoneAdminVip, AdminPassword, KeystoneRegion)."""
    missing = missing_outputs(outputs)
    if missing:
        raise exceptions.StackOutputsError(
            'Stack %s has no %s output: its templates give no Keystone '
            'endpoint, so there is no rc file' % (stack, ', '.join(missing)))
    endpoint = outputs['KeystoneURL']
    names = [n for n in (no_proxy or '').split(',') if n] + [
        urllib.parse.urlparse(endpoint).hostname,
        outputs.get('KeystoneAdminVip')]
    no_proxy_list = sorted({_bracket_ipv6(n) for n in names if n})
    values = [
        ('OS_USERNAME', 'admin'),
        ('OS_PROJECT_NAME', 'admin'),
        ('OS_USER_DOMAIN_NAME', 'Default'),
        ('OS_PROJECT_DOMAIN_NAME', 'Default'),
        ('OS_NO_CACHE', 'True'),
        ('OS_CLOUDNAME', stack),
        ('no_proxy', ','.join(no_proxy_list)),
        ('PYTHONWARNINGS', _WARNINGS),
        ('OS_AUTH_TYPE', 'password'),
        ('OS_PASSWORD', str(outputs['AdminPassword'])),
        ('OS_AUTH_URL', endpoint.replace('/v2.0', '')),
    ] + list(API_VERSIONS) + [
        ('OS_REGION_NAME', outputs.get('KeystoneRegion') or DEFAULT_REGION),
    ]
    lines = ''.join('export %s=%s\n' % (key, shlex.quote(value))
                    for key, value in values)
    return _CLEAR + lines + _PROMPT


def _auth_url(outputs):
    public = ((outputs.get('EndpointMap') or {}).get('KeystonePublic') or
              {})
    return public.get('uri_no_suffix') or outputs['KeystoneURL'].replace(
        '/v2.0', '')


def clouds_entry(outputs):
    """The ``clouds.<stack>`` entry THT's keystone service writes."""
    missing = missing_outputs(outputs)
    if missing:
        raise exceptions.StackOutputsError(
            'No %s output: no clouds.yaml entry' % ', '.join(missing))
    return {
        'auth': {
            'auth_url': _auth_url(outputs),
            'password': str(outputs['AdminPassword']),
            'project_domain_name': 'Default',
            'project_name': 'admin',
            'user_domain_name': 'Default',
            'username': 'admin',
        },
        'identity_api_version': '3',
        'volume_api_version': '3',
        'region_name': outputs.get('KeystoneRegion') or DEFAULT_REGION,
    }


def write(stack, outputs, rc_path, clouds_path, no_proxy=''):
    """Write the rc file to ``rc_path`` and set ``clouds.<stack>`` in the
    clouds.yaml ``clouds_path`` (other clouds there are kept); both 0600.

    Returns ``(rc_path, clouds_path)``.
    """
    fileutil.write_atomic(rc_path, rc_text(stack, outputs, no_proxy))
    data = {}
    if os.path.exists(clouds_path):
        data = yamlfile.load(clouds_path, 'clouds.yaml', strict=False,
                             limits=yamlfile.INPUT) or {}
    if not isinstance(data, dict):
        raise exceptions.InputFileError(
            '%s is not a clouds.yaml mapping: remove it and run '
            '"openstack overcloud credentials"' % clouds_path)
    clouds = data.get('clouds') or {}
    clouds[stack] = clouds_entry(outputs)
    data['clouds'] = clouds
    fileutil.write_atomic(clouds_path, yaml.safe_dump(
        data, default_flow_style=False, sort_keys=False))
    return rc_path, clouds_path
