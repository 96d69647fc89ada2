"""A template's validation without its digest of the whole template."""

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


def install(patches: Patches) -> None:
    """``Template.validate`` without its digest of the whole template.

    Stock Heat hashes ``str()`` of the template on every call, to skip the
    checks when it validated the same content before. The checks (the
    top-level sections, each resource's type) pass or fail on the content
    alone and cost a quarter of the hash: here they run every time, as
    Heat's own code does them (the same outcome, the same errors).
    """
    from heat.common import exception
    from heat.common.i18n import _
    from heat.engine import template

    def validate(self):
        for k in self.t.keys():
            if k not in self.SECTIONS:
                raise exception.InvalidTemplateSection(section=k)
        for res in self[self.RESOURCES].values():
            try:
                if not res or not res.get('Type'):
                    message = _('Each Resource must contain '
                                'a Type key.')
                    raise exception.StackValidationFailed(message=message)
            except AttributeError:
                message = _('Resources must contain Resource. '
                            'Found a [%s] instead') % type(res)
                raise exception.StackValidationFailed(message=message)

    patches.replace(template.Template, 'validate', validate)


SHIM = Shim(
    'template_validate_unhashed', install, checked_on=HEAT,
    options=(Option(
        'template_validate_unhashed', 'bool', False, True,
        help='Check a template\'s sections and resource types on '
             'every validation instead of hashing the whole template '
             'to skip checks it passed before (a quarter of the '
             'cost, the same outcome).'),),
    targets=(target('heat.engine.template.Template.validate',
                    'f5ff995d18ca97e7'),))
