#!/usr/bin/env python3
"""Plot time against node count per configuration, as SVG (matplotlib).

    python tools/bench/plot.py bench-results/bench-<stamp>.json \
        doc/source/perf.svg [create|realistic|tht|tht-rss]

The series: ``create`` (light ResourceGroup members, the default),
``realistic`` (realistic overcloud nodes) or ``tht`` (the scale curve of
the tripleo-heat-templates overclouds: the whole deploy's wall time
against their nodes) or ``tht-rss`` (their Heat's peak RSS against their
nodes), log-scaled on both axes. Needs matplotlib: the
``bench`` extra (``pip install -e .[bench]``; ``tools/dev.py bench``
installs it). The points of the plots in doc/source are kept in
doc/source/perf-data/.
"""

import json
import sys

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
                suffix = _THT_SUFFIX.get(which, '')
                case = key[:len(key) - len(suffix)]
                if case in nodes and key == case + suffix:
                    points.append((nodes[case], value))
            elif (len(words) == 2 and
                  words[0] == which and words[1].isdigit()):
                points.append((int(words[1]), value))
        if points:
            out[config] = sorted(points)
    return out


def plot(points, title, xlabel, ylabel, dest):
    """Draw ``points`` (config -> [(x, y)]) into the SVG file ``dest``."""
    import matplotlib
    matplotlib.use('svg')
    from matplotlib import pyplot
    from matplotlib import ticker

    matplotlib.rcParams['svg.hashsalt'] = 'tripleo-ephemeral'  # stable ids
    matplotlib.rcParams['svg.fonttype'] = 'none'  # text, not glyph paths
    figure, axes = pyplot.subplots(figsize=(6.4, 4.0))
    for config, pts in sorted(points.items()):
        axes.plot([x for x, _ in pts], [y for _, y in pts], marker='o',
                  markersize=4, linewidth=2, label=config)
    axes.set_xscale('log')
    axes.set_yscale('log')
    xs = sorted({x for pts in points.values() for x, _ in pts})
    axes.set_xticks(xs)
    axes.xaxis.set_major_formatter(ticker.FormatStrFormatter('%d'))
    axes.xaxis.set_minor_locator(ticker.NullLocator())
    # 1, 2 and 5 of each decade, as the hand-drawn plots had them.
    axes.yaxis.set_minor_locator(ticker.LogLocator(subs=(2.0, 5.0)))
    axes.yaxis.set_major_formatter(ticker.FormatStrFormatter('%g'))
    axes.yaxis.set_minor_formatter(ticker.FormatStrFormatter('%g'))
    axes.grid(True, which='both', color='#e5e5e5')
    axes.set_title(title, fontsize=11)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.legend(loc='center left', bbox_to_anchor=(1.02, 0.5), frameon=False)
    figure.tight_layout()
    figure.savefig(dest, format='svg', metadata={'Date': None})
    pyplot.close(figure)


def main():
    src, dest = sys.argv[1], sys.argv[2]
    which = sys.argv[3] if len(sys.argv) > 3 else 'create'
    with open(src) as f:
        data = json.load(f)
    try:
        plot(series(data, which), *SERIES[which], dest=dest)
    except ImportError:
        sys.exit('plot.py needs matplotlib: pip install -e .[bench]')


if __name__ == '__main__':
    main()
