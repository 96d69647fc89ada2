"""The docs cite only what exists.

Every ``literal`` of ``doc/source/**/*.rst`` and ``README.rst`` that names
an option, a command, a column, a file, an engine tuning, a variable or an
identifier of the code is checked against the code: the parsers of the
plugin's commands (built from the entry points), the columns the commands
declare, and the string constants and names of the package, its data files
and ``tools/``. A literal that names none of these kinds is not checked.
"""

import ast
import collections
import fnmatch
import functools
import glob
import os
import re
import shlex
from importlib import metadata
from unittest import mock

import pytest

from tripleo_ephemeral.engine_tuning import registry
from tripleo_ephemeral import tht

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
PACKAGE = os.path.join(REPO, 'tripleo_ephemeral')
DOC = os.path.join(REPO, 'doc', 'source')
GROUP = 'openstack.tripleo_ephemeral.v1'

pytestmark = pytest.mark.skipif(
    not os.path.isdir(DOC), reason='needs a source checkout (doc/)')

#: tripleoclient's commands the pages name that this plugin does not have
#: (tripleoclient is never installed beside it).
TRIPLEOCLIENT_COMMANDS = {
    'undercloud backup', 'overcloud node provision',
    'overcloud network provision'}
#: Names the pages cite that are not this project's: the reader's own
#: example files, other tools' files and variables, THT's parameters.
FOREIGN = {
    # example files of the reader's
    'servers.yaml', 'containers-prepare-parameter.yaml',
    'my-parameters.yaml', 'ntp.yaml', 'overcloud.tar.gz',
    'roles_data.yaml', 'network_data.yaml',
    # tripleoclient's and an undercloud's files
    'overcloud-baremetal-deployed.yaml', '~/stackrc',
    '~/openstack-backup-mysql-<time>.sql',
    'heat-db.sql-<time>.tar.bzip2',
    '~/overcloud-deploy/overcloud/heat-launcher/heat-db.sql-<time>.tar.bzip2',
    'tripleo_deploy-<time>/heat.sqlite.db',
    # this checkout's CI entry point, and where the docs build goes
    '.ci/run', 'doc/build/html',
    # tripleo-common's, tripleo-ansible's and tripleoclient's
    'quay.io/tripleomastercentos9', 'cli-config-download.yaml',
    'cli-enable-ssh-admin.yaml', 'tripleo_nova_migration_target',
    'nova_migration_target_update.yaml',
    'build_enabled_sevices_image_params',
    # THT's inventory and global variables, named after the networks
    'internal_api_ip', 'storage_ip', 'internal_api_vip',
    'network_virtual_ips',
    # other tools': pip's variables, RHEL's network configuration
    'PIP_INDEX_URL', 'PIP_NO_INDEX', 'PIP_FIND_LINKS', 'os-net-config',
}
#: Options of other tools the pages cite alone.
FOREIGN_OPTIONS = {'--db-only': 'openstack undercloud backup',
                   '--os-cloud': 'openstack', '--debug': 'openstack',
                   '--single-transaction': 'mariadb-dump',
                   '--no-binary': 'pip download', '--no-deps': 'pip download'}

Literal = collections.namedtuple('Literal', 'text path line')


def _pages():
    pages = sorted(glob.glob(os.path.join(DOC, '**', '*.rst'),
                             recursive=True))
    return pages + [os.path.join(REPO, 'README.rst')]


def _rel(path):
    return os.path.relpath(path, REPO)


@functools.lru_cache()
def _texts():
    texts = {}
    for path in _pages():
        with open(path) as f:
            texts[path] = f.read()
    return texts


_INLINE = re.compile(r'(?<![`\w])``(?!\s)(.+?)(?<!\s)``(?![`\w])', re.S)


@functools.lru_cache()
def inline_literals():
    """Every ``literal`` of the pages, whitespace folded."""
    found = []
    for path, text in _texts().items():
        for match in _INLINE.finditer(text):
            found.append(Literal(' '.join(match.group(1).split()), _rel(path),
                                 text.count('\n', 0, match.start()) + 1))
    return found


