"""A fast create's database calls in slices of one transaction each, on
Heat's real database API and a SQLite file."""

import sqlite3
import types

import pytest
import sqlalchemy

from tripleo_ephemeral.engine_tuning.tunings import fast_create
from tripleo_ephemeral.engine_tuning.tunings.fast_create import (
    state as fast_state)
from tripleo_ephemeral.engine_tuning.tunings import (
    fast_create_transactions as fast_transactions)


@pytest.fixture
def tree(heat_db, tmp_path, monkeypatch):
    """A fast create running in this thread (its context) and a count of
    the commits on the database."""
    from heat.common import context

    cnxt = context.get_admin_context()
    monkeypatch.setattr(fast_state.local, 'create',
                        types.SimpleNamespace(context=cnxt), raising=False)
    commits = []

    def commit(conn):
        commits.append(conn)

    sqlalchemy.event.listen(heat_db, 'commit', commit)
    yield cnxt, commits
    sqlalchemy.event.remove(heat_db, 'commit', commit)


def _template(cnxt, name='t'):
    from heat.db import api as db_api
    return db_api.raw_template_create(
        cnxt, {'template': {'heat_template_version': name}, 'files': {}})


def _templates_in(heat_db):
    """Rows another connection sees (committed ones)."""
    path = heat_db.url.database
    conn = sqlite3.connect(path)
    try:
        return conn.execute('SELECT count(*) FROM raw_template').fetchone()[0]
    finally:
        conn.close()


def _run_tree(writes_per_step, steps, inner=None):
    """The root task steps a nested task (as a parent steps its nested
    stack) which writes ``writes_per_step`` templates a step."""
    from heat.engine import scheduler

    cnxt = fast_create.current().context

    def nested_task():
        for _ in range(steps):
            for _ in range(writes_per_step):
                _template(cnxt)
            if inner is not None:
                inner()
            yield

    def root_task():
        runner = scheduler.TaskRunner(nested_task)
        runner.start()
        while not runner.step():
            yield

    scheduler.TaskRunner(root_task)(wait_time=None)


def test_a_slice_is_one_transaction(tree, heat_db, install_shim):
    cnxt, commits = tree
    install_shim('fast_create_transactions',
                 fast_create_transaction_slice=60.0)
    _run_tree(writes_per_step=3, steps=4)
    # stock: a transaction per write (12); here one per step of the root
    assert 1 <= len(commits) <= 5
    assert _templates_in(heat_db) == 12


def test_a_slice_ends_when_its_time_is_up(tree, heat_db, install_shim):
    cnxt, commits = tree
    install_shim('fast_create_transactions',
                 fast_create_transaction_slice=0.0)
    seen = []
    _run_tree(writes_per_step=2, steps=4,
              inner=lambda: seen.append(_templates_in(heat_db)))
    # each nested step after the first sees the previous steps committed
    assert seen[1:] == [2, 4, 6]
    assert _templates_in(heat_db) == 8


def test_outside_a_fast_create_each_call_commits(heat_db, install_shim):
    from heat.common import context
    from heat.engine import scheduler

    install_shim('fast_create_transactions',
                 fast_create_transaction_slice=60.0)
    cnxt = context.get_admin_context()
    seen = []

    def task():
        for _ in range(3):
            _template(cnxt)
            seen.append(_templates_in(heat_db))
            yield

    scheduler.TaskRunner(task)(wait_time=None)
    assert seen == [1, 2, 3]


def test_an_error_keeps_what_the_slice_wrote(tree, heat_db, install_shim):
    install_shim('fast_create_transactions',
                 fast_create_transaction_slice=60.0)

    def fail():
        raise ValueError('a resource failed')

    with pytest.raises(ValueError):
        _run_tree(writes_per_step=2, steps=3, inner=fail)
    assert _templates_in(heat_db) == 2
    assert fast_transactions.current() is None


def test_a_call_with_another_context_does_not_wait_for_the_slice(
        tree, heat_db, install_shim):
    """It would wait for the write lock the slice holds: the slice is
    committed first."""
    from heat.common import context

    install_shim('fast_create_transactions',
                 fast_create_transaction_slice=60.0)
    other = context.get_admin_context()
    _run_tree(writes_per_step=1, steps=2, inner=lambda: _template(other))
    assert _templates_in(heat_db) == 4


def test_reads_come_from_the_database(tree, heat_db, install_shim):
    """Heat updates stacks with a bulk UPDATE that leaves the session's
    objects as they were; a read in the same slice sees the new row (the
    object the session held is refreshed with it)."""
    from heat.db import api as db_api

    cnxt, _commits = tree
    install_shim('fast_create_transactions',
                 fast_create_transaction_slice=60.0)
    tmpl = _template(cnxt)
    stack = db_api.stack_create(cnxt, {
        'name': 's', 'raw_template_id': tmpl.id, 'username': 'u',
        'action': 'CREATE', 'status': 'IN_PROGRESS',
        'disable_rollback': True})
    statuses = []

    def update_then_read():
        held = db_api.stack_get(cnxt, stack.id)  # kept by the session
        db_api.stack_update(cnxt, stack.id, {'status': 'COMPLETE'})
        statuses.append(db_api.stack_get(cnxt, stack.id).status)
        statuses.append(held.status)

    _run_tree(writes_per_step=0, steps=1, inner=update_then_read)
    assert statuses == ['COMPLETE', 'COMPLETE']
