"""Running Ansible: config-download's playbooks, and the Ansible they need.

:mod:`.run` runs a playbook with ansible-runner (its progress,
:mod:`.progress`; the ssh masters it leaves, :mod:`.ssh_masters`); every
config-download gets an ``ansible.cfg`` (:mod:`.ansible_cfg`) and a command
script (:mod:`.project`) for running it by hand.

tripleo-heat-templates' config-download needs tripleo-ansible's roles,
strategies, modules and callbacks, the collections its tasks call and an
ansible-core that runs them as written (2.14: see ``requirements.txt``).
The product's own venv keeps the ansible-core it was installed with (the
bundled sample needs nothing more), so TripleO's Ansible lives in a venv of
its own that :mod:`.install` builds, checks and reuses;
:mod:`.environment` is the one place that says how ``ansible-playbook``
runs (the script written into config-download and the product's runs
alike); :mod:`.missing` names what the playbooks need and that venv lacks.
"""
