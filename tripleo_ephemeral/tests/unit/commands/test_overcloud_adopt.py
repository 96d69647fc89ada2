"""`overcloud adopt`: its options, one source, and what it calls."""

import io
from unittest import mock

from osc_lib import exceptions as osc_exceptions
from osc_lib.test import base as osc_base

from tripleo_ephemeral.commands import overcloud_adopt
from tripleo_ephemeral.tripleoclient_adoption import adopt


class TestAdoptOvercloud(osc_base.TestCommand):

    def setUp(self):
        super().setUp()
        self.app.stderr = io.StringIO()
        self.cmd = overcloud_adopt.AdoptOvercloud(self.app, None)
        patcher = mock.patch.object(adopt, 'Adoption')
        self.adoption = patcher.start().return_value
        self.addCleanup(patcher.stop)
        self.adoption.from_installed.return_value = adopt.Adopted('oc')
        self.adoption.from_dump.return_value = adopt.Adopted('oc')
        # One column: the command shows what the library adopted.
        patcher = mock.patch.object(overcloud_adopt, 'COLUMNS', ('stack',))
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_defaults(self):
        self.check_parser(self.cmd, [], [
            ('stack', 'overcloud'), ('work_dir', None), ('heat_type', None),
            ('heat_db_dump', None), ('heat_db_auth_encryption_key', None),
            ('overwrite', False)])

    def test_exactly_one_source(self):
        for argv in ([], ['--heat-type', 'native'],
                     ['--heat-type', 'installed', '--heat-db-dump', '/d']):
            parsed = self.check_parser(self.cmd, argv, [])
            self.assertRaisesRegex(
                osc_exceptions.CommandError, 'Name exactly one source',
                self.cmd.take_action, parsed)

    def test_installed_re_creates_on_native(self):
        parsed = self.check_parser(self.cmd, [
            '--heat-type', 'installed', '--stack', 'oc', '--work-dir', '/w',
            '--overwrite', '--heat-api-port', '8100'], [])
        self.assertEqual((('stack',), ('oc',)), self.cmd.take_action(parsed))
        adopt.Adoption.assert_called_once_with('oc', '/w', overwrite=True,
                                               out=self.app.stderr)
        installed, launcher = self.adoption.from_installed.call_args[0]
        self.assertEqual(('installed', 'native', 8100, '/w/heat-launcher'),
                         (installed.heat_type, launcher.heat_type,
                          launcher.api_port, launcher.heat_dir))

    def test_dump_is_read_by_the_chosen_heat(self):
        parsed = self.check_parser(self.cmd, [
            '--heat-db-dump', '/b/all.sql', '--work-dir', '/w',
            '--heat-type', 'container',
            '--heat-db-auth-encryption-key', '/b/key'], [])
        self.cmd.take_action(parsed)
        args, kwargs = self.adoption.from_dump.call_args
        self.assertEqual(('/b/all.sql', 'container'),
                         (args[0], args[1].heat_type))
        self.assertEqual('/b/key', kwargs['key_file'])
        self.assertIsNotNone(kwargs['mysql_reader'])
