"""`overcloud adoption export|validate` in process: their options and
one-line refusals."""

import io
import os

import fixtures
from osc_lib import exceptions as osc_exceptions
from osc_lib.test import base as osc_base
import yaml

from tripleo_ephemeral.commands import overcloud_adoption_export
from tripleo_ephemeral.commands import overcloud_adoption_validate
from tripleo_ephemeral.commands import rhoso_options
from tripleo_ephemeral import locking
from tripleo_ephemeral.tests import rhoso_workdir


class TestAdoptionCommands(osc_base.TestCommand):

    def setUp(self):
        super().setUp()
        self.app.stderr = io.StringIO()
        self.export = overcloud_adoption_export.ExportAdoption(self.app, None)
        self.validate = overcloud_adoption_validate.ValidateAdoption(
            self.app, None)

    def test_export_defaults(self):
        self.check_parser(self.export, [], [
            ('networkers', []), ('skipped', []), ('cells', {}),
            ('default_cell', 'cell1'), ('network_map', {}),
            ('rhoso_version', None), ('overwrite', False),
            ('embed_secrets', False),
            ('ssh_key_secret', 'dataplane-adoption-secret'),
            ('netconfig', None), ('reservations', []),
            ('dataplane_ranges', []), ('pods_ranges', []),
            ('loadbalancer_ranges', []), ('redhat', False),
            ('rhc_repositories', []), ('ovs_packages', None)])

    def test_network_and_downstream_options(self):
        parsed = self.check_parser(self.export, [
            '--reserve', 'internalapi=172.17.0.200-172.17.0.220,172.17.0.5',
            '--pods-range', 'internalapi=172.17.0.150-172.17.0.179',
            '--dataplane-range', 'tenant=20', '--loadbalancer-range',
            'ctlplane=0', '--redhat', '--rhc-repository', 'repo-a'], [])
        choices = rhoso_options.choices(parsed)
        self.assertEqual(['172.17.0.200-172.17.0.220', '172.17.0.5'], [
            str(r.range) for r in choices.network.reservations[
                'internalapi']])
        self.assertEqual((20, None), (
            choices.network.wants['tenant']['dataplane'].size,
            choices.network.wants['tenant']['dataplane'].ranges))
        self.assertEqual(0, choices.network.wants['ctlplane'][
            'loadbalancers'].size)
        self.assertEqual(('repo-a',), choices.redhat.repositories)
        for args, message in (
                (['--reserve', 'internalapi'], 'write <network>=<value>'),
                (['--pods-range', 'internalapi=1.2.3'], 'is not addresses'),
                (['--redhat'], '--redhat needs the repositories'),
                (['--pods-range', 'a=10', '--pods-range', 'a=20'],
                 '--pods-range a is given twice')):
            parsed = self.check_parser(self.export, args, [])
            self.assertRaisesRegex(osc_exceptions.CommandError, message,
                                   rhoso_options.choices, parsed)

    def test_the_work_dir_is_locked(self):
        tmp = self.useFixture(fixtures.TempDir()).path
        wd = rhoso_workdir.write(os.path.join(tmp, 'wd'))
        out = os.path.join(tmp, 'out')
        parsed = self.check_parser(self.export, [
            '--work-dir', wd, '--output-dir', out, '--networker',
            'Networker', '--skip-role', 'Controller'], [])
        with locking.DirLock(wd, purpose='openstack overcloud delete'):
            self.assertRaisesRegex(
                osc_exceptions.CommandError, r'is in use by pid \d+ '
                r'\(openstack overcloud delete\)', self.export.take_action,
                parsed)
        self.assertFalse(os.path.exists(out))

    def test_version_is_one_bundled(self):
        self.assertRaises(osc_base.ParserException, self.check_parser,
                          self.export, ['--rhoso-version', '17.1'], [])

    def test_export_then_validate_elsewhere(self):
        tmp = self.useFixture(fixtures.TempDir()).path
        wd = rhoso_workdir.write(os.path.join(tmp, 'wd'))
        out = os.path.join(tmp, 'out')
        parsed = self.check_parser(self.export, [
            '--work-dir', wd, '--output-dir', out, '--networker',
            'Networker', '--skip-role', 'Controller', '--cell',
            'Compute=cell2'], [])
        columns, values = self.export.take_action(parsed)
        result = dict(zip(columns, values))
        self.assertEqual(['openstack-cell2', 'openstack-networker'],
                         sorted(result['nodesets'].machine_readable()))
        self.assertRaisesRegex(
            osc_exceptions.CommandError, 'exists, not exporting',
            self.export.take_action, parsed)

        manifest = os.path.join(out, 'adoption-export.manifest')
        with open(manifest) as f:
            data = yaml.safe_load(f)
        data['work_dir'] = os.path.join(tmp, 'gone')
        with open(manifest, 'w') as f:
            yaml.safe_dump(data, f)
        parsed = self.check_parser(self.validate, [out], [])
        self.assertRaisesRegex(
            osc_exceptions.CommandError, 'is not here: give --work-dir, or '
            '--no-work-dir', self.validate.take_action, parsed)
        parsed = self.check_parser(self.validate, [out, '--no-work-dir'], [])
        self.assertEqual([], list(self.validate.take_action(parsed)[1]))
        self.assertIn('valid (the documents alone)',
                      self.app.stderr.getvalue())
        parsed = self.check_parser(self.validate, [out, '--work-dir', wd],
                                   [])
        self.assertEqual([], list(self.validate.take_action(parsed)[1]))
        self.assertIn('same network_config on 3 of 3 nodes',
                      self.app.stderr.getvalue())
