"""What changing NtpServer does to a real THT 18.0.0 config-download.

Opt-in (two 1+1 stack creates, minutes)::

    TRIPLEO_EPHEMERAL_THT=1 pytest -s \\
        tripleo_ephemeral/tests/functional/test_tht_config_history.py

Deploy the control-plane 1+1 scenario of tools/tht_deploy.py with
--stack-only, then again with NtpServer changed: the diff between the two
renders names only files whose changed lines are the NTP servers, on both
hosts, and the noise of a fresh stack is counted apart. The diff's output
and its time are printed (``-s``).
"""

import os
import time

import yaml

from tripleo_ephemeral.history import changes
from tripleo_ephemeral.history import versions
from tripleo_ephemeral.tests.functional import helpers

NTP = 'ntp.example.com'

pytestmark = helpers.THT_OPT_IN


def _changed_lines(diff):
    return [line for line in diff.splitlines()
            if line[:1] in '+-' and not line.startswith(('+++', '---'))]


def test_ntp_server_change_on_tht_1_1(cli, tmp_path, work_dir, port):
    tool = helpers.tht_tool()
    args = tool.write_inputs(tool.tht_dir(), str(tmp_path), 'ctlplane')
    first = cli.deploy(work_dir, *args, port=port, timeout=3600).result
    env = tmp_path / 'ntp.yaml'
    env.write_text(yaml.safe_dump({'parameter_defaults': {
        'NtpServer': [NTP]}}))
    second = cli.deploy(work_dir, *(args + ['-e', str(env)]), port=port,
                        timeout=3600)
    assert second.result['config_version'] != first['config_version']
    print(second.progress.splitlines()[-1])
    diff = ['overcloud', 'config', 'diff', '--work-dir', str(work_dir),
            '--from', 'HEAD~1']
    started = time.monotonic()
    table = cli.run(*diff)
    seconds = time.monotonic() - started
    print('config diff took %.1fs' % seconds)
    print(table.stdout + table.stderr)
    rows = cli.json(*(diff + ['--unified']))
    print(cli.run(*(diff + ['--unified'])).stdout[:6000])
    files = [r for r in rows if r['Kind'] == 'file']
    assert files
    for row in files:
        # Nothing of substance but the NTP servers changed.
        for line in _changed_lines(row['Diff']):
            assert NTP in line or 'pool.ntp.org' in line or \
                line[1:].strip() in ('', '-', '[', ']', '],'), (
                    row['Name'], line)
    reached = {h for r in files for h in r['Hosts']}
    assert reached == {'overcloud-controller-0', 'overcloud-novacompute-0'}
    assert [r['Name'] for r in rows if r['Kind'] == 'parameter'] == [
        'NtpServer']
    cd = helpers.Layout(work_dir).config_download_dir
    history = versions.ConfigHistory(str(cd))
    started = time.monotonic()
    changes.compare(history, history.resolve('HEAD~1'), history.head())
    seconds = time.monotonic() - started
    size = sum(os.path.getsize(os.path.join(d, f))
               for d, _, names in os.walk(cd / '.git') for f in names)
    print('the comparison alone took %.2fs; history of 2 THT renders: %d '
          'bytes' % (seconds, size))
