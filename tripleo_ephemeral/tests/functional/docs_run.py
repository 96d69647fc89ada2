"""The user pages' commands, extracted in order and run in one HOME.

:func:`blocks` reads the literal blocks of :data:`PAGES` (the README's,
then ``deploy.rst``'s and ``day2.rst``'s) in order; a block is a command
block when its first line starts with a command (:data:`COMMANDS`, or a
shell variable's assignment), else it is a file's text or a sample of
output and is not run. :class:`DocsRun` runs the command blocks as one
bash script, each block as printed, in one fresh HOME, under a terminal
(answering ``y`` to every question, and noting which block asked).

A page marks the few blocks that cannot run as they are here with a
comment right before the block (never shown)::

    .. docs-run: skip <why>          never run (a real Keystone...)
    .. docs-run: tht-only <why>      only against tripleo-heat-templates
    .. docs-run: sample-only <why>   only against the sample templates
                                     (THT's tasks need RHEL servers)
    .. docs-run: stack-only          against THT, each "overcloud deploy"
                                     of the block with --stack-only

Against the bundled sample (the default test) a block's ``--templates``
is left out, so it deploys the sample; a block naming ``$THT`` needs the
real templates and runs only against them.
"""

import dataclasses
import os
import re
import shlex
import shutil
import sys
import textwrap
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
#: The pages run, in order, and the directory each runs in.
PAGES = (('README.rst', 'checkout'),
         ('doc/source/user/deploy.rst', 'home'),
         ('doc/source/user/day2.rst', 'home'))
#: A block whose first word is one of these is a command block.
COMMANDS = frozenset((
    'openstack', 'python3', 'source', 'ssh', 'cat', 'export', 'unset',
    'cd', 'bash', 'mv', 'tar', 'git', 'ls', 'printf', 'chmod', 'rm',
    'deactivate', 'pgrep', 'podman'))
MARKS = ('skip', 'tht-only', 'sample-only', 'stack-only')
#: The pages' servers: deploy.rst's two, and the Compute day2.rst adds.
SUBNET = '192.168.24.0/24'
SERVERS = (('overcloud-controller-0', '192.168.24.10'),
           ('overcloud-novacompute-0', '192.168.24.20'),
           ('overcloud-novacompute-1', '192.168.24.21'))
SSH_USER = 'cloud-admin'
#: One run of the pages at a time on this machine: their servers'
#: addresses (and Heat's default port) are fixed.
LOCK = '/tmp/tripleo-ephemeral-docs-run.lock'
_MARK = re.compile(r'^\.\. docs-run: (\S+)\s*(.*)$')
_ASSIGNMENT = re.compile(r'^[A-Z_][A-Z0-9_]*=')
#: Commands that change the servers, which ask first.
_ASKS = re.compile(
    r'openstack (overcloud (update|upgrade|external-update|external-upgrade)'
    r' run|overcloud node delete|overcloud admin authorize|overcloud delete'
    r'|overcloud deploy|tripleo deploy)\b')
_NOT_ASKING = ('--stack-only', '--dry-run', '--setup-only', '--output-only',
               ' -y')
_PROMPT = r'\[y/N\]\??'
_BLOCK = '#### docs-run block '