@functools.lru_cache()
def example_commands():
    """The ``openstack ...`` command lines of the pages' literal blocks
    (``\\``-continued lines joined)."""
    found = []
    for path, text in _texts().items():
        lines = text.split('\n')
        in_block, indent = False, 0
        pending, start = '', 0
        for number, line in enumerate(lines, 1):
            if in_block:
                if line.strip() and (len(line) - len(line.lstrip()) < indent):
                    in_block = False
                elif line.strip():
                    indent = indent or len(line) - len(line.lstrip())
                    code = line.strip()
                    if not pending:
                        start = number
                    pending += ' ' + code.rstrip('\\')
                    if not code.endswith('\\'):
                        if pending.split()[0] == 'openstack':
                            found.append(Literal(pending.strip(), _rel(path),
                                                 start))
                        pending = ''
                    continue
                else:
                    continue
            if line.rstrip().endswith('::') and not line.lstrip().startswith(
                    '.. '):
                in_block, indent, pending = True, 0, ''
    return found


# --- what the code has --------------------------------------------------


@functools.lru_cache()
def commands():
    """``{'overcloud deploy': parser}`` of the plugin's commands."""
    app = mock.Mock()
    found = {}
    for ep in metadata.entry_points(group=GROUP):
        name = ep.name.replace('_', ' ')
        found[name] = ep.load()(app, None).get_parser('openstack ' + name)
    return found


@functools.lru_cache()
def other_commands():
    names = set(TRIPLEOCLIENT_COMMANDS)
    for dist in metadata.distributions():
        for ep in dist.entry_points:
            if (ep.group.startswith('openstack.') and
                    ep.group not in (GROUP, 'openstack.cli.extension')):
                names.add(ep.name.replace('_', ' '))
    return names


def options_of(parser):
    return {o for a in parser._actions for o in a.option_strings}


@functools.lru_cache()
def all_options():
    return set().union(*(options_of(p) for p in commands().values()))


@functools.lru_cache()
def tool_options():
    """The options ``tools/`` declare (``add_argument('--x', ...)``): the
    contributor pages cite them."""
    found = set()
    for path, tree in _trees().items():
        if not path.startswith(os.path.join(REPO, 'tools') + os.sep):
            continue
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and
                    getattr(node.func, 'attr', None) == 'add_argument'):
                found.update(a.value for a in node.args
                             if isinstance(a, ast.Constant))
    return found


def _contributor_page(path):
    return path.startswith(('doc/source/contributor/',
                            'doc/source/performance.rst'))


def _modules(root, tests=False):
    for path in sorted(glob.glob(os.path.join(root, '**', '*.py'),
                                 recursive=True)):
        if tests or os.sep + 'tests' + os.sep not in path:
            yield path


def _docstrings(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                             ast.AsyncFunctionDef)):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and
                    isinstance(body[0].value, ast.Constant)):
                yield body[0].value


@functools.lru_cache()
def _trees():
    trees = {}
    for path in list(_modules(PACKAGE)) + list(_modules(
            os.path.join(REPO, 'tools'))):
        with open(path) as f:
            trees[path] = ast.parse(f.read(), path)
    return trees


@functools.lru_cache()
def corpus():
    """The string constants (docstrings and comments aside), names and
    data files of the package and ``tools/``: what the code spells."""
    strings, names = set(), set()
    for tree in _trees().values():
        docs = {id(d) for d in _docstrings(tree)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(
                    node.value, str) and id(node) not in docs:
                strings.add(node.value)
            elif isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, ast.Attribute):
                names.add(node.attr)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
    for path in glob.glob(os.path.join(PACKAGE, '**', '*'), recursive=True):
        if (os.path.isfile(path) and not path.endswith(('.py', '.pyc')) and
                os.sep + 'tests' + os.sep not in path):
            with open(path, errors='replace') as f:
                strings.add(f.read())
    for name in ('setup.cfg', 'tox.ini'):
        with open(os.path.join(REPO, name)) as f:
            strings.add(f.read())
    for root in (PACKAGE, os.path.join(REPO, 'tools')):
        for path in glob.glob(os.path.join(root, '**', '*'), recursive=True):
            names.add(os.path.basename(path))
    return '\n'.join(strings), names


