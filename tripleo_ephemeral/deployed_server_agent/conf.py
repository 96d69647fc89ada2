"""The agent's configuration file, ``os-collect-config.conf``.

The request collector polls one URL (the server's resource metadata) and
runs its command on what changed, as the deployed-server guide's
get-occ-config.sh wrote it.
"""

import configparser
import io

DEFAULT_POLLING_INTERVAL = 30
DEFAULT_AGENT_COMMAND = 'os-refresh-config'


def render_conf(metadata_url: str,
                polling_interval: int = DEFAULT_POLLING_INTERVAL,
                command: str = DEFAULT_AGENT_COMMAND) -> str:
    """Return the text of ``os-collect-config.conf``."""
    conf = configparser.ConfigParser(interpolation=None)
    conf['DEFAULT'] = {'collectors': 'request', 'command': command,
                       'polling_interval': str(polling_interval)}
    conf['request'] = {'metadata_url': metadata_url}
    out = io.StringIO()
    conf.write(out)
    return out.getvalue()
