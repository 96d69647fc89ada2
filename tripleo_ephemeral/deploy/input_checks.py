"""Checks of a deploy's inputs that need the whole request: before Heat.

* :func:`undeclared_parameters`: the parameters the user's environments
  set that no template of the request declares (tripleoclient warned about
  them after asking Heat; the request holds every template Heat would use,
  so no Heat is needed).
* :func:`unset_parameters`: the root template's parameters without a
  default that no environment sets (the passwords, when none are
  generated).
* :func:`check_limit`: ``--limit`` must name a host of the inventory.

Pure functions: values in, names or an error out.
"""

import fnmatch
import re

from heatclient.common import utils as heat_utils
import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import yamlfile
from tripleo_ephemeral.ansible import environment as \
    tripleo_environment
from tripleo_ephemeral.ansible import install as tripleo_install

#: Inventory groups every overcloud has (overcloud/inventory.py).
FIXED_GROUPS = ('all', 'allovercloud', 'Undercloud', 'undercloud',
                'excluded_overcloud', 'ungrouped')
#: What a service's group looks like (its THT service_name).
_SERVICE_GROUP = re.compile(r'[a-z][a-z0-9]*(_[a-z0-9]+)+|[a-z][a-z0-9]*')


def _load(text):
    if isinstance(text, dict):
        return text
    if not isinstance(text, (str, bytes)):
        return None
    try:
        return yamlfile.loads(text)
    except yaml.YAMLError:
        return None


def declared_parameters(create_args):
    """Every parameter name a template of the request declares."""
    names = set()
    candidates = [create_args.get('template')]
    candidates += [text for url, text in (create_args.get('files') or
                                          {}).items()
                   if url.endswith(('.yaml', '.yml', '.template'))]
    for candidate in candidates:
        doc = _load(candidate)
        if isinstance(doc, dict) and 'heat_template_version' in doc:
            names.update((doc.get('parameters') or {}).keys())
    return names


def undeclared_parameters(create_args, environment_paths):
    """``{environment path: [names]}`` of the parameters the environments
    set (parameters and parameter_defaults) that no template declares."""
    declared = declared_parameters(create_args)
    files = create_args.get('files') or {}
    found = {}
    for path in environment_paths:
        env = _load(files.get(heat_utils.normalise_file_path_to_url(path),
                              '')) or {}
        if not isinstance(env, dict):
            continue
        names = set()
        for section in ('parameter_defaults', 'parameters'):
            values = env.get(section) or {}
            if isinstance(values, dict):
                names.update(n for n in values if n not in declared)
        if names:
            found[path] = sorted(names)
    return found


def unset_parameters(create_args, names):
    """The ``names`` the root template declares without a default that no
    environment of the request sets (Heat would refuse the create)."""
    root = _load(create_args.get('template')) or {}
    required = {name for name, spec in (root.get('parameters') or
                                        {}).items()
                if name in names and
                not (isinstance(spec, dict) and 'default' in spec)}
    for values in _parameter_sections(create_args):
        required -= set(values)
    return sorted(required)


def _parameter_sections(create_args):
    """The parameter mappings of the request's environments."""
    files = create_args.get('files') or {}
    for url in create_args.get('environment_files') or ():
        env = _load(files.get(url, '')) or {}
        if isinstance(env, dict):
            for section in ('parameter_defaults', 'parameters'):
                values = env.get(section)
                if isinstance(values, dict):
                    yield values


def parameter_values(create_args, names):
    """Every value the request's environments give the parameters
    ``names`` (the passwords: to keep them out of the logs)."""
    return [v for values in _parameter_sections(create_args)
            for k, v in values.items() if k in names]


def check_limit(limit, stack, servers):
    """Raise InputError when ``--limit`` can match no host.

    ``servers`` is ``{role: [host dicts]}``. The inventory's groups are the
    roles, the stack, the fixed groups and one per service, which only the
    stack's outputs list: a lower-case name such as ``nova_compute`` is
    left to Ansible, unless it is a role's or host's name in another case.
    """
    if not limit or servers is None or limit.startswith('@'):
        return
    hosts = sorted({str(h['hostname']).lower() for hs in servers.values()
                    for h in hs or []})
    roles = sorted(role for role, hs in servers.items() if hs)
    names = set(hosts) | set(roles) | set(FIXED_GROUPS) | {stack}
    folded = {n.lower() for n in names}
    wanted = [p.strip().lstrip('&')
              for p in limit.replace(':', ',').split(',')]
    wanted = [p for p in wanted if p and not p.startswith('!')]
    if not wanted:
        return  # only exclusions: every other host
    for part in wanted:
        if part.startswith('~'):  # a regular expression: Ansible's to judge
            return
        if any(fnmatch.fnmatchcase(n, part) for n in names):
            return
        if _SERVICE_GROUP.fullmatch(part) and part.lower() not in folded:
            return
    raise exceptions.InputError(
        '--limit %s names no host of the inventory (hosts: %s; roles: %s; '
        'names are case-sensitive): fix --limit' % (
            limit, ', '.join(hosts) or 'none', ', '.join(roles) or 'none'))


def check_tripleo_ansible(templates, running, say):
    """Before Heat starts: templates whose playbooks need TripleO's Ansible
    fail a deploy that runs them when it is not installed (one line naming
    the install command); a --stack-only deploy is only warned."""
    if not tripleo_environment.templates_use_tripleo_ansible(templates):
        return
    try:
        tripleo_install.AnsibleInstall().require()
    except exceptions.TripleoAnsibleError as exc:
        if running:
            raise
        say('WARNING: %s (config-download\'s ansible-playbook-command.sh '
            'runs with it)' % exc)
