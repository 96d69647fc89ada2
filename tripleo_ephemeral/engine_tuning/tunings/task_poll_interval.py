"""The TaskRunner's hard-coded 1 s sleep between progress checks."""

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


def install(patches: Patches, task_poll_interval: float) -> None:
    """Replace the 1 s TaskRunner sleep between progress checks."""
    from heat.engine import scheduler

    stock_sleep = scheduler.TaskRunner._sleep

    def _sleep(self, wait_time):
        stock_sleep(self, task_poll_interval if wait_time == 1
                    else wait_time)

    patches.replace(scheduler.TaskRunner, '_sleep', _sleep)


SHIM = Shim(
    # 0.2 s brought no gain and one 200-member create failed with it
    # under load: the tuned value is Heat's, so it stays off.
    'task_poll_interval', install, checked_on=HEAT,
    options=(Option(
        'task_poll_interval', 'float', 1.0, 1.0, min=0.01,
        help='Seconds between two checks of a resource in progress '
             '(Heat hard-codes 1; a parent checks its nested stack this '
             'often).'),),
    targets=(
        target('heat.engine.scheduler.TaskRunner._sleep',
               '36a3a7b358fbf771'),
        target('heat.engine.scheduler.TaskRunner.__call__',
               '7cc15b672ae3703a'),
        target('heat.engine.scheduler.TaskRunner.run_to_completion',
               'b7ae2402989e7eed')))
