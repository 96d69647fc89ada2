"""A python-tripleoclient that is only its metadata: a dist-info directory
whose entry points register tripleoclient's command names (no code, and no
openstack.cli.extension, so openstackclient never loads its commands).

    install(directory)   # then put the directory on sys.path / PYTHONPATH
"""

import os

#: Some of the command names python-tripleoclient 20.0.0 registers (its
#: setup.cfg), two of them not this plugin's.
COMMANDS = ('overcloud_deploy', 'overcloud_status', 'overcloud_delete',
            'tripleo_launch_heat', 'overcloud_node_provision',
            'tripleo_config_generate_ansible')
#: Those of them this plugin registers too.
SHARED = ('overcloud delete', 'overcloud deploy', 'overcloud status',
          'tripleo launch heat')


def install(directory, version='20.0.0'):
    """Write python-tripleoclient's dist-info into ``directory``."""
    info = os.path.join(directory,
                        'python_tripleoclient-%s.dist-info' % version)
    os.makedirs(info)
    with open(os.path.join(info, 'METADATA'), 'w') as f:
        f.write('Metadata-Version: 2.1\nName: python-tripleoclient\n'
                'Version: %s\n' % version)
    with open(os.path.join(info, 'entry_points.txt'), 'w') as f:
        f.write('[openstack.tripleoclient.v2]\n')
        for name in COMMANDS:
            f.write('%s = tripleoclient.v1.fake:Command\n' % name)
    return directory
