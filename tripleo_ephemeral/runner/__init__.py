"""The process Heat runs as (``tripleo-heat-all``): its options, its
graceful stop, and the API owner check its heat-api applies.

What starts and watches it is :mod:`tripleo_ephemeral.heat_launcher`.
"""
