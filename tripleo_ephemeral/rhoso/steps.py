"""The kit's steps: one directory per step of upstream's procedure.

An export is a sequence of :class:`Step`\\ s, each a directory
``NN-<name>/`` of the export holding the Kubernetes documents of that step
and nothing else, so that ``oc apply -f NN-<name>/`` does that step alone.
Numbers follow upstream's procedure: 10-49 the control plane
(:data:`CONTROL_PLANE`), 50-99 the data plane (:data:`DATA_PLANE`). What is
not a document to apply (a patch for ``oc patch --patch-file``) is a
:class:`Patch`, written without a ``.yaml`` name so ``oc apply -f`` of its
step never reads it. The report has one section per step: its commands,
what they create, the waits and the checks before the next step, and the
upstream text it follows (:class:`Source`).

A :class:`Kit` holds the steps of one export in order; the control plane
adds its steps to it the same way the data plane does. Pure: no I/O.
"""

import re
from typing import Any, Iterable, Mapping, NamedTuple, TypedDict, Union

#: Upstream's procedure, control plane part: networking 10-19, backend
#: services and osp-secret 20-29, database and OVN migration 30-39,
#: per-service adoption 40-49.
CONTROL_PLANE = range(10, 50)
#: The data plane part: NetConfig, Secrets and services, NodeSets,
#: pre-adoption validation, cleanup, adoption, networkers.
DATA_PLANE = range(50, 100)
_NAME = re.compile(r'^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')
_FILE = re.compile(r'^[A-Za-z0-9][A-Za-z0-9_.-]*$')
#: What ``oc apply -f <dir>`` reads.
APPLIED_SUFFIXES = ('.yaml', '.yml', '.json')

#: A Kubernetes document as YAML reads it (``apiVersion``, ``kind``,
#: ``metadata``, ...); the modules that make one say its shape
#: (:class:`~.nodeset.NodeSet`, :class:`~.netconfig.NetConfig`, ...).
Body = Mapping[str, Any]


class Metadata(TypedDict, total=False):
    """A document's ``metadata``: what the kit sets of it."""

    name: str
    namespace: str
    labels: dict[str, str]
    annotations: dict[str, str]


class Source(NamedTuple):
    """Where upstream says it: ``repository`` (owner/name), ``revision``
    (a commit), ``path`` in it and ``lines`` ("744-748", or '')."""

    repository: str
    revision: str
    path: str
    lines: str

    def text(self) -> str:
        where = '%s@%s:%s' % (self.repository, self.revision[:8], self.path)
        if not self.lines:
            return where
        many = '-' in self.lines or ',' in self.lines
        return '%s %s %s' % (where, 'lines' if many else 'line', self.lines)


class Document:
    """A Kubernetes document of a step: its ``file`` name (``.yaml``) in
    the step directory, its ``body``, and ``comments`` (Ansible variable
    -> the line written above it: where its value came from)."""

    def __init__(self, file: str, body: Body,
                 comments: dict[str, str] | None = None) -> None:
        if not file.endswith('.yaml') or not _FILE.match(file):
            raise ValueError('a document file is a plain name ending in '
                             '.yaml: %r' % (file,))
        self.file = file
        self.body = body
        self.comments = dict(comments or {})

    @property
    def kind(self) -> str | None:
        return self.body.get('kind')

    @property
    def name(self) -> str | None:
        return (self.body.get('metadata') or {}).get('name')

    def describe(self) -> str:
        return '%s %s' % (self.kind, self.name)


class Patch:
    """A patch of a step, not an ``oc apply`` document: ``file`` (no
    ``.yaml``/``.yml``/``.json`` name, so ``oc apply -f`` of the step skips
    it), its ``body`` (a document or text) and the ``command`` that applies
    it (``{path}`` stands for the file's path in the export)."""

    def __init__(self, file: str, body: Body | str, command: str,
                 what: str) -> None:
        if file.endswith(APPLIED_SUFFIXES) or not _FILE.match(file):
            raise ValueError('a patch file is a plain name that oc apply '
                             'does not read: %r' % (file,))
        self.file = file
        self.body = body
        self.command = command
        self.what = what


class Step:
    """One step of the procedure. ``commands`` run it (``{dir}`` stands for
    its directory; default: ``oc apply -f {dir}/`` when it has documents,
    then the patches' commands);
    ``waits`` are what to wait for before the next step, ``checks`` what
    to look at; ``notes`` what the operator decides or does by hand here;
    ``private`` steps (Secrets) are written 0700/0600."""

    def __init__(self, number: int, name: str, title: str,
                 source: Source,
                 documents: Iterable[Document] = (),
                 patches: Iterable[Patch] = (),
                 commands: Iterable[str] | None = None,
                 waits: Iterable[str] = (), checks: Iterable[str] = (),
                 notes: Iterable[str] = (), private: bool = False) -> None:
        if not _NAME.match(name or ''):
            raise ValueError('a step name is lower-case letters, digits '
                             'and "-": %r' % (name,))
        if number not in CONTROL_PLANE and number not in DATA_PLANE:
            raise ValueError('step %d is outside 10-99' % number)
        self.number = number
        self.name = name
        self.title = title
        self.source = source
        self.documents = list(documents)
        self.patches = list(patches)
        self._commands = list(commands) if commands is not None else None
        self.waits = list(waits)
        self.checks = list(checks)
        self.notes = list(notes)
        self.private = private

    @property
    def directory(self) -> str:
        return '%02d-%s' % (self.number, self.name)

    @property
    def commands(self) -> list[str]:
        """What to run, in order: the explicit ``commands`` when given
        (they name the patches themselves), else ``oc apply -f`` of the
        directory when it has documents, then each patch's command."""
        if self._commands is not None:
            return [c.replace('{dir}', self.directory)
                    for c in self._commands]
        base = ['oc apply -f %s/' % self.directory] if self.documents else []
        return base + [p.command.replace('{dir}', self.directory).replace(
            '{path}', self.path_of(p)) for p in self.patches]

    def path_of(self, item: Union[Document, Patch]) -> str:
        """The path of a :class:`Document` or :class:`Patch` of this step
        in the export."""
        return '%s/%s' % (self.directory, item.file)

    def creates(self) -> list[str]:
        """``Kind name`` of every document it applies, in order."""
        return [d.describe() for d in self.documents]


class Kit:
    """The steps of one export, by number."""

    def __init__(self) -> None:
        self._steps: dict[int, Step] = {}

    def add(self, step: Step) -> Step:
        """Add ``step``; ValueError when its number or directory is
        taken, or a file name is used twice in it."""
        if step.number in self._steps:
            raise ValueError('step %d is already %s' % (
                step.number, self._steps[step.number].directory))
        files = [d.file for d in step.documents] + [
            p.file for p in step.patches]
        twice = sorted({f for f in files if files.count(f) > 1})
        if twice:
            raise ValueError('step %s has %s twice' % (step.directory,
                                                       twice[0]))
        self._steps[step.number] = step
        return step

    def steps(self) -> list[Step]:
        return [self._steps[n] for n in sorted(self._steps)]

    def step(self, name: str) -> Step | None:
        return next((s for s in self._steps.values() if s.name == name),
                    None)

    def documents(self) -> list[tuple[str, Document]]:
        """``(path in the export, Document)`` of every step, in order."""
        return [(s.path_of(d), d) for s in self.steps() for d in s.documents]

    def of_kind(self, kind: str) -> list[Body]:
        return [d.body for _, d in self.documents() if d.kind == kind]
