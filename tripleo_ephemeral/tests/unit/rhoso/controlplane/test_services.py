"""What becomes of every service the roles ran; the refusals."""

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import source
from tripleo_ephemeral.rhoso.controlplane import services
from tripleo_ephemeral.tests import rhoso_controlplane_workdir
from tripleo_ephemeral import workdir


def read(tmp_path, **kwargs):
    rhoso_controlplane_workdir.write(str(tmp_path / 'wd'), **kwargs)
    return source.read(workdir.WorkDir(str(tmp_path / 'wd')))


def test_every_service_has_a_fate(deployment):
    fates = services.fates(deployment)
    assert set(fates) == {s for r in deployment.roles.values()
                          for s in r.services}
    assert services.adopted(fates) == [
        'keystone', 'neutron', 'glance', 'placement', 'nova', 'cinder',
        'horizon', 'heat']
    assert fates['mysql'] == services.Fate('backend', 'galera',
                                           ['Controller'])
    assert fates['swift_proxy'].kind == services.LEFT_OUT
    assert fates['swift_proxy'].target == \
        'proc_adopting-the-object-storage-service.adoc'
    assert fates['nova_compute'].kind == services.DATAPLANE
    assert fates['haproxy'].kind == services.REPLACED


def test_skip_service(deployment):
    fates = services.fates(deployment, frozenset(['heat', 'horizon']))
    assert fates['heat_engine'].kind == services.SKIPPED
    assert 'heat' not in services.adopted(fates)
    with pytest.raises(exceptions.RhosoExportError) as e:
        services.fates(deployment, frozenset(['frobnicator']))
    assert str(e.value).startswith(
        '--skip-service frobnicator: stack overcloud runs no service '
        'frobnicator')


def test_unknown_service_refused(tmp_path):
    deployment = read(tmp_path, extra_services=['frobnicator'])
    with pytest.raises(exceptions.RhosoExportError) as e:
        services.fates(deployment)
    assert str(e.value) == (
        'Role Controller runs frobnicator, a service the export does not '
        'know: leave it out knowingly with --skip-service frobnicator, and '
        'adopt it by hand')
    fates = services.fates(deployment, frozenset(['frobnicator']))
    assert fates['frobnicator'].kind == services.SKIPPED


def test_ml2_ovs_refused(tmp_path):
    deployment = read(tmp_path, extra_services=['neutron_ovs_agent'])
    for role in deployment.roles.values():
        role.group_vars['service_names'] = [
            s for s in role.services if s != 'neutron_plugin_ml2_ovn']
    with pytest.raises(exceptions.RhosoExportError) as e:
        services.fates(deployment)
    assert 'adopts ML2/OVN clouds only' in str(e.value)


def test_tht_18_service_names_are_known(tht_dir):
    """Every service THT 18.0.0 names has a fate in the table."""
    import glob
    import re

    names = set()
    for path in glob.glob('%s/deployment/**/*.yaml' % tht_dir,
                          recursive=True):
        with open(path) as f:
            names.update(re.findall(r'^\s+service_name: ([a-z0-9_]+)\s*$',
                                    f.read(), re.M))
    assert len(names) > 150
    unknown = sorted(n for n in names if services._fate(n)[0] is None and
                     n not in services.REFUSED)
    assert unknown == []
