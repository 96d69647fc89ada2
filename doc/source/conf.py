"""Sphinx configuration for tripleo-ephemeral's documentation."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '_ext'))

project = 'tripleo-ephemeral'
extensions = ['cliff.sphinxext', 'tuning_table']
master_doc = 'index'
exclude_patterns = ['_ext']
html_theme = 'alabaster'
autoprogram_cliff_application = 'openstack'
