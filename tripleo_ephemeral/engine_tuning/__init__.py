"""Tuning shims the ``tripleo-heat-all`` runner applies to the Heat engine.

The tunings are in :mod:`.tunings`, a module per tuning named after it
(``tunings/fast_registry_globs.py`` is the ``fast_registry_globs``
tuning): its ``install(patches, **values)`` and, beside it, its
declaration ``SHIM`` (a :class:`.spec.Shim`): the ``[ephemeral_heat]``
options that switch it on, its tuned value and Heat's own, the functions
of Heat, oslo.db, oslo.messaging, futurist, yaql or Python it replaces or
relies on (its targets), the releases it was checked on and a
fingerprint of each target's code. :data:`.registry.SHIMS` lists them
all, in the order they are installed; ``doc/source/reference/tunings.rst``
lists them from it (``doc/source/performance.rst`` says what each
bought).

The machinery they share, here:

* :mod:`.spec`: what a declaration is made of, and the releases;
* :mod:`.registry`: every declaration, in install order, and the
  runner's own settings;
* :mod:`.guard`: installs the shims the options enable, each only where
  its targets still match their fingerprints: on a Heat that changed one,
  that shim stays off with one warning and Heat runs stock there (slower,
  never wrong); and takes them away again;
* :mod:`.targets` (what a target's dotted path names) and
  :mod:`.fingerprint` (a hash of that code's syntax tree, the same on
  every Python);
* :mod:`.patching`: what one shim changed and replaced, to put back;
* :mod:`.report`: what a runner installed, refused and did not need.

``tools/check_tuning.py`` reports the matches for the installed
libraries. This package's ``__init__``, the registry (and every tuning
module it imports), :mod:`.spec`, :mod:`.targets` and
:mod:`.fingerprint` import nothing of Heat at their top: the launcher
side reads the registry; a tuning imports Heat in its ``install``.
"""
