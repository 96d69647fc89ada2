"""Telling real changes from what every render changes anyway.

Each deploy creates a fresh stack: new server, config and deployment ids
(UUIDs), nested stack names with a random suffix, a new DeployIdentifier,
new timestamps. A line whose only
difference is such a value is noise; :func:`compare` finds the real
changes of a file and counts the noise it hid.
"""

import difflib
import re

UUID = re.compile(r'\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-'
                  r'[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b')
TIMESTAMP = re.compile(r'\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?'
                       r'(?:Z|[+-]\d\d:?\d\d)?')
#: A Heat stack reference, ``<stack name>/<stack id>``: nested stack names
#: carry a random suffix of their own.
STACK_REF = re.compile(r'[A-Za-z0-9_.-]+/<uuid>')
#: Parameters every deploy sets anew.
PARAMETERS = ('DeployIdentifier', 'DeployIdentifierUUID', 'StackAction')


class Normalizer:
    """Replaces generated values by placeholders: UUIDs, timestamps and the
    deploy identifiers of the versions compared."""

    def __init__(self, identifiers=()):
        values = sorted({str(i) for i in identifiers if i and
                         str(i) != 'none'}, key=len, reverse=True)
        self.identifiers = re.compile(
            r'(?<![\w.])(?:%s)(?![\w.])' % '|'.join(
                re.escape(v) for v in values)) if values else None

    def __call__(self, line):
        line = STACK_REF.sub('<stack>/<uuid>', UUID.sub('<uuid>', line))
        line = TIMESTAMP.sub('<time>', line)
        if self.identifiers is not None:
            line = self.identifiers.sub('<deploy-identifier>', line)
        return line


class FileComparison:
    """The lines of a file a change really ``added`` and ``removed``, the
    ``noise`` lines it hid, and the new text with the noise undone
    (``denoised``: the old text wherever only noise differs)."""

    def __init__(self, added, removed, noise, denoised):
        self.added = added
        self.removed = removed
        self.noise = noise
        self.denoised = denoised

    @property
    def real(self):
        return bool(self.added or self.removed)


def compare(old, new, normalize):
    """Compare two texts (lists of lines, keepends) line by line."""
    old_norm = [normalize(line) for line in old]
    new_norm = [normalize(line) for line in new]
    if old_norm == new_norm:
        noise = sum(1 for a, b in zip(old, new) if a != b)
        return FileComparison(0, 0, noise, list(old))
    matcher = difflib.SequenceMatcher(None, old_norm, new_norm,
                                      autojunk=False)
    added = removed = noise = 0
    denoised = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == 'equal':
            noise += sum(1 for a, b in zip(old[i1:i2], new[j1:j2]) if a != b)
            denoised.extend(old[i1:i2])
        else:
            removed += i2 - i1
            added += j2 - j1
            denoised.extend(new[j1:j2])
    return FileComparison(added, removed, noise, denoised)


def parameters(old, new):
    """``(real, noise)`` lists of ``(name, old value, new value)`` of the
    parameters that differ (a missing one is None)."""
    real, noise = [], []
    for name in sorted(set(old) | set(new)):
        if old.get(name) != new.get(name):
            (noise if name in PARAMETERS else real).append(
                (name, old.get(name), new.get(name)))
    return real, noise
