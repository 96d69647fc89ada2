"""Inspecting a saved dump without Heat agrees with a restored Heat."""


def test_saved_stacks_and_resources_match_restored_heat(cli, dumped):
    saved_stacks = cli.json('tripleo', 'saved', 'stack', 'list',
                            '--work-dir', str(dumped))
    saved_resources = cli.json('tripleo', 'saved', 'resource', 'list',
                               'demo', '-n', '2', '--work-dir', str(dumped))
    cli.json('tripleo', 'launch', 'heat', '--work-dir', str(dumped),
             '--restore-db')
    try:
        heat = {'OS_CLOUD': 'heat'}
        live_stacks = cli.json('stack', 'list', env=heat)
        live_resources = cli.json('stack', 'resource', 'list', 'demo', '-n',
                                  '2', env=heat)
    finally:
        cli.run('tripleo', 'launch', 'heat', '--work-dir', str(dumped),
                '--kill')

    def stacks(rows):
        return sorted((r['ID'], r['Stack Name'], r['Stack Status'],
                       r['Creation Time']) for r in rows)
    assert stacks(saved_stacks) == stacks(live_stacks)

    def resources(rows):
        return sorted((r['resource_name'], r['resource_type'],
                       r['resource_status'], r['physical_resource_id'],
                       r['stack_name']) for r in rows)
    assert len(saved_resources) == 1 + 3 + 3 * 2
    assert resources(saved_resources) == resources(live_resources)


def test_missing_dump_is_a_one_line_error(cli, tmp_path):
    proc = cli.run('tripleo', 'saved', 'stack', 'list', '--work-dir',
                   str(tmp_path / 'nothing'), check=False)
    assert proc.returncode != 0
    assert 'No database dump' in proc.stderr
    assert 'Traceback' not in proc.stderr
