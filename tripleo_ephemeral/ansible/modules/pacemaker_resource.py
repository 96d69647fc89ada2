#!/usr/bin/python
# -*- coding: utf-8 -*-
"""tripleo-ephemeral's ``pacemaker_resource`` Ansible module.

ansible-pacemaker (an RDO RPM, not on PyPI) has the module
tripleo-heat-templates' Pacemaker tasks call; this one has its interface
(options, results) as that project documents it, driving ``pcs``, and is
found only where no other ``pacemaker_resource`` is
(:mod:`tripleo_ephemeral.ansible.search_paths` puts this directory last).
It runs on the overcloud's hosts, with their Python (3.6 and later):
ansible-core's module_utils and the standard library only.
"""

import time
import xml.etree.ElementTree as ElementTree

from ansible.module_utils.basic import AnsibleModule


DOCUMENTATION = r'''
---
module: pacemaker_resource
short_description: Manage a Pacemaker resource with pcs
description:
  - tripleo-ephemeral's stand-in for ansible-pacemaker's module of the same
    name, used only when no other is installed. It fails when the cluster
    does not run on the host.
options:
  resource:
    description: The resource's id (a primitive, clone, group or bundle).
    required: true
    type: str
  state:
    description:
      - C(enable), C(disable), C(restart), C(manage), C(unmanage) and
        C(delete) change the resource with C(pcs resource <state>); C(show)
        returns its configuration.
      - C(started), C(stopped), C(master) (C(promoted)) and C(slave)
        (C(unpromoted)) are states to check (I(check_mode)).
    required: true
    choices: [enable, disable, restart, manage, unmanage, delete, show,
              started, stopped, master, slave, promoted, unpromoted]
    type: str
  timeout:
    description: Seconds pcs and I(wait_for_resource) wait for the cluster.
    default: 300
    type: int
  check_mode:
    description: Only check that the resource is in I(state) (fail if not).
    default: false
    type: bool
  wait_for_resource:
    description: Wait, up to I(timeout), for the resource to reach
      I(state) (fail then if it has not).
    default: false
    type: bool
'''

EXAMPLES = r'''
- name: Disable the haproxy cluster resource
  pacemaker_resource:
    resource: haproxy-bundle
    state: disable
    wait_for_resource: true
  register: output
  retries: 5
  until: output.rc == 0
'''

RETURN = r'''
rc:
  description: 0 when done (pcs's exit status when it failed).
  returned: always
  type: int
out:
  description: pcs's output; for a check, or a delete of what is not
    there, a mapping of C(resource) and C(status).
  returned: success
output:
  description: pcs's output, when it failed.
  returned: failure
error:
  description: pcs's error output, when it failed.
  returned: failure
'''

#: What C(pcs resource <state>) changes, and what is only checked.
CHANGES = ('enable', 'disable', 'restart', 'manage', 'unmanage', 'delete')
CHECKS = ('started', 'stopped', 'master', 'slave', 'promoted',
          'unpromoted')
#: Roles of an instance that runs.
RUNNING = ('started', 'promoted', 'unpromoted', 'master', 'slave')
#: How often a wait looks again (seconds).
POLL = 1.0


class Pcs(object):
    """``pcs`` run by the module; the resource as crm_mon shows it (what
    ``pcs status xml`` runs, without pcs's second or two of start-up)."""

    def __init__(self, module):
        self.module = module
        self.path = module.get_bin_path('pcs', required=True)
        self.crm_mon = module.get_bin_path('crm_mon', required=True)

    def run(self, *args):
        return self.module.run_command([self.path] + list(args))

    def status(self, resource):
        """The resource's crm_mon elements and their ancestors' (a
        :class:`Status`), or None when the cluster has no such resource.
        Fails when the cluster does not run on this host."""
        rc, out, err = self.module.run_command([
            self.crm_mon, '--one-shot', '--inactive', '--output-as=xml'])
        if rc != 0:
            msg = 'crm_mon failed: %s' % (err or out).strip()
            down, down_out, down_err = self.run('cluster', 'status')
            if down != 0:
                msg = ('The cluster is not running on this host (pcs '
                       'cluster status: %s)' % (down_err or down_out).strip())
            self.module.fail_json(msg=msg, rc=rc, output=out, error=err,
                                  resource=resource)
        root = ElementTree.fromstring(out)
        parents = dict((child, parent) for parent in root.iter()
                       for child in parent)
        found = [el for el in root.iter()
                 if el.tag in ('resource', 'clone', 'group', 'bundle') and
                 el.get('id', '').split(':')[0] == resource and
                 _in_resources(el, parents)]
        return Status(found, parents) if found else None


def _in_resources(element, parents):
    while element in parents:
        element = parents[element]
        if element.tag == 'resources':
            return True
    return False


