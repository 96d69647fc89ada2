from tripleo_ephemeral.ansible import progress as ansible_progress


def events():
    yield {'event': 'playbook_on_play_start', 'event_data': {'play': 'One'}}
    yield {'event': 'runner_on_ok', 'event_data': {
        'host': 'a', 'task': 't1', 'res': {'changed': True}}}
    yield {'event': 'runner_on_skipped', 'event_data': {'host': 'b'}}
    yield {'event': 'playbook_on_play_start', 'event_data': {'play': 'Two'}}
    yield {'event': 'runner_on_failed', 'event_data': {
        'host': 'b', 'task': 'Write', 'ignore_errors': True, 'res': {}}}
    yield {'event': 'runner_on_failed', 'event_data': {
        'host': 'a', 'task': 'Write', 'res': {'results': [
            {'failed': False}, {'failed': True, 'msg': 'Permission\n denied'}
        ], 'msg': 'One or more items failed'}}}
    yield {'event': 'runner_on_unreachable', 'event_data': {
        'host': 'c', 'task': 'Write', 'res': {'msg': 'ssh: timeout'}}}
    yield {'event': 'playbook_on_stats', 'event_data': {
        'ok': {'a': 2}, 'failures': {'a': 1}, 'dark': {'c': 1}}}


def test_lines_and_failures():
    lines = []
    progress = ansible_progress.PlayProgress(lines.append, clock=lambda: 0)
    for event in events():
        progress(event)
    progress.finish()
    assert lines[0] == ('[   0s] PLAY One: ok=0 changed=1 skipped=1 '
                        'failed=0 (0.0s)')
    assert lines[1] == ('[   0s] FAILED a: task "Write": Permission '
                        'denied')
    assert lines[2] == '[   0s] FAILED c: task "Write": unreachable: ssh: ' \
        'timeout'
    assert lines[3].startswith('[   0s] PLAY Two: ok=1 changed=0 skipped=0 '
                               'failed=2')
    assert 'a' in progress.recap and 'failed=1' in progress.recap['a']
    assert [f.host for f in progress.failures] == ['a', 'c']


def test_module_failure_message_names_the_output():
    message = ansible_progress._message({
        'msg': 'Module result deserialization failed',
        'module_stderr': 'Could not chdir to home directory\n',
        'module_stdout': 'This account is currently not available.\n'})
    assert message == (
        'Module result deserialization failed; module stderr: Could not '
        'chdir to home directory; module stdout: This account is currently '
        'not available.')
    assert ansible_progress._message({'rc': 3}) == 'exit status 3'


def test_unreachable_loop_item():
    assert ansible_progress._message({
        'msg': 'All items completed', 'results': [
            {'unreachable': True, 'msg': 'Permission denied (publickey).'}]
    }) == 'Permission denied (publickey).'


def test_an_ignored_unreachable_host_is_unreachable_in_its_recap():
    """A play with ignore_unreachable (the scale playbook): Ansible counts
    the dead host ok and ignored, not dark; its recap line says what the
    FAILED line said."""
    lines = []
    progress = ansible_progress.PlayProgress(lines.append, clock=lambda: 0)
    for event in (
            {'event': 'playbook_on_play_start', 'event_data': {
                'play': 'Scaling'}},
            {'event': 'runner_on_unreachable', 'event_data': {
                'host': 'cmp-1', 'task': 'Gathering Facts',
                'res': {'msg': 'ssh: connect to host: No route to host'}}},
            {'event': 'playbook_on_stats', 'event_data': {
                'ok': {'cmp-1': 2}, 'ignored': {'cmp-1': 1}}}):
        progress(event)
    assert progress.recap['cmp-1'] == ('ok=2 changed=0 unreachable=1 '
                                       'failed=0 skipped=0 ignored=1')
    assert lines[-1].split() == ['cmp-1', 'ok=2', 'changed=0',
                                 'unreachable=1', 'failed=0', 'skipped=0',
                                 'ignored=1']
