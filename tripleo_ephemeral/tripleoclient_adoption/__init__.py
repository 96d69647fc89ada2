"""Adopting a tripleoclient stack: its database dump, files and servers."""
