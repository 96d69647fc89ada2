"""The Ansible tasks that apply one Heat software deployment on a host.

config-download writes them as ``deployments.yaml``; the playbook includes
the file once per deployment name with ``deployment_name`` set. The
deployment itself is read from ``<role>/<host>/<deployment_name>``.
"""

HEAT_CONFIG_DIR = '/var/lib/heat-config/tripleo-config-download'
HIERADATA_DIR = '/etc/puppet/hieradata'

# Path of the deployment file, relative to the playbook directory.
_DEPLOYMENT_FILE = (
    "tripleo_role_name ~ '/' ~ inventory_hostname ~ '/' ~ deployment_name")
_STORED = HEAT_CONFIG_DIR + '/{{ deployment_name }}-{{ tripleo_deployment.id }}'


def tasks():
    """Return the task list (plain data, ready for yaml.safe_dump)."""
    return [
        {'name': 'Read deployment {{ deployment_name }}',
         'set_fact': {
             'tripleo_deployment': (
                 "{{ (lookup('file', %s) | from_yaml)[deployment_name] }}"
                 % _DEPLOYMENT_FILE)}},
        {'name': 'Create the deployment directories',
         'become': True,
         'file': {'path': '{{ item }}', 'state': 'directory',
                  'mode': '0700'},
         'loop': [HEAT_CONFIG_DIR, HIERADATA_DIR]},
        {'name': 'Store deployment {{ deployment_name }}',
         'become': True,
         'copy': {'dest': _STORED + '.json',
                  'content': '{{ tripleo_deployment | to_nice_json }}',
                  'mode': '0600'}},
        {'name': 'Write the hieradata of {{ deployment_name }}',
         'when': "tripleo_deployment.group == 'hiera'",
         'become': True,
         'copy': {'dest': HIERADATA_DIR + '/{{ item.key }}.json',
                  'content': '{{ item.value | to_nice_json }}',
                  'mode': '0600'},
         'loop': ("{{ tripleo_deployment.config.datafiles | default({}) "
                  "| dict2items }}"),
         'loop_control': {'label': '{{ item.key }}'}},
        {'name': 'Run the script of {{ deployment_name }}',
         'when': "tripleo_deployment.group == 'script'",
         'become': True,
         'block': [
             {'name': 'Write the script of {{ deployment_name }}',
              'copy': {'dest': _STORED, 'content':
                       '{{ tripleo_deployment.config }}', 'mode': '0700'}},
             {'name': 'Execute the script of {{ deployment_name }}',
              'command': _STORED,
              'environment': (
                  "{{ dict(tripleo_deployment.inputs "
                  "| map(attribute='name') | zip(tripleo_deployment.inputs "
                  "| map(attribute='value') | map('string'))) }}")},
         ]},
    ]
