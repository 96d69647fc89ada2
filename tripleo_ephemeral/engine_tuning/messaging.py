"""A stopping engine's idle message bus listeners (the pod's RabbitMQ)
and idle RPC worker threads."""


def install_rpc_idle_poll_max(patches, rpc_idle_poll_max):
    """Cap how long an idle oslo.messaging AMQP listener waits before it
    looks again (and so sees that its server is stopping).

    The wait doubles while nothing arrives, up to a hard-coded 5 s; a
    Heat engine stops its three RPC servers one after another, each at
    its listener's next look, so an idle pod engine took 5-7 s to stop.
    A busy listener never waits that long, so this changes nothing while
    Heat works.
    """
    from oslo_messaging._drivers import amqpdriver
    # Its kombu_reconnect_delay option takes its maximum from the stock
    # value when the module is imported: import it first.
    from oslo_messaging._drivers import impl_rabbit  # noqa: F401

    patches.replace(amqpdriver, 'ACK_REQUEUE_EVERY_SECONDS_MAX',
                    rpc_idle_poll_max)


def install_prompt_executor_stop(patches):
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

    def shutdown(self, wait=True):
        if wait:
            self._work_queue.join()
        stock_shutdown(self, wait=False)
        for _worker in list(self._workers):
            self._work_queue.put(_utils.WorkItem(
                futurist.Future(), _nothing, (), {}))
        if wait:
            for worker in list(self._workers):
                worker.join()

    patches.replace(futurist.ThreadPoolExecutor, 'shutdown', shutdown)


def _nothing():
    return None
