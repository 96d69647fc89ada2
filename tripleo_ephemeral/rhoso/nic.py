"""A role's NIC template, converted to EDPM's variables and proven.

TripleO's Ansible rendered ``<Role>NetworkConfigTemplate`` (group var
``tripleo_network_config_template``) with TripleO's variables; EDPM
renders ``edpm_network_config_template`` with its own (see
:mod:`.edpm_inventory`). :func:`convert` renames what EDPM spells
differently (``role_networks`` -> ``nodeset_networks``,
``ctlplane_subnet_cidr`` -> ``ctlplane_cidr``, ``internal_api_ip`` ->
``internalapi_ip`` after the network map), keeps what EDPM gives the same
value, and carries what EDPM lacks or gives differently as Ansible
variables of the NodeSet (a variable EDPM sets differently, such as
``dns_search_domains``, is carried as ``tripleo_<name>``). :func:`prove`
then renders both, with the variables each side provides, for every
node (jinja2, StrictUndefined, Ansible's ``lookup('vars')`` and None
rendered as nothing), and compares the parsed ``network_config``, in
jinja2's sandbox (:mod:`.nic_jinja`).
"""

import re

import jinja2
import jinja2.meta

from tripleo_ephemeral.rhoso import edpm_inventory
from tripleo_ephemeral.rhoso import nic_jinja

RenderError = nic_jinja.RenderError
environment = nic_jinja.environment
render = nic_jinja.render
GLOBALS = nic_jinja.GLOBALS

#: TripleO's name -> EDPM's, for the same meaning.
RENAMES = {'role_networks': 'nodeset_networks',
           'ctlplane_subnet_cidr': 'ctlplane_cidr'}
#: Names EDPM gives its own meaning that goes with its renames.
EDPM_OWN = frozenset(['networks_lower'])
#: The per-network variables both sides derive from a network's name.
NET_SUFFIXES = ('ip', 'cidr', 'gateway_ip', 'host_routes', 'mtu', 'vlan_id',
                'dns_nameservers')
CARRIED_PREFIX = 'tripleo_'


def referenced(text):
    """The variables a template names itself (not those it looks up by a
    computed name); RenderError when it is not a template."""
    try:
        parsed = environment().parse(text)
    except jinja2.TemplateSyntaxError as exc:
        raise RenderError('line %s: %s' % (exc.lineno, exc.message))
    return jinja2.meta.find_undeclared_variables(parsed) - GLOBALS


_BLOCK = re.compile(r'({{.*?}}|{%.*?%})', re.S)
#: ``lookup('vars', <expr> ~ '_<suffix>')``: a per-network variable looked
#: up by a computed name.
_DYNAMIC = re.compile(r"""lookup\(\s*(['"])vars\1\s*,\s*(?P<expr>[^()]*?)"""
                      r"""\s*~\s*(['"])_(?P<suffix>\w+)\3\s*\)""")


def _alternatives(words):
    return '|'.join(re.escape(w) for w in sorted(words, key=len,
                                                 reverse=True))


def rename(text, mapping, literals=None):
    """``text`` with the variables of ``mapping`` renamed inside its Jinja
    expressions and statements (not in literal text), and the quoted
    strings of ``literals`` (TripleO network names compared with the
    role's networks) replaced there too."""
    patterns = []
    if mapping:
        patterns.append((re.compile(r'(?<![\w.\'"])(%s)(?![\w\'"])'
                                    % _alternatives(mapping)), mapping))
    literals = {k: v for k, v in (literals or {}).items() if k != v}
    if literals:
        quoted = {}
        for old, new in literals.items():
            quoted["'%s'" % old] = "'%s'" % new
            quoted['"%s"' % old] = '"%s"' % new
        patterns.append((re.compile('(%s)' % _alternatives(quoted)),
                         quoted))
    if not patterns:
        return text

    def block(match):
        result = match.group(1)
        for pattern, table in patterns:
            result = pattern.sub(lambda m: table[m.group(1)], result)
        return result

    return _BLOCK.sub(block, text)


def dynamic_suffixes(text):
    """The per-network suffixes ``text`` looks up by computed names."""
    return {m.group('suffix') for m in _DYNAMIC.finditer(text)}


def carry_dynamic(text, suffixes):
    """``text`` looking up ``tripleo_<net>_<suffix>`` instead of
    ``<net>_<suffix>`` for ``suffixes``."""
    def replace(match):
        if match.group('suffix') not in suffixes:
            return match.group(0)
        return "lookup('vars', '%s' ~ %s ~ '_%s')" % (
            CARRIED_PREFIX, match.group('expr'), match.group('suffix'))

    return _DYNAMIC.sub(replace, text)


class Conversion:
    """The EDPM template and what it needs carried: ``carried[host]`` is
    ``{name: (value, tripleo name)}``; ``renamed`` old -> new."""

    def __init__(self, template, renamed, carried):
        self.template = template
        self.renamed = renamed
        self.carried = carried


