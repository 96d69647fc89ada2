"""The procedure's order, as the documents' directories must keep it.

``oc apply -f <dir>`` applies everything of a directory at once. The
procedures apply the NodeSets, then each Deployment once the one before is
Ready, and never run the TripleO cleanup on networkers. So, per directory
(the step: ``NN-<step>/``, or the top):

* a Deployment is never in the directory of a NodeSet it deploys (one
  apply would start it before the NodeSet is set up);
* two Deployments over one NodeSet are never in one directory (they would
  run at once: pre-adoption validation, cleanup and adoption);
* the cleanup's Deployment names no networker NodeSet (one without a Nova
  service): it stops every ``tripleo_*`` unit, the gateways'
  ``tripleo_ovn_controller`` included.
"""

from tripleo_ephemeral.rhoso import documents as documents_mod
from tripleo_ephemeral.rhoso import problems as problems_mod
from tripleo_ephemeral.rhoso import upstream

NODESET = 'OpenStackDataPlaneNodeSet'
DEPLOYMENT = 'OpenStackDataPlaneDeployment'


def _problem(where, path, message, fix):
    return problems_mod.Problem(where, path, message, fix, 'procedure')


def directory(where):
    """The directory of a document's ``where`` ('' at the top)."""
    path = where.split(' (', 1)[0].split('#', 1)[0]
    return path.rsplit('/', 1)[0] if '/' in path else ''


def _name(document):
    return str((document.get('metadata') or {}).get('name') or '')


def _is_networker(nodeset):
    services = (nodeset.get('spec') or {}).get('services') or []
    return not any(str(s) == 'nova' or str(s).startswith('nova-')
                   for s in services)


def check(documents):
    """Every procedure problem of ``documents`` (``(where, document)``,
    each a mapping that passed its schema)."""
    found = []
    nodesets = {}
    for where, document in documents:
        if document.get('kind') == NODESET:
            nodesets[_name(document)] = (directory(where), document)
    cleanup = upstream.facts()['cleanup']
    seen = {}
    for where, document in documents:
        if document.get('kind') != DEPLOYMENT:
            continue
        here = directory(where)
        spec = document.get('spec') or {}
        for index, name in enumerate(spec.get('nodeSets') or []):
            path = 'spec.nodeSets[%d]' % index
            if name in nodesets and nodesets[name][0] == here:
                found.append(_problem(
                    where, path, 'NodeSet %s is applied in the same '
                    'directory (%s): one oc apply would start this '
                    'Deployment with it' % (name, here or 'the top'),
                    'put the Deployment in a step after the NodeSet\'s'))
            other = seen.get((here, name))
            if other:
                found.append(_problem(
                    where, path, 'Deployment %s over NodeSet %s is in the '
                    'same directory: one oc apply would run both at once'
                    % (other, name), 'give each Deployment a step of its '
                    'own, applied once the one before is Ready'))
            seen.setdefault((here, name), _name(document))
            if documents_mod.CLEANUP in (spec.get('servicesOverride') or ()) \
                    and name in nodesets and \
                    _is_networker(nodesets[name][1]):
                found.append(_problem(
                    where, path, 'the TripleO cleanup would run on '
                    'networker NodeSet %s: it stops %s (%s), the gateways\' '
                    'tripleo_ovn_controller included' % (
                        name, cleanup['stops'], upstream.source(
                            cleanup['source'], cleanup['lines']).text()),
                    'leave it out: the networker procedure never runs the '
                    'cleanup'))
    return found
