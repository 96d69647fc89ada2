"""Secrets out of a config-download history written before they were
masked.

Every commit is written again with its files, messages and notes masked
(the secrets the work dir knows now, those the old notes held, and any PEM
private key an old file held); tags and refs follow their commits; the
old objects, reflogs and the index are dropped; then every object left is
searched for the secrets. One ``git fast-import`` writes the new history.
"""

import dataclasses
import logging
import os
import time

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.history import git as git_mod
from tripleo_ephemeral.history import secrets as secrets_mod
from tripleo_ephemeral.history import versions

LOG = logging.getLogger(__name__)

SCRATCH = 'refs/tripleo-ephemeral/purge'


@dataclasses.dataclass(frozen=True)
class Purged:
    """What :func:`purge` did: the history (``config_download``), the
    versions written again, the file contents and notes that held a
    secret, the secret texts found before and left after, the objects and
    the newest version's id before and after; ``damaged_copies``: the
    histories set aside as damaged, which keep their secrets."""

    config_download: str
    versions: int
    files_masked: int
    notes_masked: int
    secret_texts_found: int
    secret_texts_left: int
    objects_before: int
    objects_after: int
    head_before: str | None
    head_after: str | None
    damaged_copies: list[str] = dataclasses.field(default_factory=list)


def _objects(git):
    """``{sha: (type, bytes)}`` of every object of the repository."""
    out = git.run('cat-file', '--batch-all-objects', '--batch',
                  '--unordered').stdout
    found, pos = {}, 0
    while pos < len(out):
        end = out.index(b'\n', pos)
        sha, kind, size = out[pos:end].split()
        pos = end + 1
        found[sha.decode()] = (kind.decode(), out[pos:pos + int(size)])
        pos += int(size) + 1
    return found


def _text(data):
    try:
        return data.decode('utf-8')
    except UnicodeDecodeError:
        return None


def _old_secrets(history):
    """``[(name, value)]`` the notes of every version hold in clear."""
    names = history.store.names
    found = []
    for sha in history.git.text('rev-list', '--all').split():
        found += [(name, value) for name, value in sorted(
            (history.noted(sha) or {}).items())
            if secrets_mod.is_secret_name(name, names)]
    return found


def _data(payload):
    return b'data %d\n%s\n' % (len(payload), payload)


def _path(path):
    if any(c in path for c in '"\n\\') or path.startswith(' '):
        path = '"%s"' % path.replace('\\', '\\\\').replace(
            '"', '\\"').replace('\n', '\\n')
    return path.encode('utf-8')


def _split_commit(raw):
    header, _, message = raw.partition(b'\n\n')
    fields = {'parent': []}
    for line in header.split(b'\n'):
        key, _, value = line.partition(b' ')
        if key == b'parent':
            fields['parent'].append(value.decode())
        elif key in (b'tree', b'author', b'committer', b'tagger',
                     b'object', b'type', b'tag'):
            fields[key.decode()] = value
    return fields, message


