"""Reading the control plane's steps back from an export directory.

``adoption validate`` checks a kit someone else may have written or
edited: the step directories ``10-`` to ``49-`` are read in order, every
``*.yaml`` a Kubernetes document (``oc apply -f`` reads them), every
``*.patch`` a merge patch of the OpenStackControlPlane, each through the
one YAML reader with its limits, regular files only. A file that cannot be
read is one problem, never an exception.
"""

import os
import re

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import yamlfile
from tripleo_ephemeral.rhoso import problems as problems_mod

STEP = re.compile(r'^(\d\d)-[a-z0-9-]+$')
FIRST, LAST = 10, 49
PATCH = '.patch'


def step_dirs(path):
    """The control plane's step directories of ``path``, in order."""
    found = []
    for name in sorted(os.listdir(path)):
        match = STEP.match(name)
        full = os.path.join(path, name)
        if match and FIRST <= int(match.group(1)) <= LAST and \
                os.path.isdir(full) and not os.path.islink(full):
            found.append(name)
    return found


def _load(full, rel):
    if not os.path.isfile(full) or os.path.islink(full):
        return None, problems_mod.Problem(
            rel, '', 'is not a regular file', 'remove it', 'yaml')
    try:
        return [yamlfile.load(full, 'Export document',
                              exceptions.RhosoExportError)], None
    except exceptions.RhosoExportError as exc:
        return None, problems_mod.Problem(
            rel, '', str(exc).replace('\n', ' '), 'fix the file', 'yaml')


def load(path):
    """``(documents, patches, problems)``: ``[(where, document)]`` and
    ``[(where, patch)]`` of the control plane's steps, in order."""
    documents, patches, found = [], [], []
    for step in step_dirs(path):
        for name in sorted(os.listdir(os.path.join(path, step))):
            rel = '%s/%s' % (step, name)
            if not name.endswith(('.yaml', PATCH)):
                continue
            loaded, problem = _load(os.path.join(path, step, name), rel)
            if problem:
                found.append(problem)
                continue
            for document in loaded:
                if name.endswith(PATCH):
                    patches.append((rel, document))
                else:
                    documents.append((problems_mod.describe(rel, document),
                                      document))
    return documents, patches, found
