"""The command line refuses bad values when it reads them (usage and exit
status 2), before any work: not a traceback, a default used instead, or an
error at the end of a long run."""

import pytest

from pyd2ke.__main__ import main


@pytest.mark.parametrize("argv, message", [
    (["--n-components", "0"], "--n-components: 0 is not a positive integer"),
    (["--n-components", "-5"], "--n-components: -5 is not a positive integer"),
    (["--n-components", "abc"], "'abc' is not an integer"),
    (["--n-jobs", "0"], "--n-jobs: 0 threads"),
    (["--task", "sets", "--search"], "--search applies to the strings task only"),
    (["defaults", "--n-jobs", "0"], "--n-jobs: 0 threads"),
    (["scaling", "--quick", "--out", "/proc/no/such/folder"], "--out: cannot make the folder"),
    (["timeseries", "--n-jobs", "x"], "'x' is not an integer"),
])
def test_bad_values_are_usage_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_out_folder_is_made_when_the_command_line_is_read(tmp_path):
    from pyd2ke.reports.command import writable_folder

    folder = tmp_path / "a" / "b"
    assert writable_folder(str(folder)) == str(folder) and folder.is_dir()
