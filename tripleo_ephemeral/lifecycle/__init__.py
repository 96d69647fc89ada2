"""The overcloud's life after the deploy: update, upgrade and external
runs, scaling nodes down, the tripleo-admin user, and its end."""
