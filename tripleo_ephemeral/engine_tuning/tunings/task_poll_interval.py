"""The TaskRunner's hard-coded 1 s sleep between progress checks."""


def install_task_poll_interval(patches, task_poll_interval):
    """Replace the 1 s TaskRunner sleep between progress checks."""
    from heat.engine import scheduler

    stock_sleep = scheduler.TaskRunner._sleep

    def _sleep(self, wait_time):
        stock_sleep(self, task_poll_interval if wait_time == 1
                    else wait_time)

    patches.replace(scheduler.TaskRunner, '_sleep', _sleep)
