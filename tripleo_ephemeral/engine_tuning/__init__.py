"""Tuning shims the ``tripleo-heat-all`` runner applies to the Heat engine.

Each shim is declared once, in :mod:`.registry` (assembled from the
``shims_*`` modules): the ``[ephemeral_heat]`` option(s) that switch it,
its tuned value and Heat's own, the functions of Heat, oslo.db or
oslo.messaging it replaces or relies on, the versions it was checked on
and a fingerprint of each of those functions' source.
:mod:`.guard` installs the shims the options enable, each only where its
targets still match their fingerprints: on a Heat that changed one, that
shim stays off with one warning and Heat runs stock there (slower, never
wrong). ``tools/check_tuning.py`` reports the matches for the installed
libraries.

The shims, by topic (``doc/source/performance.rst`` says what each bought):

* :mod:`.threads`: yaql parsing and ``ast.parse`` serialised (fixes for
  real threads, always on).
* :mod:`.fast_create` (with :mod:`.fast_nested`): a fresh root create on
  Heat's legacy engine with the whole nested tree created in its thread,
  converted to a convergence tree when it ends; :mod:`.fast_release`:
  each nested stack finished and let go of as soon as it ends.
* :mod:`.sqlite`: ``BEGIN IMMEDIATE``, the PRAGMAs, a connection pool and
  no ``sleep(0)`` after each transaction.
* :mod:`.sync_points`: convergence sync points read and written in one
  transaction.
* :mod:`.sleeps`: Heat's hard-coded 1 s sleeps and ResourceChain's
  concurrency.
* :mod:`.definitions`: resource definitions parsed on demand, and a faster
  template parser; :mod:`.attributes`: the referenced attributes asked
  only of the resources that read them.
* :mod:`.wakeups`: parents woken by their nested stack, notifications
  nobody consumes skipped.
* :mod:`.messaging`: idle message bus listeners look again sooner, and a
  stopping RPC server wakes its idle worker threads.
* :mod:`.collector`: the garbage collector.

This package's ``__init__``, :mod:`.registry` (with :mod:`.spec` and the
``shims_*`` parts it is assembled from) and :mod:`.fingerprint` import
nothing of Heat: the launcher side reads the registry.
"""
