"""How large a YAML document may be, checked before it costs anything.

A document is refused (:class:`LimitError`, saying how it is over and
what to do) when:

* its text is over its :class:`Limits`' ``max_bytes``: checked before it
  is read (:func:`check_size`);
* it nests mappings and lists past :data:`MAX_DEPTH`: libyaml's composer
  recurses in C and crashes the process (a segmentation fault, no message)
  some 30000 levels down; the events are walked only when the text could
  nest that deep;
* its aliases (``*name``, naming an ``&name`` anchor) would expand it
  more than ``max_expansion`` times (a "billion laughs": ten lines that a
  walk over, or a JSON dump of, turns into gigabytes). The loader shares
  an aliased node, so parsing it is cheap; the expansion is counted over
  the shared nodes, once each, and only in a text with more aliases than
  could reach the limit.
"""

import itertools
import re

import yaml

#: The fastest safe loader this PyYAML has.
LOADER = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)


class Limits:
    """How large a YAML document may be: ``max_bytes`` of text, and at
    most ``max_expansion`` times as many values (mappings and lists) once
    its aliases are expanded as it holds, above ``free_nodes``."""

    def __init__(self, max_bytes, max_expansion=10, free_nodes=100000):
        self.max_bytes = max_bytes
        self.max_expansion = max_expansion
        self.free_nodes = free_nodes


#: What an operator gives (templates, environments, roles, networks, VIP
#: and servers files, passwords...): Heat takes no request body over 8 MiB
#: (heat.conf's max_json_body_size), so neither does a file of one.
INPUT = Limits(8 << 20)
#: The files the product wrote itself (the saved stack outputs of a large
#: overcloud are tens of MB).
OWN = Limits(1 << 30)

#: An anchor (``&name``) where YAML can have one: at the start of a line
#: or after a space or flow indicator, not ``&&`` nor ``&>`` (shell).
_ANCHOR = re.compile(r'(?:^|[\s\[{,:-])&[^\s\[\]{},&>]', re.M)
#: Where YAML can have an alias (``*name``); more than it has, never less.
_ALIAS = re.compile(r'(?:^|[\s\[{,:?-])\*[^\s\[\]{},]', re.M)


#: Nesting deeper than this is refused: libyaml's composer recurses in C
#: and crashes the process (a segmentation fault) some 30000 levels down.
MAX_DEPTH = 1000
#: Nesting on one line: "- - - - ..." or "? ? ..." (flow "[[[" is counted
#: apart; nesting by indentation takes a text the square of its depth).
_COMPACT = re.compile(r'[-?][ \t]+[-?][ \t]+[-?][ \t]+[-?][ \t]')
_NOT_BRACKETS = re.compile(r'[^\[\]{}]+')
_BRACKET_STEP = {'[': 1, '{': 1, ']': -1, '}': -1}


class LimitError(yaml.YAMLError):
    """A document is over its :class:`Limits`; ``str()`` says how."""


def check_size(size, limits=INPUT):
    """:class:`LimitError` when ``size`` bytes are over ``limits``."""
    if size > limits.max_bytes:
        raise LimitError('%s, over the %s a YAML file may be: split it'
                         % (_mib(size), _mib(limits.max_bytes)))


def _mib(size):
    return ('%.1f MiB' % (size / (1 << 20)) if size >= 1 << 20
            else '%d bytes' % size)


def _data_children(node):
    if isinstance(node, dict):
        return [c for c in node.values() if isinstance(c, (dict, list))]
    if isinstance(node, list):
        return [c for c in node if isinstance(c, (dict, list))]
    return ()


def _node_children(node):
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair
                if not isinstance(n, yaml.ScalarNode)]
    if isinstance(node, yaml.SequenceNode):
        return [n for n in node.value if not isinstance(n, yaml.ScalarNode)]
    return ()


def expansion(root, children=_data_children):
    """``(held, expanded)``: the mappings and lists ``root`` holds (parsed
    data, or composed nodes with :func:`_node_children`), and how many it
    would have with every shared one (an alias) copied out. Counted over
    the shared ones, once each: cheap whatever ``expanded``."""
    sizes = {}
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in sizes:
            continue
        below = children(node)
        if children_done:
            sizes[id(node)] = 1 + sum(sizes[id(c)] for c in below)
            continue
        stack.append((node, True))
        stack.extend((c, False) for c in below if id(c) not in sizes)
    return len(sizes), sizes.get(id(root), 0)


def may_expand(text, limits):
    """Whether ``text``'s aliases could expand it past ``limits``: k
    aliases expand a document at most 2**k times (each copies a node made
    of what came before it), so it takes an anchor and more aliases than
    that bound allows (THT 18.0.0 has 84 templates with anchors, 33 past
    it)."""
    if '&' not in text or '*' not in text or not _ANCHOR.search(text):
        return False
    return 1 << min(len(_ALIAS.findall(text)), 63) > limits.max_expansion


def check_expansion(root, limits, children=_data_children):
    held, expanded = expansion(root, children)
    if expanded > max(limits.free_nodes, limits.max_expansion * held):
        raise LimitError(
            'its aliases (*name) expand its %d mappings and lists to %d, '
            'over %d times as many: write it without aliases'
            % (held, expanded, limits.max_expansion))


def _check_depth(text):
    """:class:`LimitError` past :data:`MAX_DEPTH`; the events are walked
    only when the text could nest that deep (brackets, compact "- -")."""
    if text.count('[') + text.count('{') < MAX_DEPTH or max(
            itertools.accumulate(map(_BRACKET_STEP.get, _NOT_BRACKETS.sub(
                '', text)))) <= MAX_DEPTH:
        if not _COMPACT.search(text):
            return
    depth = 0
    try:
        for event in yaml.parse(text, Loader=LOADER):
            if isinstance(event, _OPEN):
                depth += 1
                if depth > MAX_DEPTH:
                    raise LimitError(
                        'it nests mappings and lists over %d deep: flatten '
                        'it' % MAX_DEPTH)
            elif isinstance(event, _CLOSE):
                depth -= 1
    except LimitError:
        raise
    except yaml.YAMLError:
        pass  # the parser says it better


_OPEN = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_CLOSE = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


def deep(call, text, *args):
    """``call(text, *args)`` (a parse) once ``text`` is known not to nest
    past :data:`MAX_DEPTH`."""
    _check_depth(text)
    try:
        return call(text, *args)
    except RecursionError:
        raise LimitError('it nests mappings and lists too deeply: flatten '
                         'it') from None


def check_text(text, limits=INPUT):
    """:class:`LimitError` when the text (str or bytes) is over
    ``limits``, read as YAML; a text that is not YAML passes (its parser
    says why). Only a text that :func:`may_expand` is parsed, and only
    to its nodes (a third of the cost of loading it)."""
    check_size(len(text), limits)
    if isinstance(text, bytes):
        try:
            text = text.decode('utf-8')
        except UnicodeError:
            return
    _check_depth(text)
    if not may_expand(text, limits):
        return
    try:
        node = yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError:
        return
    if node is not None:
        check_expansion(node, limits, _node_children)


def load(text, loader, limits):
    """``text`` parsed with ``loader``, within ``limits``."""
    data = deep(yaml.load, text, loader)
    if may_expand(text, limits):
        check_expansion(data, limits)
    return data


def load_all(text, loader, limits):
    """Every document of ``text`` parsed with ``loader``, each within
    ``limits`` (an alias never reaches into another document)."""
    documents = deep(lambda data, how: list(yaml.load_all(data, Loader=how)),
                     text, loader)
    if may_expand(text, limits):
        for document in documents:
            check_expansion(document, limits)
    return documents
