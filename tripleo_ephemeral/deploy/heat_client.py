"""A heatclient for a launcher's keystoneauth session."""

from heatclient import client as heat_client


def make_client(session, endpoint=None):
    """Orchestration v1 client; ``endpoint`` overrides the catalog."""
    kwargs = {'session': session, 'service_type': 'orchestration'}
    if endpoint:
        kwargs['endpoint_override'] = endpoint
    return heat_client.Client('1', **kwargs)
