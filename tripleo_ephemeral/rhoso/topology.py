"""Topologies the export adopts as the procedure does, and those it refuses.

* SR-IOV (``neutron_sriov_agent``): the ``neutron-sriov`` service and its
  three variables, as the compute procedure's optional step does;
* DVR with OVN (a compute role whose ``OVNCMSOptions`` make it a chassis
  gateway): ``edpm_enable_chassis_gw`` carried, its external network kept;
* BGP (``frr``), OVS-DPDK (``neutron_ovn_dpdk``...) and ML2/OVS (its
  agents, DVR of ML2/OVS with ``neutron_l3`` on computes) are refused,
  each in one line naming what to do by hand (:func:`refusal`).
"""

from tripleo_ephemeral.rhoso import upstream

BGP = ('frr', 'ovn_bgp_agent')
DPDK = ('neutron_ovn_dpdk', 'neutron_ovs_dpdk_agent',
        'openvswitch_dpdk_netcontrold')
ML2_OVS = ('neutron_ovs_agent', 'neutron_ovs_dpdk_agent', 'neutron_l3')


def _found(role, names):
    return next((n for n in names if n in role.services), None)


def refusal(role):
    """The one line refusing ``role``'s topology, or None when the export
    adopts it."""
    ml2 = _found(role, ML2_OVS)
    if ml2:
        return ('Role %s runs ML2/OVS (%s): RHOSO adopts ML2/OVN overclouds '
                'only; migrate the overcloud to ML2/OVN first (or leave the '
                'role out with --skip-role %s)' % (role.name, ml2, role.name))
    bgp = _found(role, BGP)
    if bgp:
        where = upstream.source('compute', '643-662,783-801').text()
        return ('Role %s runs BGP (%s), which the export does not adopt: '
                'adopt its nodes by hand as the procedure\'s BGP notes say '
                '(the frr service after configure-network, ovn-bgp-agent '
                'after neutron-metadata, the edpm_frr_* and '
                'edpm_ovn_encap_ip variables, the temporary default routes: '
                '%s), or leave it out with --skip-role %s'
                % (role.name, bgp, where, role.name))
    dpdk = _found(role, DPDK)
    if dpdk:
        return ('Role %s runs OVS-DPDK (%s), which the adoption procedure '
                'does not cover: adopt its nodes by hand (EDPM\'s '
                'configure-ovs-dpdk service after configure-network, the '
                'edpm_ovs_dpdk_* variables from OvsPmdCoreList, '
                'OvsDpdkSocketMemory and OvsDpdkMemoryChannels), or leave it '
                'out with --skip-role %s' % (role.name, dpdk, role.name))
    return None
