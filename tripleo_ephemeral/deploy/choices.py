"""The per-deployment choices a deploy keeps from the last successful one.

tripleoclient's operators give some options once for a deployment (who
Ansible logs in as and with which key, the servers' Python, ``--no-proxy``,
an ansible.cfg of their own): a deploy that leaves one out keeps the value
of the last successful deploy, as the rendered inventory and ansible.cfg
already did for the run commands, and a value given again that differs is
a change the deploy names (the pre-deploy summary, and the preview: they
are kept with each render's parameters, ``history.inputs``). The values
are kept in the last successful deploy's snapshot
(``<stack>-last-success.yaml``, ``choices``) and in the saved inputs.
"""

import dataclasses


@dataclasses.dataclass(frozen=True)
class Choice:
    """One choice: its option, and where a request keeps it (``ansible``:
    a field of the request's AnsibleOptions, else of the request)."""

    option: str
    field: str
    ansible: bool = False

    def get(self, request):
        holder = request.ansible if self.ansible else request
        return getattr(holder, self.field)

    def set(self, request, value):
        if self.ansible:
            return request.replace(ansible=request.ansible.replace(
                **{self.field: value}))
        return request.replace(**{self.field: value})


#: The choices kept, in the order they are named.
CHOICES = (
    Choice('--overcloud-ssh-user', 'ssh_user', ansible=True),
    Choice('--overcloud-ssh-key', 'ssh_key', ansible=True),
    Choice('--deployment-python-interpreter', 'python_interpreter'),
    Choice('--override-ansible-cfg', 'override_cfg', ansible=True),
    Choice('--no-proxy', 'no_proxy'),
)


def given(request):
    """``{option: value}`` of the choices ``request`` sets."""
    return {c.option: c.get(request) for c in CHOICES if c.get(request)}


def saved(snapshot):
    """The choices of a last-success snapshot (``{}`` before they were
    kept)."""
    found = (snapshot or {}).get('choices') if isinstance(
        snapshot, dict) else None
    return {k: v for k, v in (found or {}).items() if isinstance(k, str)}


def resolve(request, previous):
    """``(request, kept)``: ``request`` with every choice it leaves out
    taken from ``previous`` (the last success's choices), and ``{option:
    value}`` of those taken."""
    kept = {}
    for choice in CHOICES:
        value = previous.get(choice.option)
        if not choice.get(request) and value:
            request = choice.set(request, value)
            kept[choice.option] = value
    return request, kept


def changes(previous, current):
    """``[(option, old, new)]`` of the choices that differ; a choice the
    last success did not keep (an older work dir) is no change."""
    return [(option, previous.get(option), current.get(option))
            for option in (c.option for c in CHOICES)
            if option in previous and previous.get(option) !=
            current.get(option)]


def describe(value):
    return value if value else '(unset)'