@dataclasses.dataclass
class Block:
    page: str
    line: int
    text: str
    mark: str = None
    reason: str = ''
    where: str = 'home'

    @property
    def name(self):
        return '%s:%d' % (self.page, self.line)

    def is_command(self):
        lines = [line for line in self.text.split('\n')
                 if line.strip() and not line.lstrip().startswith('#')]
        first = lines[0].split() if lines else []
        return bool(first) and (first[0] in COMMANDS or
                                bool(_ASSIGNMENT.match(first[0])))

    def runs(self, mode):
        """Whether the block runs against ``mode`` ('sample' or 'tht')."""
        if not self.is_command() or self.mark == 'skip':
            return False
        if mode == 'sample':
            return self.mark != 'tht-only' and '$THT' not in self.text
        return self.mark != 'sample-only'

    def script(self, mode):
        """The block as it runs against ``mode``."""
        text = self.text
        if mode == 'sample':
            text = re.sub(r' --templates(?=\s)', '', text)
        elif self.mark == 'stack-only':
            text = text.replace('openstack overcloud deploy',
                                'openstack overcloud deploy --stack-only')
        return text

    def asking(self, mode):
        """How many of the block's commands ask before they run."""
        count = 0
        for command in commands(self.script(mode)):
            if _ASKS.search(command) and not any(
                    flag in command for flag in _NOT_ASKING):
                count += 1
        return count


def commands(text):
    """The block's commands: its lines with their continuations joined,
    heredocs' bodies left out."""
    commands, heredoc = [], None
    lines = text.replace('\\\n', ' ').split('\n')
    for line in lines:
        if heredoc is not None:
            if line.strip() == heredoc:
                heredoc = None
            continue
        found = re.search(r'<<\s*[\'"]?(\w+)', line)
        if found:
            heredoc = found.group(1)
        commands.append(line)
    return commands


def blocks(root=ROOT, pages=PAGES):
    """Every literal block of ``pages``, in order."""
    found = []
    for page, where in pages:
        with open(os.path.join(root, page)) as f:
            lines = f.read().split('\n')
        mark = None
        i = 0
        while i < len(lines):
            line = lines[i]
            marked = _MARK.match(line.strip())
            if marked:
                if marked.group(1) not in MARKS:
                    raise ValueError('%s:%d: unknown docs-run mark %r (%s)' % (
                        page, i + 1, marked.group(1), ', '.join(MARKS)))
                mark = (marked.group(1), marked.group(2))
            if line.rstrip().endswith('::') and not line.strip().startswith(
                    '..'):
                indent = len(line) - len(line.lstrip())
                j = i + 1
                while j < len(lines) and not lines[j].strip():
                    j += 1
                start = j
                while j < len(lines) and (
                        not lines[j].strip() or
                        len(lines[j]) - len(lines[j].lstrip()) > indent):
                    j += 1
                text = textwrap.dedent('\n'.join(lines[start:j])).strip()
                if text and start > i + 1:
                    found.append(Block(page, start + 1, text, where=where,
                                       mark=mark[0] if mark else None,
                                       reason=mark[1] if mark else ''))
                    mark = None
                i = j
                continue
            i += 1
    return found


class DocsRun:
    """Runs the command blocks against ``mode`` in ``home`` (a fresh HOME
    with the venv at ``~/tripleo-ephemeral-venv``), logging to ``log``; a
    block that runs ``timeout`` seconds without asking is stopped there."""

    def __init__(self, home, mode, env, log, timeout=900):
        self.home = home
        self.mode = mode
        self.env = env
        self.log = log
        self.timeout = timeout
        self.blocks = [b for b in blocks() if b.runs(mode)]
        #: ``{block index: questions asked}``
        self.asked = {}
        #: ``[(block, seconds)]``
        self.times = []

    def script(self):
        parts = ['set -e']
        for index, block in enumerate(self.blocks):
            parts.append('cd %s' % shlex.quote(
                ROOT if block.where == 'checkout' else '.'))
            parts.append('echo "%s%d (%s)"' % (_BLOCK, index, block.name))
            parts.append(block.script(self.mode))
            if block.where == 'checkout':
                parts.append('cd ~')
        parts.append('echo "%sdone"' % _BLOCK)
        return '\n'.join(parts) + '\n'

    def run(self):
        """Run the script under a terminal; return its exit status and the
        block it stopped in (None when it ran to the end)."""
        import pexpect

        path = os.path.join(self.home, 'docs-run.sh')
        with open(path, 'w') as f:
            f.write(self.script())
        current, started = None, time.monotonic()
        with open(self.log, 'w') as log:
            child = pexpect.spawn(
                'bash', ['--noprofile', '--norc', path], cwd=self.home,
                env=self.env, encoding='utf-8', timeout=self.timeout,
                dimensions=(40, 100), logfile=log)
            try:
                while True:
                    found = child.expect([_PROMPT, _BLOCK + r'(\d+|done)',
                                          pexpect.EOF, pexpect.TIMEOUT])
                    if found == 0:
                        self.asked[current] = self.asked.get(current, 0) + 1
                        child.sendline('y')
                    elif found == 1:
                        now = time.monotonic()
                        if current is not None:
                            self.times.append((self.blocks[current],
                                               now - started))
                        started = now
                        tag = child.match.group(1)
                        current = None if tag == 'done' else int(tag)
                    else:  # the end, or a block that hangs
                        break
            finally:
                child.close(force=True)
        return child.exitstatus, (self.blocks[current]
                                  if current is not None else None)

    def expected_questions(self):
        """``{block index: n}`` of the blocks whose commands ask."""
        return {i: b.asking(self.mode) for i, b in enumerate(self.blocks)
                if b.asking(self.mode)}


