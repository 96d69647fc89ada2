"""Which values of config-download are secret, and how git is kept from
them.

A deployment's secrets are the values of its passwords file (generated or
given), of the parameters THT marks ``hidden: true`` that its environments
set (Heat masks those: :func:`tripleo_ephemeral.overcloud.outputs.
hidden_names`) and the private keys it holds or that a rendered file holds
(a PEM block). :class:`SecretStore` turns them into the texts that stand for
them in the files (the value, each line of a multi-line one, in every form
:mod:`tripleo_ephemeral.secret_forms` knows: as written, JSON- and
YAML-escaped, base64 as a Secret holds it; and as a long YAML line folds
them) and writes the store git's filter (:mod:`.secret_filter`) reads. A
placeholder names the secret and a fingerprint of its text (HMAC with a
key of the store): a rotated password is a changed line of the history,
not its value. Whatever a password holds is masked, text that looks like a
placeholder too: only the placeholders this store made stand for a masked
value.
"""

import hashlib
import hmac
import json
import os
import re
import secrets as random

from tripleo_ephemeral import fileutil
from tripleo_ephemeral.history import secret_filter
from tripleo_ephemeral import secret_forms

#: Shorter texts are not masked: they would hide unrelated words (and are
#: no secret worth the name).
MIN_LENGTH = 4
#: Names whose values are masked in notes and tables even if no source
#: marks them secret.
SECRET_SUFFIXES = ('Password', 'Secret', 'Key', 'Token', 'Passphrase',
                   'Kek', 'Authkey', 'Cookie', 'Keys', 'Credentials')
PEM_NAME = 'private-key'
_PEM = re.compile(r'-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----(.{0,20000}?)'
                  r'-----END[A-Z0-9 ]*PRIVATE KEY-----', re.DOTALL)
#: A PEM body's lines, however a file quotes or folds them.
_PEM_LINE = re.compile(r'[A-Za-z0-9+/=]{%d,}' % 16)
_PEM_BREAK = re.compile(r'\\n|\\\n[ \t]*|\s+')
_NAME = re.compile(r'[^A-Za-z0-9_.\[\]/@+-]')
_NOT_SECRET = frozenset(('true', 'false', 'none', 'null', 'True', 'False',
                         'None'))


def is_secret_name(name, names=()):
    """Whether parameter ``name`` is one of ``names`` or named like a
    secret."""
    return name in names or str(name).endswith(SECRET_SUFFIXES)


def leaves(name, value):
    """``(name, text)`` of every string in ``value`` (dicts and lists
    walked; ``name.key``, ``name[0]``)."""
    if isinstance(value, str):
        yield name, value
    elif isinstance(value, dict):
        for key, item in sorted(value.items(), key=lambda kv: str(kv[0])):
            yield from leaves('%s.%s' % (name, key), item)
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from leaves('%s[%d]' % (name, index), item)


def fragments(text):
    """The texts of a secret value that are masked: the value, and each
    line of a multi-line one (a folded or quoted file breaks it there)."""
    found = [text]
    if '\n' in text:
        found += [line.strip() for line in text.splitlines()
                  if not line.strip().startswith('-----')]
    return [f for f in found if len(f) >= MIN_LENGTH and
            f not in _NOT_SECRET]


def encodings(text):
    """How ``text`` appears in a rendered file
    (:func:`tripleo_ephemeral.secret_forms.forms`)."""
    return secret_forms.forms(text)


def _folding(encoded):
    """A pattern of ``encoded`` as a long YAML line folds it: at a space
    (a plain or quoted scalar) or after an escape (a double-quoted one)."""
    parts = []
    for ch in encoded:
        parts.append(r'(?: |\\?\n[ \t]*(?:\\ )?)' if ch == ' '
                     else re.escape(ch))
    return r'(?:\\\n[ \t]*)?'.join(parts)


def pem_fragments(text):
    """The body lines of every PEM private key in ``text``."""
    found = []
    for match in _PEM.finditer(text):
        for piece in _PEM_BREAK.split(match.group(1)):
            found += _PEM_LINE.findall(piece)
    return found


