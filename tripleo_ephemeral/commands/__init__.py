"""The openstackclient commands of the plugin.

``openstack`` imports the module of every command of every plugin it has
before it runs one, so a module here imports at its top only what building
its parser needs (osc-lib, the option modules, constants); the library a
command calls (the deploy, Ansible, the adoption, the RHOSO export...) is
imported inside ``get_parser`` or ``take_action``, where it is used, and
the library's own modules import heavy third-party packages (heatclient,
Jinja2, jsonschema, ansible-runner, tripleo-common) where they use them.
"""
