"""The Ansible tasks that apply one Heat software deployment on a host.

config-download writes them as ``deployments.yaml``; the playbook includes
the file once per deployment name with ``deployment_name`` set. The
deployment itself is read from ``<role>/<host>/<deployment_name>``.

Applying is one remote call: :data:`APPLY_SCRIPT` (Python, run by the
host's ``python3``) plays the part of heat-agents' hooks. It stores the
deployment as JSON under :data:`HEAT_CONFIG_DIR`, writes a ``hiera``
deployment's datafiles into :data:`HIERADATA_DIR` and runs a ``script``
deployment with its inputs as environment variables, as the ``script``
hook does. Scripts run on every deploy; files are only rewritten when
their content changes.
"""

HEAT_CONFIG_DIR = '/var/lib/heat-config/tripleo-config-download'
HIERADATA_DIR = '/etc/puppet/hieradata'

# Path of the deployment file, relative to the playbook directory.
_DEPLOYMENT_FILE = (
    "tripleo_role_name ~ '/' ~ inventory_hostname ~ '/' ~ deployment_name")

#: Reads the deployment (JSON) on stdin; argv: stored dir, hieradata dir.
#: Prints "changed" or "unchanged" last.
APPLY_SCRIPT = r'''
import json, os, subprocess, sys
stored_dir, hiera_dir = sys.argv[1:3]
deployment = json.load(sys.stdin)
changed = []
def write(path, text, mode):
    try:
        with open(path) as f:
            if f.read() == text:
                os.chmod(path, mode)
                return
    except OSError:
        pass
    tmp = path + '.tmp'
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, 'w') as f:
        f.write(text)
    os.chmod(tmp, mode)
    os.replace(tmp, path)
    changed.append(path)
for directory in (stored_dir, hiera_dir):
    os.makedirs(directory, 0o700, exist_ok=True)
name = deployment['deployment_name']
base = os.path.join(stored_dir, '%s-%s' % (name, deployment['id']))
write(base + '.json', json.dumps(deployment, indent=2, sort_keys=True),
      0o600)
group = deployment.get('group')
if group == 'hiera':
    for key, value in sorted(
            ((deployment.get('config') or {}).get('datafiles') or {}).items()):
        write(os.path.join(hiera_dir, key + '.json'),
              json.dumps(value, indent=2, sort_keys=True), 0o600)
elif group == 'script':
    write(base, deployment.get('config') or '', 0o700)
    env = dict(os.environ)
    for item in deployment.get('inputs') or []:
        value = item.get('value')
        env[item['name']] = '' if value is None else str(value)
    proc = subprocess.run([base], env=env, cwd=stored_dir,
                          stdout=sys.stderr)
    if proc.returncode:
        sys.exit('deployment %s: %s exited with status %d'
                 % (name, base, proc.returncode))
    changed.append(base)
print('changed' if changed else 'unchanged')
'''


def tasks():
    """Return the task list (plain data, ready for yaml.safe_dump)."""
    return [
        {'name': 'Read deployment {{ deployment_name }}',
         'set_fact': {
             'tripleo_deployment': (
                 "{{ (lookup('file', %s) | from_yaml)[deployment_name] }}"
                 % _DEPLOYMENT_FILE)}},
        {'name': 'Apply deployment {{ deployment_name }}',
         'become': True,
         'command': {
             'argv': ['python3', '-c', APPLY_SCRIPT, HEAT_CONFIG_DIR,
                      HIERADATA_DIR],
             'stdin': '{{ tripleo_deployment | to_json }}'},
         'register': 'tripleo_deployment_result',
         'changed_when': (
             "tripleo_deployment_result.stdout_lines[-1:] == ['changed']")},
    ]
