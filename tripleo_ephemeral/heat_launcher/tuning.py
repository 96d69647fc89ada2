"""The engine settings a launcher writes into heat.conf.

Every value comes from :mod:`tripleo_ephemeral.engine_tuning.registry`
(which imports nothing of Heat): the tuned values the benchmark chose
(``tools/bench``; ``doc/source/performance.rst`` says what each bought),
and Heat's own behaviour for :meth:`Tuning.stock`.
"""

from tripleo_ephemeral.engine_tuning import registry

#: The runner's ``[ephemeral_heat]`` tunings: name -> (tuned, stock).
RUNNER_TUNINGS = {opt.name: (opt.tuned, opt.stock)
                  for opt in registry.tunings()}

#: Heat's own ``DEFAULT.executor_thread_pool_size``.
TUNED_EXECUTOR_THREADS, STOCK_EXECUTOR_THREADS = (
    registry.EXECUTOR_THREAD_POOL_SIZE)


class Tuning:
    """Engine settings the benchmark chose; each can be overridden.

    Keyword arguments name ``RUNNER_TUNINGS`` options, or
    ``executor_thread_pool_size`` and ``engine_workers``; ``overrides``
    are further ``{section: {option: value}}`` for heat.conf.
    """

    def __init__(self, executor_thread_pool_size=TUNED_EXECUTOR_THREADS,
                 engine_workers=1, overrides=None, **runner):
        unknown = set(runner) - set(RUNNER_TUNINGS)
        if unknown:
            raise TypeError('unknown tuning(s): %s' % ', '.join(
                sorted(unknown)))
        self.executor_thread_pool_size = executor_thread_pool_size
        self.engine_workers = engine_workers
        self.overrides = overrides or {}
        self._runner = {name: runner.get(name, tuned)
                        for name, (tuned, _stock) in RUNNER_TUNINGS.items()}

    def __getattr__(self, name):
        try:
            return self.__dict__['_runner'][name]
        except KeyError:
            raise AttributeError(name) from None

    @classmethod
    def stock(cls, overrides=None):
        """Heat as TripleO's native launcher ran it: every tuning off
        (``overrides`` as for the constructor)."""
        return cls(executor_thread_pool_size=STOCK_EXECUTOR_THREADS,
                   overrides=overrides,
                   **{name: stock for name, (_tuned, stock)
                      in RUNNER_TUNINGS.items()})

    def as_overrides(self):
        """Every setting as ``section.option=value`` (for
        ``--heat-config-override``)."""
        items = [('DEFAULT', 'executor_thread_pool_size',
                  self.executor_thread_pool_size)]
        items += [('ephemeral_heat', k, v)
                  for k, v in sorted(self.runner_options().items())]
        items += [(section, k, v)
                  for section, values in sorted(self.overrides.items())
                  for k, v in sorted(values.items())]
        return ['%s.%s=%s' % item for item in items]

    def runner_options(self):
        """The ``[ephemeral_heat]`` tuning options of heat.conf."""
        return {name: str(value).lower() if isinstance(value, bool)
                else value for name, value in self._runner.items()}
