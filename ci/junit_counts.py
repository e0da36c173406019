"""Per-file test counts of a pytest JUnit XML file: passed, failed (failures
and errors), skipped (and xfailed), and the pass rate of the tests that ran.
Used by ci/compat_suite.sh (third-party suites run through tessera.compat).
    python ci/junit_counts.py results.xml [--beside peer.xml]
With --beside (the same tests run on Triton in the same call), also the
peer's counts and, test by test over the tests that ran in both (a run
stopped by its time limit covers a prefix), those that pass on the peer and
fail here: the exit status is 1 when there is any."""
import collections
import sys
import xml.etree.ElementTree as ET


def outcomes(path):
    """{(file, test name): 'passed' | 'failure' | 'error' | 'skipped' | 'xfailed'}"""
    result = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        if not case.get("name"):  # pytest-xdist's bookkeeping entries
            continue
        name = case.get("classname", "").split(".")[-1] or case.get("file", "?")
        kinds = [c.tag for c in case if c.tag in ("failure", "error", "skipped")]
        kind = kinds[0] if kinds else "passed"
        if kind == "skipped" and any("xfail" in (c.get("type", "") + c.get("message", "")) for c in case):
            kind = "xfailed"
        result[(name, case.get("name"))] = kind
    return result


def counts(path):
    per_file = collections.defaultdict(collections.Counter)
    for (name, _), kind in outcomes(path).items():
        per_file[name][kind] += 1
    return per_file


def print_counts(path, title=None):
    per_file = counts(path)
    total = collections.Counter()
    row = "%-40s %7s %7s %7s %7s"
    if title:
        print(title)
    print(row % ("file", "passed", "failed", "skipped", "rate"))
    for name in sorted(per_file) + ["all"]:
        c = total if name == "all" else per_file[name]
        if name != "all":
            total.update(c)
        ran = c["passed"] + c["failure"] + c["error"]
        print("%-40s %7d %7d %7d %6.1f%%" % (name, c["passed"], c["failure"] + c["error"], c["skipped"] + c["xfailed"],
                                               100.0 * c["passed"] / max(ran, 1)))


def compare(path, peer_path):
    """Prints the tests whose outcomes differ; returns how many pass on the peer and fail here."""
    ours, peer = outcomes(path), outcomes(peer_path)
    both = sorted(set(ours) & set(peer))
    failed = ("failure", "error")
    worse = [t for t in both if peer[t] == "passed" and ours[t] in failed]
    better = [t for t in both if ours[t] == "passed" and peer[t] in failed]
    print("\n%d tests ran in both; %d pass on the peer and fail here, %d fail on the peer and pass here"
          % (len(both), len(worse), len(better)))
    for label, tests in (("passes on the peer, fails here", worse), ("fails on the peer, passes here", better)):
        for name, test in tests:
            print("  %s: %s::%s" % (label, name, test))
    return len(worse)


def main(argv):
    if len(argv) == 3 and argv[1] == "--beside":
        print_counts(argv[0], "here:")
        print_counts(argv[2], "\nthe peer:")
        return 1 if compare(argv[0], argv[2]) else 0
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    print_counts(argv[0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
