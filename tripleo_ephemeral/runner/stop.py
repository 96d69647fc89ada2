"""How the ``tripleo-heat-all`` runner stops its engine: in seconds.

A module of its own (no Heat, no oslo.service backend) so it can be tested
without starting the runner.
"""

import logging
import threading

LOG = logging.getLogger('tripleo-heat-all')


def stop_engine(srv, grace):
    """Stop the engine service, waiting at most ``grace`` seconds.

    Heat's ``EngineService.stop()`` stops the RPC servers and then waits
    until the worker's executor has run every queued check_resource
    message, each of which queues more: on a create in progress it waits
    for the whole create. An ephemeral Heat exits instead: every database
    transaction is atomic, so the database stays consistent with the stack
    IN_PROGRESS, and a Heat started later on it marks stacks whose engine
    is gone FAILED. Returns True when the stop finished within ``grace``.
    """
    done = threading.Event()

    def _stop():
        try:
            srv.stop()
        except Exception:  # logged; the process exits anyway
            LOG.exception('Stopping the engine failed')
        finally:
            done.set()

    threading.Thread(target=_stop, name='engine-stop', daemon=True).start()
    if done.wait(grace):
        return True
    LOG.info('The engine had not stopped %.1fs after the signal (its '
             'listeners stop one after another; resource work may be in '
             'flight): exiting now. Every transaction is complete; a Heat '
             'started on this database marks stacks left in progress '
             'FAILED', grace)
    return False
