"""The engine tunings: a module per tuning, named after it.

Each module holds one tuning whole: its docstring (what stock Heat does
and what the tuning does instead), its ``install(patches, **values)``
and, at its end, its declaration ``SHIM`` (:class:`..spec.Shim`), which
names that ``install``. ``install`` imports Heat (or the library it
changes) when it runs, never at the module's top: the registry imports
every module here on the launcher side. It changes the library only
through ``patches`` (:class:`..patching.Patches`), and replaces only its
declared targets (or, for a tuning that ``wraps`` another, what that one
replaced): ``tests/unit/engine_tuning/test_guard.py`` checks it.

A tuning whose code needs more than one module is a package of that name
(:mod:`.fast_create`: its state, its root create and its nested stacks).
A new tuning is listed in :data:`..registry.SHIMS`, where it must be
installed.
"""
