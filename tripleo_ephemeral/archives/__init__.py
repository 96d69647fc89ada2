"""Copies of a work dir: the install archive after each deploy, and the
verified backup and restore of ``tripleo backup``."""
