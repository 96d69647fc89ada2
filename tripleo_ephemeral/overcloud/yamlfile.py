"""Reading and atomically writing the YAML files of a deployment.

Reading goes through libyaml when PyYAML has it (the same data, about six
times faster: a THT deploy's outputs file is 0.9 MB). A file read with
:func:`load` (every YAML file a user gives, and the work dir's own) is read
strictly: UTF-8 only, and a key given twice in one mapping is an error
naming both lines, where PyYAML would keep the last silently. Writing keeps
PyYAML's own emitter unless asked (``fast``): libyaml folds long quoted
strings at other places, and config-download's files are compared to the
text tripleo-common writes; the work dir's own files (the saved outputs)
need only the same data back.

Every document read here is within :mod:`.yaml_limits` (size, nesting,
aliases): :data:`INPUT` for what an operator gives, :data:`OWN` for the
work dir's own files.
"""

import json
import logging
import os
import tempfile

import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.overcloud import yaml_limits

LOG = logging.getLogger(__name__)

#: The fastest safe loader and dumper this PyYAML has.
LOADER = yaml_limits.LOADER
_FAST_DUMPER = getattr(yaml, 'CSafeDumper', yaml.SafeDumper)


#: The limits of an operator's file and of the product's own.
INPUT, OWN = yaml_limits.INPUT, yaml_limits.OWN
LimitError = yaml_limits.LimitError
check_size, check_text = yaml_limits.check_size, yaml_limits.check_text


class DuplicateKeyError(yaml.constructor.ConstructorError):
    """A mapping gives the same key twice."""

    def __init__(self, key, first, again):
        super().__init__(None, None, 'the key %r is given twice (lines %d '
                         'and %d)' % (key, first.line + 1, again.line + 1),
                         again)
        self.key = key
        self.first_line = first.line + 1


class StrictLoader(LOADER):
    """:data:`LOADER` that refuses a key given twice in one mapping."""

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            seen = {}
            for key_node, _value in node.value:
                if not isinstance(key_node, yaml.ScalarNode) or \
                        key_node.tag == 'tag:yaml.org,2002:merge':
                    continue
                key = self.construct_object(key_node)
                try:
                    first = seen.setdefault(key, key_node.start_mark)
                except TypeError:
                    continue
                if first is not key_node.start_mark:
                    raise DuplicateKeyError(key, first, key_node.start_mark)
        return super().construct_mapping(node, deep=deep)


def loads(text, strict=False, limits=INPUT, json_first=True):
    """Parse the YAML ``text`` (a str or bytes) safely within ``limits``
    (:class:`LimitError` over them); ``strict``: with
    :class:`StrictLoader`.

    A text that starts with ``{`` is read as JSON first, as Heat reads a
    template: heatclient sends every nested template as JSON, and the json
    module reads it some twenty times faster than a YAML parser. Not when
    ``strict``: json keeps a duplicate key silently; nor without
    ``json_first`` (where YAML's reading must be kept: ``1e5`` is a string
    in YAML 1.1).
    """
    if isinstance(text, bytes):
        text = text.decode('utf-8')
    check_size(len(text), limits)
    if json_first and not strict and text.startswith('{'):
        try:
            return yaml_limits.deep(json.loads, text)
        except ValueError:
            pass
    return yaml_limits.load(text, StrictLoader if strict else LOADER, limits)


def loads_all(text, strict=False, limits=INPUT):
    """Every document of the YAML ``text`` (a str or bytes), parsed
    safely within ``limits`` each; ``strict``: with :class:`StrictLoader`
    (no key twice). A stream of Kubernetes documents (``---`` between
    them) is read so."""
    if isinstance(text, bytes):
        text = text.decode('utf-8')
    check_size(len(text), limits)
    return yaml_limits.load_all(text, StrictLoader if strict else LOADER,
                                limits)


def read(path, limits=INPUT):
    """The bytes of ``path``; :class:`LimitError` (before reading them)
    when there are more than ``limits`` allow."""
    with open(path, 'rb') as f:
        check_size(os.fstat(f.fileno()).st_size, limits)
        data = f.read(limits.max_bytes + 1)
    check_size(len(data), limits)  # a pipe or /proc file: no size
    return data


def load(path, what='file', error=exceptions.InputFileError, strict=True,
         limits=None):
    """Return the parsed YAML at ``path``, read strictly (UTF-8, no key
    twice) unless ``strict`` is False (the large files the deploy wrote
    itself: about a fifth faster), within ``limits`` (default: an
    operator's :data:`INPUT` when ``strict``, else the product's
    :data:`OWN`); raise ``error`` naming ``what`` and the fix."""
    if limits is None:
        limits = INPUT if strict else OWN
    data = b''
    try:
        data = read(path, limits)
        return loads(data.decode('utf-8'), strict=strict, limits=limits)
    except LimitError as e:
        raise error('%s %s is refused: %s' % (what, path, e))
    except UnicodeDecodeError as e:
        raise error('%s %s is not UTF-8 (byte 0x%02x on line %d): save it '
                    'as UTF-8' % (what, path, data[e.start],
                                  data.count(b'\n', 0, e.start) + 1))
    except DuplicateKeyError as e:
        raise error('%s %s gives the key %s twice (lines %d and %d): keep '
                    'one' % (what, path, e.key, e.first_line,
                             e.problem_mark.line + 1))
    except FileNotFoundError:
        raise error('%s %s not found: check the path' % (what, path))
    except OSError as e:
        raise error('%s %s could not be read: %s' % (what, path, e.strerror))
    except yaml.YAMLError as e:
        mark = getattr(e, 'problem_mark', None)
        where = (' line %d column %d' % (mark.line + 1, mark.column + 1)
                 if mark else '')
        problem = getattr(e, 'problem', None) or 'invalid YAML'
        raise error('%s %s is not valid YAML (%s%s): fix the syntax'
                    % (what, path, problem, where))


def write_text(path, text, mode=0o600):
    """Write ``text`` to ``path`` atomically, with permissions ``mode``."""
    return write_texts({path: text}, mode=mode)[0]


def write_texts(texts, mode=0o600):
    """Write ``{path: text}`` so that every file is replaced or none is:
    each is written in full to a temporary file beside it first."""
    staged = []
    try:
        for path, text in texts.items():
            directory = os.path.dirname(os.path.abspath(path))
            with fileutil.naming(path):
                fileutil.make_private_dirs(directory)
                fd, tmp = tempfile.mkstemp(
                    dir=directory, prefix='.%s.' % os.path.basename(path),
                    suffix='.tmp')
                staged.append((tmp, path))
                os.fchmod(fd, mode)
                with os.fdopen(fd, 'w') as f:
                    f.write(text)
                    f.flush()
                    os.fsync(f.fileno())
        for tmp, path in staged:
            with fileutil.naming(path):
                os.replace(tmp, path)
            LOG.debug('Wrote %s', path)
    except BaseException:
        for tmp, _path in staged:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
        raise
    return [path for _tmp, path in staged]


def dump(data, fast=False):
    """Return ``data`` as block-style YAML text; ``fast`` with libyaml
    (see the module's doc)."""
    return yaml.dump(data, Dumper=_FAST_DUMPER if fast else yaml.SafeDumper,
                     default_flow_style=False, sort_keys=True)


def write(path, data, mode=0o600):
    """Dump ``data`` as YAML to ``path`` atomically."""
    return write_text(path, dump(data), mode=mode)