@functools.lru_cache()
def dependency_corpus():
    """The text of tripleo-common (code and data) and of the tests'
    helpers (not the tests): the names the pages cite from them."""
    import tripleo_common
    import sys
    texts = []
    roots = [os.path.dirname(tripleo_common.__file__),
             os.path.join(sys.prefix, 'share', 'tripleo-common')]
    for root in roots:
        for path in glob.glob(os.path.join(root, '**', '*'), recursive=True):
            if path.endswith(('.py', '.yaml', '.j2')):
                with open(path, errors='replace') as f:
                    texts.append(f.read())
    for path in _modules(os.path.join(PACKAGE, 'tests'), tests=True):
        if not os.path.basename(path).startswith('test_'):
            with open(path) as f:
                texts.append(f.read())
    return '\n'.join(texts)


def in_code(text):
    strings, names = corpus()
    return text in names or text in strings or text in dependency_corpus()


@functools.lru_cache()
def templates_tree():
    """The installed tripleo-heat-templates' files, or None."""
    try:
        root = tht.find()
    except Exception:
        return None
    files = set()
    for path in glob.glob(os.path.join(root, '**', '*'), recursive=True):
        files.add(os.path.relpath(path, root))
    return files


# --- the checks --------------------------------------------------------


_OPTION = re.compile(r'^--?[A-Za-z][A-Za-z0-9*-]*$')


def _words(text):
    try:
        words = shlex.split(text, comments=True)
    except ValueError:
        words = text.split()
    return [w.strip('[]') for w in words]


def _command_of(words):
    """The longest command the words start with, and the rest."""
    for size in range(min(len(words), 6), 0, -1):
        name = ' '.join(words[:size])
        if name in commands() or name in other_commands():
            return name, words[size:]
    return None, words


def _option_problems(command, rest):
    problems = []
    known = options_of(commands()[command]) if command in commands() \
        else None
    for word in rest:
        name = word.split('=', 1)[0]
        if not _OPTION.match(name) or known is None:
            continue
        if not any(fnmatch.fnmatchcase(o, name) for o in known):
            problems.append('%s is no option of "openstack %s"' % (
                name, command))
    return problems


def _check_command_line(text):
    words = _words(text)
    if words and words[0] == 'openstack':
        words = words[1:]
    if not words or words[0].startswith('-'):
        return []
    command, rest = _command_of(words)
    if command is None:
        return ['"%s" is no command' % ' '.join(
            w for w in words[:3] if not w.startswith('-'))]
    return _option_problems(command, rest)


def check_commands():
    problems = []
    for lit in example_commands():
        problems += ['%s:%d: %s' % (lit.path, lit.line, p)
                     for p in _check_command_line(lit.text)]
    for lit in inline_literals():
        words = lit.text.split()
        if lit.text.startswith('openstack ') or (
                len(words) > 1 and words[0] in ('overcloud', 'tripleo') and
                re.match(r'^[a-z]', words[1])):
            head = []
            for w in _words(lit.text):
                if w.startswith(('-', '<', '...')) or w in ('|', '2>'):
                    break
                head.append(w)
            if head and head[0] == 'openstack':
                head = head[1:]
            name = ' '.join(head)
            group = any(c.startswith(name + ' ') for c in commands())
            if not (name in commands() or name in other_commands() or
                    group):
                problems.append('%s:%d: ``%s``: "%s" is no command' % (
                    lit.path, lit.line, lit.text, name))
            elif name in commands():
                problems += ['%s:%d: %s' % (lit.path, lit.line, p)
                             for p in _check_command_line(lit.text)]
    return problems


def check_options():
    problems = []
    for lit in inline_literals():
        if not lit.text.startswith('-'):
            continue
        for word in _words(lit.text):
            name = word.split('=', 1)[0]
            if not _OPTION.match(name) or name in FOREIGN_OPTIONS:
                continue
            known = all_options() | (tool_options() if _contributor_page(
                lit.path) else set())
            if not any(fnmatch.fnmatchcase(o, name) for o in known):
                problems.append('%s:%d: ``%s``: %s is no option of any '
                                'command' % (lit.path, lit.line, lit.text,
                                             name))
    return problems


