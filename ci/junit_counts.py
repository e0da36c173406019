"""Per-file test counts of a pytest JUnit XML file: passed, failed (failures
and errors), skipped (and xfailed), and the pass rate of the tests that ran.
Used by ci/liger.sh and ci/fla.sh (third-party suites run through tessera.compat).
    python ci/junit_counts.py results.xml"""
import collections
import sys
import xml.etree.ElementTree as ET


def counts(path):
    per_file = collections.defaultdict(collections.Counter)
    for case in ET.parse(path).getroot().iter("testcase"):
        if not case.get("name"):  # pytest-xdist's bookkeeping entries
            continue
        name = case.get("classname", "").split(".")[-1] or case.get("file", "?")
        kinds = [c.tag for c in case if c.tag in ("failure", "error", "skipped")]
        kind = kinds[0] if kinds else "passed"
        if kind == "skipped" and any("xfail" in (c.get("type", "") + c.get("message", "")) for c in case):
            kind = "xfailed"
        per_file[name][kind] += 1
    return per_file


def main(path):
    per_file = counts(path)
    total = collections.Counter()
    row = "%-40s %7s %7s %7s %7s"
    print(row % ("file", "passed", "failed", "skipped", "rate"))
    for name in sorted(per_file) + ["all"]:
        c = total if name == "all" else per_file[name]
        if name != "all":
            total.update(c)
        ran = c["passed"] + c["failure"] + c["error"]
        print("%-40s %7d %7d %7d %6.1f%%" % (name, c["passed"], c["failure"] + c["error"], c["skipped"] + c["xfailed"],
                                               100.0 * c["passed"] / max(ran, 1)))


if __name__ == "__main__":
    main(sys.argv[1])
