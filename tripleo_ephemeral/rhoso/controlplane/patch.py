"""One change the procedure makes to the OpenStackControlPlane, and the
merge that applies it.

A :class:`Patch` is what one ``oc patch openstackcontrolplane openstack
--type=merge --patch-file <file>`` of an adoption page sends: its ``body``
(``{'spec': ...}``), the ``customServiceConfig`` texts it
carries with each option's TripleO source (``configs``), what the
operator must still give (``inputs``), the commands its page runs after it
(``after``) and the upstream page it follows: a
:class:`~tripleo_ephemeral.rhoso.steps.Patch` of the kit's step model with
what the control plane's report says of it. :func:`merge` is RFC 7386
JSON merge patch, as ``--type=merge`` applies it, so the export can check
the control plane after every patch.
"""

import copy
from typing import Any, Iterable, Mapping, TypedDict

from tripleo_ephemeral.rhoso.controlplane import ini
from tripleo_ephemeral.rhoso import steps

KIND = 'OpenStackControlPlane'
API_VERSION = 'core.openstack.org/v1beta1'
NAME = 'openstack'
REPOSITORY = 'openstack-k8s-operators/data-plane-adoption'
#: data-plane-adoption's commit the documents follow.
UPSTREAM_COMMIT = 'd222e6163d04ffcd355321187b6b545632e0d0ba'
MODULES = 'docs_user/modules/'
COMMAND = ('oc patch openstackcontrolplane %s --type=merge '
           '--patch-file={path}' % NAME)


#: A value a patch carries: ``(path, value, TripleO source)``.
Value = tuple[str, Any, str]


class ControlPlane(TypedDict):
    """The OpenStackControlPlane document (core.openstack.org/v1beta1);
    ``spec``: a service's section each (``keystone``, ``galera``...)."""

    apiVersion: str
    kind: str
    metadata: steps.Metadata
    spec: dict[str, Any]


def source(page: str) -> steps.Source:
    """The :class:`~tripleo_ephemeral.rhoso.steps.Source` of an upstream
    page (``proc_...adoc``, under ``docs_user/modules``)."""
    return steps.Source(REPOSITORY, UPSTREAM_COMMIT,
                        page if '/' in page else MODULES + page, '')


class Patch(steps.Patch):
    """One merge patch of the control plane (see the module)."""

    def __init__(self, service: str, name: str, spec: dict[str, Any],
                 page_name: str,
                 configs: Mapping[str, ini.Config] | None = None,
                 inputs: Iterable[str] | None = None,
                 after: Iterable[str] | None = None,
                 values: Iterable[Value] | None = None) -> None:
        super().__init__('%s.patch' % name, {'spec': spec}, COMMAND,
                         'the OpenStackControlPlane\'s %s' % ', '.join(
                             sorted(spec)))
        self.service = service
        self.name = name
        self.page_name = page_name
        #: path in the spec (``neutron.template.customServiceConfig``) ->
        #: :class:`~.ini.Config`
        self.configs = dict(configs or {})
        #: what only the operator knows, one sentence each
        self.inputs = list(inputs or [])
        #: commands the page runs after the patch (shell, one a line)
        self.after = list(after or [])
        #: other carried values: ``(path, value, TripleO source)``
        self.values = list(values or [])


def merge(target: Any, patch: Any) -> Any:
    """RFC 7386: ``patch`` applied to a copy of ``target``."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result: dict[str, Any] = copy.deepcopy(target) if isinstance(
        target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge(result.get(key), value)
    return result


def control_plane(spec: dict[str, Any]) -> ControlPlane:
    return {'apiVersion': API_VERSION, 'kind': KIND,
            'metadata': {'name': NAME}, 'spec': spec}
