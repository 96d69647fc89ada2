"""No ``sleep(0)`` each time oslo.db checks a connection in."""

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim


def install(patches: Patches) -> None:
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


SHIM = Shim(
    # oslo.db's public thread_checkin setting: nothing to fingerprint.
    'checkin_yield', install, stage='database',
    untargeted='sets oslo.db\'s documented thread_checkin option of '
               'Heat\'s context manager through configure(): no code '
               'is replaced, and a renamed manager fails the install',
    options=(Option(
        'checkin_yield', 'bool', True, False,
        help='Sleep 0 s each time a database connection goes back to '
             'the pool, as oslo.db does for eventlet; with real threads '
             'that only hands the interpreter to another thread.'),))
