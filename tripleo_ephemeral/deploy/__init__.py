"""The deploy: a request's inputs, checked before Heat, the stack, its
config-download and its Ansible run (:mod:`.pipeline` is the entry point)."""
