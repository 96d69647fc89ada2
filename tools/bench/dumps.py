#!/usr/bin/env python3
"""Dump and restore of one Heat SQLite database: the baseline's way and ours.

    python tools/bench/dumps.py DB [DB ...] [--repeat N]

DB is a Heat SQLite file or one of this project's SQLite dumps
(``heat-db-dump.sql.gz``), loaded into a scratch file first.

The baseline is ``sqlite3 .dump`` then tar+bzip2 (TripleO's native
launcher), restored by untar and ``executescript``; ours is the project's
``SqliteDatabase.dump``/``restore`` (streamed gzip, fsync, rotation,
verification): restored from the image kept with the newest dump, and
once more from the SQL alone, as an older or a copied dump is. Each
database is copied to a scratch directory first, and each time is the best
of ``--repeat`` runs. Prints a table with the ratios.
A THT overcloud's dump is left by ``tools/tht_deploy.py`` in
``<work-dir>/overcloud/heat-launcher/heat-db-dump.sql.gz``.
"""

import argparse
import gzip
import os
import shutil
import sqlite3
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import heats_dump  # noqa: E402
import timing  # noqa: E402

from tripleo_ephemeral.heat_db import database  # noqa: E402

from tripleo_ephemeral.heat_db import dumps  # noqa: E402


def best(repeat, fn, *args):
    return timing.best_of(repeat, fn, *args)[0]


def measure(db_path, repeat):
    scratch = tempfile.mkdtemp(prefix='tripleo-ephemeral-dumps-')
    try:
        ours_db = os.path.join(scratch, 'heat.sqlite')
        if db_path.endswith('.gz'):
            with gzip.open(db_path, 'rt') as f:
                sql = f.read()
            conn = sqlite3.connect(ours_db)
            conn.executescript(sql)
            conn.close()
        else:
            shutil.copyfile(db_path, ours_db)
        db = database.SqliteDatabase(ours_db)
        store = dumps.DumpStore(scratch)
        out = {'db MB': os.path.getsize(ours_db) / 2 ** 20}
        out['ours dump'] = best(repeat, db.dump, store)
        out['ours restore'] = best(repeat, db.restore, store)
        out['ours MB'] = os.path.getsize(store.latest) / 2 ** 20
        # Without the image the newest dump keeps: the SQL loaded, as for
        # an older or a copied dump.
        store.drop_image()
        out['ours restore (SQL)'] = best(repeat, db.restore, store)
        base_dir = os.path.join(scratch, 'baseline')
        os.makedirs(base_dir)
        archive = heats_dump.baseline_dump(ours_db, base_dir)
        out['baseline dump'] = best(repeat, heats_dump.baseline_dump, ours_db,
                                    base_dir)
        out['baseline restore'] = best(
            repeat, heats_dump.baseline_restore, archive,
            os.path.join(base_dir, 'restored.sqlite'))
        out['baseline MB'] = os.path.getsize(archive) / 2 ** 20
        return out
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('databases', nargs='+', metavar='HEAT_SQLITE')
    parser.add_argument('--repeat', type=int, default=timing.DUMP_REPEAT)
    args = parser.parse_args()
    print('| database | MB (SQLite) | baseline dump+restore | ours '
          'dump+restore | ratio | ours, restore from the SQL | ratio | '
          'baseline MB | ours MB |')
    print('|---|---|---|---|---|---|---|---|---|')
    for path in args.databases:
        r = measure(path, args.repeat)
        size = r.pop('db MB')
        base = r['baseline dump'] + r['baseline restore']
        ours = r['ours dump'] + r['ours restore']
        sql = r['ours dump'] + r['ours restore (SQL)']
        print('| %s | %.1f | %.3f s (%.3f + %.3f) | %.3f s (%.3f + %.3f) | '
              '%.1fx | %.3f s (%.3f + %.3f) | %.1fx | %.2f | %.2f |' % (
                  os.path.basename(path), size, base,
                  r['baseline dump'], r['baseline restore'], ours,
                  r['ours dump'], r['ours restore'], base / ours,
                  sql, r['ours dump'], r['ours restore (SQL)'], base / sql,
                  r['baseline MB'], r['ours MB']))


if __name__ == '__main__':
    main()
