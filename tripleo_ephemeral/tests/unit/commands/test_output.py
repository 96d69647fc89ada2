"""What the commands print (:mod:`tripleo_ephemeral.commands.output`): a
deploy's result, its long values summarised in a table."""

from tripleo_ephemeral.commands import deploy_request
from tripleo_ephemeral.deploy import result


def test_the_result_shows_them_as_one_mapping():
    shown = result.Result('oc', 'DEPLOY_SUCCESS',
                          phase_seconds={'checks': 0.5, 'create': 15.0})
    columns, values = deploy_request.show(shown)
    value = dict(zip(columns, values))['phase_seconds']
    assert value.machine_readable() == {'checks': 0.5, 'create': 15.0}
    # A table summarises (the total, the longest phases); --long: whole.
    assert value.human_readable() == 'total 15.5: checks 0.5, create 15.0'
    columns, values = deploy_request.show(shown, long=True)
    assert 'create=' in dict(zip(columns, values))[
        'phase_seconds'].human_readable()
    many = {'venv': 0.1, 'startup': 2.0, 'checks': 0.5, 'launch': 4.0,
            'create': 15.0, 'render': 1.0}
    columns, values = deploy_request.show(
        result.Result('oc', 'DEPLOY_SUCCESS', phase_seconds=many))
    assert dict(zip(columns, values))['phase_seconds'].human_readable() == (
        'total 22.6: venv 0.1, startup 2.0, launch 4.0, create 15.0, 2 more')
    columns, values = deploy_request.show(result.Result('oc', 'CHECKED'))
    assert dict(zip(columns, values))['phase_seconds'] is None


def test_the_result_names_the_tunings_in_force_and_those_off():
    tunings = {'installed': ['fast_create', 'gc_freeze'],
               'refused': {'prompt_executor_stop': 'futurist differs'},
               'not_needed': {'thread_safe_ast_parse': 'not needed on '
                                                       'Python 3.12.1'}}
    columns, values = deploy_request.show(
        result.Result('oc', 'DEPLOY_SUCCESS', engine_tunings=tunings))
    value = dict(zip(columns, values))['engine_tunings']
    assert value.machine_readable() == tunings
    assert value.human_readable() == (
        '2 in force; refused: prompt_executor_stop; not needed: ... (--long)')
    columns, values = deploy_request.show(
        result.Result('oc', 'DEPLOY_SUCCESS', engine_tunings=tunings),
        long=True)
    value = dict(zip(columns, values))['engine_tunings']
    assert value.human_readable() == (
        'in force: fast_create, gc_freeze\n'
        'refused: prompt_executor_stop (futurist differs)\n'
        'not needed: thread_safe_ast_parse (not needed on Python 3.12.1)')


def test_a_row_wraps_lists_and_dicts_and_keeps_none():
    import dataclasses

    from osc_lib.cli import format_columns

    from tripleo_ephemeral.commands import output

    @dataclasses.dataclass
    class Done:
        stack: str
        hosts: list
        missing: list = None

    columns, values = output.item_row(
        Done('oc', ['c-0', 'c-1']), ('hosts', 'stack', 'missing'),
        {'hosts': format_columns.ListColumn,
         'missing': format_columns.ListColumn})
    assert columns == ('hosts', 'stack', 'missing')
    assert values[0].human_readable() == 'c-0, c-1'
    assert values[0].machine_readable() == ['c-0', 'c-1']
    assert values[1:] == ('oc', None)  # null in -f json, not []
