"""The in-memory message bus's listeners woken when a message arrives."""

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import FAKE_BUS
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


#: How long an idle in-memory bus listener waits before it looks again
#: anyway (and sees a stop): the stock listener's sleep.
BUS_LISTENER_LONGEST_WAIT = 0.05


def install(patches: Patches) -> None:
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


SHIM = Shim(
    'in_process_bus_wakeup', install, checked_on=FAKE_BUS,
    when='in_process',
    options=(Option(
        'in_process_bus_wakeup', 'bool', False, True,
        help='With every engine in this process: wake the in-memory '
             'bus\'s listeners when a message arrives instead of '
             'every 50 ms (each API request and engine RPC waited up '
             'to that long to be taken).'),),
    targets=(
        target('oslo_messaging._drivers.impl_fake.FakeListener.poll',
               'e80783bfaa40f0f7'),
        target('oslo_messaging._drivers.impl_fake.FakeListener.'
               '__init__', '59c0a4f9be3ba8d4'),
        target('oslo_messaging._drivers.impl_fake.FakeExchange.'
               'deliver_message', '18546e5c1df20bad'),
        target('oslo_messaging._drivers.impl_fake.FakeExchange.poll',
               'f3e44d4c7d1ca4de')))
