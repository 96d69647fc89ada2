"""Adopting the Identity service: the Fernet and credential keys, and the
token and domain settings TripleO had.

``proc_adopting-the-identity-service.adoc`` copies the keys off a
controller into the ``keystone`` Secret, then patches the control plane.
TripleO keeps the keys it deployed in the Controller's hiera
(``keystone::fernet_keys``, ``keystone::credential_keys``: THT's
``KeystoneFernetKeys``, ``KeystoneCredential0/1``); keys rotated on the
controllers since are newer than these, which the report says. The token
lifetime, provider, password rules and LDAP domains are THT parameters;
an LDAP domain's configuration holds its bind password and is the
operator's (``proc_configuring-ldap-with-domain-specific-drivers.adoc``).
"""

import base64

from tripleo_ephemeral.rhoso.controlplane import ini
from tripleo_ephemeral.rhoso.controlplane import patch as patch_mod

PAGE = 'proc_adopting-the-identity-service.adoc'
SECRET = 'keystone'
#: (section, option, hiera key, THT parameter)
OPTIONS = (
    ('token', 'expiration', 'keystone::token_expiration', 'TokenExpiration'),
    ('token', 'provider', 'keystone::token_provider', 'KeystoneTokenProvider'),
    ('security_compliance', 'password_expires_days',
     'keystone::security_compliance::password_expires_days',
     'KeystonePasswordExpiresDays'),
    ('security_compliance', 'lockout_duration',
     'keystone::security_compliance::lockout_duration',
     'KeystoneLockoutDuration'),
    ('security_compliance', 'lockout_failure_attempts',
     'keystone::security_compliance::lockout_failure_attempts',
     'KeystoneLockoutFailureAttempts'),
    ('security_compliance', 'minimum_password_age',
     'keystone::security_compliance::minimum_password_age',
     'KeystoneMinimumPasswordAge'),
    ('security_compliance', 'unique_last_password_count',
     'keystone::security_compliance::unique_last_password_count',
     'KeystoneUniqueLastPasswordCount'),
    ('security_compliance', 'password_regex',
     'keystone::security_compliance::password_regex', 'KeystonePasswordRegex'),
    ('security_compliance', 'disable_user_account_days_inactive',
     'keystone::security_compliance::disable_user_account_days_inactive',
     'KeystoneDisableUserAccountDaysInactive'),
    ('identity', 'domain_specific_drivers_enabled',
     'keystone::using_domain_config', 'KeystoneLDAPDomainEnable'),
)
#: RHOSO's defaults: not carried when TripleO had the same.
SAME_AS_RHOSO = {('token', 'provider'): 'fernet'}


def _keys(role, key, prefix):
    """``{Secret key: key text}`` of a hiera map of key files."""
    found = role.config(key) or {}
    result = {}
    for path in sorted(found, key=lambda p: int(p.rsplit('/', 1)[-1])
                       if p.rsplit('/', 1)[-1].isdigit() else 0):
        index = path.rsplit('/', 1)[-1]
        content = (found[path] or {}).get('content')
        if content:
            result['%s%s' % (prefix, index)] = content
    return result


def secret(role):
    """The ``keystone`` Secret, or None when TripleO's hiera has no keys."""
    data = _keys(role, 'keystone::fernet_keys', 'FernetKeys')
    data.update(_keys(role, 'keystone::credential_keys', 'CredentialKeys'))
    if not data:
        return None, {}
    document = {'apiVersion': 'v1', 'kind': 'Secret', 'type': 'Opaque',
                'metadata': {'name': SECRET},
                'data': {k: base64.b64encode(v.encode()).decode()
                         for k, v in data.items()}}
    sources = {k: 'hiera keystone::%s (group_vars/%s): THT %s' % (
        'fernet_keys' if k.startswith('Fernet') else 'credential_keys',
        role.name, 'KeystoneFernetKeys' if k.startswith('Fernet') else
        'KeystoneCredential%s' % k[-1]) for k in data}
    return document, sources


def build(role, endpoints):
    """The :class:`~.patch.Patch` of the Identity service."""
    config = ini.Config(role)
    for section, option, key, parameter in OPTIONS:
        value = config.hiera(section, option, key, parameter)
        if value is not None and SAME_AS_RHOSO.get((section, option)) == \
                str(value):
            config.options.pop()
    template = {'databaseInstance': 'openstack', 'secret': 'osp-secret'}
    if 'internal' in endpoints.addresses:
        template['override'] = {'service': endpoints.internal_override()}
    values = []
    keys = role.config('keystone::fernet_max_active_keys')
    if keys:
        template['fernetMaxActiveKeys'] = int(keys)
        values.append(('spec.keystone.template.fernetMaxActiveKeys', keys,
                       'KeystoneFernetMaxActiveKeys, from hiera '
                       'keystone::fernet_max_active_keys (group_vars/%s)'
                       % role.name))
    if config:
        template['customServiceConfig'] = config.text()
    inputs = ['The Fernet and credential keys are those TripleO deployed; '
              'if they were rotated on the controllers since, take '
              '/var/lib/config-data/puppet-generated/keystone/etc/keystone/'
              '{fernet,credential}-keys/ of a controller instead']
    if role.config('keystone::using_domain_config'):
        inputs.append('LDAP domains (KeystoneLDAPBackendConfigs) hold bind '
                      'passwords: write their domain configuration by hand '
                      '(proc_configuring-ldap-with-domain-specific-drivers'
                      '.adoc)')
    spec = {'keystone': {'enabled': True, 'apiOverride': {'route': {}},
                         'template': template}}
    return patch_mod.Patch(
        'keystone', 'keystone', spec, PAGE,
        configs={'spec.keystone.template.customServiceConfig': config},
        inputs=inputs, values=values, after=[
            'alias openstack="oc exec -t openstackclient -- openstack"',
            '# remove the source cloud\'s services and endpoints (the '
            'page\'s loop), then: oc wait --for=condition=Ready --timeout=1m '
            'OpenStackControlPlane openstack'])
