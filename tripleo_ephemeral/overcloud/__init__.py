"""Library pieces of ``openstack overcloud deploy``.

Each module has one topic: roles data, template processing, deployed
servers, passwords, stack outputs and config-download. None of them knows
how Heat is launched.
"""
