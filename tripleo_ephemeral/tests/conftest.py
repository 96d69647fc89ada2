"""Fixtures shared by every test."""

import pytest


@pytest.fixture(scope='session')
def tht_dir(tmp_path_factory):
    """tripleo-heat-templates 18.0.0: the installed copy, else one the
    session downloads itself (``python3 tools/dev.py test`` installs them
    into the venv first, so that is a one-time cost)."""
    from tripleo_ephemeral import exceptions
    from tripleo_ephemeral import process
    from tripleo_ephemeral import tht

    try:
        path = tht.find()
        if tht.installed_version(path) in (None, tht.VERSION):
            return path
    except exceptions.TemplatesNotFoundError:
        pass
    dest = tmp_path_factory.mktemp('tht') / tht.DIR_NAME
    path, _ = tht.install(process.ProcessRunner(), dest=str(dest))
    return path
