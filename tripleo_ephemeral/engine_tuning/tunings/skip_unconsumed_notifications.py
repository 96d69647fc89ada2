"""Notifications and event dispatches nobody consumes, not built."""

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


def install(patches: Patches) -> None:
    """Build notifications and event dispatches only for a consumer.

    Every stack state change formats a notification body (a database query
    for the stack's tags among it) that oslo.messaging drops when no
    notification driver is set, and every event starts a thread to hand it
    to the environment's event sinks, usually none.
    """
    from oslo_config import cfg
    from heat.engine.notification import stack as stack_notification
    from heat.engine import stack as heat_stack

    stock_send = stack_notification.send
    stock_dispatch = heat_stack.Stack.dispatch_event

    def send(stack):
        drivers = cfg.CONF.oslo_messaging_notifications.driver
        if drivers and drivers != ['noop']:
            stock_send(stack)

    def dispatch_event(self, ev):
        if self.env.get_event_sinks():
            stock_dispatch(self, ev)

    patches.replace(stack_notification, 'send', send)
    patches.replace(heat_stack.Stack, 'dispatch_event', dispatch_event)


SHIM = Shim(
    'skip_unconsumed_notifications', install, checked_on=HEAT,
    options=(Option(
        'skip_unconsumed_notifications', 'bool', False, True,
        help='Format stack notifications only when a notification '
             'driver is set, and dispatch events only to a stack with '
             'event sinks.'),),
    targets=(
        target('heat.engine.notification.stack.send',
               '992011576afb3e54'),
        target('heat.engine.stack.Stack.dispatch_event',
               '12ef356124643559')))
