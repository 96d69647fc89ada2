"""What a deploy's prepared inputs ask Heat for, and its digest.

:meth:`~.inputs.Inputs.prepare` makes the :class:`PreparedInputs`; the
digest of their stack create request keys the stack size the last
successful deploy of the same request recorded
(:class:`~.heat_phase.HeatPhase`).
"""

import hashlib
import json

from heatclient.common import utils as heat_utils


class PreparedInputs:
    """What the prepared inputs give the run: the stack create kwargs, the
    deployed servers (or None), the snapshot the checks compared and a
    digest of the request (:func:`request_digest`), and the lines said only
    once every input passed (the addresses allocated, the servers the last
    deploy had and this one drops: a run that stops on input keeps and
    removes nothing)."""

    def __init__(self, create_args, servers, snapshot, digest=None,
                 removed=()):
        self.create_args = create_args
        self.servers = servers
        self.snapshot = snapshot
        self.digest = digest
        self.removed = list(removed)


def request_digest(create_args, volatile=()):
    """The SHA-256 of what a create request asks Heat to build.

    The same templates, environments and files give the same digest, so
    the same stack size. The ``volatile`` environments (paths) count by
    name only: the deploy parameters change on every deploy
    (DeployIdentifier) without changing what is created.
    """
    skip = {heat_utils.normalise_file_path_to_url(p) for p in volatile}
    files = sorted((url, None if url in skip else text)
                   for url, text in (create_args.get('files') or {}).items())
    canonical = json.dumps(
        [create_args.get('template'), files,
         create_args.get('environment_files')],
        default=str, skipkeys=True)
    return hashlib.sha256(canonical.encode()).hexdigest()
