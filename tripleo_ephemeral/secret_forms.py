"""Every form in which the product (and what it runs) writes a secret's
text, so that what masks secrets (config-download's history,
:mod:`tripleo_ephemeral.history.secrets`; the logs,
:mod:`tripleo_ephemeral.redaction`) finds each of them:

* as it is (inside a longer value too: what masks looks for the text
  anywhere);
* JSON-escaped: ASCII-only (``\\u00e9``, and an astral character as its
  surrogate pair, ``\\ud83d\\udd11``), as UTF-8, and as the deployment
  files write it (ASCII but for astral characters, which YAML cannot take
  as a surrogate pair);
* YAML-quoted: double-quoted, ASCII-only or not (PyYAML and libyaml
  escape alike: ``\\xE9``, ``\\U0001F511``), and single-quoted (``''``);
* base64, as a Kubernetes Secret holds a value (the value's, padded),
  and the part of it that stays the same wherever the value starts in a
  longer base64 text (a whole file in one Secret key), when long enough
  not to match by chance.

Standard library and PyYAML only; no state.
"""

import base64
import json
import re

import yaml

#: The part of a value's base64 that is the same at every offset of a
#: longer text is used from this many characters on (shorter ones would
#: match unrelated base64 text).
MIN_BASE64_PIECE = 12

_ASTRAL_PAIR = re.compile(r'(\\+)u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})')


def json_escaped(text, ensure_ascii=True):
    """``text`` as a JSON string holds it, without the quotes."""
    return json.dumps(text, ensure_ascii=ensure_ascii)[1:-1]


def json_for_yaml(data, **kwargs):
    """``json.dumps(data, **kwargs)`` that a YAML reader takes too: ASCII
    but for astral characters, written as they are (JSON escapes them as
    a surrogate pair, ``\\ud83d\\udd11``, which YAML refuses). How
    :mod:`tripleo_ephemeral.overcloud.deployment_files` writes a
    deployment's JSON config into its YAML file."""
    return _ASTRAL_PAIR.sub(_pair_to_char, json.dumps(data, **kwargs))


def json_astral_raw(text):
    """``text`` as :func:`json_for_yaml` writes a string, without the
    quotes."""
    return json_for_yaml(text)[1:-1]


def _pair_to_char(match):
    slashes = match.group(1)
    if len(slashes) % 2 == 0:  # an escaped backslash, then "u..."
        return match.group(0)
    high, low = int(match.group(2), 16), int(match.group(3), 16)
    return slashes[:-1] + chr(0x10000 + ((high - 0xd800) << 10) +
                              (low - 0xdc00))


def yaml_double_quoted(text, allow_unicode=False):
    """``text`` as a double-quoted YAML scalar holds it, without the
    quotes."""
    quoted = yaml.dump(text, Dumper=yaml.SafeDumper, default_style='"',
                       width=1 << 30, allow_unicode=allow_unicode)
    quoted = quoted.rstrip('\n')
    if quoted.endswith('...'):
        quoted = quoted[:-3].rstrip('\n')
    return quoted[1:-1] if quoted[:1] == '"' == quoted[-1:] else text


def base64_forms(text):
    """The value's base64 (padded), and the part of its base64 that is
    the same wherever it starts in a longer text, at each of the three
    offsets (when at least :data:`MIN_BASE64_PIECE` long)."""
    data = text.encode('utf-8', 'surrogatepass')
    found = [base64.b64encode(data).decode('ascii')]
    for offset in range(3):
        encoded = base64.b64encode(b'\0' * offset + data +
                                   b'\0\0').decode('ascii')
        # Character i holds bits [6i, 6i+6): those of the value only.
        first = -(-8 * offset // 6)
        last = 8 * (offset + len(data)) // 6
        piece = encoded[first:last]
        if len(piece) >= MIN_BASE64_PIECE:
            found.append(piece)
    return found


def forms(text):
    """Every form of ``text`` above, each once, ``text`` first."""
    found = [text, json_escaped(text), json_escaped(text, False),
             json_astral_raw(text), yaml_double_quoted(text),
             yaml_double_quoted(text, allow_unicode=True),
             text.replace("'", "''")]
    found += base64_forms(text)
    return list(dict.fromkeys(f for f in found if f))