class SecretStore:
    """The store of one config-download repository (``git_dir``)."""

    def __init__(self, git_dir):
        self.path = os.path.join(git_dir, secret_filter.STORE)
        self._data = None

    @property
    def data(self):
        if self._data is None:
            try:
                with open(self.path, encoding='utf-8') as f:
                    self._data = json.load(f)
            except (OSError, ValueError):
                self._data = {}
        return self._data

    def exists(self):
        return os.path.exists(self.path)

    @property
    def names(self):
        """The secret parameters' names."""
        return frozenset(self.data.get('names') or ())

    @property
    def placeholders(self):
        """The placeholders this store made for the texts it holds: the
        only texts that stand for a masked value (a password may look
        like one)."""
        return frozenset(s['placeholder']
                         for s in self.data.get('secrets') or ())

    def _key(self):
        key = self.data.get('key')
        if not key:
            key = self.data['key'] = random.token_hex(32)
        return key

    def placeholder(self, name, text):
        digest = hmac.new(self._key().encode(), text.encode(
            'utf-8', 'surrogatepass'), hashlib.sha256).hexdigest()[:12]
        return '<secret:%s:%s>' % (_NAME.sub('_', name)[:200], digest)

    def value_placeholder(self, name, value):
        """The placeholder of a whole parameter value (in notes): a
        string's is the one it has in the files."""
        return self.placeholder(name, value if isinstance(value, str) else
                                json.dumps(value, sort_keys=True,
                                           default=str))

    def pairs(self, values, texts=()):
        """``[(text, placeholder)]`` of ``values`` (``[(name, value)]``)
        as the ``texts`` (file contents) hold them."""
        found = {}
        folded = []
        made = self.placeholders
        for name, value in values:
            for leaf, text in leaves(name, value):
                if text in made:
                    continue  # a note's masked value
                for fragment in fragments(text):
                    for encoded in encodings(fragment):
                        found.setdefault(encoded, leaf)
                        # A line of its own may fold where it is long.
                        if '\n' not in fragment and (
                                ' ' in encoded or '\\' in encoded):
                            folded.append((leaf, re.compile(
                                _folding(encoded))))
        for text in texts:
            for fragment in pem_fragments(text):
                found.setdefault(fragment, PEM_NAME)
            for leaf, pattern in folded:
                for match in pattern.finditer(text):
                    found.setdefault(match.group(0), leaf)
        return [(text, self.placeholder(name, text))
                for text, name in found.items()]

    def write(self, values, names, texts=()):
        """Store the secrets ``values`` (``[(name, value)]``) of the
        parameters ``names`` as the file contents ``texts`` hold them.
        Those stored before stay, retired: a rotated password a hand edit
        or an old version still holds is masked (and put back) too."""
        self.add(self.pairs(values, texts), names)

    def add(self, pairs, names=()):
        """Store ``[(text, placeholder)]`` beside those stored; a text
        stored keeps its placeholder (a file masks alike every time)."""
        stored = [(s['text'], s['placeholder'])
                  for s in self.data.get('secrets') or ()]
        known = {text for text, _ in stored}
        self.data['names'] = sorted(set(names) | self.names)
        self.data['secrets'] = [
            {'text': text, 'placeholder': placeholder}
            for text, placeholder in stored + [
                (t, p) for t, p in pairs if t not in known]]
        fileutil.ensure_private_dir(os.path.dirname(self.path))
        fileutil.write_atomic(self.path, json.dumps(
            self.data, indent=0, sort_keys=True) + '\n', mode=0o600)

    def ensure(self):
        """Write an empty store if there is none (the filter refuses to
        run without one)."""
        if not self.exists():
            self.write((), ())

    def masker(self, extra=()):
        """The store's :class:`~.secret_filter.Masker`, knowing also the
        ``extra`` values (``[(name, value)]``: those of older versions)."""
        pairs = [(s['text'], s['placeholder'])
                 for s in self.data.get('secrets') or ()]
        return secret_filter.Masker(pairs + self.pairs(extra))

    def mask_parameters(self, parameters, names=None, keep=False):
        """``parameters`` with the value of every secret one replaced by
        its placeholder (a note holds no secret); a value that is one of
        this store's placeholders is one already (a password that only
        looks like one is masked). ``keep``: the placeholders of whole
        values (a mapping's) are stored too, for the next time."""
        names = self.names if names is None else names
        made = self.placeholders
        masked, kept = {}, []
        for name, value in parameters.items():
            if is_secret_name(name, names) and value is not None and \
                    not (isinstance(value, str) and value in made):
                masked[name] = self.value_placeholder(name, value)
                if not isinstance(value, str):
                    kept.append((json.dumps(value, sort_keys=True,
                                            default=str), masked[name]))
            else:
                masked[name] = value
        if keep and kept:
            self.add(kept)
        return masked
