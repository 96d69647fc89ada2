"""A stopping engine's idle message bus listeners (the pod's RabbitMQ) look
again sooner."""

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import OSLO_MESSAGING
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


def install(patches: Patches, rpc_idle_poll_max: float) -> None:
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


SHIM = Shim(
    'rpc_idle_poll_max', install, checked_on=OSLO_MESSAGING,
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
        '6f66880043a2d44d'),))
