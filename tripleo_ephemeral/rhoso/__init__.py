"""Leaving TripleO for RHOSO: ``overcloud adoption export|validate``.

RHOSO 18 adopts a TripleO overcloud's computes and networkers as
pre-provisioned EDPM nodes. The export makes the documents the upstream
procedure (openstack-k8s-operators/data-plane-adoption) has operators
write by hand, from the work dir alone; validate checks them as RHOSO
would. Pure functions from the work dir's files to documents:

* :mod:`.source` reads the work dir into a ``Deployment``;
* :mod:`.plan` decides what each role becomes (the operator's choices);
* :mod:`.netconfig`, :mod:`.nodeset`, :mod:`.ansible_vars`,
  :mod:`.documents`, :mod:`.secret_docs`, :mod:`.ceph`, :mod:`.shellvars`
  make the documents, :mod:`.report` says where every value came from;
* :mod:`.nic` converts a role's NIC template and proves it renders the same
  ``network_config`` with the variables EDPM will have
  (:mod:`.edpm_inventory`); :mod:`.nic_files` finds TripleO's;
* :mod:`.schema` (the bundled ``schemas/``), :mod:`.webhooks` and
  :mod:`.crosscheck` are :mod:`.validate`'s checks, each finding a
  :class:`~.problems.Problem`;
* :mod:`.export` puts it together and :mod:`.writing` writes it.

Only ``commands`` import this package.
"""
