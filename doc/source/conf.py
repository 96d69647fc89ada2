"""Sphinx configuration for tripleo-ephemeral's documentation."""

project = 'tripleo-ephemeral'
extensions = ['cliff.sphinxext']
master_doc = 'index'
exclude_patterns = []
html_theme = 'alabaster'
autoprogram_cliff_application = 'openstack'
