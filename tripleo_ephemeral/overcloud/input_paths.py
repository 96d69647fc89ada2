"""Where a deploy's input files are, as tripleoclient found them.

* Defaults, in the template set: the roles data ``roles_data.yaml``, the
  networks data ``network_data_default.yaml`` (THT's: no isolated networks;
  a set without it, like the bundled one, has ``network_data.yaml``) and
  the VIP data ``vip_data_default.yaml`` (when the set has none: a ctlplane
  VIP only, what THT's holds).
* Relative paths are relative to the current directory (the commands make
  them absolute), as tripleoclient read them.
* An environment under the user's template set is read from the rendered
  copy in the work dir (tripleoclient's ``rewrite_env_path``, on the
  absolute path), so one that exists only as ``<name>.j2.yaml`` is found;
  naming the ``.j2.yaml`` itself is an error.
"""

import os
import re

from tripleo_ephemeral import exceptions

ROLES_FILE = 'roles_data.yaml'
NETWORKS_FILES = ('network_data_default.yaml', 'network_data.yaml')
VIP_FILE = 'vip_data_default.yaml'
#: Where a template set keeps the environments ``update prepare`` and
#: ``upgrade prepare`` put first.
LIFECYCLE_ENVIRONMENTS = os.path.join('environments', 'lifecycle')
_J2 = '.j2.yaml'


def default_roles_file(templates):
    return os.path.join(templates, ROLES_FILE)


def default_networks_file(templates):
    """The first of :data:`NETWORKS_FILES` the set has (else the first, for
    the not-found error to name)."""
    paths = [os.path.join(templates, name) for name in NETWORKS_FILES]
    return next((p for p in paths if os.path.isfile(p)), paths[0])


def default_vip_file(templates):
    """The set's ``vip_data_default.yaml``, or None."""
    path = os.path.join(templates, VIP_FILE)
    return path if os.path.isfile(path) else None


def template_of(path):
    """``x.yaml`` -> ``x.j2.yaml`` (the template it is rendered from)."""
    if path.endswith('.yaml') and not path.endswith(_J2):
        return path[:-len('.yaml')] + _J2
    return None


def under(path, directory):
    """``path`` relative to ``directory`` if it is inside it, else None."""
    path = os.path.normpath(os.path.abspath(path))
    directory = os.path.normpath(os.path.abspath(directory))
    if path.startswith(directory + os.sep):
        return os.path.relpath(path, directory)
    return None


def check_data_file(path, what, option):
    """Fail in one line for a data file that exists only as a template:
    roles, networks and VIP data are what renders the templates."""
    template = template_of(path)
    if not os.path.exists(path) and template and os.path.isfile(template):
        raise exceptions.RolesDataError(
            '%s %s exists only as the Jinja2 template %s, which needs the '
            'roles and networks data to render: give %s a plain YAML file'
            % (what, path, os.path.basename(template), option))


def environment_path(path, templates, rendered):
    """The path of environment ``path`` to send to Heat.

    Under ``templates`` (the user's set): the same path in ``rendered``
    (the work dir's copy), which must exist there as given or as the
    ``.j2.yaml`` it is rendered from. Elsewhere: ``path`` itself.
    """
    if path.endswith(_J2):
        raise exceptions.EnvironmentFileError(
            'Environment file %s is a Jinja2 template: did you mean %s? '
            '(the rendered copy in the work dir is used)' % (
                path, path[:-len(_J2)] + '.yaml'))
    rel = under(path, templates)
    if rel is None:
        return path
    template = template_of(path)
    if not os.path.isfile(path) and not (template and
                                         os.path.isfile(template)):
        raise exceptions.EnvironmentFileError(
            'Environment file %s not found (nor %s to render it from): '
            'check the path' % (path, os.path.basename(template or path)))
    return os.path.join(rendered, rel)


def prepare_environment(templates, kind):
    """``<templates>/environments/lifecycle/<kind>-prepare.yaml``."""
    path = os.path.join(templates, LIFECYCLE_ENVIRONMENTS,
                        '%s-prepare.yaml' % kind)
    if not os.path.isfile(path):
        raise exceptions.EnvironmentFileError(
            'Expected environment file %s not found in %s: %s prepare needs '
            'a template set that has it (check --templates)' % (
                os.path.relpath(path, templates), templates, kind))
    return path


def is_prepare_environment(path):
    """True for the lifecycle environments: a later deploy drops them."""
    return (os.path.basename(os.path.dirname(path)) == 'lifecycle' and
            re.match(r'^(update|upgrade)-prepare\.yaml$',
                     os.path.basename(path)) is not None)
