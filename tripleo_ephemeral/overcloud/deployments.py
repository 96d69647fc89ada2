"""The software deployments of a stack: to which server, by which name, in
which order.

Two kinds reach a server:

* a deployment to the server itself (the bundled templates: a
  ``SoftwareDeployment`` whose ``server`` is the deployed server);
* tripleo-heat-templates' (``OS::Heat::SoftwareDeployment`` mapped to
  ``config-download-software.yaml``): the deployment targets a fake server,
  and an ``OS::Heat::Value`` named ``TripleODeployment`` beside it holds the
  real ``server``, the ``name`` and the ``deployment`` id; tripleo-common's
  config download read these.

Order: tripleo-common 18.0.0 sorted the ``TripleODeployment`` resources by
``creation_time`` (whole seconds), keeping Heat's listing order for ties,
which is the database's row order and not deterministic. Here ties are
broken by the order Heat creates resources in: dependencies first within a
stack, a nested stack's resources before the resource that holds them,
names for independent ones. Deployments created in different seconds come
in time order as in tripleo-common; those created in the same second come
after what they depend on, on every run.
"""

import heapq
import logging

LOG = logging.getLogger(__name__)

#: The depth tripleo-common listed nested resources to.
NESTED_DEPTH = 7
TRIPLEO_DEPLOYMENT = 'TripleODeployment'
TRIPLEO_SOFTWARE_DEPLOYMENT = 'TripleOSoftwareDeployment'


def _input_value(config, name):
    for item in config.get('inputs') or []:
        if item.get('name') == name:
            return item.get('value')
    return None


def _link(resource, rel):
    """The stack id at the end of the ``rel`` link of a listed resource."""
    for link in getattr(resource, 'links', None) or []:
        if link.get('rel') == rel:
            return link['href'].rstrip('/').split('/')[-1]
    return None


def fetch(client, stack_id, wanted):
    """Return the deployments of ``stack_id`` to the servers ``wanted``.

    Each is a dict: the software deployment's fields (``id``,
    ``creation_time``, ...), the real ``server_id``, the
    ``deployment_name`` and its software ``config`` (a dict); oldest first
    (see the module's doc).
    """
    listed = {d.id: d.to_dict() for d in client.software_deployments.list()}
    found = {}
    for dep_id, data in listed.items():
        if data.get('server_id') in wanted:
            config = client.software_configs.get(data['config_id']).to_dict()
            data.update(config=config, deployment_name=(
                config.get('name') or
                _input_value(config, 'deploy_resource_name')))
            found[dep_id] = data
    if stack_id and any(d.get('server_id') not in wanted
                        for d in listed.values()):
        found.update(_tripleo_deployments(client, stack_id, wanted, listed))
    deployments = list(found.values())
    if len(deployments) > 1:
        position = {}
        if stack_id:
            position = creation_order(client.resources.list(
                stack_id, nested_depth=NESTED_DEPTH), stack_id)
        deployments.sort(key=lambda d: (
            d.get('creation_time') or '', position.get(d['id'], len(position)),
            d['deployment_name'] or ''))
    LOG.debug('Fetched %d deployments for %d servers', len(deployments),
              len(wanted))
    return deployments


def _tripleo_deployments(client, stack_id, wanted, listed):
    """The deployments tripleo-heat-templates make through a
    ``TripleODeployment`` value, by software deployment id."""
    found = {}
    for res in client.resources.list(
            stack_id, nested_depth=NESTED_DEPTH, with_detail=True,
            filters={'name': TRIPLEO_DEPLOYMENT}):
        value = (getattr(res, 'attributes', None) or {}).get('value') or {}
        dep_id = value.get('deployment')
        if dep_id and '/' in dep_id:  # the deployment is a nested stack
            dep_id = client.resources.get(
                dep_id.split('/')[-1],
                TRIPLEO_SOFTWARE_DEPLOYMENT).physical_resource_id
        server = value.get('server')
        if server not in wanted or dep_id not in listed:
            LOG.debug('Skipping %s: server %s, deployment %s',
                      res.physical_resource_id, server, dep_id)
            continue
        data = dict(listed[dep_id])
        data.update(
            server_id=server,
            deployment_name=(value.get('name') or
                             getattr(res, 'parent_resource', None)),
            creation_time=res.creation_time,
            config=client.software_configs.get(
                data['config_id']).to_dict())
        found[dep_id] = data
    return found


def creation_order(resources, root_stack_id):
    """``{physical resource id: position}`` in the order Heat creates the
    listed ``resources`` (a nested listing of the stack ``root_stack_id``).
    """
    by_stack = {}
    for res in resources:
        by_stack.setdefault(_link(res, 'stack'), {})[res.resource_name] = res
    order = []

    def visit(stack):
        members = by_stack.get(stack) or {}
        after = {name: list(getattr(res, 'required_by', None) or [])
                 for name, res in members.items()}
        waiting = {name: set() for name in members}
        for name, later_names in after.items():
            for later in later_names:
                if later in waiting:
                    waiting[later].add(name)
        ready = sorted(name for name, before in waiting.items()
                       if not before)
        queued = set(ready)
        while ready:
            name = heapq.heappop(ready)
            emit(members[name])
            for later in after[name]:
                if later in waiting:
                    waiting[later].discard(name)
                    if not waiting[later] and later not in queued:
                        queued.add(later)
                        heapq.heappush(ready, later)
        for name in sorted(set(members) - queued):  # a cycle: Heat refuses
            emit(members[name])

    def emit(res):
        nested = _link(res, 'nested')
        if nested:
            visit(nested)
        order.append(res.physical_resource_id)

    visit(root_stack_id.rstrip('/').split('/')[-1])  # an id or name/id
    return {rid: index for index, rid in enumerate(order) if rid}
