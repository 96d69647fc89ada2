"""Driving a stack deployment: Heat client, progress, work dir bookkeeping."""
