"""The shell variables the adoption procedure has the operator type.

``adoption-vars.sh`` holds what is not secret: the controllers' SSH
commands, the cells, the source database VIP and Galera members, the
computes per cell, the networkers and the compute cells' NodeSets. The
passwords are in ``secrets/passwords.sh`` (0600), which
``adoption-vars.sh`` sources, unless they are asked to be embedded.
"""

import shlex

from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import secret_docs

PASSWORDS_FILE = 'passwords.sh'
SOURCE_CELL = 'default'
HEADER = ('#!/bin/bash\n# Written by "openstack overcloud adoption export" '
          'from %s (stack %s).\n# The adoption procedure\'s shell variables; '
          'source it: . %s\n')


def _q(value):
    return shlex.quote(str(value))


def _assoc(name, pairs, comment=None):
    lines = []
    if comment:
        lines.append('# ' + comment)
    lines.append('declare -A %s' % name)
    lines.append('%s=(' % name)
    lines += ['  [%s]=%s' % (_q(k), _q(v)) for k, v in pairs]
    lines.append(')')
    return lines


def passwords_script(deployment, tls):
    """``secrets/passwords.sh``: the passwords as the procedure's
    variables."""
    passwords = deployment.passwords
    lines = ['# The source cloud\'s passwords (%s); keep this file '
             'private.' % deployment.workdir.passwords_file]
    for name, _, variable in secret_docs.PASSWORDS:
        if variable and passwords.get(name) not in (None, ''):
            lines.append('%s=%s' % (variable, _q(passwords[name])))
    lines.append('declare -A SOURCE_DB_ROOT_PASSWORD')
    lines.append('SOURCE_DB_ROOT_PASSWORD[%s]=%s' % (
        SOURCE_CELL, _q(passwords.get('MysqlRootPassword', ''))))
    if tls and passwords.get('LibvirtTLSPassword'):
        lines.append('LIBVIRT_PASSWORD=%s' % _q(
            passwords['LibvirtTLSPassword']))
    return '\n'.join(lines) + '\n'


def _mysql_vip(deployment):
    net = (deployment.global_vars.get('service_net_map') or {}).get(
        'mysql_network', 'internal_api')
    return deployment.vips.get(net), net


def variables_script(deployment, groups, choices, key_path, embedded=None):
    """``adoption-vars.sh``; ``embedded`` is the passwords script to
    include instead of sourcing ``secrets/passwords.sh``."""
    workdir = deployment.workdir
    lines = [HEADER % (workdir.path, deployment.stack, 'adoption-vars.sh')]
    lines.append('EDPM_PRIVATEKEY_PATH=%s' % _q(key_path or
                                                '<path to SSH key>'))
    controllers = [h for role in deployment.roles.values()
                   if 'controller' in (role.data.get('tags') or [])
                   for h in role.hosts]
    for index, host in enumerate(controllers, 1):
        user = host.vars.get('ansible_ssh_user') or deployment.roles[
            host.role].ssh_user
        lines.append('CONTROLLER%d_SSH="ssh -i $EDPM_PRIVATEKEY_PATH %s@%s"'
                     % (index, user, host.ctlplane_ip))
    cells = sorted({g.cell for g in groups if g.kind == plan.COMPUTE})
    lines.append('CELLS=%s' % _q(SOURCE_CELL))
    lines.append('DEFAULT_CELL_NAME=%s' % _q(choices.default_cell))
    lines.append('RENAMED_CELLS=%s' % _q(' '.join(cells or [
        choices.default_cell])))
    lines += _assoc('TRIPLEO_PASSWORDS',
                    [(SOURCE_CELL, workdir.passwords_file)])
    vip, net = _mysql_vip(deployment)
    lines += _assoc('SOURCE_MARIADB_IP', [(SOURCE_CELL, vip or '')],
                    'the Galera VIP on %s' % net)
    galera = [(h.canonical_hostname, h.ip(net))
              for h in deployment.group_hosts('mysql')]
    lines += _assoc('SOURCE_GALERA_MEMBERS_%s' % SOURCE_CELL.upper(), galera)
    for cell in cells:
        hosts = [h for g in groups if g.cell == cell for h in g.hosts]
        lines += _assoc('COMPUTES_%s' % cell.upper(), [
            (h.canonical_hostname, h.ctlplane_ip) for h in hosts])
        lines += _assoc('COMPUTES_API_%s' % cell.upper(), [
            (h.canonical_hostname, h.ip('internal_api')) for h in hosts])
    networkers = [h for g in groups if g.kind == plan.NETWORKER
                  for h in g.hosts]
    if networkers:
        lines += _assoc('networkers', [(h.canonical_hostname, h.ctlplane_ip)
                                       for h in networkers])
    # The compute cells' NodeSets, as the procedure builds $NODESETS (the
    # networkers have Deployments of their own). NodeSet names are DNS
    # labels: nothing to quote inside.
    names = ', '.join("'%s'" % g.name for g in groups
                      if g.kind == plan.COMPUTE)
    lines.append('NODESETS="[%s]"' % names)
    if embedded is None:
        lines.append('. "$(dirname "${BASH_SOURCE[0]}")/secrets/%s"'
                     % PASSWORDS_FILE)
    else:
        lines.append(embedded.rstrip('\n'))
    return '\n'.join(lines) + '\n'
