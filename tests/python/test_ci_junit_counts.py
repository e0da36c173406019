"""ci/junit_counts.py: the per-file counts of a third-party suite, and the
test-by-test comparison with the same suite run on Triton beside it."""
import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load():
    spec = importlib.util.spec_from_file_location("junit_counts", ROOT / "ci" / "junit_counts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def junit(path, cases):
    rows = []
    for name, outcome in cases.items():
        body = {"passed": "", "failed": "<failure message='x'/>", "error": "<error message='x'/>",
                "skipped": "<skipped message='s'/>", "xfailed": "<skipped type='pytest.xfail' message='xfail'/>"}[outcome]
        rows.append("<testcase classname='tests.test_ops' name='%s' time='0.1'>%s</testcase>" % (name, body))
    path.write_text("<testsuites><testsuite name='pytest'>%s<testcase classname='' name=''/></testsuite></testsuites>"
                    % "".join(rows))
    return str(path)


def test_counts_per_file(tmp_path):
    counts = load().counts(junit(tmp_path / "a.xml", {"t1": "passed", "t2": "failed", "t3": "error", "t4": "skipped",
                                                     "t5": "xfailed", "t6": "passed"}))
    assert dict(counts["test_ops"]) == {"passed": 2, "failure": 1, "error": 1, "skipped": 1, "xfailed": 1}


def test_beside_lists_tests_that_pass_on_the_peer_only(tmp_path, capsys):
    ours = junit(tmp_path / "ours.xml", {"a": "passed", "b": "failed", "c": "passed", "d": "error", "only_ours": "failed"})
    peer = junit(tmp_path / "peer.xml", {"a": "passed", "b": "passed", "c": "failed", "d": "skipped", "only_peer": "passed"})
    assert load().main([ours, "--beside", peer]) == 1
    text = capsys.readouterr().out
    assert "4 tests ran in both; 1 pass on the peer and fail here, 1 fail on the peer and pass here" in text
    assert "passes on the peer, fails here: test_ops::b" in text
    assert "fails on the peer, passes here: test_ops::c" in text
    assert "only_ours" not in text.split("tests ran in both")[1]


def test_beside_passes_when_nothing_is_worse(tmp_path, capsys):
    ours = junit(tmp_path / "ours.xml", {"a": "passed", "b": "passed"})
    peer = junit(tmp_path / "peer.xml", {"a": "passed", "b": "failed"})
    assert load().main([ours, "--beside", peer]) == 0
    assert load().main([]) == 2
