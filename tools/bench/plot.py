#!/usr/bin/env python3
"""Plot time against node count per configuration, as SVG.

    python tools/bench/plot.py bench-results/bench-<stamp>.json \
        doc/source/perf.svg [create|realistic|tht|tht-rss]

The series: ``create`` (light ResourceGroup members, the default),
``realistic`` (realistic overcloud nodes) or ``tht`` (the scale curve of
the tripleo-heat-templates overclouds: the whole deploy's wall time
against their nodes) or ``tht-rss`` (their Heat's peak RSS against their
nodes). Standard library only: a small line chart,
log-scaled on both axes.
"""

import json
import math
import sys

W, H = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 70, 150, 30, 50
COLOURS = ['#c0392b', '#2471a3', '#229954', '#b7950b', '#7d3c98']


#: series -> (title, x axis label, y axis label)
SERIES = {
    'create': ('ResourceGroup create time (log-log)',
               'nodes in the ResourceGroup', 'create seconds'),
    'realistic': ('Realistic-node ResourceGroup create time (log-log)',
                  'realistic nodes in the ResourceGroup', 'create seconds'),
    'tht': ('tripleo-heat-templates overcloud deploy --stack-only (log-log)',
            'overcloud nodes', 'deploy seconds'),
    'tht-rss': ('tripleo-heat-templates deploy: Heat peak RSS (log-log)',
                'overcloud nodes', 'peak RSS MB'),
}
#: the suffix of a THT case's key in a series other than its wall time
_THT_SUFFIX = {'tht-rss': ' peak rss MB'}


def series(data, which='create'):
    """config -> [(x, seconds)] of one series of a results file."""
    nodes = data.get('tht_nodes') or {}
    out = {}
    for config, cases in data['results'].items():
        points = []
        for key, value in cases.items():
            if not isinstance(value, (int, float)):
                continue
            words = key.split()
            if which.startswith('tht'):
                case = key[:len(key) - len(_THT_SUFFIX.get(which, ''))]
                if case in nodes and key == case + _THT_SUFFIX.get(which,
                                                                   ''):
                    points.append((nodes[case], value))
            elif (len(words) == 2 and
                  words[0] == which and words[1].isdigit()):
                points.append((int(words[1]), value))
        if points:
            out[config] = sorted(points)
    return out


def svg(data, title, xlabel, ylabel):
    xs = [x for pts in data.values() for x, _ in pts]
    ys = [y for pts in data.values() for _, y in pts]
    x0, x1 = math.log10(min(xs)), math.log10(max(xs))
    y0, y1 = math.log10(max(min(ys), 0.1)), math.log10(max(ys))
    x1 = x1 if x1 > x0 else x0 + 1
    y1 = y1 if y1 > y0 else y0 + 1

    def px(x):
        return LEFT + (math.log10(x) - x0) / (x1 - x0) * (W - LEFT - RIGHT)

    def py(y):
        y = max(y, 0.1)
        return H - BOTTOM - (math.log10(y) - y0) / (y1 - y0) * (
            H - TOP - BOTTOM)

    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
             'font-family="sans-serif" font-size="12">' % (W, H),
             '<rect width="100%" height="100%" fill="white"/>',
             '<text x="%d" y="18" font-size="14">%s</text>' % (LEFT, title)]
    for x in sorted(set(xs)):
        parts.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" '
                     'stroke="#ddd"/>' % (px(x), TOP, px(x), H - BOTTOM))
        parts.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>'
                     % (px(x), H - BOTTOM + 16, x))
    for decade in range(int(math.floor(y0)), int(math.ceil(y1)) + 1):
        for m in (1, 2, 5):
            y = m * 10 ** decade
            if 10 ** y0 * 0.999 <= y <= 10 ** y1 * 1.001:
                parts.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" '
                             'stroke="#eee"/>' % (LEFT, py(y), W - RIGHT,
                                                  py(y)))
                parts.append('<text x="%d" y="%.1f" text-anchor="end">%g'
                             '</text>' % (LEFT - 6, py(y) + 4, y))
    parts.append('<text x="%d" y="%d" text-anchor="middle">%s</text>' % (
        (LEFT + W - RIGHT) // 2, H - 10, xlabel))
    parts.append('<text x="16" y="%d" transform="rotate(-90 16 %d)" '
                 'text-anchor="middle">%s</text>' % (H // 2, H // 2, ylabel))
    for i, (config, pts) in enumerate(sorted(data.items())):
        colour = COLOURS[i % len(COLOURS)]
        path = ' '.join('%s%.1f,%.1f' % ('M' if j == 0 else 'L', px(x),
                                         py(y))
                        for j, (x, y) in enumerate(pts))
        parts.append('<path d="%s" fill="none" stroke="%s" '
                     'stroke-width="2"/>' % (path, colour))
        for x, y in pts:
            parts.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>'
                         % (px(x), py(y), colour))
        ly = TOP + 20 + 20 * i
        parts.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" '
                     'stroke-width="2"/>' % (W - RIGHT + 15, ly,
                                             W - RIGHT + 40, ly, colour))
        parts.append('<text x="%d" y="%d">%s</text>' % (W - RIGHT + 46,
                                                        ly + 4, config))
    parts.append('</svg>')
    return '\n'.join(parts) + '\n'


def main():
    src, dest = sys.argv[1], sys.argv[2]
    which = sys.argv[3] if len(sys.argv) > 3 else 'create'
    with open(src) as f:
        data = json.load(f)
    with open(dest, 'w') as f:
        f.write(svg(series(data, which), *SERIES[which]))


if __name__ == '__main__':
    main()
