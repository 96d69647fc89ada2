"""The yaql and ast.parse fixes: Heat's parsers from many engine threads."""


YAQL = ("let(svcs => coalesce($.data.services, [])) -> "
        "dict($.data.keys.select(let(k => $) -> "
        "[$k, $svcs.where($ != null).select($.get($k))"
        ".where($ != null).flatten()]))")


def _parse_from_threads(threads=8, rounds=150):
    """Parse one yaql expression from real threads; return the errors."""
    import threading

    from heat.engine.hot import functions
    fn = functions.Yaql.__new__(functions.Yaql)
    fn.fn_name = 'yaql'
    errors = []

    def work():
        for _ in range(rounds):
            try:
                fn._parse(YAQL)
            except ValueError as exc:
                errors.append(exc)

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return errors


def test_yaql_parse_is_thread_safe(install_shim):
    """Stock Heat shares one ply parser between engine threads."""
    from heat.engine.hot import functions
    first = install_shim('thread_safe_yaql')
    assert install_shim('thread_safe_yaql') is first  # installed once
    assert functions.Yaql._parse.thread_safe
    assert not hasattr(functions.Yaql._parse.__wrapped__, 'thread_safe')
    assert _parse_from_threads() == []


class _Cycle:
    """Garbage with a finalizer: the collector runs Python code mid-parse,
    where another thread can take over."""

    def __del__(self):
        pass


def _literal_eval_from_threads(threads=8, rounds=1500):
    """Heat's sync point keys, unpacked from real threads; the errors."""
    import sys
    import threading

    from heat.engine import sync_point
    errors = []

    def work():
        for n in range(rounds):
            junk = [_Cycle() for _ in range(3)]
            for item in junk:
                item.me = item
            try:
                sync_point._str_unpack_tuple(
                    sync_point.str_pack_tuple((str(n), True)))
            except Exception as exc:
                errors.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        workers = [threading.Thread(target=work) for _ in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    finally:
        sys.setswitchinterval(interval)
    return errors


def test_ast_parse_is_thread_safe(install_shim):
    """Python 3.11's AST conversion shares its depth counter between
    threads ("AST constructor recursion depth mismatch")."""
    import ast
    import sys

    import pytest

    from tripleo_ephemeral.engine_tuning import registry
    why = registry.shim('thread_safe_ast_parse').needed(sys.version_info)
    if why:
        pytest.skip(why)
    install_shim('thread_safe_ast_parse')
    install_shim('thread_safe_ast_parse')  # a second is a no-op
    assert ast.parse.thread_safe
    assert ast.parse.__wrapped__.__module__ == 'ast'
    assert _literal_eval_from_threads() == []


def test_a_stopping_executor_wakes_its_idle_workers(install_shim,
                                                    monkeypatch):
    """futurist's workers see the stop only when their wait for work
    times out: with that wait at a minute, stock shutdown would take one."""
    import threading
    import time

    import futurist
    from futurist import _thread
    from futurist import waiters

    install_shim('prompt_executor_stop')
    monkeypatch.setattr(_thread.ThreadWorker, 'MAX_IDLE_FOR', 60)
    executor = futurist.ThreadPoolExecutor(max_workers=4)
    ran = []
    futures = [executor.submit(ran.append, n) for n in range(4)]
    waiters.wait_for_all(futures)
    queued = threading.Event()
    executor.submit(queued.set)  # still queued work runs before the stop
    started = time.monotonic()
    executor.shutdown(wait=True)
    assert time.monotonic() - started < 30
    assert queued.is_set() and sorted(ran) == [0, 1, 2, 3]
    assert not any(w.is_alive() for w in executor._workers)


def test_an_in_memory_bus_listener_wakes_on_delivery(install_shim,
                                                     monkeypatch):
    """The fake driver's listener looked every 50 ms; with its longest
    wait at a minute, a lost wake-up would hold the message that long."""
    import threading
    import time

    from oslo_config import cfg
    import oslo_messaging

    from tripleo_ephemeral.engine_tuning.tunings import in_process_bus_wakeup

    install_shim('in_process_bus_wakeup')
    monkeypatch.setattr(in_process_bus_wakeup, 'BUS_LISTENER_LONGEST_WAIT', 60)
    conf = cfg.ConfigOpts()
    transport = oslo_messaging.get_rpc_transport(conf, url='fake:')
    target = oslo_messaging.Target(topic='t', server='s')
    listener = transport._driver.listen(target, 1, None)
    fake = listener._poll_style_listener
    got = []
    reader = threading.Thread(target=lambda: got.extend(fake.poll()))
    reader.start()
    time.sleep(0.2)  # the listener waits now
    sent = time.monotonic()
    transport._driver.send(target, {}, {'method': 'ping', 'args': {}})
    reader.join(30)
    assert got and got[0].message['method'] == 'ping'
    assert time.monotonic() - sent < 30
    fake.stop()