_PLACEHOLDER = re.compile(r'<[^<>]*>|\[[^\[\]]*\]|\*|\.\.\.')


def _is_file(text):
    if (' ' in _PLACEHOLDER.sub('x', text) or
            text.startswith(('-', 'http')) or
            re.match(r'^\.[a-z]{2,5}$', text) or      # an extension
            re.match(r'^[0-9a-fx.:]+(/[0-9]+)?$', text)):  # an address
        return False
    return ('/' in text or text.startswith(('~', '.')) or
            re.search(r'\.(yaml|yml|json|gz|sql|sqlite|conf|ini|py|rst|txt|'
                      r'sh|cfg|log|pid|lock|j2|svg|csv|bzip2)$', text))


def _file_problem(text):
    if text in FOREIGN:
        return None
    plain = text.rstrip('/')
    pattern = _PLACEHOLDER.sub('*', plain)
    for base in (REPO, PACKAGE, os.path.join(PACKAGE, 'tests'), DOC,
                 os.path.join(DOC, 'perf-data')):
        if glob.glob(os.path.join(base, pattern)):
            return None
    if plain.startswith(('tools/', 'tripleo_ephemeral/', 'doc/', 'tests/')):
        if not glob.glob(os.path.join(REPO, _PLACEHOLDER.sub('*', plain))) \
                and not glob.glob(os.path.join(
                    PACKAGE, _PLACEHOLDER.sub('*', plain))):
            return 'no such path in the checkout'
        return None
    if plain.startswith('$THT/'):
        tree = templates_tree()
        if tree is not None and plain[len('$THT/'):] not in tree:
            return 'not in tripleo-heat-templates'
        return None
    tree = templates_tree() or set()
    if plain in tree or any(t.endswith('/' + plain) for t in tree):
        return None
    for part in plain.split('/'):
        fixed = [p for p in _PLACEHOLDER.split(part) if p.strip('.-_')]
        if not fixed or part in ('~', '.', '..') or part.startswith('$'):
            continue
        for chunk in fixed:
            chunk = chunk.strip('-_.:')
            if not in_code(chunk):
                return '%r is no name the code spells' % chunk
    return None


def check_files():
    problems = []
    for lit in inline_literals():
        if _is_file(lit.text):
            why = _file_problem(lit.text)
            if why:
                problems.append('%s:%d: ``%s``: %s' % (lit.path, lit.line,
                                                       lit.text, why))
    return problems


_TUNING = re.compile(r'^(?:ephemeral_heat\.|\[ephemeral_heat\] )(\w+)')
_IDENTIFIER = re.compile(r'^[A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)+$')


def check_names():
    """Engine tunings, TRIPLEO_EPHEMERAL_* variables and identifiers (a
    ``snake_case`` or ``kebab-case`` word) are the code's."""
    tunings = {o.name for o in registry.tunings() + registry.RUNNER_SETTINGS}
    problems = []
    for lit in inline_literals():
        tuning = _TUNING.match(lit.text)
        if tuning:
            if tuning.group(1) not in tunings:
                problems.append('%s:%d: ``%s``: no engine tuning %s' % (
                    lit.path, lit.line, lit.text, tuning.group(1)))
            continue
        name = lit.text.lstrip('$')
        if (_IDENTIFIER.match(name) and name not in FOREIGN and
                not _is_file(name) and not in_code(name)):
            problems.append('%s:%d: ``%s`` is no name the code spells' % (
                lit.path, lit.line, lit.text))
    return problems


def check_rule_ids():
    with open(os.path.join(PACKAGE, 'deploy', 'check_rules.yaml')) as f:
        ids = re.findall(r'^\s*- id: (\S+)', f.read(), re.M)
    cited = {lit.text for lit in inline_literals()}
    return ['pre-deploy check %s is not named in the docs' % i
            for i in ids if i not in cited]


# --- columns -----------------------------------------------------------


