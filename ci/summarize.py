"""Adds up JUnit XML results and prints one closing line: 'N passed, N failed'."""
import sys
import xml.etree.ElementTree as ET

passed = failed = skipped = 0
for path in sys.argv[1:]:
    root = ET.parse(path).getroot()
    for case in root.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
            print(f"FAILED {case.get('classname', '')}::{case.get('name', '')} ({path})")
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
if passed + failed == 0:
    print("no tests ran")
    sys.exit(1)
print(f"tessera: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
