"""openstack tripleo heat image build"""

import logging

from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.heat_launcher import podman
from tripleo_ephemeral import images
from tripleo_ephemeral.images import builder
from tripleo_ephemeral.images import rootfs
from tripleo_ephemeral import process

LOG = logging.getLogger(__name__)


class BuildHeatImage(base.LocalCommand, command.ShowOne):
    """Build the container image of the container and pod Heat types"""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            '--image', metavar='<image>', type=options.name,
            help=_('Name and tag of the image to build (default: '
                   '%s:<fingerprint of the code>)') % images.NAME)
        parser.add_argument(
            '--base-image', metavar='<image>', type=options.name,
            help=_('Debian-based image to build on (pulled by podman if '
                   'remote); without it, a base is debootstrapped from '
                   '--mirror, which needs no registry'))
        parser.add_argument(
            '--mirror', metavar='<url>', default=rootfs.DEFAULT_MIRROR,
            help=_('Debian mirror for debootstrap (default: %s)') %
            rootfs.DEFAULT_MIRROR)
        parser.add_argument(
            '--suite', metavar='<suite>', default=rootfs.DEFAULT_SUITE,
            help=_('Debian suite for debootstrap (default: %s)') %
            rootfs.DEFAULT_SUITE)
        parser.add_argument(
            '--source-dir', metavar='<dir>', type=options.abs_path,
            help=_('tripleo-ephemeral source to install in the image '
                   '(default: the checkout this command runs from, else the '
                   'installed copy itself)'))
        parser.add_argument(
            '--force', action='store_true',
            help=_('Build even when the image already exists'))
        return parser

    def take_action(self, parsed_args):
        self.log.debug('take_action(%s)', parsed_args)
        runner = process.ProcessRunner()
        build = builder.ImageBuilder(
            podman.Podman(runner), runner, source_dir=parsed_args.source_dir,
            suite=parsed_args.suite, mirror=parsed_args.mirror)
        with errors.user_errors('--source-dir',
                                failed=_('Building the Heat image')):
            result = build.build(image=parsed_args.image,
                                 base_image=parsed_args.base_image,
                                 force=parsed_args.force)
        columns = ('image', 'base_image', 'cached', 'seconds')
        return columns, (result.image, result.base_image, result.cached,
                         round(result.seconds, 1))
