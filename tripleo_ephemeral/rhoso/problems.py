"""What is wrong with an export: one :class:`Problem` per finding.

Each names the document (its file, and its kind and name), the path inside
it (``spec.nodes.compute-0.ansible.ansibleHost``) and the fix, so a person
reads one line and a program (``-f json``) gets the fields.
"""

import collections

#: ``document``: "nodeset-openstack-cell1.yaml (OpenStackDataPlaneNodeSet
#: openstack-cell1)"; ``path`` inside it; ``message``; ``fix``; ``rule``:
#: what found it (schema, webhook, work dir).
Problem = collections.namedtuple('Problem', 'document path message fix rule',
                                 defaults=('schema',))


def line(problem):
    """The one line a person reads."""
    where = problem.document + (': %s' % problem.path if problem.path
                                else '')
    return '%s: %s; %s' % (where, problem.message, problem.fix)


def describe(filename, document):
    """How a problem names a document: its file, kind and name."""
    if not isinstance(document, dict):
        return filename
    name = (document.get('metadata') or {}).get('name')
    kind = document.get('kind')
    if kind and name:
        return '%s (%s %s)' % (filename, kind, name)
    return filename
