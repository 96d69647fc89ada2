#!/usr/bin/python
# -*- coding: utf-8 -*-
"""tripleo-ephemeral's ``pacemaker_cluster`` Ansible module.

ansible-pacemaker (an RDO RPM, not on PyPI) has the module
tripleo-heat-templates' Pacemaker upgrade tasks call (``state=online
check_and_fail=true``, ``state=offline``); this one has its interface as
that project documents it, driving ``pcs``, and is found only where no
other is: in ansible-core 2.14 a ``pacemaker_cluster`` found nowhere is sent
to community.general's, whose options are others (no ``check_and_fail``).
It runs on the overcloud's hosts (Python 3.6 and later).
"""

import time

from ansible.module_utils.basic import AnsibleModule


DOCUMENTATION = r'''
---
module: pacemaker_cluster
short_description: Start, stop or check a Pacemaker cluster with pcs
description:
  - tripleo-ephemeral's stand-in for ansible-pacemaker's module of the same
    name, used only when no other is installed.
options:
  state:
    description:
      - C(online) starts the cluster (C(pcs cluster start)), C(offline)
        stops it (C(pcs cluster stop)), C(restart) does both, C(cleanup)
        runs C(pcs resource cleanup).
    required: true
    choices: [online, offline, restart, cleanup]
    type: str
  check_and_fail:
    description: Only check that the cluster is in I(state): fail if not.
    default: false
    type: bool
  node:
    description: The node to start or stop (C(all) for every node);
      default this host.
    type: str
  timeout:
    description: Seconds to wait for the cluster to reach I(state).
    default: 300
    type: int
  force:
    description: Stop with C(--force) (also when it would lose quorum).
    default: true
    type: bool
'''

EXAMPLES = r'''
- name: Check pacemaker cluster running before upgrade
  pacemaker_cluster: state=online check_and_fail=true
'''

RETURN = r'''
out:
  description: The state of the cluster on this host (online, offline).
  returned: success
rc:
  description: 0 when done.
  returned: always
  type: int
'''

#: How often a wait looks again (seconds).
POLL = 1.0


def cluster_state(module):
    """'online' when the cluster runs on this host, else 'offline' (what
    ``pcs cluster status`` tells, from crm_mon without pcs's start-up)."""
    crm_mon = module.get_bin_path('crm_mon', required=True)
    rc, _, _ = module.run_command([crm_mon, '--one-shot'])
    return 'online' if rc == 0 else 'offline'


def set_state(module, pcs, state, params):
    argv = [pcs, 'cluster', 'start' if state == 'online' else 'stop']
    node = params['node']
    if node == 'all':
        argv.append('--all')
    elif node:
        argv.append(node)
    if state == 'offline' and params['force']:
        argv.append('--force')
    rc, out, err = module.run_command(argv)
    if rc != 0:
        module.fail_json(msg='%s failed: %s' % (
            ' '.join(argv[1:]), (err or out).strip()), rc=rc, output=out,
            error=err)
    if node and node != 'all':
        return  # another host: this one's state tells nothing
    deadline = time.time() + params['timeout']
    while cluster_state(module) != state:
        if time.time() >= deadline:
            module.fail_json(msg='The cluster did not become %s within %d '
                             's' % (state, params['timeout']), rc=1)
        time.sleep(POLL)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            state=dict(type='str', required=True,
                       choices=['online', 'offline', 'restart', 'cleanup']),
            check_and_fail=dict(type='bool', default=False),
            node=dict(type='str', default=None),
            timeout=dict(type='int', default=300),
            force=dict(type='bool', default=True),
        ),
        supports_check_mode=True)
    params = module.params
    state = params['state']
    pcs = module.get_bin_path('pcs', required=True)
    current = cluster_state(module)

    if state == 'cleanup':
        if not module.check_mode:
            rc, out, err = module.run_command([pcs, 'resource', 'cleanup'])
            if rc != 0:
                module.fail_json(msg='pcs resource cleanup failed: %s' % (
                    (err or out).strip()), rc=rc, output=out, error=err)
        module.exit_json(changed=True, out=current, rc=0)
    if state in ('online', 'offline') and current == state:
        module.exit_json(changed=False, out=current, rc=0)
    if params['check_and_fail'] and state in ('online', 'offline'):
        module.fail_json(msg='The cluster is %s on this host, not %s' % (
            current, state), out=current, rc=1)
    if module.check_mode:
        module.exit_json(changed=True, out=current, rc=0)
    if state == 'restart':
        set_state(module, pcs, 'offline', params)
        set_state(module, pcs, 'online', params)
    else:
        set_state(module, pcs, state, params)
    module.exit_json(changed=True, out=cluster_state(module), rc=0)


if __name__ == '__main__':
    main()
