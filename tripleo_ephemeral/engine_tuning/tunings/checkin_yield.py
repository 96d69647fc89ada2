"""No ``sleep(0)`` each time oslo.db checks a connection in."""


def install_checkin_yield(patches):
    """No ``sleep(0)`` each time oslo.db checks a connection in.

    It is there for eventlet: with real threads it only hands the
    interpreter to another thread, a thousand times a second. Must be made
    before Heat's first query.
    """
    from heat.db import api as db_api

    db_api.context_manager.configure(thread_checkin=False)

    def restore():
        if not db_api.context_manager.is_started:
            db_api.context_manager.configure(thread_checkin=True)

    patches.on_undo(restore)
