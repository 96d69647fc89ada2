"""A stopping RPC server's idle worker threads woken at once."""

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import FUTURIST
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


def install(patches: Patches) -> None:
    """Wake a stopping RPC server's idle worker threads at once.

    oslo.messaging's threading executor (futurist's ThreadPoolExecutor)
    stops its workers by a flag each idle worker reads only when its wait
    for work times out, after up to a second (futurist hard-codes it):
    once an engine had served requests, its stop spent that second in the
    first server's ``wait``. Shut down as futurist does (the queued work
    first, then every worker flagged), then give each worker a no-op item:
    it wakes, runs it, sees the flag and ends.
    """
    import futurist
    from futurist import _utils

    stock_shutdown = futurist.ThreadPoolExecutor.shutdown

    def shutdown(self, wait=True, **kwargs):
        # futurist 3.3's cancel_futures goes to its shutdown (which ignores
        # it) as the caller gave it.
        if wait:
            self._work_queue.join()
        stock_shutdown(self, wait=False, **kwargs)
        for _worker in list(self._workers):
            self._work_queue.put(_utils.WorkItem(
                futurist.Future(), _nothing, (), {}))
        if wait:
            for worker in list(self._workers):
                worker.join()

    patches.replace(futurist.ThreadPoolExecutor, 'shutdown', shutdown)


def _nothing():
    return None


SHIM = Shim(
    'prompt_executor_stop', install, checked_on=FUTURIST,
    options=(Option(
        'prompt_executor_stop', 'bool', False, True,
        help='Wake a stopping RPC server\'s idle worker threads at '
             'once (futurist\'s look at them every second made an '
             'engine that had served requests take a second more to '
             'stop).'),),
    targets=(
        # 3.3 added a cancel_futures argument its code ignores.
        target('futurist._futures.ThreadPoolExecutor.shutdown',
               '2d11e6e4441d90e3', '5c27058da7c091ce'),
        target('futurist._thread.ThreadWorker._wait_for_work',
               '0d6634d8f47cb651'),
        target('futurist._thread.ThreadWorker.run',
               '10188dc6624f7de3')))