class Status(object):
    """What crm_mon says of a resource: its elements (a clone's
    instances...), each with what is inside and above it."""

    def __init__(self, elements, parents):
        self.elements = elements
        self.instances = [r for el in elements for r in el.iter('resource')]
        self.above = []
        for el in elements:
            while el in parents and parents[el].tag != 'resources':
                el = parents[el]
                self.above.append(el)

    def roles(self):
        return set(r.get('role', '').lower() for r in self.instances
                   if r.get('active') == 'true')

    def running(self):
        return bool(self.roles() & set(RUNNING))

    def disabled(self):
        return any(el.get('target_role', '').lower() == 'stopped' or
                   el.get('disabled') == 'true'
                   for el in self.elements + self.instances + self.above)

    def managed(self):
        return all(el.get('managed') != 'false'
                   for el in self.elements + self.instances + self.above)


def in_state(status, state):
    """Whether ``status`` (None: no such resource) is ``state``."""
    if state == 'delete':
        return status is None
    if status is None:
        return False
    roles = status.roles()
    return {
        'started': status.running(),
        'stopped': not status.running(),
        'master': bool(roles & set(['promoted', 'master'])),
        'promoted': bool(roles & set(['promoted', 'master'])),
        'slave': bool(roles & set(['unpromoted', 'slave'])),
        'unpromoted': bool(roles & set(['unpromoted', 'slave'])),
        'enable': not status.disabled() and status.running(),
        'disable': status.disabled() and not status.running(),
        'manage': status.managed(),
        'unmanage': not status.managed(),
    }.get(state, True)  # restart, show: it is there


def wait_for(pcs, resource, state, timeout):
    deadline = time.time() + timeout
    while True:
        status = pcs.status(resource)
        if in_state(status, state):
            return True
        if time.time() >= deadline:
            return False
        time.sleep(POLL)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            resource=dict(type='str', required=True),
            state=dict(type='str', required=True,
                       choices=list(CHANGES) + ['show'] + list(CHECKS)),
            timeout=dict(type='int', default=300),
            check_mode=dict(type='bool', default=False),
            wait_for_resource=dict(type='bool', default=False),
        ),
        supports_check_mode=True)
    params = module.params
    resource, state = params['resource'], params['state']
    timeout = params['timeout']
    result = dict(changed=False, rc=0, resource=resource, state=state)
    pcs = Pcs(module)
    status = pcs.status(resource)  # fails if the cluster does not run

    if params['check_mode'] or state in CHECKS:
        if not params['check_mode']:
            module.fail_json(msg='state=%s is a state to check: add '
                             'check_mode: true (enable or disable start or '
                             'stop it)' % state, **dict(result, rc=1))
        done = in_state(status, state) or wait_for(
            pcs, resource, state,
            timeout if params['wait_for_resource'] else 0)
        if not done:
            result['rc'] = 1
            module.fail_json(msg='The resource %s is not %s' % (
                resource, state), **result)
        result['out'] = dict(resource=resource, status=state)
        module.exit_json(**result)

    if state == 'show':
        rc, out, err = pcs.run('resource', 'config', resource)
        if rc != 0:
            module.fail_json(msg='pcs resource config %s failed' % resource,
                             output=out, error=err, **dict(result, rc=rc))
        module.exit_json(out=out, **result)
    if state == 'delete' and status is None:
        module.exit_json(out=dict(resource=resource, status='deleted'),
                         **result)
    if state != 'restart' and in_state(status, state):
        module.exit_json(out='', **result)  # nothing to change
    result['changed'] = True
    if module.check_mode:
        module.exit_json(out='', **result)

    argv = ['resource', state, resource]
    if state in ('enable', 'disable', 'restart'):
        argv.append('--wait=%d' % timeout)
    rc, out, err = pcs.run(*argv)
    if rc != 0:
        module.fail_json(msg='Failed to %s the resource %s: %s' % (
            state, resource, (err or out).strip()), output=out, error=err,
            **dict(result, rc=rc))
    if state == 'delete' and pcs.status(resource) is not None:
        # pcs's delete is not atomic: what else runs may keep it there.
        module.fail_json(msg='The resource %s is still there after pcs '
                         'resource delete' % resource, output=out,
                         error=err, **dict(result, rc=1))
    if params['wait_for_resource'] and state != 'delete' and \
            not wait_for(pcs, resource,
                         'started' if state == 'restart' else state,
                         timeout):
        module.fail_json(msg='The resource %s did not become %s within %d '
                         's' % (resource, state, timeout), output=out,
                         error=err, **dict(result, rc=1))
    module.exit_json(out=out, **result)


if __name__ == '__main__':
    main()
