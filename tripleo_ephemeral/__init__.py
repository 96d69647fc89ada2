"""Deploy an OpenStack overcloud with an ephemeral Heat."""
