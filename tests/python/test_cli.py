"""`python -m tessera` (the `tessera` console command of the wheel): the
same commands as the tessera executable, from libtessera's
tessera_cli_main, with bench and conformance run in the Python process."""
import os
import subprocess
import sys

import pytest

from tessera import __main__ as cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNEL = os.path.join(ROOT, "tests", "ir", "nvptx", "vector_add.py")
COMPILE = ["compile", KERNEL, "--entry=add", "--signature=*fp32:16,*fp32:16,*fp32:16,i32:16", "-DBLOCK=1024"]


def tessera(*args):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    return subprocess.run([sys.executable, "-m", "tessera", *args], capture_output=True, text=True, env=env,
                          cwd="/", timeout=300)


def test_version():
    r = tessera("--version")
    assert r.returncode == 0 and r.stdout.startswith("tessera 0.1.0 (LLVM "), r


def test_a_bare_call_prints_the_usage_and_fails():
    r = tessera()
    assert r.returncode == 2
    assert "usage: tessera targets" in r.stderr and "tessera COMMAND --help" in r.stderr


def test_compile_with_equals_options():
    r = tessera(*COMPILE, "--target=cpu")
    assert r.returncode == 0, r.stderr
    assert "compiled add for cpu:" in r.stdout and "elf-shared-object" in r.stdout


def test_compile_help_lists_every_option_in_process(capfd):
    assert cli.main(["compile", "--help"]) == 0
    out = capfd.readouterr().out
    for option in ("--entry=<NAME>", "--signature=<S>", "--target=<NAME>", "--flavour=<NAME>", "--aot=<PREFIX>",
                   "--num-warps=<N>", "--emit=<value>", "-D <NAME=VALUE>"):
        assert option in out, option


def test_compile_twice_in_one_process_keeps_no_option_from_the_first(capfd):
    # The options are registered once per process and reset for each call.
    assert cli.main(COMPILE + ["--target=cpu"]) == 0
    assert "compiled add for cpu" in capfd.readouterr().out
    assert cli.main(COMPILE) == 0
    ir = capfd.readouterr().out
    assert "compiled add" not in ir and "kernel @add(" in ir


def test_a_bad_option_value_names_it():
    r = tessera(*COMPILE, "--num-warps=abc")
    assert r.returncode == 2 and "--num-warps" in r.stderr and "'abc'" in r.stderr


def test_unknown_command():
    r = tessera("frobnicate")
    assert r.returncode == 2 and "unknown command 'frobnicate'" in r.stderr


@pytest.mark.parametrize("command", ["targets", "version", "compile", "bench", "conformance"])
def test_every_command_has_help(command):
    r = tessera(command, "--help")
    assert r.returncode == 0, r.stderr
    assert "usage" in r.stdout.lower()


def test_conformance_filter_that_matches_nothing_fails():
    r = tessera("conformance", "--target", "cpu", "--case", "no.such.case")
    assert r.returncode == 2 and "no case matches --case no.such.case" in r.stderr


def test_conformance_runs_a_case_through_the_command():
    r = tessera("conformance", "--target", "cpu", "--case", "elementwise.add")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "summary:" in r.stdout and " pass" in r.stdout and "fail" not in r.stdout.split("summary:")[1]
