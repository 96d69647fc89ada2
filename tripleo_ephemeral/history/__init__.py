"""The versions of config-download: what was rendered, what was applied.

config-download is a git repository, as tripleo-common made it: one
commit per render (:mod:`.versions`), a ref and a tag for every Ansible
run that applied one (:mod:`.runs`), and the diff between two versions in
operators' terms, generated noise told apart (:mod:`.changes`,
:mod:`.noise`). :mod:`.hooks` is what the deploy and lifecycle code calls.
"""
