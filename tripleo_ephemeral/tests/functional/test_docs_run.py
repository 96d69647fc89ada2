"""The README's quick start, deploy.rst and day2.rst, run as printed.

Every command block of the pages (:mod:`.docs_run`) runs in order in one
fresh HOME, under a terminal that answers ``y`` to every question, against
the bundled sample templates (here) or tripleo-heat-templates
(``test_tht_docs_run.py``, opt-in): so a page cannot drift from the
product. What the pages take as given is set up first, and only that: the
plugin's venv at ``~/tripleo-ephemeral-venv`` (this one), the servers of
deploy.rst at the pages' addresses (test hosts at 192.168.24.10, .20 and
.21 with a ``cloud-admin`` user who may sudo) and the key that logs in to
them, ``~/.ssh/overcloud_key``. Every block must succeed, and exactly the
commands that change the servers must ask first.
"""

from tripleo_ephemeral.tests.functional import docs_run


def test_the_extraction_finds_the_pages_commands():
    """Every page's literal block is either a command block or text; the
    marks are known and rare."""
    found = docs_run.blocks()
    commands = [b for b in found if b.is_command()]
    assert len(commands) > 30, [b.name for b in commands]
    marked = [b for b in found if b.mark]
    assert all(b.is_command() for b in marked), [b.name for b in marked]
    assert len(marked) <= 16, [(b.name, b.mark) for b in marked]
    # No command block left unrunnable by a placeholder or an ellipsis.
    for block in commands:
        if block.mark == 'skip':
            continue
        for line in docs_run.commands(block.text):
            line = line.split(' #', 1)[0]
            if line.lstrip().startswith('#'):
                continue
            assert '<' not in line.replace('<<', ''), (block.name, line)
            assert '...' not in line, (block.name, line)


def test_the_pages_run_as_printed_on_the_sample(tmp_path, page_servers):
    home = docs_run.run_pages(tmp_path, page_servers, 'sample')
    # The quick start kept to its own work dir; day2.rst ends deleting the
    # overcloud it deployed.
    assert (home / 'overcloud-deploy' / 'sample' / 'samplerc').exists()
    assert not (home / 'overcloud-deploy' / 'overcloud').exists()