class _Stream:
    """The fast-import stream of the rewritten history."""

    def __init__(self, history, objects, masker):
        self.git = history.git
        self.objects = objects
        self.masker = masker
        self.marks = {}
        self.chunks = [b'feature done\n']
        self.blobs = {}
        self.masked = 0

    def mark(self):
        return len(self.marks) + len(self.blobs) + 1

    def clean(self, data):
        """``data`` masked as the store masks the files now (what an
        older store masked is put back first)."""
        text = _text(data)
        if text is None:
            return data
        return self.masker.clean(self.masker.smudge(text)).encode('utf-8')

    def blob(self, sha):
        """The dataref of blob ``sha`` masked (itself if unchanged)."""
        if sha not in self.blobs:
            data = self.objects[sha][1]
            cleaned = self.clean(data)
            if cleaned == data:
                self.blobs[sha] = sha.encode()
            else:
                mark = self.mark()
                self.blobs[sha] = b':%d' % mark
                self.chunks.append(b'blob\nmark :%d\n' % mark +
                                   _data(cleaned))
                self.masked += 1
        return self.blobs[sha]

    def commit(self, sha):
        fields, message = _split_commit(self.objects[sha][1])
        files = self.git.run('ls-tree', '-r', '-z', '--full-tree',
                             sha).stdout.split(b'\0')
        parents = [p for p in fields['parent'] if p in self.marks]
        mark = self.mark()
        lines = [b'reset %s\n' % SCRATCH.encode()] if not parents else []
        lines.append(b'commit %s\nmark :%d\n' % (SCRATCH.encode(), mark))
        lines.append(b'author %s\ncommitter %s\n' % (
            fields['author'], fields['committer']))
        lines.append(_data(self.clean(message)))
        for index, parent in enumerate(parents):
            lines.append(b'%s :%d\n' % (b'from' if index == 0 else b'merge',
                                        self.marks[parent]))
        lines.append(b'deleteall\n')
        for entry in files:
            if not entry:
                continue
            meta, _, path = entry.partition(b'\t')
            mode, kind, obj = meta.split()
            ref = self.blob(obj.decode()) if kind == b'blob' else obj
            lines.append(b'M %s %s %s\n' % (mode, ref, _path(
                path.decode('utf-8', 'surrogateescape'))))
        self.marks[sha] = mark
        self.chunks.append(b''.join(lines) + b'\n')

    def tag(self, name, sha):
        fields, message = _split_commit(self.objects[sha][1])
        target = fields['object'].decode()
        if target not in self.marks:
            return
        self.chunks.append(b'tag %s\nfrom :%d\ntagger %s\n' % (
            name.encode(), self.marks[target], fields['tagger']) +
            _data(self.clean(message)))

    def ref(self, name, sha):
        if sha in self.marks:
            self.chunks.append(b'reset %s\nfrom :%d\n\n' % (
                name.encode(), self.marks[sha]))

    def notes(self, ref, notes):
        self.chunks.append(b'reset %s\n' % ref.encode())
        self.chunks.append(
            b'commit %s\ncommitter %s <%s> %d +0000\n' % (
                ref.encode(), git_mod.NAME.encode(), git_mod.EMAIL.encode(),
                int(time.time())) +
            _data(b'Parameters, secrets masked'))
        for sha, text in notes.items():
            if sha in self.marks:
                self.chunks.append(b'N inline :%d\n' % self.marks[sha] +
                                   _data(text.encode('utf-8')))
        self.chunks.append(b'\n')

    def payload(self):
        return b''.join(self.chunks) + b'done\n'


def _count_left(objects, texts):
    """How many secret texts some object still holds."""
    left = set()
    for _, data in objects.values():
        text = _text(data)
        if text is None:
            continue
        left.update(t for t in texts if t in text)
    return len(left)


def purge(history, values, names):
    """Rewrite ``history`` without the secrets ``values`` (``[(name,
    value)]``, the work dir's now) of the parameters ``names``, nor any
    its notes or files held; return :class:`Purged`."""
    if not history.head():
        raise exceptions.HistoryError(
            '%s has no config-download versions to purge' %
            history.config_dir)
    history.remember_secrets(values, names)
    git = history.git
    objects = _objects(git)
    texts = [_text(d) or '' for kind, d in objects.values() if kind == 'blob']
    # What the old versions hold is masked from now on too.
    history.store.add(history.store.pairs(_old_secrets(history), texts))
    masker = history.store.masker()
    stream = _Stream(history, objects, masker)
    refs = [line.split('\0') for line in git.text(
        'for-each-ref', '--format=%(refname)%00%(objecttype)%00'
        '%(objectname)').splitlines()]
    for sha in git.text('rev-list', '--topo-order', '--reverse', '--all',
                        '--not', '--glob=refs/notes/*').split():
        stream.commit(sha)
    for name, kind, sha in refs:
        if name.startswith('refs/notes/'):
            continue
        if kind == 'tag':
            stream.tag(name[len('refs/tags/'):], sha)
        else:
            stream.ref(name, sha)
    noted = {sha: history.noted(sha) for sha in stream.marks}
    stream.notes(versions.PARAMETERS_NOTES, {
        sha: versions.note_text(history.store.mask_parameters(
            params, keep=True))
        for sha, params in noted.items() if params is not None})
    head = history.head()
    git.run('fast-import', '--force', '--quiet', input=stream.payload())
    git.run('update-ref', '-d', SCRATCH)
    for name in ('ORIG_HEAD', 'FETCH_HEAD', 'MERGE_HEAD'):
        try:
            os.unlink(os.path.join(git.git_dir, name))
        except FileNotFoundError:
            pass
    git.run('reflog', 'expire', '--expire=now', '--expire-unreachable=now',
            '--all')
    git.run('reset', '-q')
    git.run('gc', '--prune=now', '--quiet')
    after = _objects(git)
    secret_texts = [t for t, _ in masker.pairs]
    return Purged(
        config_download=history.config_dir, head_before=head,
        head_after=history.head(), versions=len(stream.marks),
        files_masked=stream.masked,
        notes_masked=sum(1 for p in noted.values() if p is not None),
        secret_texts_found=_count_left(objects, secret_texts),
        objects_before=len(objects), objects_after=len(after),
        secret_texts_left=_count_left(after, secret_texts))
