"""Counts of a test_core.py run (ci/triton_core.sh): per test function, and
the rate with and without the tests that read Triton's own IR levels or
compile TTGIR (Tessera has neither).
    python ci/triton_core_counts.py test_core.py test_core.xml"""
import ast
import collections
import re
import sys
import xml.etree.ElementTree as ET

IR_LEVELS = re.compile(r"""asm\[\s*['"](ttir|ttgir|llir|sass)['"]\s*\]|\.ttgir|make_ttgir|GPU_DIALECT|#ttg\.|ttg\.""")


def ir_level_tests(path):
    src = open(path).read()
    return {n.name for n in ast.parse(src).body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")
            and IR_LEVELS.search(ast.get_source_segment(src, n) or "")}


def main(test_file, report):
    excluded = ir_level_tests(test_file)
    passed, failed = collections.Counter(), collections.Counter()
    for case in ET.parse(report).getroot().iter("testcase"):
        if case.find("skipped") is not None or not case.get("name"):  # a run stopped by SIGINT adds a nameless case
            continue
        fn = case.get("name").split("[")[0]
        (failed if case.find("failure") is not None or case.find("error") is not None else passed)[fn] += 1
    for fn, n in failed.most_common():
        print("%6d failed of %6d  %s%s" % (n, n + passed[fn], fn, "  (reads Triton's IR)" if fn in excluded else ""))
    p, f = sum(passed.values()), sum(failed.values())
    pe = sum(v for k, v in passed.items() if k not in excluded)
    fe = sum(v for k, v in failed.items() if k not in excluded)
    print("test_core: %d passed, %d failed (%.1f%%); without the %d IR-level tests: %d passed, %d failed (%.1f%%)"
          % (p, f, 100.0 * p / max(1, p + f), len(excluded), pe, fe, 100.0 * pe / max(1, pe + fe)))


if __name__ == "__main__":
    main(*sys.argv[1:3])
