"""What every command of the plugin shares: the deploy commands' start."""

import gc

from tripleo_ephemeral.commands import base


def test_deploy_started_freezes_the_start_once_and_starts_the_clock():
    phases = base.deploy_started()
    frozen = gc.get_freeze_count()
    assert frozen > 0
    assert set(phases.values()) <= {'startup'}  # where /proc tells
    garbage = [[] for _ in range(1000)]
    base.deploy_started()  # once a process: what came after stays
    assert gc.get_freeze_count() == frozen
    del garbage
