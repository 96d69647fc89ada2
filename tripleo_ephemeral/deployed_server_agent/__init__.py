"""The deployed servers' agent: ``overcloud deployed server agent config``.

The deployed-server guide's "Configuring Deployed Servers to poll Heat":
each deployed server's os-collect-config polls its resource's metadata on
a long-lived Heat. :func:`.configure.configure` does it for one
:class:`~.configure.AgentConfigRequest`: :mod:`.servers` finds the stack's
deployed servers and the URL each one polls (a live heatclient), :mod:`.conf`
writes the agent's file, :mod:`.push` puts it on a server over SSH and
restarts the agent.

Only ``commands`` import this package.
"""
