"""The work dir: the whole memory of a deployment.

:class:`WorkDir` (:mod:`.work_dir`) spells its layout, every path in it;
:mod:`.claim` is what makes a directory this product's work dir,
:mod:`.layout` which names in it are the product's, :mod:`.foreign` a work
dir another tool made, and :mod:`.ownership` what a command may do with
one. The names of :mod:`.work_dir` are this package's.
"""

from tripleo_ephemeral.workdir.work_dir import (  # noqa: F401
    ADOPTED_DIR, AGENT_CONFIG_DIR, CONFIG_DOWNLOAD_DIR, DEFAULT_PARENT,
    DEFAULT_STACK, DEPLOY_FAILED, DEPLOY_INTERRUPTED, DEPLOY_PARAMETERS,
    DEPLOY_SUCCESS,
    DEPLOYED_SERVERS, DEPLOYING, GENERATED_ENVIRONMENTS, HEAT_DIR,
    INSTALL_ARCHIVE_INFIX, OUTPUTS_DIR, PASSWORDS, STACK_NAME,
    TEMPLATES_DIR, THT_PARAMETERS, WorkDir, check_stack_name, default_path,
    is_generated_environment)
