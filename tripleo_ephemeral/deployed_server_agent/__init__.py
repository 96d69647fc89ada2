"""The deployed servers' agent: ``overcloud deployed server agent config``.

The deployed-server guide's "Configuring Deployed Servers to poll Heat":
each deployed server's os-collect-config polls its resource's metadata on
a long-lived Heat. :mod:`.servers` finds the stack's deployed servers and
the URL each one polls (a live heatclient); :mod:`.push` puts the agent's
configuration on a server over SSH and restarts it.

Only ``commands`` import this package.
"""
