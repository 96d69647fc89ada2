"""ResourceChain's pace: how many members of a concurrent chain are
created at once."""

import types

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


def install(patches: Patches, resource_chain_concurrency: int) -> None:
    """Create up to this many members of a concurrent ResourceChain at once.

    Heat allows as many as there are running engines: one at a time on a
    single engine.
    """
    from heat.engine.resources.openstack.heat import resource_chain

    stock = resource_chain.service_objects

    class Service:
        @staticmethod
        def active_service_count(context):
            return max(resource_chain_concurrency,
                       stock.Service.active_service_count(context))

    patches.replace(resource_chain, 'service_objects',
                    types.SimpleNamespace(Service=Service))


SHIM = Shim(
    'resource_chain_concurrency', install, checked_on=HEAT,
    options=(Option(
        'resource_chain_concurrency', 'int', 0, 16, min=0,
        help='Members of a concurrent OS::Heat::ResourceChain created '
             'at once. Heat allows as many as there are running '
             'engines (0 keeps that rule), which creates the chain one '
             'member at a time on a single engine.'),),
    # Read by ResourceChain.child_template.
    targets=(target(
        'heat.engine.resources.openstack.heat.resource_chain.'
        'service_objects', '7023f7e7462b3274'),))
