"""Library and file-system errors as the one-line CommandError."""


def test_a_failed_copy_names_the_file_it_could_not_write():
    import shutil

    from tripleo_ephemeral.commands import errors
    exc = shutil.Error([('/a/x', '/w/.before-deploy/x', "[Errno 28] No "
                         "space left on device: '/a/x' -> '/w/x'")])
    assert errors.failed_path(exc) == ('/w/.before-deploy/x',
                                       'No space left on device')
