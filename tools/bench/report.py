"""The benchmark's table (Markdown, ratios against the baselines) and JSON."""

import datetime
import json
import os
import statistics

#: Figures where smaller is better: their ratio is baseline / ours.
#: (Resource counts, dump sizes and what a stopped case cost are shown
#: without a ratio.)
_NO_RATIO = (' resources', ' MB', ' until stopped')


def table(all_results, configs, baselines=('baseline',)):
    """Markdown of ``all_results`` (config -> {figure: value}), with
    each baseline's ratio to each of the others; a figure's ``error
    <figure>`` (a case that failed, was stopped or not run) shows as such
    in its place."""
    keys = []
    for config in configs:
        for key in all_results.get(config, {}):
            key = key[len('error '):] if key.startswith('error ') else key
            if key != 'error' and key not in keys:
                keys.append(key)
    bases = [c for c in configs if c in baselines]
    ours = [c for c in configs if c not in baselines]
    head = (['case'] + bases + ours +
            ['%s/%s' % (b, c) for b in bases for c in ours])
    rows = [head]
    for key in keys:
        row = [key] + [_cell(all_results.get(c, {}), key)
                       for c in bases + ours]
        for b in bases:
            base = all_results.get(b, {}).get(key)
            for c in ours:
                value = all_results.get(c, {}).get(key)
                ratio = (base and value and
                         isinstance(base, (int, float)) and
                         not key.endswith(_NO_RATIO))
                row.append('%.2fx' % (base / value) if ratio else '')
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = []
    for i, row in enumerate(rows):
        lines.append('| ' + ' | '.join(c.ljust(w) for c, w in
                                       zip(row, widths)) + ' |')
        if i == 0:
            lines.append('|' + '|'.join('-' * (w + 2) for w in widths) + '|')
    return '\n'.join(lines)


def _cell(results, key):
    if key in results:
        return _fmt(results[key])
    error = results.get('error %s' % key)
    if error is None:
        return ''
    if 'not run' in error:
        return 'not run'
    return 'stopped' if 'had not ended' in error else 'failed'


def _fmt(value):
    return '' if value is None else ('%g' % value)


def medians(rounds):
    """One result per config from ``rounds`` (a list of config ->
    {figure: value}, the configs run in turns): each number the median of
    its rounds, anything else (an error) as the first round that has it."""
    merged = {}
    for results in rounds:
        for config, figures in results.items():
            for key, value in figures.items():
                merged.setdefault(config, {}).setdefault(key, []).append(
                    value)
    return {config: {key: (statistics.median(values)
                           if all(isinstance(v, (int, float))
                                  for v in values) else values[0])
                     for key, values in figures.items()}
            for config, figures in merged.items()}


def write_json(out_dir, **data):
    """Write ``bench-<UTC time>.json`` into ``out_dir``; return its path."""
    os.makedirs(out_dir, exist_ok=True)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime(
        '%Y%m%dT%H%M%SZ')
    path = os.path.join(out_dir, 'bench-%s.json' % stamp)
    with open(path, 'w') as f:
        json.dump(dict(data, when=stamp, cpus=os.cpu_count(),
                       load=os.getloadavg()), f, indent=2)
    return path
