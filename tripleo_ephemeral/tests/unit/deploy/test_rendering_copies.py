"""--output-dir/--config-dir: copies of the rendered project."""

from tripleo_ephemeral.deploy import rendering


def test_copies_replace_what_was_there(tmp_path):
    project = tmp_path / 'work' / 'config-download' / 'oc'
    (project / 'group_vars').mkdir(parents=True)
    (project / 'group_vars' / 'Compute').write_text('new')
    out = tmp_path / 'out'
    (out / 'oc').mkdir(parents=True)
    (out / 'oc' / 'stale.yaml').write_text('old')
    said = []
    rendering.copy_project(str(project), [str(out), str(tmp_path / 'cfg')],
                           'oc', said.append)
    for dest in (out / 'oc', tmp_path / 'cfg' / 'oc'):
        assert (dest / 'group_vars' / 'Compute').read_text() == 'new'
        assert not (dest / 'stale.yaml').exists()
    assert said == ['config-download copied to %s' % (out / 'oc'),
                    'config-download copied to %s' % (tmp_path / 'cfg' / 'oc')]
    assert (project / 'group_vars' / 'Compute').exists()  # kept
