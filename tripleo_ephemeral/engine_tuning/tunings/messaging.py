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


#: How long an idle in-memory bus listener waits before it looks again
#: anyway (and sees a stop): the stock listener's sleep.
BUS_LISTENER_LONGEST_WAIT = 0.05


def install_in_process_bus_wakeup(patches):
    """Wake an in-memory bus listener when a message arrives.

    oslo.messaging's fake driver (the bus of a native Heat, whose API and
    engines share one process) looks for messages every 50 ms and sleeps
    in between: every API request and every RPC call between engine
    threads waited up to that long before the engine took it. Here a
    delivery notifies a condition the idle listener waits on, at most as
    long as it slept before (so a stop is still seen as soon).
    """
    import threading
    import time

    from oslo_messaging._drivers import base
    from oslo_messaging._drivers import impl_fake

    delivered = threading.Condition()
    count = [0]  # deliveries so far: a listener waits only if none came
    stock_deliver = impl_fake.FakeExchange.deliver_message

    def deliver_message(self, *args, **kwargs):
        stock_deliver(self, *args, **kwargs)
        with delivered:
            count[0] += 1
            delivered.notify_all()

    def take(listener):
        for tgt in listener._targets:
            exchange = listener._exchange_manager.get_exchange(tgt.exchange)
            ctxt, message, reply_q, requeue = exchange.poll(tgt,
                                                            listener._pool)
            if message is not None:
                return impl_fake.FakeIncomingMessage(ctxt, message, reply_q,
                                                     requeue)
        return None

    def poll(self, timeout=None):
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._stopped.is_set():
            with delivered:
                seen = count[0]
            message = take(self)
            if message is not None:
                return message
            wait = BUS_LISTENER_LONGEST_WAIT
            if deadline is not None:
                wait = min(wait, deadline - time.monotonic())
                if wait < 0:
                    return None
            with delivered:
                if count[0] == seen:
                    delivered.wait(wait)
        return None

    patches.replace(impl_fake.FakeExchange, 'deliver_message',
                    deliver_message)
    patches.replace(impl_fake.FakeListener, 'poll',
                    base.batch_poll_helper(poll))
