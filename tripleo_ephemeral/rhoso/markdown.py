"""The report's Markdown: a table of rows, a cell of any value."""

import json


def cell(value):
    text = value if isinstance(value, str) else json.dumps(value)
    if '\n' in text:
        text = '(%d lines, see the NodeSet)' % (text.count('\n') + 1)
    return text.replace('|', '\\|')


def table(header, rows):
    lines = ['| %s |' % ' | '.join(header),
             '|%s|' % '|'.join('---' for _ in header)]
    lines += ['| %s |' % ' | '.join(cell(c) for c in row) for row in rows]
    return lines + ['']
