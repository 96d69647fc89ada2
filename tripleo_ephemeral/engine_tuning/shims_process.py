"""The shims of the process around the engine (:mod:`.registry`'s part).

The message bus listeners (a native Heat's in-memory bus too) and the RPC
server's stop (:mod:`.messaging`), and the garbage collector
(:mod:`.collector`). No Heat here.
"""

from tripleo_ephemeral.engine_tuning.spec import FAKE_BUS
from tripleo_ephemeral.engine_tuning.spec import FUTURIST
from tripleo_ephemeral.engine_tuning.spec import OSLO_MESSAGING
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target

SHIMS = (
    Shim(
        'rpc_idle_poll_max', 'rpc_idle_poll_max', checked_on=OSLO_MESSAGING,
        when='message_bus',
        options=(Option(
            'rpc_idle_poll_max', 'float', 5.0, 0.5, min=0.01,
            help='Longest wait, in seconds, of an idle message bus '
                 'listener before it looks again (oslo.messaging '
                 'hard-codes 5). A stopping engine finishes its listeners '
                 'one after another, each at its next look.'),),
        # Read by AMQPListener.poll and ReplyWaiter.poll.
        targets=(target(
            'oslo_messaging._drivers.amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MAX',
            '6f66880043a2d44d'),)),
    Shim(
        'in_process_bus_wakeup', 'in_process_bus_wakeup', checked_on=FAKE_BUS,
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
                   'f3e44d4c7d1ca4de'))),
    Shim(
        'prompt_executor_stop', 'prompt_executor_stop', checked_on=FUTURIST,
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
                   '10188dc6624f7de3'))),
    Shim(
        # Python's public gc module: nothing to fingerprint.
        'gc_freeze', 'gc_freeze', stage='started',
        untargeted='calls Python\'s documented gc.freeze() (undone by '
                   'gc.unfreeze()): no code is replaced',
        options=(Option(
            'gc_freeze', 'bool', False, True,
            help='Move every object that exists once Heat has started out '
                 'of the garbage collector\'s reach (gc.freeze): full '
                 'collections then scan only what came after.'),)),
    Shim(
        'gc_thresholds', 'gc_thresholds', stage='started',
        untargeted='calls Python\'s documented gc.set_threshold() (undone '
                   'with the stock thresholds): no code is replaced',
        options=(Option(
            'gc_thresholds', 'list', '', '10000,20,20',
            help='Thresholds of Python\'s cyclic garbage collector, '
                 'generation 0,1,2 (empty: Python\'s 700,10,10).'),)),
)
