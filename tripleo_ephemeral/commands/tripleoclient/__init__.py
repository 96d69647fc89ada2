"""tripleoclient 20.0.0's option surface, in one place.

An operator's script passes tripleoclient's options; those this project has
no option of its own for are declared here, per command, each taken with
tripleoclient's meaning, a documented no-op, or refused with one line
saying why and what to do instead (:mod:`.declaration`):

* :mod:`.overcloud`: ``overcloud deploy`` (and ``update|upgrade
  prepare``), ``overcloud admin authorize``, ``node delete``, ``delete``;
* :mod:`.deploy`: the ``overcloud deploy`` options that keep their
  tripleoclient value here (``--answers-file``, ``-y``, ...);
* :mod:`.standalone`: ``tripleo deploy`` and ``tripleo launch heat``.

``tools/compat/tripleoclient_parsers.py`` (and its test) walks
tripleoclient's own parsers and fails on any option no command here takes.
"""
