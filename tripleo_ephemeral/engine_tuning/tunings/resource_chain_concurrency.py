"""ResourceChain's pace: how many members of a concurrent chain are
created at once."""

import types


def install_resource_chain_concurrency(patches, resource_chain_concurrency):
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
