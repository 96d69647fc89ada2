"""One change the procedure makes to the OpenStackControlPlane, and the
merge that applies it.

A :class:`Patch` is what one ``oc patch openstackcontrolplane openstack
--type=merge --patch-file <file>`` of an adoption page sends: its
``document`` (``{'spec': ...}``), the ``customServiceConfig`` texts it
carries with each option's TripleO source (``configs``), what the
operator must still give (``inputs``), the Kubernetes documents to apply
first (``before``: a Secret, a ConfigMap) and the upstream page it
follows. :func:`merge` is RFC 7386 JSON merge patch, as ``--type=merge``
applies it, so the export can check the control plane after every patch.
"""

import copy

KIND = 'OpenStackControlPlane'
API_VERSION = 'core.openstack.org/v1beta1'
NAME = 'openstack'
DATAPLANE_ADOPTION = ('https://github.com/openstack-k8s-operators/'
                      'data-plane-adoption')
#: data-plane-adoption's commit the documents follow.
UPSTREAM_COMMIT = 'd222e6163d04'


def page(name):
    """``docs_user/modules/<name>`` at :data:`UPSTREAM_COMMIT`."""
    if '/' not in name:
        name = 'docs_user/modules/' + name
    return '%s@%s:%s' % ('data-plane-adoption', UPSTREAM_COMMIT, name)


class Patch:
    """One merge patch of the control plane (see the module)."""

    def __init__(self, service, name, spec, page_name, configs=None,
                 inputs=None, before=None, after=None, values=None):
        self.service = service
        self.name = name
        self.document = {'spec': spec}
        self.page = page(page_name)
        #: path in the spec (``neutron.template.customServiceConfig``) ->
        #: :class:`~.ini.Config`
        self.configs = dict(configs or {})
        #: what only the operator knows, one sentence each
        self.inputs = list(inputs or [])
        #: Kubernetes documents to apply before the patch
        self.before = list(before or [])
        #: commands the page runs after the patch (shell, one a line)
        self.after = list(after or [])
        #: other carried values: ``(path, value, TripleO source)``
        self.values = list(values or [])

    @property
    def file(self):
        return '%s.patch' % self.name

    def command(self, directory):
        return ('oc patch openstackcontrolplane %s --type=merge '
                '--patch-file=%s/%s' % (NAME, directory, self.file))


def merge(target, patch):
    """RFC 7386: ``patch`` applied to a copy of ``target``."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = copy.deepcopy(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge(result.get(key), value)
    return result


def control_plane(spec):
    return {'apiVersion': API_VERSION, 'kind': KIND,
            'metadata': {'name': NAME}, 'spec': spec}
