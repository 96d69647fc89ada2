"""The fast create (``[ephemeral_heat] fast_create``, on by default) is
equal to stock Heat's convergence create, and its saved tree is a normal
convergence tree that a stock Heat restores and updates.

The same ``overcloud deploy --stack-only`` runs with the fast path and
with it off; both dumps are restored into a Heat with stock settings:
same resources (names, types, status, nested stacks), same outputs, same
config-download files (what changes on every create masked). Then the
fast path's tree is updated by that stock Heat with convergence.
Opt-in (``TRIPLEO_EPHEMERAL_THT=1``): the same on THT 1 Controller +
1 Compute, against a create with every engine tuning at stock Heat's
value (so it proves all of them at once, not the fast path alone).
"""

import gzip
import os
import shutil
import sqlite3

import pytest

from tripleo_ephemeral.heat_launcher import tuning
from tripleo_ephemeral.tests.functional import fast_create_compare as compare
from tripleo_ephemeral.tests.functional import helpers

OFF = ('--heat-config-override', 'ephemeral_heat.fast_create=false')
HEAT = {'OS_CLOUD': 'heat'}


def _stock_overrides():
    args = []
    for item in tuning.Tuning.stock().as_overrides():
        args += ['--heat-config-override', item]
    return args


def _convergence_flags(work_dir):
    """{stack name: convergence} of the dump a deploy left."""
    conn = sqlite3.connect(':memory:')
    with gzip.open(helpers.Layout(work_dir).heat_dump, 'rt') as f:
        conn.executescript(f.read())
    return {name: bool(conv) for name, conv in conn.execute(
        'SELECT name, convergence FROM stack WHERE deleted_at IS NULL')}


def _fast_creates(work_dir):
    log = helpers.Layout(work_dir).heat_dir / 'log' / 'heat.log'
    return [line for line in log.read_text().splitlines()
            if 'Fast create of' in line]


def _restored(cli, work_dir, port, stack):
    """Resources and outputs of ``work_dir``'s dump in a stock Heat; the
    Heat keeps running (the caller kills it)."""
    cli.json('tripleo', 'launch', 'heat', '--work-dir', str(work_dir),
             '--heat-api-port', str(port), '--restore-db',
             *_stock_overrides())
    return compare.stack_state(cli, stack, HEAT, work_dir)


def _kill(cli, work_dir):
    cli.run('tripleo', 'launch', 'heat', '--work-dir', str(work_dir),
            '--kill')


def _check_equal_and_updatable(cli, tmp_path, port, deploy_args, stack,
                               stock_args=OFF):
    fast, stock = tmp_path / 'fast', tmp_path / 'stock'
    done = cli.deploy(fast, *deploy_args, port=port, timeout=1800).result
    # the same passwords, given as an operator gives them (-e): a new work
    # dir would draw its own
    passwords = tmp_path / 'fast-passwords.yaml'
    shutil.copy2(helpers.Layout(fast).passwords_file, passwords)
    off = cli.deploy(stock, *(deploy_args + tuple(stock_args)),
                     '-e', str(passwords), port=port, timeout=1800).result
    assert done['stack_status'] == off['stack_status'] == 'CREATE_COMPLETE'
    assert done['resources'] == off['resources']
    created = _fast_creates(fast)
    assert len(created) == 1 and 'CREATE COMPLETE' in created[0], created
    assert _fast_creates(stock) == []
    # the saved tree is a convergence tree, as stock's is
    flags = _convergence_flags(fast)
    assert len(flags) == len(_convergence_flags(stock)) > 1
    assert all(flags.values()), [n for n, c in flags.items() if not c]

    diff = compare.config_download_diff(
        str(helpers.Layout(fast).config_download_dir),
        str(helpers.Layout(stock).config_download_dir))
    assert diff == [], diff[:20]

    try:
        fast_state = _restored(cli, fast, port, stack)
    except Exception:
        _kill(cli, fast)
        raise
    try:
        # a stock Heat (convergence) updates the fast path's tree
        cli.run('stack', 'update', '--existing', '--parameter',
                'DeployIdentifier=fast-create-update', '--wait', stack,
                env=HEAT, timeout=1800)
        shown = cli.json('stack', 'show', stack, env=HEAT)
        assert shown['stack_status'] == 'UPDATE_COMPLETE', shown
        after = compare.stack_state(cli, stack, HEAT, fast)
        assert {r[3] for r in after['resources']} <= {
            'CREATE_COMPLETE', 'UPDATE_COMPLETE'}
    finally:
        _kill(cli, fast)
    try:
        stock_state = _restored(cli, stock, port, stack)
    finally:
        _kill(cli, stock)
    assert fast_state['resources'] == stock_state['resources']
    assert fast_state['outputs'] == stock_state['outputs']
    helpers.assert_no_heat_left(helpers.Layout(fast).heat_dir, port)


@helpers.LONG_OPT_IN
def test_bundled_templates_fast_create_equals_stock(cli, tmp_path, port):
    servers = compare.servers_file(tmp_path)
    _check_equal_and_updatable(
        cli, tmp_path, port, ('--deployed-servers', str(servers)),
        'overcloud')


@pytest.mark.skipif(os.environ.get('TRIPLEO_EPHEMERAL_THT') != '1',
                    reason='THT 18.0.0 (TRIPLEO_EPHEMERAL_THT=1)')
def test_tht_fast_create_equals_stock(cli, tmp_path, port):
    _check_equal_and_updatable(cli, tmp_path, port,
                               compare.tht_deploy_args(tmp_path), 'overcloud',
                               stock_args=_stock_overrides())


def test_realistic_group_fast_create_equals_stock(cli, tmp_path, port):
    """The benchmark's realistic nodes (software configs, structured
    deployments: engine RPC calls from the create's thread)."""
    template = os.path.join(compare.REPO, 'tools', 'bench', 'templates',
                            'realistic.yaml')
    states = []
    for name, extra in (('fast', ()), ('stock', OFF)):
        heat_dir = tmp_path / name
        cli.json('tripleo', 'launch', 'heat', '--heat-type', 'native',
                 '--heat-dir', str(heat_dir), '--heat-api-port', str(port),
                 *extra)
        try:
            cli.run('stack', 'create', '-t', template, '--parameter',
                    'count=5', 'realistic', '--wait', env=HEAT)
            states.append(compare.stack_state(cli, 'realistic', HEAT,
                                              heat_dir))
        finally:
            cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                    '--kill')
        created = [line for line in (heat_dir / 'log' / 'heat.log')
                   .read_text().splitlines() if 'Fast create of' in line]
        assert len(created) == (1 if name == 'fast' else 0), created
    fast, stock = states
    assert len(fast['resources']) > 5 * 5
    assert fast == stock
