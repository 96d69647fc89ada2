"""The process Heat runs as (``tripleo-heat-all``) and its helpers.

Its options, its stop, the API owner check and the watchdog that stops an
abandoned Heat.
"""