def _str_tuples(node):
    """Tuples of string constants anywhere under ``node``."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Tuple) and sub.elts and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str)
                for e in sub.elts):
            yield tuple(e.value for e in sub.elts)


def _module_path(name):
    path = os.path.join(REPO, *name.split('.'))
    for candidate in (path + '.py', os.path.join(path, '__init__.py')):
        if os.path.exists(candidate):
            return candidate
    return None


@functools.lru_cache(maxsize=None)
def _direct_imports(path):
    """The package's modules the module at ``path`` imports itself."""
    found = []
    for node in ast.walk(_trees()[path]):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + ['%s.%s' % (node.module, a.name)
                                     for a in node.names]
        for name in names:
            if name.startswith('tripleo_ephemeral'):
                module = _module_path(name)
                if module:
                    found.append(module)
    return tuple(found)


@functools.lru_cache()
def _imports(path):
    """The package's modules ``path`` imports, transitively."""
    seen, todo = set(), [path]
    while todo:
        current = todo.pop()
        if current in seen or current not in _trees():
            continue
        seen.add(current)
        todo.extend(_direct_imports(current))
    return frozenset(seen)


@functools.lru_cache(maxsize=None)
def _module_strings(path):
    """Every string of a string tuple in the module at ``path``."""
    return frozenset(value for values in _str_tuples(_trees()[path])
                     for value in values)


@functools.lru_cache()
def _command_entry_points():
    return tuple(metadata.entry_points(group=GROUP))


def columns_of(command):
    """Every string of a string tuple in the command's module and the
    modules it imports: the columns it may return."""
    ep = next(e for e in _command_entry_points()
              if e.name.replace('_', ' ') == command)
    path = _module_path(ep.value.split(':')[0])
    found = set()
    for module in _imports(path):
        found.update(_module_strings(module))
    return found


def declared_columns():
    """The column tuples the code declares: a ``COLUMNS`` constant, the
    ``columns`` or ``headings`` (which win) a function builds, and the
    first element a command's function returns."""
    found = {}
    for path, tree in _trees().items():
        command_module = os.sep + 'commands' + os.sep in path
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    name = getattr(target, 'id', None)
                    if (name and name.endswith('COLUMNS') and
                            isinstance(node.value, ast.Tuple)):
                        for values in _str_tuples(node.value):
                            if len(values) == len(node.value.elts):
                                found[values] = _rel(path)
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            local = collections.defaultdict(list)
            for sub in ast.walk(node):
                if isinstance(sub, (ast.Assign, ast.AugAssign)):
                    targets = getattr(sub, 'targets', None) or [sub.target]
                    for target in targets:
                        name = getattr(target, 'id', None)
                        if name in ('columns', 'headings'):
                            local[name].extend(_str_tuples(sub.value))
                elif (command_module and isinstance(sub, ast.Return) and
                      isinstance(sub.value, ast.Tuple) and
                      len(sub.value.elts) == 2):
                    local['returned'].extend(_str_tuples(sub.value.elts[0]))
            chosen = local['headings'] or local['columns']
            for values in chosen + local['returned']:
                found[values] = _rel(path)
    return found


def _output_sections():
    """``[(commands, [(column, line)])]`` of reference/output.rst."""
    path = os.path.join(DOC, 'reference', 'output.rst')
    with open(path) as f:
        lines = f.read().split('\n')
    sections = []
    for number, line in enumerate(lines, 1):
        if (number < len(lines) and lines[number].startswith('===') and
                line.startswith('``')):
            names = [n for n in _INLINE.findall(line)]
            sections.append((names, []))
        elif sections and line.startswith('``'):
            sections[-1][1].extend(
                (c, number) for c in _INLINE.findall(line))
    return sections


def check_columns():
    problems = []
    documented = set()
    for names, columns in _output_sections():
        for name in names:
            if name not in commands():
                problems.append('reference/output.rst: %s is no command' %
                                name)
                continue
            known = columns_of(name)
            for column, line in columns:
                documented.add(column)
                if column not in known:
                    problems.append(
                        'doc/source/reference/output.rst:%d: ``%s`` is no '
                        'column of "openstack %s"' % (line, column, name))
    for values, path in declared_columns().items():
        missing = [v for v in values if v not in documented]
        if missing:
            problems.append('%s declares the column(s) %s, which '
                            'reference/output.rst does not list' % (
                                path, ', '.join(missing)))
    return problems


