"""Many threads reporting into one convergence sync point at once, as the
engines finishing the members of one group do; used against SQLite by the
unit tests and against MariaDB by the functional ones."""

import threading


def sync_from_threads(threads=8, rounds=6):
    """Return (merged input data, writes tried, writes refused, every
    predecessor reported)."""
    from heat.common import context
    from heat.db import api as db_api
    from heat.engine import sync_point

    cnxt = context.get_admin_context()
    template = db_api.raw_template_create(
        cnxt, {'template': {}, 'files': {}, 'environment': {}})
    db_api.stack_create(cnxt, dict(
        id='stack-id', name='s', raw_template_id=template.id, username='u',
        tenant='admin', action='CREATE', status='IN_PROGRESS',
        status_reason='', convergence=True, disable_rollback=True))
    sync_point.create(cnxt, 'stack-id', 'trav', True, 'stack-id')
    predecessors = {('r%d-%d' % (t, n), True)
                    for t in range(threads) for n in range(rounds)}
    writes, refused = [], []
    stock_write = sync_point.update_input_data

    def counting_write(*args, **kwargs):
        rows = stock_write(*args, **kwargs)
        writes.append(1)
        if not rows:
            refused.append(1)
        return rows

    def work(t):
        for n in range(rounds):
            sync_point.update_sync_point(
                context.get_admin_context(), 'stack-id', 'trav', True,
                predecessors, {('r%d-%d' % (t, n), True): n})

    sync_point.update_input_data = counting_write
    try:
        workers = [threading.Thread(target=work, args=(t,))
                   for t in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    finally:
        sync_point.update_input_data = stock_write
    merged = sync_point.deserialize_input_data(
        sync_point.get(cnxt, 'stack-id', 'trav', True).input_data)
    return merged, len(writes), len(refused), predecessors
