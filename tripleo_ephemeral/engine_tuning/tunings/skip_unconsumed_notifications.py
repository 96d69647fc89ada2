"""Notifications and event dispatches nobody consumes, not built."""


def install_skip_unconsumed_notifications(patches):
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