def check_toctrees():
    """Every page is in a table of contents (sphinx -W says so too)."""
    listed = set()
    for path, text in _texts().items():
        for block in re.findall(r'\.\. toctree::\n((?:\s+.*\n|\n)+)', text):
            for entry in block.split('\n'):
                entry = entry.strip()
                if entry and not entry.startswith(':'):
                    listed.add(os.path.normpath(os.path.join(
                        os.path.dirname(path), entry + '.rst')))
    return ['%s is in no toctree' % _rel(p) for p in _pages()
            if p.startswith(DOC) and p not in listed and
            p != os.path.join(DOC, 'index.rst')]


@pytest.mark.parametrize('check', [
    check_commands, check_options, check_columns, check_files, check_names,
    check_rule_ids, check_toctrees], ids=lambda c: c.__name__)
def test_docs_cite_what_exists(check):
    problems = check()
    assert not problems, '\n'.join(problems)


#: What "openstack overcloud node provision --network-config" wrote for a
#: Controller and two Computes (tripleo-ansible 6.0.0's keys), one Compute
#: without its NodePortMap entry (provisioned without --network-config).
PROVISIONED = """
parameter_defaults:
  ControllerCount: 1
  ControllerHostnameFormat: '%stackname%-controller-%index%'
  ComputeCount: 2
  ComputeHostnameFormat: '%stackname%-novacompute-%index%'
  CephStorageCount: 0
  CephStorageHostnameFormat: '%stackname%-cephstorage-%index%'
  NeutronWorkersCount: 4
  HostnameMap:
    overcloud-controller-0: ctrl-0
    overcloud-novacompute-0: cmp-0
    overcloud-novacompute-1: cmp-1
  DeployedServerPortMap:
    ctrl-0-ctlplane: {fixed_ips: [{ip_address: 192.168.24.10}]}
    cmp-0-ctlplane: {fixed_ips: [{ip_address: 192.168.24.20}]}
    cmp-1-ctlplane: {fixed_ips: [{ip_address: 192.168.24.21}]}
  NodePortMap:
    ctrl-0:
      ctlplane: {ip_address: 192.168.24.10, ip_subnet: 192.168.24.10/22,
                 ip_address_uri: 192.168.24.10}
      internal_api: {ip_address: 172.16.2.10, ip_subnet: 172.16.2.10/24,
                     ip_address_uri: 172.16.2.10}
    cmp-0:
      internal_api: {ip_address: 172.16.2.20, ip_subnet: 172.16.2.20/24,
                     ip_address_uri: 172.16.2.20}
"""


@pytest.mark.starts_process
def test_servers_file_from_provisioned_nodes(tmp_path):
    """The script of user/from-tripleoclient.rst writes a servers file the
    deploy takes."""
    import subprocess
    import sys

    import yaml

    from tripleo_ephemeral.overcloud import deployed_servers

    script = os.path.join(DOC, 'user', 'servers_from_provision.py')
    source = tmp_path / 'overcloud-baremetal-deployed.yaml'
    source.write_text(PROVISIONED)
    out = subprocess.run([sys.executable, script, str(source), 'overcloud'],
                         capture_output=True, text=True, check=True).stdout
    servers = yaml.safe_load(out)
    assert servers == {
        'Controller': [{'hostname': 'ctrl-0', 'ctlplane_ip': '192.168.24.10',
                        'ctlplane_cidr': 22,
                        'networks': {'internal_api': '172.16.2.10'}}],
        'Compute': [{'hostname': 'cmp-0', 'ctlplane_ip': '192.168.24.20',
                     'networks': {'internal_api': '172.16.2.20'}},
                    {'hostname': 'cmp-1', 'ctlplane_ip': '192.168.24.21'}]}
    checked = deployed_servers.validate_servers(servers, 'servers.yaml')
    assert checked['Controller'][0]['ctlplane_cidr'] == '192.168.24.0/22'
