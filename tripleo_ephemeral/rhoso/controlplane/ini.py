"""``customServiceConfig``: INI text whose every option knows its TripleO
source, and the parse RHOSO's operators give it.

The service operators hand ``customServiceConfig`` to oslo.config as a
file of its own; :func:`parse` reads it as oslo.config would refuse it
(configparser, strict: no duplicate section or option, no interpolation).
A value comes from TripleO's hiera (``service_configs`` of the role's
group_vars: what puppet rendered the service's config from) through
:meth:`Config.hiera`, which records the key and the THT parameter that
set it.
"""

import collections
import configparser

#: (section, option, value, source)
Option = collections.namedtuple('Option', 'section option value source')


def value_text(value):
    """oslo.config's spelling of a hiera value: lists joined by commas,
    booleans True/False."""
    if isinstance(value, bool):
        return 'True' if value else 'False'
    if isinstance(value, (list, tuple)):
        return ','.join(value_text(v) for v in value)
    return str(value)


class Config:
    """The options of one ``customServiceConfig``, in order."""

    def __init__(self, role=None):
        self.role = role
        self.options = []

    def set(self, section, option, value, source):
        self.options = [o for o in self.options
                        if (o.section, o.option) != (section, option)]
        self.options.append(Option(section, option, value_text(value),
                                   source))

    def hiera(self, section, option, key, parameter=None, default=None,
              skip_empty=True):
        """``[section] option`` from the role's hiera ``key`` (set by THT
        ``parameter``); nothing when the key is absent (or empty)."""
        value = self.role.config(key, default) if self.role else default
        if value is None or skip_empty and value in ('', [], {}):
            return None
        source = 'hiera %s (group_vars/%s)' % (key, self.role.name)
        if parameter:
            source = '%s, from %s' % (parameter, source)
        self.set(section, option, value, source)
        return value

    def __bool__(self):
        return bool(self.options)

    def text(self):
        sections = collections.OrderedDict()
        for option in self.options:
            sections.setdefault(option.section, []).append(option)
        lines = []
        for section, options in sections.items():
            lines.append('[%s]' % section)
            lines += ['%s = %s' % (o.option, o.value) for o in options]
        return '\n'.join(lines) + '\n' if lines else ''


def parse(text):
    """The parsed INI (a ConfigParser) or ValueError with why not."""
    parser = configparser.ConfigParser(interpolation=None, strict=True,
                                       delimiters=('=',),
                                       comment_prefixes=('#', ';'),
                                       inline_comment_prefixes=None)
    parser.optionxform = str
    try:
        parser.read_string(text)
    except configparser.Error as exc:
        raise ValueError(str(exc).replace('\n', ' '))
    return parser