def _network_renames(names, network_map):
    mapping = {}
    for name in names:
        for lower, servicenet in network_map.items():
            for suffix in NET_SUFFIXES:
                if name == '%s_%s' % (lower, suffix) and lower != servicenet:
                    mapping[name] = '%s_%s' % (servicenet, suffix)
    return mapping


def _same(a, b):
    try:
        return a == b or str(a) == str(b)
    except edpm_inventory.LiveValueError:
        return False


def _dynamic(text, tripleo_vars, edpm_vars, network_map, carried):
    """Carry the per-network values looked up by computed names that EDPM
    gives differently; return the suffixes carried."""
    tripleo_of = {servicenet: lower for lower, servicenet in
                  network_map.items()}
    wrong = set()
    for suffix in sorted(dynamic_suffixes(text)):
        pairs = []
        for host, theirs in edpm_vars.items():
            for servicenet in (theirs.get('networks_lower') or {}).values():
                lower = tripleo_of.get(servicenet, servicenet)
                name = '%s_%s' % (lower, suffix)
                if name in tripleo_vars[host]:
                    pairs.append((host, servicenet, name))
        if all(_same(tripleo_vars[h][name],
                     edpm_vars[h].get('%s_%s' % (net, suffix)))
               for h, net, name in pairs):
            continue
        wrong.add(suffix)
        for host, servicenet, name in pairs:
            carried[host]['%s%s_%s' % (CARRIED_PREFIX, servicenet, suffix)] = (
                tripleo_vars[host][name], name)
    return wrong


def _renamed_networks(value, network_names):
    """A list of TripleO network names (``networks_all``,
    ``networks_skip_config``) in the NetConfig's names, as the renamed
    ``nodeset_networks`` has them; any other value as it is."""
    if isinstance(value, list) and value and network_names and all(
            isinstance(v, str) and v in network_names for v in value):
        return [network_names[v] for v in value]
    return value


def convert(text, tripleo_vars, edpm_vars, network_map, network_names=None):
    """The :class:`Conversion` of template ``text``. ``tripleo_vars`` and
    ``edpm_vars`` map each host to its variables on either side (EDPM's
    without anything carried yet); ``network_map`` maps TripleO's
    ``name_lower`` to EDPM's service network names, ``network_names``
    TripleO's network ``name`` to the NetConfig's."""
    names = referenced(text)
    mapping = {n: RENAMES[n] for n in names if n in RENAMES}
    mapping.update(_network_renames(names, network_map))
    carried = {host: {} for host in tripleo_vars}
    for name in sorted(names - set(mapping) - EDPM_OWN):
        hosts = list(tripleo_vars)
        t_has = all(name in tripleo_vars[h] for h in hosts)
        e_has = all(name in edpm_vars[h] for h in hosts)
        if e_has and (not t_has or all(
                _same(tripleo_vars[h][name], edpm_vars[h][name])
                for h in hosts)):
            continue
        if not t_has:
            continue  # undefined on TripleO's side: prove() says so
        target = CARRIED_PREFIX + name if e_has else name
        if target != name:
            mapping[name] = target
        for host in hosts:
            carried[host][target] = (_renamed_networks(
                tripleo_vars[host][name], network_names), name)
    wrong = _dynamic(text, tripleo_vars, edpm_vars, network_map, carried)
    renamed = dict(mapping)
    renamed.update({'<net>_' + suffix: CARRIED_PREFIX + '<net>_' + suffix
                    for suffix in wrong})
    literals = {k: v for k, v in (network_names or {}).items() if k != v}
    renamed.update({"'%s'" % k: "'%s'" % v for k, v in literals.items()
                    if re.search(r"""['"]%s['"]""" % re.escape(k), text)})
    return Conversion(carry_dynamic(rename(text, mapping, literals), wrong),
                      renamed, carried)


def first_difference(a, b, path='network_config'):
    """Where two rendered values first differ, as a path and both sides."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key, KeyError) != b.get(key, KeyError):
                return first_difference(a.get(key), b.get(key),
                                        '%s.%s' % (path, key))
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, '%s[%d]' % (path, index))
    return '%s: TripleO %r, EDPM %r' % (path, a, b)


def prove(tripleo_text, edpm_text, tripleo_vars, edpm_vars):
    """``{host: None if both render the same network_config, else why
    not}``; ``edpm_vars`` with everything carried."""
    result = {}
    for host in tripleo_vars:
        try:
            ours = render(tripleo_text, tripleo_vars[host])
        except RenderError as exc:
            result[host] = 'the TripleO template does not render: %s' % exc
            continue
        try:
            theirs = render(edpm_text, edpm_vars[host])
        except RenderError as exc:
            result[host] = 'the EDPM template does not render: %s' % exc
            continue
        result[host] = (None if ours == theirs else
                        'they differ at ' + first_difference(ours, theirs))
    return result