def run_pages(tmp_path, network, mode):
    """Run the pages against ``mode`` in a fresh HOME under ``tmp_path``,
    onto ``network``'s servers (:data:`SERVERS`); fail naming the block
    that stopped, or a question asked where none was expected (or the
    other way round). Return the HOME."""
    from tripleo_ephemeral.tests.functional import helpers

    home = tmp_path / 'home'
    (home / '.ssh').mkdir(parents=True)
    os.chmod(home / '.ssh', 0o700)
    shutil.copy(network.key, home / '.ssh' / 'overcloud_key')
    os.chmod(home / '.ssh' / 'overcloud_key', 0o600)
    os.symlink(sys.prefix, home / 'tripleo-ephemeral-venv')
    # OpenSSH keeps ~/.ssh in the user's passwd home, whatever HOME says:
    # the pages' ssh keeps its known hosts in this HOME, as an operator's
    # are theirs, and never in this machine's root's.
    tools = tmp_path / 'bin'
    tools.mkdir()
    (tools / 'ssh').write_text(
        '#!/bin/sh\nexec %s -o UserKnownHostsFile="$HOME/.ssh/known_hosts" '
        '"$@"\n' % shutil.which('ssh'))
    os.chmod(tools / 'ssh', 0o755)
    venv_bin = os.path.join(sys.prefix, 'bin')
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(('OS_', 'VIRTUAL_ENV', 'XDG_', 'PYTEST',
                                'TRIPLEO_EPHEMERAL_TEST'))}
    env.update(
        HOME=str(home), TERM='xterm',
        PATH=os.pathsep.join([str(tools)] + [
            p for p in os.environ.get('PATH', '').split(os.pathsep)
            if p and p != venv_bin]),
        # tools/dev.py (the quick start) uses this venv, built already.
        TRIPLEO_EPHEMERAL_VENV=sys.prefix)
    run = DocsRun(str(home), mode, env, str(tmp_path / 'pages.log'))
    try:
        status, stopped = run.run()
    finally:
        for block, seconds in run.times:
            print('%6.1fs %s' % (seconds, block.name))
        for path in home.glob('overcloud-deploy/*/heat-launcher'):
            helpers.stop_heat_in(path)
    with open(tmp_path / 'pages.log') as f:
        tail = f.read()[-6000:]
    assert status == 0 and stopped is None, (
        'The pages stop at %s (exit %s):\n%s\n...\n%s' % (
            stopped.name if stopped else '?', status,
            stopped.text if stopped else '', tail))
    # Exactly the commands that change the servers asked first.
    assert run.asked == run.expected_questions(), {
        run.blocks[i].name: n for i, n in run.asked.items()}
    return home
