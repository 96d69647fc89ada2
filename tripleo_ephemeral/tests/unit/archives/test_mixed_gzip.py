"""A gzip file whose compressed members are stored: one gzip member and
one deflate stream, read back whole by every reader."""

import gzip
import io
import os
import subprocess
import tarfile
import zlib

import pytest

from tripleo_ephemeral.archives import install_archives
from tripleo_ephemeral.archives import mixed_gzip


def test_stored_and_compressed_stretches_read_back_as_one():
    noise = os.urandom(200000)
    text = b'parameter_defaults: {}\n' * 20000
    raw = io.BytesIO()
    with mixed_gzip.MixedGzip(raw, 1) as gz:
        for data, stored in ((text, False), (noise, True), (noise, True),
                             (text, False), (b'', True)):
            (gz.store if stored else gz.compress)()
            for start in range(0, len(data), 10000):  # as tarfile writes
                gz.write(data[start:start + 10000])
    out = raw.getvalue()
    expected = text + noise + noise + text
    assert gzip.decompress(out) == expected
    # One member: nothing left after the first deflate stream ends.
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    assert inflate.decompress(out) == expected and inflate.eof
    assert inflate.unused_data == b''
    # The text compressed, the noise stored (not grown past its blocks).
    assert len(out) < 2 * len(noise) + len(text) // 20


def test_empty_file_is_a_gzip_of_nothing():
    raw = io.BytesIO()
    with mixed_gzip.MixedGzip(raw, 1):
        pass
    assert gzip.decompress(raw.getvalue()) == b''


class _FullDisk(io.BytesIO):
    def write(self, data):
        if self.tell() > 1000:
            raise OSError(28, 'No space left on device')
        return super().write(data)


def test_a_write_error_is_raised_to_the_writer():
    with pytest.raises(OSError, match='No space left'):
        with mixed_gzip.MixedGzip(_FullDisk(), 1) as gz:
            gz.store()
            for _ in range(100):
                gz.write(os.urandom(mixed_gzip.CHUNK))


def test_an_error_of_the_block_stops_the_thread():
    raw = io.BytesIO()
    with pytest.raises(KeyError):
        with mixed_gzip.MixedGzip(raw, 1) as gz:
            gz.write(b'x' * mixed_gzip.CHUNK * 3)
            raise KeyError('stop')
    assert gz._thread is None


@pytest.mark.starts_process
def test_archive_with_a_dump_reads_back_streamed_and_with_tar(tmp_path):
    root = tmp_path / 'overcloud'
    (root / 'heat-launcher').mkdir(parents=True)
    dump = gzip.compress(os.urandom(100000))
    (root / 'heat-launcher' / 'heat-db-dump.sql.gz').write_bytes(dump)
    (root / 'overcloud-passwords.yaml').write_text('a: b\n' * 1000)
    path = str(tmp_path / 'a.tar.gz')
    install_archives.write_tar(path, str(root), ['heat-launcher',
                                                 'overcloud-passwords.yaml'])
    with tarfile.open(path, 'r|gz') as tar:  # the streaming reader
        read = {m.name: tar.extractfile(m).read() for m in tar if m.isfile()}
    assert read == {
        'overcloud/heat-launcher/heat-db-dump.sql.gz': dump,
        'overcloud/overcloud-passwords.yaml': b'a: b\n' * 1000}
    listed = subprocess.run(['tar', 'tzf', path], check=True,
                            capture_output=True, text=True).stdout.split()
    assert 'overcloud/heat-launcher/heat-db-dump.sql.gz' in listed


def test_compressed_names():
    assert mixed_gzip.compressed('x/heat-db-dump.sql.gz')
    assert mixed_gzip.compressed('X.TGZ')
    assert not mixed_gzip.compressed('overcloud.yaml')
