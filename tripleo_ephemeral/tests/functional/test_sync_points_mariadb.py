"""Convergence sync points on a real MariaDB, as the pod's engines use them.

Heat's sync point update is optimistic: read, merge, write if nobody wrote
in between, else retry after a random wait that grows exponentially up to
60 s. Several engine processes finishing the members of one group at once
collide on the group stack's sync point, and the last one could sleep for
most of a minute (the pod's 200-member creates took 95-171 s, the stack
idle for 30-56 s of it). The tuned engine locks the row when it reads it.
"""

import os
import shutil
import subprocess
import time

import pytest
import sqlalchemy

from tripleo_ephemeral.engine_tuning import guard
from tripleo_ephemeral.tests import sync_point_load


def _binary(*names):
    for name in names:
        path = shutil.which(name) or shutil.which(name, path='/usr/sbin')
        if path:
            return path
    return None


@pytest.fixture(scope='module')
def mariadb_url(tmp_path_factory):
    """A private MariaDB on a unix socket in a temporary directory."""
    server = _binary('mariadbd', 'mysqld')
    install = _binary('mariadb-install-db', 'mysql_install_db')
    if not server or not install:
        pytest.skip('needs MariaDB (tools/ci/setup-system.sh installs it)')
    base = tmp_path_factory.mktemp('mariadb')
    datadir, sock = base / 'data', base / 'mysqld.sock'
    user = ['--user=root'] if os.geteuid() == 0 else []
    subprocess.run([install, '--no-defaults', '--datadir=%s' % datadir,
                    '--auth-root-authentication-method=normal',
                    '--skip-test-db'] + user,
                   check=True, capture_output=True, timeout=120)
    with open(base / 'mariadbd.log', 'wb') as log:
        proc = subprocess.Popen(
            [server, '--no-defaults', '--datadir=%s' % datadir,
             '--socket=%s' % sock, '--skip-networking',
             '--innodb-buffer-pool-size=64M'] + user,
            stdout=log, stderr=subprocess.STDOUT)
    url = 'mysql+pymysql://root@localhost/%s?unix_socket=%s'
    try:
        admin = sqlalchemy.create_engine(url % ('', sock))
        deadline = time.monotonic() + 60
        while True:
            try:
                with admin.connect() as conn:
                    conn.exec_driver_sql('CREATE DATABASE heat')
                break
            except sqlalchemy.exc.OperationalError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        admin.dispose()
        yield url % ('heat', sock)
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def heat_mysql(mariadb_url):
    """Heat's database functions on the MariaDB, in fresh tables."""
    from heat.db import api as db_api
    from heat.db import models
    from oslo_db.sqlalchemy import enginefacade

    factory = enginefacade._TransactionFactory()
    factory.configure(connection=mariadb_url, thread_checkin=False,
                      max_pool_size=20, max_overflow=20)
    reset = db_api.context_manager.patch_factory(factory)
    engine = factory.get_writer_engine()
    models.BASE.metadata.drop_all(engine)
    models.BASE.metadata.create_all(engine)
    yield engine
    reset()
    engine.dispose()


def test_locked_sync_points_never_collide_on_mariadb(heat_mysql):
    assert guard.install_shim('atomic_sync_points') is not None
    try:
        merged, writes, refused, predecessors = (
            sync_point_load.sync_from_threads())
    finally:
        guard.uninstall(['atomic_sync_points'])
    assert set(merged) == predecessors
    assert refused == 0
    assert writes == len(predecessors)


def test_stock_sync_points_collide_on_mariadb(heat_mysql, monkeypatch):
    """What the lock removes: Heat's own optimistic writes are refused
    when threads collide, and each refusal sleeps before the retry."""
    from heat.engine import sync_point
    monkeypatch.setattr(sync_point, 'update_sync_point',
                        sync_point.update_sync_point)
    merged, writes, refused, predecessors = sync_point_load.sync_from_threads()
    assert set(merged) == predecessors
    assert refused > 0 and writes == len(predecessors) + refused
