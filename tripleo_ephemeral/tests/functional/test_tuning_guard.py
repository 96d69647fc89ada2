"""The engine tuning's guard on a Heat whose code differs from the one a
shim was checked on: that shim stays off with one warning, the others are
installed, and Heat works.

The runner is started as a user would (``openstack tripleo launch heat``)
with a ``sitecustomize`` on its ``PYTHONPATH`` that swaps Heat's template
parser, right after ``heat.engine.template`` is imported, for a function
of other source (which calls Heat's and leaves a mark): another Heat, as
far as the ``fast_template_parse`` shim can tell.
"""

import json
import os

SITECUSTOMIZE = '''\
import importlib.abc
import importlib.machinery
import os
import sys


def _patch(module):
    stock = module.parse
    marker = os.environ['TUNING_GUARD_MARKER']

    def parse(functions, stack, snippet, path='', template=None):
        if not os.path.exists(marker):
            open(marker, 'w').close()
        return stock(functions, stack, snippet, path, template)

    module.parse = parse


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != 'heat.engine.template':
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        exec_module = spec.loader.exec_module

        def patched(module):
            exec_module(module)
            _patch(module)

        spec.loader.exec_module = patched
        return spec


sys.meta_path.insert(0, _Finder())
'''


def test_a_changed_target_turns_its_shim_off_and_heat_works(
        cli, heat_dir, port, demo_templates, tmp_path):
    site = tmp_path / 'site'
    site.mkdir()
    (site / 'sitecustomize.py').write_text(SITECUSTOMIZE)
    marker = tmp_path / 'stock-parse-used'
    pythonpath = os.pathsep.join(
        [str(site)] + [p for p in [os.environ.get('PYTHONPATH')] if p])
    launched = cli.run('tripleo', 'launch', 'heat', '--heat-type', 'native',
                       '--heat-dir', str(heat_dir), '--heat-api-port',
                       str(port), '-f', 'json',
                       env={'PYTHONPATH': pythonpath,
                            'TUNING_GUARD_MARKER': str(marker)})
    # The operator sees the refused tuning: one stderr line, and the result.
    assert [line for line in launched.stderr.splitlines()
            if 'engine tuning' in line] == [
        line for line in launched.stderr.splitlines()
        if line.startswith('WARNING: engine tuning fast_template_parse is '
                           'off: ')], launched.stderr
    tunings = json.loads(launched.stdout)['engine_tunings']
    assert list(tunings['refused']) == ['fast_template_parse']
    assert 'fast_template_parse' not in tunings['installed']

    heat = {'OS_CLOUD': 'heat'}
    cli.run('stack', 'create', '-t', str(demo_templates / 'demo.yaml'),
            '--parameter', 'count=3', 'demo', '--wait', env=heat)
    assert cli.json('stack', 'show', 'demo', env=heat)[
        'stack_status'] == 'CREATE_COMPLETE'
    assert marker.exists()  # Heat parsed with its own (changed) parser

    cli.json('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
             '--kill')
    log = (heat_dir / 'log' / 'heat.log').read_text()
    warned = [line for line in log.splitlines()
              if 'WARNING' in line and 'Engine tuning' in line]
    assert len(warned) == 1, warned
    # The runner's report of each stage names it as refused.
    assert any('Engine tunings after stage' in line and
               'refused fast_template_parse' in line
               for line in log.splitlines()), log
    assert 'Engine tuning fast_template_parse is off' in warned[0]
    assert 'heat.engine.template.parse differs' in warned[0]
    assert ('checked on openstack-heat 26.0.2, openstack-heat 27.0.1'
            in warned[0])
    assert 'Traceback' not in log


def test_without_a_change_every_shim_is_installed(cli, heat_dir, port):
    """The same runner on the installed Heat warns of nothing."""
    cli.json('tripleo', 'launch', 'heat', '--heat-type', 'native',
             '--heat-dir', str(heat_dir), '--heat-api-port', str(port))
    cli.json('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
             '--kill')
    log = (heat_dir / 'log' / 'heat.log').read_text()
    assert not [line for line in log.splitlines()
                if 'WARNING' in line and 'Engine tuning' in line]
    assert 'refused none' in log


def test_heat_tuning_stock_runs_no_shim(cli, heat_dir, port):
    """--heat-tuning stock: Heat's own code, no shim installed, nothing
    refused (troubleshooting, comparison)."""
    launched = cli.run('tripleo', 'launch', 'heat', '--heat-type', 'native',
                       '--heat-dir', str(heat_dir), '--heat-api-port',
                       str(port), '--heat-tuning', 'stock', '-f', 'json')
    tunings = json.loads(launched.stdout)['engine_tunings']
    cli.json('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
             '--kill')
    assert 'engine tuning' not in launched.stderr
    assert not tunings['refused'], tunings
    assert 'fast_create' not in tunings['installed'], tunings
