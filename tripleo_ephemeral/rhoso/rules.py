"""What the rule modules share: a problem maker per rule, and reading a
document's kind, name and addresses without trusting its shape."""

import ipaddress
import re

from tripleo_ephemeral.rhoso import problems as problems_mod

#: infra-operator's validateDNSDomain.
DNS_DOMAIN = re.compile(
    r'^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,}$')


def maker(rule):
    """A function making the :class:`~.problems.Problem` of ``rule``."""
    def make(where, path, message, fix):
        return problems_mod.Problem(where, path, message, fix, rule)
    return make


webhook = maker('webhook')


def of(documents, kind):
    return [(w, d) for w, d in documents
            if isinstance(d, dict) and d.get('kind') == kind]


def name_of(document):
    return str((document.get('metadata') or {}).get('name') or '')


def ip(value):
    """The address ``value`` is, or None."""
    try:
        return ipaddress.ip_address(str(value))
    except ValueError:
        return None
