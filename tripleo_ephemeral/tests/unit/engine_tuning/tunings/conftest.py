"""Fixtures of the engine tuning tests."""


import pytest


@pytest.fixture
def lazy(install_shim):
    """Install the shim for one test and take it away after."""
    install_shim('lazy_resource_definitions')


@pytest.fixture
def narrow(install_shim):
    from heat.engine import resource
    stock = resource.Resource.referenced_attrs
    install_shim('narrow_referenced_attrs')
    install_shim('narrow_referenced_attrs')  # a second is a no-op
    return stock, resource.Resource.referenced_attrs
