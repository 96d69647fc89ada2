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
        'rpc_idle_poll_max', 'messaging', checked_on=OSLO_MESSAGING,
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
            '8a74fb873d60c013'),)),
    Shim(
        'in_process_bus_wakeup', 'messaging', checked_on=FAKE_BUS,
        when='in_process',
        options=(Option(
            'in_process_bus_wakeup', 'bool', False, True,
            help='With every engine in this process: wake the in-memory '
                 'bus\'s listeners when a message arrives instead of '
                 'every 50 ms (each API request and engine RPC waited up '
                 'to that long to be taken).'),),
        targets=(
            target('oslo_messaging._drivers.impl_fake.FakeListener.poll',
                   '063fbedf727d0566'),
            target('oslo_messaging._drivers.impl_fake.FakeListener.'
                   '__init__', 'e3518514700de507'),
            target('oslo_messaging._drivers.impl_fake.FakeExchange.'
                   'deliver_message', '7d79fceb39059e79'),
            target('oslo_messaging._drivers.impl_fake.FakeExchange.poll',
                   'b19559a706275ace'))),
    Shim(
        'prompt_executor_stop', 'messaging', checked_on=FUTURIST,
        options=(Option(
            'prompt_executor_stop', 'bool', False, True,
            help='Wake a stopping RPC server\'s idle worker threads at '
                 'once (futurist\'s look at them every second made an '
                 'engine that had served requests take a second more to '
                 'stop).'),),
        targets=(
            target('futurist._futures.ThreadPoolExecutor.shutdown',
                   'd83ef86ad48b243e'),
            target('futurist._thread.ThreadWorker._wait_for_work',
                   '09e89c8fdc438598'),
            target('futurist._thread.ThreadWorker.run',
                   'a7d17715d6d8b22d'))),
    Shim(
        # Python's public gc module: nothing to fingerprint.
        'gc_freeze', 'collector', stage='started',
        untargeted='calls Python\'s documented gc.freeze() (undone by '
                   'gc.unfreeze()): no code is replaced',
        options=(Option(
            'gc_freeze', 'bool', False, True,
            help='Move every object that exists once Heat has started out '
                 'of the garbage collector\'s reach (gc.freeze): full '
                 'collections then scan only what came after.'),)),
    Shim(
        'gc_thresholds', 'collector', stage='started',
        untargeted='calls Python\'s documented gc.set_threshold() (undone '
                   'with the stock thresholds): no code is replaced',
        options=(Option(
            'gc_thresholds', 'list', '', '10000,20,20',
            help='Thresholds of Python\'s cyclic garbage collector, '
                 'generation 0,1,2 (empty: Python\'s 700,10,10).'),)),
)
