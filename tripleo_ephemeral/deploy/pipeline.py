"""One deploy, from its request to its result: the library's entry point.

:func:`run` takes a :class:`~.request.DeployRequest` (what ``overcloud
deploy``, ``update|upgrade prepare`` and ``tripleo deploy`` read from their
arguments) and runs it: its inputs (:class:`~.inputs.Inputs`, or
:class:`~.standalone.StandaloneInputs` for a Standalone host), the Heat it
names (``--heat-type auto`` chosen here,
:mod:`tripleo_ephemeral.heat_launcher.auto`), and the
:class:`~.deployment.Deployment` in the mode asked for: a full deploy, a
stop before Heat (``--dry-run``, ``--setup-only``), or a render of the
saved outputs (``--config-download-only``).
"""

from typing import TextIO

from tripleo_ephemeral.deploy import choices
from tripleo_ephemeral.deploy import deployment
from tripleo_ephemeral.deploy import inputs as inputs_mod
from tripleo_ephemeral.deploy import request as request_mod
from tripleo_ephemeral.deploy import result
from tripleo_ephemeral.deploy import standalone
from tripleo_ephemeral.heat_launcher import auto
from tripleo_ephemeral.heat_launcher import spec as launcher_spec
from tripleo_ephemeral import lap_clock
from tripleo_ephemeral import progress


def run(request: request_mod.DeployRequest, out: TextIO | None = None,
        phases: lap_clock.Phases | None = None) -> result.Result:
    """Deploy ``request``; return its :class:`~.result.Result`. ``out``
    takes the progress lines (the command's stderr), never the result;
    ``phases`` (a :class:`~tripleo_ephemeral.lap_clock.Phases`, started
    with the command) takes the seconds per phase: ``request`` is the
    command's reading of its arguments."""
    say = progress.channel(out)
    if phases is not None:
        phases.lap('request')
    request = with_kept_choices(request)
    inputs = (standalone.StandaloneInputs if request.standalone else
              inputs_mod.Inputs)(request)
    deploy = deployment.Deployment(inputs, out=out, phases=phases)
    if request.config_download_only:
        return deploy.render_saved(request.ansible)
    spec = request.launcher
    if spec.heat_type == 'auto':
        spec = spec.replace(heat_type=_choose_heat_type(inputs, say, spec))
    launcher = launcher_spec.build(spec, request.workdir.heat_dir, say=say)
    if request.stop:  # --dry-run, --setup-only
        return deploy.prepare_only(
            launcher, keep=request.stop == 'setup-only',
            ansible=None if request.stack_only else request.ansible)
    return deploy.run(launcher, keep_running=request.keep_running,
                      ansible=request.ansible,
                      run_ansible=not request.stack_only)


def with_kept_choices(request):
    """``request`` with the per-deployment choices it leaves out taken
    from the last successful deploy (:mod:`.choices`)."""
    workdir = request.workdir
    request, kept = choices.resolve(
        request, choices.saved(workdir.load(workdir.last_success_file)))
    return request.replace(kept_choices=tuple(kept.items()))


def _choose_heat_type(inputs, say, spec):
    nodes, roles = inputs.size()
    heat_type, reason = auto.choose(nodes, roles, auto.pod_ready,
                                    auto.fast_create_on(
                                        list(spec.overrides),
                                        default=spec.tuning != 'stock'))
    say('--heat-type auto chose %s: %s' % (heat_type, reason))
    return heat_type
