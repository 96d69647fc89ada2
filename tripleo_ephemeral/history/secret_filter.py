"""config-download's git filter: secrets in the files, placeholders in git.

git runs this file as a long-running filter process (gitattributes,
``filter.<driver>.process``) for every file of config-download it reads
from or writes to the work tree: ``clean`` replaces each known secret text
by its placeholder (``<secret:AdminPassword:3f2a9c1b7e0d>``) before git
stores the file, ``smudge`` puts the text back when git writes a file out
(checkout, cherry-pick, stash). The rendered files keep their values, so
Ansible reads what was rendered; git's objects, diffs and notes hold none.

The texts and their placeholders are the store ``<git dir>/
tripleo-ephemeral/secrets.json`` (0600; not an object: a clone, push or
bundle carries none), which :mod:`.secrets` writes before every commit.
Standard library only, run as ``python -I -S`` with no package on the path:
git starts it in the top directory of the work tree.
"""

import json
import os
import re
import sys

#: The driver's name in .git/config and .git/info/attributes.
DRIVER = 'tripleo-secrets'
#: The store, under the git dir.
STORE = os.path.join('tripleo-ephemeral', 'secrets.json')
PLACEHOLDER = re.compile(r'<secret:[A-Za-z0-9_.\[\]/@+-]{1,200}:[0-9a-f]{12}>')
_FLUSH = b'0000'
_MAX_DATA = 65516


class Masker:
    """Replaces known secret texts by placeholders and back.

    ``pairs``: ``[(text, placeholder)]``; longer texts are replaced first,
    so a secret inside a longer one never splits it.
    """

    def __init__(self, pairs):
        self.pairs = sorted({t: p for t, p in pairs if t}.items(),
                            key=lambda tp: (-len(tp[0]), tp[0]))
        self.texts = {p: t for t, p in self.pairs}

    def clean(self, text):
        """``text`` with every known secret replaced (str)."""
        spans = []
        for secret, placeholder in self.pairs:
            start = text.find(secret)
            while start != -1:
                end = start + len(secret)
                if not any(s < end and start < e for s, e, _ in spans):
                    spans.append((start, end, placeholder))
                start = text.find(secret, end)
        if not spans:
            return text
        parts, pos = [], 0
        for start, end, placeholder in sorted(spans):
            parts += [text[pos:start], placeholder]
            pos = end
        parts.append(text[pos:])
        return ''.join(parts)

    def smudge(self, text):
        """``text`` with the placeholders the store knows put back."""
        if not self.texts or '<secret:' not in text:
            return text
        return PLACEHOLDER.sub(
            lambda m: self.texts.get(m.group(0), m.group(0)), text)

    def convert(self, data, command):
        """``clean`` or ``smudge`` bytes (what is not UTF-8 passes)."""
        try:
            text = data.decode('utf-8')
        except UnicodeDecodeError:
            return data
        done = self.clean(text) if command == 'clean' else self.smudge(text)
        return done.encode('utf-8')


def load(git_dir):
    """The :class:`Masker` of the store under ``git_dir``; a missing store
    raises FileNotFoundError (a filter that knows nothing must not pass
    secrets on)."""
    with open(os.path.join(git_dir, STORE), encoding='utf-8') as f:
        data = json.load(f)
    return Masker([(s['text'], s['placeholder'])
                   for s in data.get('secrets') or []])


# -- git's long-running filter protocol (gitprotocol-common pkt-line) ---------

def _read_packet(stream):
    """One pkt-line's payload, or None for a flush packet."""
    head = stream.read(4)
    if len(head) < 4:
        raise EOFError
    size = int(head, 16)
    if size == 0:
        return None
    return stream.read(size - 4)


def _read_lines(stream):
    lines = []
    while True:
        packet = _read_packet(stream)
        if packet is None:
            return lines
        lines.append(packet.decode('utf-8').rstrip('\n'))


def _read_data(stream):
    chunks = []
    while True:
        packet = _read_packet(stream)
        if packet is None:
            return b''.join(chunks)
        chunks.append(packet)


def _write(stream, *payloads, flush=True):
    for payload in payloads:
        if isinstance(payload, str):
            payload = (payload + '\n').encode('utf-8')
        stream.write(b'%04x' % (len(payload) + 4) + payload)
    if flush:
        stream.write(_FLUSH)


def _write_data(stream, data):
    for start in range(0, len(data), _MAX_DATA):
        _write(stream, data[start:start + _MAX_DATA], flush=False)
    stream.write(_FLUSH)


def serve(masker, stdin, stdout):
    """Answer git on ``stdin``/``stdout`` (binary) until it closes them."""
    if _read_lines(stdin)[:1] != ['git-filter-client']:
        raise SystemExit('%s: not started by git' % DRIVER)
    _write(stdout, 'git-filter-server', 'version=2')
    stdout.flush()
    offered = _read_lines(stdin)
    _write(stdout, *[c for c in ('capability=clean', 'capability=smudge')
                     if c in offered])
    stdout.flush()
    while True:
        try:
            header = dict(line.split('=', 1) for line in _read_lines(stdin))
        except EOFError:
            return
        data = _read_data(stdin)
        try:
            result = masker.convert(data, header.get('command'))
        except Exception as exc:  # git names the file; say why
            sys.stderr.write('%s: %s: %s\n' % (DRIVER, header.get(
                'pathname'), exc))
            _write(stdout, 'status=error')
        else:
            _write(stdout, 'status=success')
            _write_data(stdout, result)
            _write(stdout)   # an empty list: the status stays success
        stdout.flush()


def main():
    git_dir = os.environ.get('GIT_DIR') or '.git'
    try:
        masker = load(git_dir)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        sys.stderr.write(
            '%s: cannot read %s (%s); render config-download again '
            '("openstack overcloud deploy --config-download-only") to '
            'rewrite it\n' % (DRIVER, os.path.join(git_dir, STORE), exc))
        return 1
    serve(masker, sys.stdin.buffer, sys.stdout.buffer)
    return 0


if __name__ == '__main__':
    sys.exit(main())
