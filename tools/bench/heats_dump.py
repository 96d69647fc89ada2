"""The baseline's dump and restore: TripleO's native launcher's way.

``sqlite3 .dump`` to a file, then tar+bzip2 it; restored by untar and
``executescript``.
"""

import os
import sqlite3
import tarfile


def baseline_dump(db_path, out_dir):
    sql = os.path.join(out_dir, 'heat-db.sql')
    conn = sqlite3.connect(db_path)
    with open(sql, 'w') as f:
        for line in conn.iterdump():
            f.write(line + '\n')
    conn.close()
    archive = sql + '.tar.bzip2'
    with tarfile.open(archive, 'w:bz2') as tar:
        tar.add(sql, os.path.basename(sql))
    os.unlink(sql)
    return archive


def baseline_restore(archive, db_path):
    out_dir = os.path.dirname(archive)
    with tarfile.open(archive, 'r:bz2') as tar:
        tar.extractall(out_dir, filter='data')
    sql = os.path.join(out_dir, 'heat-db.sql')
    if os.path.exists(db_path):
        os.unlink(db_path)
    conn = sqlite3.connect(db_path)
    with open(sql) as f:
        conn.executescript(f.read())
    conn.close()
    os.unlink(sql)
