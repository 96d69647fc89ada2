"""Stack definitions and real templates the engine tuning tests share."""

import copy


from heat.common import identifier
from heat.engine import environment
from heat.engine import resources
from heat.engine import stk_defn
from heat.engine import template

import tripleo_ephemeral

resources.initialise()

TEMPLATE = {
    'heat_template_version': 'rocky',
    'parameters': {'n': {'type': 'number', 'default': 2},
                   'flag': {'type': 'boolean', 'default': False}},
    'conditions': {'on': {'get_param': 'flag'}, 'off': {'not': 'on'}},
    'resources': {
        'a': {'type': 'OS::Heat::Value',
              'properties': {'value': {'get_param': 'n'}}},
        'b': {'type': 'OS::Heat::Value', 'depends_on': ['a'],
              'properties': {'value': {'get_attr': ['a', 'value']}}},
        'c': {'type': 'OS::Heat::Value', 'condition': 'on',
              'properties': {'value': 1}},
        'd': {'type': 'OS::Heat::Value', 'condition': 'off',
              'properties': {'value': {
                  'if': ['on', 1, {'get_resource': 'a'}]}}},
        'e': {'type': 'OS::Heat::Value', 'metadata': {'m': [1, 'x']},
              'deletion_policy': 'Retain',
              'properties': {'value': {'list_join': [
                  ',', [{'get_param': 'OS::stack_name'}, 'z']]}}},
    },
}
ENABLED = ('a', 'b', 'd', 'e')


def definition(tmpl=TEMPLATE):
    t = template.Template(copy.deepcopy(tmpl),
                          env=environment.Environment({}))
    sid = identifier.HeatIdentifier('tenant', 'stack', 'id')
    return stk_defn.StackDefinition(None, t, sid, None)


def template_files(tht_dir):
    """The bundled templates and tripleo-heat-templates 18.0.0's."""
    import glob
    import os

    here = os.path.dirname(tripleo_ephemeral.__file__)
    for root in (os.path.join(here, 'templates'), tht_dir):
        for path in sorted(glob.glob(os.path.join(root, '**', '*.yaml'),
                                     recursive=True)):
            if not path.endswith('.j2.yaml'):
                yield path


def real_templates(tht_dir):
    """(path, parsed HOT template) of every real template found."""
    from heat.common import template_format
    for path in template_files(tht_dir):
        with open(path) as f:
            try:
                doc = template_format.parse(f.read())
            except ValueError:
                continue  # not a template (environments, roles)
        if isinstance(doc.get('heat_template_version'), str):
            yield path, doc
