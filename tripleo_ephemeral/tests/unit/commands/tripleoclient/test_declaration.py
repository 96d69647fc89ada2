"""Declaring a tripleoclient option
(:mod:`tripleo_ephemeral.commands.tripleoclient.declaration`)."""

from tripleo_ephemeral.commands.tripleoclient import declaration


def test_help_says_what_each_kind_does():
    noop = declaration.CompatOption('--x', kind=declaration.NOOP,
                                    why='because')
    refused = declaration.CompatOption(
        '--y', kind=declaration.REFUSED, why='do z')
    assert noop.help().endswith('no effect here: because')
    assert refused.help().endswith('refused here: do z')
