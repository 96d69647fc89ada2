"""The step model: directories, commands, what a step creates."""

import pytest

from tripleo_ephemeral.rhoso import steps

SOURCE = steps.Source('openstack-k8s-operators/data-plane-adoption',
                      'd222e6163d04ffcd355321187b6b545632e0d0ba',
                      'docs_user/modules/x.adoc', '744-748')


def _doc(kind, name):
    return steps.Document('%s.yaml' % name, {'kind': kind,
                                             'metadata': {'name': name}})


def test_a_step_applies_its_directory_and_its_patches():
    step = steps.Step(53, 'nodesets', 'NodeSets', SOURCE,
                      documents=[_doc('OpenStackDataPlaneNodeSet', 'a')],
                      patches=[steps.Patch('nova-patch', {'spec': {}},
                                           'oc patch x --patch-file {path}',
                                           'the patch')],
                      waits=['oc wait'])
    assert step.directory == '53-nodesets'
    assert step.commands == ['oc apply -f 53-nodesets/',
                             'oc patch x --patch-file 53-nodesets/nova-patch']
    assert step.creates() == ['OpenStackDataPlaneNodeSet a']
    assert SOURCE.text() == ('openstack-k8s-operators/data-plane-adoption@'
                             'd222e616:docs_user/modules/x.adoc lines '
                             '744-748')


def test_a_step_of_commands_only():
    step = steps.Step(50, 'netconfig', 'NetConfig', SOURCE,
                      documents=[_doc('NetConfig', 'n')],
                      commands=['oc create -f {dir}/'])
    assert step.commands == ['oc create -f 50-netconfig/']


@pytest.mark.parametrize('make', [
    lambda: steps.Step(5, 'x', 't', SOURCE),
    lambda: steps.Step(50, 'X_y', 't', SOURCE),
    lambda: steps.Document('a.yml', {}),
    lambda: steps.Document('../a.yaml', {}),
    lambda: steps.Patch('p.yaml', {}, 'oc patch', 'w'),
    lambda: steps.Patch('p.json', {}, 'oc patch', 'w'),
])
def test_what_oc_apply_would_misread_is_refused(make):
    with pytest.raises(ValueError):
        make()


def test_the_kit_keeps_the_procedure_order():
    kit = steps.Kit()
    kit.add(steps.Step(54, 'b', 't', SOURCE, [_doc('X', 'two')]))
    kit.add(steps.Step(12, 'control', 't', SOURCE, [_doc('Y', 'one')]))
    assert [s.directory for s in kit.steps()] == ['12-control', '54-b']
    assert [p for p, _ in kit.documents()] == ['12-control/one.yaml',
                                               '54-b/two.yaml']
    assert kit.step('b').number == 54
    with pytest.raises(ValueError, match='step 54 is already 54-b'):
        kit.add(steps.Step(54, 'c', 't', SOURCE))
    with pytest.raises(ValueError, match='has one.yaml twice'):
        kit.add(steps.Step(55, 'd', 't', SOURCE,
                           [_doc('X', 'one'), _doc('Y', 'one')]))
