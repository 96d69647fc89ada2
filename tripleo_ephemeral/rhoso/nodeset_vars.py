"""A NodeSet's Ansible variables, node by node, and its NIC templates proven.

Each node gets its role's carried variables (:mod:`.ansible_vars`), the
procedure's (:mod:`.procedure_vars`) and its role's NIC template converted
to EDPM's variables (:mod:`.nic`) with what the template needs carried;
:func:`~.nodeset.place` then puts what every node shares in the node
template. Each role's template is then rendered on both sides for every
node and compared (:func:`~.nic.prove`); a difference stops the export.
"""

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import ansible_vars
from tripleo_ephemeral.rhoso import edpm_inventory
from tripleo_ephemeral.rhoso import nic
from tripleo_ephemeral.rhoso import nic_files
from tripleo_ephemeral.rhoso import nodeset as nodeset_mod
from tripleo_ephemeral.rhoso import procedure_vars

TEMPLATE_VAR = 'edpm_network_config_template'


class Template:
    """A role's NIC template: the TripleO ``path`` and ``text``, its
    ``conversion`` and ``proof`` (host -> None or why not)."""

    def __init__(self, path, text, conversion, proof):
        self.path = path
        self.text = text
        self.conversion = conversion
        self.proof = proof


def _role_vars(deployment, group, role, choices, ctlplane):
    found = ansible_vars.role_vars(role, ctlplane) + \
        procedure_vars.role_vars(role, group.kind, choices,
                                 deployment.selinux_mode)
    return {v.name: (v.value, v.source) for v in found}


def _convert(deployment, choices, role, document, netconfig_doc, networks):
    path = choices.nic_templates.get(role.name) or nic_files.path(
        role, choices.nic_template_dir)
    text = nic_files.read(path)
    hosts = role.hosts
    tripleo_vars = {h.name: deployment.tripleo_vars(h) for h in hosts}
    edpm_vars = {h.name: edpm_inventory.node_vars(document, h.name,
                                                  netconfig_doc)
                 for h in hosts}
    servicenets = edpm_inventory.service_networks(netconfig_doc)
    network_map = {n.lower: servicenets[n.name.lower()] for n in networks}
    network_names = {(deployment.network(n.lower) or {}).get('name'): n.name
                     for n in networks if n.lower != 'ctlplane'}
    try:
        conversion = nic.convert(text, tripleo_vars, edpm_vars, network_map,
                                 network_names)
    except nic.RenderError as exc:
        raise exceptions.RhosoExportError(
            'The NIC template %s of role %s is not a Jinja template (%s): '
            'fix it, or give the role another with --nic-template %s=<file>'
            % (path, role.name, exc, role.name))
    return Template(path, text, conversion, None), tripleo_vars


def _prove(template, role, document, netconfig_doc, tripleo_vars):
    edpm_vars = {h.name: edpm_inventory.node_vars(document, h.name,
                                                  netconfig_doc)
                 for h in role.hosts}
    template.proof = nic.prove(template.text, template.conversion.template,
                               tripleo_vars, edpm_vars)
    failed = {h: why for h, why in template.proof.items() if why}
    if failed:
        host = sorted(failed)[0]
        raise exceptions.RhosoExportError(
            'The NIC template %s of role %s cannot be converted so that EDPM '
            'renders the same network_config on %s: %s; give the role a '
            'template EDPM renders the same with --nic-template %s=<file>'
            % (template.path, role.name, host, failed[host], role.name))


def _sources(group, per_host):
    """Variable -> where its value came from: the roles' sources once each,
    as one with ``<Role>`` where they differ only by the role's name."""
    role_of = {h.name: r.name for r in group.roles for h in r.hosts}
    found = {}
    for host, values in per_host.items():
        for name, (_, source) in values.items():
            found.setdefault(name, {}).setdefault(source, role_of[host])
    result = {}
    for name, sources in found.items():
        generic = {s.replace(role, '<Role>') for s, role in sources.items()}
        if len(sources) > 1 and len(generic) == 1:
            result[name] = '%s, roles %s' % (generic.pop(), ', '.join(
                dict.fromkeys(sources.values())))
        else:
            result[name] = '; '.join(sources)
    return result


def fill(deployment, group, document, netconfig_doc, networks, choices):
    """Set ``document``'s Ansible variables (the NodeSet of ``group``);
    return ``(sources, templates)``: variable -> where its value came
    from, and role -> :class:`Template`. RhosoExportError when a NIC
    template cannot be converted and proven."""
    ctlplane = [str(s.cidr) for s in networks[0].subnets]
    per_host = {}
    for role in group.roles:
        values = _role_vars(deployment, group, role, choices, ctlplane)
        for host in role.hosts:
            per_host[host.name] = dict(values)
    nodeset_mod.place(document, _values(per_host))
    templates, tripleo_vars = {}, {}
    for role in group.roles:
        template, tripleo_vars[role.name] = _convert(
            deployment, choices, role, document, netconfig_doc, networks)
        templates[role.name] = template
        carried = template.conversion.carried
        for host in role.hosts:
            for name, (value, tripleo_name) in carried[host.name].items():
                per_host[host.name][name] = (
                    value, 'TripleO\'s %s (the NIC template uses it)'
                    % tripleo_name)
            per_host[host.name][TEMPLATE_VAR] = (
                template.conversion.template,
                '%sNetworkConfigTemplate %s, converted to EDPM\'s '
                'variables' % (role.name, template.path))
    nodeset_mod.place(document, _values(per_host))
    for role in group.roles:
        _prove(templates[role.name], role, document, netconfig_doc,
               tripleo_vars[role.name])
    return _sources(group, per_host), templates


def _values(per_host):
    return {host: {name: value for name, (value, _) in values.items()}
            for host, values in per_host.items()}
